package pgwire

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

// goldenCopyColumns and goldenCopyBatch are the table behind
// testdata/copy_out: each .golden file is what PostgreSQL 15's
// `\copy (select * from copy_golden order by i) to FILE with (...)` wrote
// for the same rows (testdata/copy_out/copy_golden.sql has the table and
// the commands).
var goldenCopyColumns = []sql.Column{
	{Name: "i", Type: types.Int8},
	{Name: "t", Type: types.Text},
	{Name: "n", Type: types.Numeric(12, 2)},
	{Name: "d", Type: types.Date},
	{Name: "b", Type: types.Bool},
	{Name: "f", Type: types.Float8},
	{Name: "ts", Type: types.Timestamp},
}

type goldenRow struct {
	i    int64
	t    *string
	n    *int64 // unscaled, scale 2
	d    *time.Time
	b    *bool
	f    *float64
	ts   *time.Time
	null bool // every column but i is NULL
}

func goldenCopyBatch(t *testing.T) arrow.RecordBatch {
	t.Helper()
	str := func(s string) *string { return &s }
	num := func(v int64) *int64 { return &v }
	day := func(y int, m time.Month, d int) *time.Time { v := time.Date(y, m, d, 0, 0, 0, 0, time.UTC); return &v }
	bl := func(v bool) *bool { return &v }
	fl := func(v float64) *float64 { return &v }
	at := func(s string) *time.Time {
		v, err := time.Parse("2006-01-02 15:04:05.999999", s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	// NaN is PostgreSQL's bit pattern (Go's math.NaN differs in the last bit).
	rows := []goldenRow{
		{i: -2, t: str("tab\there\\back|pipe,\"q\"\nnl\rcr\b\fv\x01;'"), n: num(-5), d: day(1999, 12, 31), b: bl(false), f: fl(math.Float64frombits(0x7ff8000000000000)), ts: at("1970-01-01 00:00:00")},
		{i: 1, t: str("plain"), n: num(12050), d: day(2024, 1, 15), b: bl(true), f: fl(1.5), ts: at("2024-01-15 10:20:30.5")},
		{i: 3, null: true},
		{i: 4, t: str(""), n: num(0), d: day(2000, 1, 1), b: bl(true), f: fl(0), ts: at("2000-01-01 00:00:00.000001")},
		{i: 5, t: str("x"), n: num(100000000000), d: day(-43, 3, 15), b: bl(false), f: fl(1e20), ts: at("2262-04-11 23:47:16")},
		{i: 6, t: str(`\.`), n: num(700), d: day(2024, 2, 29), b: bl(true), f: fl(math.Inf(1)), ts: at("1900-01-01 12:00:00")},
		{i: 7, t: str("héllo wörld"), n: num(1), d: day(2024, 6, 1), b: bl(true), f: fl(0.1), ts: at("2024-06-01 00:00:00")},
	}
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "t", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "n", Type: &arrow.Decimal64Type{Precision: 12, Scale: 2}, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.i)
		if r.null {
			for c := 1; c < len(schema.Fields()); c++ {
				b.Field(c).AppendNull()
			}
			continue
		}
		b.Field(1).(*array.StringBuilder).Append(*r.t)
		b.Field(2).(*array.Decimal64Builder).Append(decimal.Decimal64(*r.n))
		b.Field(3).(*array.Date32Builder).Append(arrow.Date32(r.d.Unix() / 86400))
		b.Field(4).(*array.BooleanBuilder).Append(*r.b)
		b.Field(5).(*array.Float64Builder).Append(*r.f)
		b.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts.UnixMicro()))
	}
	return b.NewRecordBatch()
}

// encodeCopy runs the COPY encoder over batches as copyOut frames them and
// returns the payloads of the CopyData messages.
func encodeCopy(t *testing.T, f sql.CopyFormat, batches ...arrow.RecordBatch) [][]byte {
	t.Helper()
	enc := newCopyEncoder(f)
	var msgs [][]byte
	if f.Header && f.Mode != sql.CopyBinary {
		msgs = append(msgs, enc.appendHeaderLine(nil))
	}
	for _, rec := range batches {
		if err := enc.bind(rec); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			msgs = append(msgs, enc.appendRow(nil, i))
		}
	}
	if f.Mode == sql.CopyBinary {
		msgs = append(msgs, enc.appendTrailer(nil))
	}
	return msgs
}

