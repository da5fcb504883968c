package datagen

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

var update = flag.Bool("update", false, "rewrite testdata/hashes_sf0.01.txt")

func TestCardinalities(t *testing.T) {
	tests := []struct {
		table    string
		min, max int64
	}{
		{"region", 5, 5},
		{"nation", 25, 25},
		{"supplier", 100, 100},
		{"customer", 1_500, 1_500},
		{"part", 2_000, 2_000},
		{"partsupp", 8_000, 8_000},
		{"orders", 15_000, 15_000},
		// One to seven lines per order, four on average.
		{"lineitem", 15_000 * 39 / 10, 15_000 * 41 / 10},
	}
	for _, tt := range tests {
		t.Run(tt.table, func(t *testing.T) {
			const batchRows = 1000
			var rows int64
			eachBatch(t, tt.table, batchRows, func(rec arrow.RecordBatch) {
				// Multi-row units may overrun a batch by at most six rows.
				if rec.NumRows() > batchRows+6 {
					t.Errorf("batch of %d rows, asked for %d", rec.NumRows(), batchRows)
				}
				rows += rec.NumRows()
			})
			if rows < tt.min || rows > tt.max {
				t.Errorf("%s has %d rows, want %d..%d", tt.table, rows, tt.min, tt.max)
			}
		})
	}
}

// TestDeterministic generates every table twice, with different batch
// sizes, and compares both with the hashes kept in testdata: the same scale
// factor must give the same rows on every run and every machine.
func TestDeterministic(t *testing.T) {
	golden := filepath.Join("testdata", "hashes_sf0.01.txt")
	want := readHashes(t, golden)
	var lines []string
	for _, tbl := range Tables() {
		h1, n1 := tableHash(t, tbl.Name, 777)
		h2, n2 := tableHash(t, tbl.Name, 8192)
		if h1 != h2 || n1 != n2 {
			t.Errorf("%s: two runs differ: %s (%d rows) against %s (%d rows)", tbl.Name, h1, n1, h2, n2)
		}
		lines = append(lines, fmt.Sprintf("%s %d %s", tbl.Name, n1, h1))
		if got := fmt.Sprintf("%d %s", n1, h1); !*update && want[tbl.Name] != got {
			t.Errorf("%s: got %s, testdata has %q (run with -update after an intended change)", tbl.Name, got, want[tbl.Name])
		}
	}
	if *update {
		if err := os.WriteFile(golden, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readHashes(t *testing.T, path string) map[string]string {
	t.Helper()
	hashes := map[string]string{}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && *update {
		return hashes
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), " ")
		hashes[name] = rest
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return hashes
}

func TestGenerateRejectsBadArguments(t *testing.T) {
	tests := []struct {
		name  string
		table string
		sf    float64
	}{
		{"unknown table", "lineitems", 1},
		{"zero scale", "nation", 0},
		{"negative scale", "nation", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Generate(t.Context(), tt.table, tt.sf, 100, func(arrow.RecordBatch) error { return nil })
			if err == nil {
				t.Fatal("Generate succeeded")
			}
		})
	}
}

func TestGenerateStopsOnEmitErrorAndCancel(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := Generate(t.Context(), "lineitem", testSF, 100, func(arrow.RecordBatch) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("emit error: got %v after %d calls, want %v after 1", err, calls, stop)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err = Generate(ctx, "lineitem", testSF, 100, func(arrow.RecordBatch) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}

func TestSchemasMatchDDL(t *testing.T) {
	for _, tbl := range Tables() {
		for _, f := range tbl.Schema.Fields() {
			if f.Nullable {
				t.Errorf("%s.%s is nullable; TPC-H columns are NOT NULL", tbl.Name, f.Name)
			}
			if !strings.Contains(tbl.PostgresDDL, "\t"+f.Name+" ") {
				t.Errorf("%s DDL lacks column %s", tbl.Name, f.Name)
			}
		}
		stmt := tbl.CreateStatement("tpch")
		if !strings.HasPrefix(stmt, `CREATE TABLE "tpch"."`+tbl.Name+`" (`) {
			t.Errorf("CreateStatement = %q", stmt)
		}
	}
	// Spot checks of the types the engines must agree on.
	li := Tables()[7]
	for col, want := range map[string]arrow.DataType{
		"l_orderkey":   arrow.PrimitiveTypes.Int64,
		"l_linenumber": arrow.PrimitiveTypes.Int32,
		"l_quantity":   &arrow.Decimal128Type{Precision: 15, Scale: 2},
		"l_shipdate":   arrow.FixedWidthTypes.Date32,
		"l_shipmode":   arrow.BinaryTypes.String,
	} {
		f, ok := li.Schema.FieldsByName(col)
		if !ok || !arrow.TypeEqual(f[0].Type, want) {
			t.Errorf("lineitem.%s: got %v, want %v", col, f, want)
		}
	}
}

func TestQueries(t *testing.T) {
	qs, err := Queries()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, q := range qs {
		names = append(names, q.Name)
		if !strings.Contains(strings.ToLower(q.SQL), "select") || strings.HasSuffix(q.SQL, ";") {
			t.Errorf("%s: unexpected text %q", q.Name, q.SQL)
		}
	}
	want := make([]string, 22)
	for i := range want {
		want[i] = fmt.Sprintf("Q%d", i+1)
	}
	if got, want := strings.Join(names, ","), strings.Join(want, ","); got != want {
		t.Errorf("queries %s, want %s", got, want)
	}
}
