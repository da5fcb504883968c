package pgformat

import (
	// The zones are embedded, so these cases run on any machine.
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// pgCase is one line of a testdata file: an expression evaluated by
// PostgreSQL 15 and the result it gave.
type pgCase struct {
	line     int
	kind     string
	zone     string
	input    string
	template string
	want     string // result text when wantCode is empty
	isNull   bool
	wantCode string // SQLSTATE of an expected error
	wantMsg  string
}

func (c pgCase) String() string {
	return fmt.Sprintf("line %d: %s(%q, %q) [%s]", c.line, c.kind, c.input, c.template, c.zone)
}

// readCases parses a testdata file: tab-separated kind, time zone, quoted
// input, quoted template, and either a quoted result, null, or
// error SQLSTATE "message".
func readCases(t *testing.T, path string) []pgCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	var cases []pgCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 5 {
			t.Fatalf("%s:%d: want 5 tab-separated fields, got %d", path, n, len(fields))
		}
		c := pgCase{line: n, kind: fields[0], zone: fields[1]}
		if c.input, err = strconv.Unquote(fields[2]); err != nil {
			t.Fatalf("%s:%d: input: %v", path, n, err)
		}
		if c.template, err = strconv.Unquote(fields[3]); err != nil {
			t.Fatalf("%s:%d: template: %v", path, n, err)
		}
		switch res := fields[4]; {
		case res == "null":
			c.isNull = true
		case strings.HasPrefix(res, "error "):
			code, msg, _ := strings.Cut(strings.TrimPrefix(res, "error "), " ")
			c.wantCode = code
			if c.wantMsg, err = strconv.Unquote(msg); err != nil {
				t.Fatalf("%s:%d: error message: %v", path, n, err)
			}
		default:
			if c.want, err = strconv.Unquote(res); err != nil {
				t.Fatalf("%s:%d: result: %v", path, n, err)
			}
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return cases
}

// check compares an outcome with the case's expectation.
func (c pgCase) check(t *testing.T, got string, err error) {
	t.Helper()
	if c.wantCode != "" {
		var pe *pgerror.Error
		if !errors.As(err, &pe) {
			t.Errorf("%v: got %q, %v; want error %s %q", c, got, err, c.wantCode, c.wantMsg)
			return
		}
		if pe.Code != c.wantCode || pe.Message != c.wantMsg {
			t.Errorf("%v: got error %s %q; want %s %q", c, pe.Code, pe.Message, c.wantCode, c.wantMsg)
		}
		return
	}
	if err != nil {
		t.Errorf("%v: unexpected error %v; want %q", c, err, c.want)
		return
	}
	if got != c.want {
		t.Errorf("%v:\n got %q\nwant %q", c, got, c.want)
	}
}

func loadZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("time zone %s: %v", name, err)
	}
	return loc
}

// parseTimestampLiteral reads "YYYY-MM-DD HH:MM:SS[.ffffff][ BC]" as a
// wall clock in UTC.
func parseTimestampLiteral(t *testing.T, s string) time.Time {
	t.Helper()
	bc := strings.HasSuffix(s, " BC")
	s = strings.TrimSuffix(s, " BC")
	var y, mo, d, h, mi, sec, us int
	datePart, clock, _ := strings.Cut(s, " ")
	if _, err := fmt.Sscanf(datePart, "%d-%d-%d", &y, &mo, &d); err != nil {
		t.Fatalf("timestamp literal %q: %v", s, err)
	}
	whole, frac, _ := strings.Cut(clock, ".")
	if _, err := fmt.Sscanf(whole, "%d:%d:%d", &h, &mi, &sec); err != nil {
		t.Fatalf("timestamp literal %q: %v", s, err)
	}
	if frac != "" {
		frac = (frac + "000000")[:6]
		us, _ = strconv.Atoi(frac)
	}
	if bc {
		y = 1 - y
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, us*1000, time.UTC)
}

// pgDateText renders a date as PostgreSQL's ISO output does.
func pgDateText(y int, m time.Month, d int) string {
	bc := ""
	if y <= 0 {
		y = 1 - y
		bc = " BC"
	}
	return fmt.Sprintf("%04d-%02d-%02d%s", y, int(m), d, bc)
}