func TestCopyEncodingMatchesPostgres(t *testing.T) {
	all := []bool{true, true, true, true, true, true, true}
	tests := []struct {
		file string
		f    sql.CopyFormat
	}{
		// (format text)
		{"text.golden", sql.CopyFormat{Mode: sql.CopyText, Delimiter: '\t', Null: `\N`}},
		// (format text, header, delimiter '|', null 'NULL')
		{"text_header_pipe.golden", sql.CopyFormat{Mode: sql.CopyText, Header: true, Delimiter: '|', Null: "NULL"}},
		// (format csv, header)
		{"csv_header.golden", sql.CopyFormat{Mode: sql.CopyCSV, Header: true, Delimiter: ',', Quote: '"', Escape: '"'}},
		// (format csv, delimiter ';', quote '''', escape '\', null 'x', force_quote (t, d))
		{"csv_custom.golden", sql.CopyFormat{Mode: sql.CopyCSV, Delimiter: ';', Null: "x", Quote: '\'', Escape: '\\',
			ForceQuote: []bool{false, true, false, true, false, false, false}}},
		// (format csv, force_quote *, header)
		{"csv_force_all.golden", sql.CopyFormat{Mode: sql.CopyCSV, Header: true, Delimiter: ',', Quote: '"', Escape: '"', ForceQuote: all}},
		// (format binary)
		{"binary.golden", sql.CopyFormat{Mode: sql.CopyBinary}},
	}
	rec := goldenCopyBatch(t)
	defer rec.Release()
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "copy_out", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			tt.f.Columns = goldenCopyColumns
			// Split the batch in two so encoders are re-bound mid-COPY.
			first, second := rec.NewSlice(0, 3), rec.NewSlice(3, rec.NumRows())
			defer first.Release()
			defer second.Release()
			got := bytes.Join(encodeCopy(t, tt.f, first, second), nil)
			if !bytes.Equal(got, want) {
				at := 0
				for at < len(got) && at < len(want) && got[at] == want[at] {
					at++
				}
				t.Errorf("differs at byte %d: got ...%q, want ...%q", at, got[max(at-8, 0):min(at+16, len(got))], want[max(at-8, 0):min(at+16, len(want))])
			}
		})
	}
}

func TestCopyCSVSingleColumn(t *testing.T) {
	// (select t from copy_golden order by i) with (format csv): a lone \.
	// is quoted only when it is the whole line.
	want, err := os.ReadFile(filepath.Join("testdata", "copy_out", "csv_single.golden"))
	if err != nil {
		t.Fatal(err)
	}
	rec := goldenCopyBatch(t)
	defer rec.Release()
	one := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{rec.Schema().Field(1)}, nil), []arrow.Array{rec.Column(1)}, rec.NumRows())
	defer one.Release()
	f := sql.CopyFormat{Mode: sql.CopyCSV, Delimiter: ',', Quote: '"', Escape: '"', Columns: goldenCopyColumns[1:2]}
	if got := bytes.Join(encodeCopy(t, f, one), nil); !bytes.Equal(got, want) {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

func TestCopyFraming(t *testing.T) {
	rec := goldenCopyBatch(t)
	defer rec.Release()
	empty := rec.NewSlice(0, 0)
	defer empty.Release()
	tests := []struct {
		name  string
		f     sql.CopyFormat
		batch arrow.RecordBatch
		want  []string // payload of each CopyData, in order
	}{
		{"binary without rows is signature and trailer in one message", sql.CopyFormat{Mode: sql.CopyBinary}, empty,
			[]string{"PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff"}},
		{"text header alone when there are no rows", sql.CopyFormat{Mode: sql.CopyText, Header: true, Delimiter: '\t', Null: `\N`}, empty,
			[]string{"i\tt\tn\td\tb\tf\tts\n"}},
		{"text one message per row", sql.CopyFormat{Mode: sql.CopyText, Delimiter: '\t', Null: `\N`}, rec.NewSlice(1, 3),
			[]string{"1\tplain\t120.50\t2024-01-15\tt\t1.5\t2024-01-15 10:20:30.5\n", "3\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.f.Columns = goldenCopyColumns
			msgs := encodeCopy(t, tt.f, tt.batch)
			if len(msgs) != len(tt.want) {
				t.Fatalf("%d messages %q, want %d", len(msgs), msgs, len(tt.want))
			}
			for i := range msgs {
				if string(msgs[i]) != tt.want[i] {
					t.Errorf("message %d: %q, want %q", i, msgs[i], tt.want[i])
				}
			}
		})
	}
}

func TestCopyTextEscapes(t *testing.T) {
	tests := []struct {
		delim byte
		in    string
		want  string
	}{
		{'\t', "a\tb", `a\tb`},
		{'\t', `back\slash`, `back\\slash`},
		{'|', "a|b\tc", `a\|b\tc`},
		{',', "\b\f\n\r\v", `\b\f\n\r\v`},
		{'\x01', "a\x01b\x02", "a\\\x01b\x02"},
		{'\t', "", ""},
		{'\t', "naïve", "naïve"},
	}
	for _, tt := range tests {
		e := &copyEncoder{f: sql.CopyFormat{Delimiter: tt.delim}}
		if got := string(e.appendEscaped(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("delimiter %q, %q: got %q, want %q", tt.delim, tt.in, got, tt.want)
		}
	}
}

func TestCopyDataFrame(t *testing.T) {
	buf, start := beginCopyData([]byte("xy"))
	buf = endCopyData(append(buf, "abc"...), start)
	if want := "xyd\x00\x00\x00\x07abc"; string(buf) != want {
		t.Fatalf("got %q, want %q", buf, want)
	}
}