// pgTimestamptzText renders ts as PostgreSQL's ISO timestamptz output in
// ts.Location().
func pgTimestamptzText(ts time.Time) string {
	y, m, d := ts.Date()
	bc := ""
	if y <= 0 {
		y = 1 - y
		bc = " BC"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%04d-%02d-%02d %02d:%02d:%02d", y, int(m), d, ts.Hour(), ts.Minute(), ts.Second())
	if us := ts.Nanosecond() / 1000; us != 0 {
		b.WriteString(strings.TrimRight(fmt.Sprintf(".%06d", us), "0"))
	}
	_, off := ts.Zone()
	sign := byte('+')
	if off < 0 {
		sign = '-'
		off = -off
	}
	fmt.Fprintf(&b, "%c%02d", sign, off/3600)
	if off%3600 != 0 {
		fmt.Fprintf(&b, ":%02d", off%3600/60)
		if off%60 != 0 {
			fmt.Fprintf(&b, ":%02d", off%60)
		}
	}
	b.WriteString(bc)
	return b.String()
}

func TestDateTimeCases(t *testing.T) {
	for _, c := range readCases(t, "testdata/datetime.txt") {
		tmpl, err := ParseDateTime(c.template)
		if err != nil {
			t.Errorf("%v: ParseDateTime: %v", c, err)
			continue
		}
		switch c.kind {
		case "ts", "tstz":
			var ts time.Time
			if c.kind == "ts" {
				ts = parseTimestampLiteral(t, c.input)
			} else {
				instant, err := time.Parse("2006-01-02 15:04:05Z07", c.input)
				if err != nil {
					t.Fatalf("%v: %v", c, err)
				}
				ts = instant.In(loadZone(t, c.zone))
			}
			if c.isNull != tmpl.Empty() {
				t.Errorf("%v: Empty() = %v, want %v", c, tmpl.Empty(), c.isNull)
			}
			c.check(t, string(tmpl.AppendTimestamp(nil, ts, c.kind == "tstz")), nil)
		case "interval":
			var months, days int32
			var micros int64
			if _, err := fmt.Sscanf(c.input, "%d %d %d", &months, &days, &micros); err != nil {
				t.Fatalf("%v: %v", c, err)
			}
			if err := tmpl.ValidForInterval(); err != nil {
				c.check(t, "", err)
				continue
			}
			c.check(t, string(tmpl.AppendInterval(nil, months, days, micros)), nil)
		case "to_timestamp":
			loc := loadZone(t, c.zone)
			ts, err := tmpl.ParseTimestamp(c.input, loc)
			got := ""
			if err == nil {
				got = pgTimestamptzText(ts)
			}
			c.check(t, got, err)
		case "to_date":
			y, m, d, err := tmpl.ParseDate(c.input)
			got := ""
			if err == nil {
				got = pgDateText(y, m, d)
			}
			c.check(t, got, err)
		default:
			t.Fatalf("%v: unknown kind", c)
		}
	}
}

func TestNumberCases(t *testing.T) {
	for _, c := range readCases(t, "testdata/number.txt") {
		tmpl, err := ParseNumber(c.template)
		if err != nil {
			c.check(t, "", err)
			continue
		}
		switch c.kind {
		case "numeric":
			c.check(t, string(tmpl.AppendDecimal(nil, c.input)), nil)
		case "float8", "float4":
			bits := 64
			if c.kind == "float4" {
				bits = 32
			}
			v, err := strconv.ParseFloat(c.input, bits)
			if err != nil {
				t.Fatalf("%v: %v", c, err)
			}
			c.check(t, string(tmpl.AppendFloat(nil, v, bits)), nil)
		case "to_number":
			got, err := tmpl.ToNumber(c.input)
			if c.isNull {
				if err != nil || got != "" {
					t.Errorf("%v: got %q, %v; want NULL (empty, nil)", c, got, err)
				}
				continue
			}
			c.check(t, got, err)
		default:
			t.Fatalf("%v: unknown kind", c)
		}
	}
}
