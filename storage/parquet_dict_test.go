package storage

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"
	"github.com/sqe-db/sqe/storage/bufferpool"
)

// TestReadDictionaryText: a text column of few values (NULLs and empty
// strings among them) is read through its dictionary, a text column
// whose dictionary overflowed into plain pages is read as plain text,
// and both give back every value written, over several row groups.
func TestReadDictionaryText(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "flag", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "code", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	tbl, err := cat.CreateTable(ctx, "ns", "t", sc, CreateTableOptions{Properties: map[string]string{
		table.ParquetRowGroupLimitKey: "300",
		// note's distinct values pass this after a few rows.
		table.ParquetDictSizeBytesKey: "256",
	}})
	if err != nil {
		t.Fatal(err)
	}
	const rows = 1000
	flags := []string{"A", "", "R", "N/A"}
	flagOf := func(i int) any {
		if i%7 == 3 {
			return nil
		}
		return flags[i%len(flags)]
	}
	noteOf := func(i int) any {
		if i%11 == 0 {
			return nil
		}
		return fmt.Sprintf("note %06d %s", i, strings.Repeat("x", i%5))
	}
	codeOf := func(i int) any { return []byte{byte(i % 3), 0} }
	b := array.NewRecordBuilder(memory.DefaultAllocator, tbl.Schema())
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		for c, v := range []any{flagOf(i), noteOf(i)} {
			if v == nil {
				b.Field(1 + c).AppendNull()
			} else {
				b.Field(1 + c).(*array.StringBuilder).Append(v.(string))
			}
		}
		b.Field(3).(*array.BinaryBuilder).Append(codeOf(i).([]byte))
	}
	tbl = appendBuilt(t, tbl, b)

	columns := []string{"id", "flag", "note", "code"}
	tasks := plannedTasks(t, tbl)
	if groups := decodedBySQE(t, tbl, columns, tasks); fmt.Sprint(groups) != "[[0 1 2 3]]" {
		t.Fatalf("row groups %v, want one file of four", groups)
	}
	// Which chunks the reader takes through their dictionary.
	_, wanted, err := tbl.projection(ScanRequest{Columns: columns})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := tbl.tbl.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r, ok, err := openParquetTask(ctx, fs, nil, tasks[0], tbl.decodedColumns(wanted, ScanRequest{}))
	if err != nil || !ok {
		t.Fatalf("openParquetTask = %v, %v", ok, err)
	}
	defer r.close()
	if err := r.open(); err != nil {
		t.Fatal(err)
	}
	for c, want := range []bool{false, true, false, true} {
		if got := readsAsDictionary(r.rdr, r.leaf[c], r.groups); got != want {
			t.Errorf("%s read as a dictionary: %v, want %v", columns[c], got, want)
		}
	}

	for _, batch := range []int{0, 97} {
		_, got := readAll(t, tbl, ScanRequest{Columns: columns, BatchSize: batch})
		if len(got) != rows {
			t.Fatalf("BatchSize %d: %d rows, want %d", batch, len(got), rows)
		}
		for i, row := range got {
			// Bytes come back as their base64 text (ValueStr).
			want := []any{int64(i), flagOf(i), noteOf(i), base64.StdEncoding.EncodeToString(codeOf(i).([]byte))}
			if fmt.Sprint(row) != fmt.Sprint(want) {
				t.Fatalf("BatchSize %d, row %d: %v, want %v", batch, i, row, want)
			}
		}
	}
}

// TestPlainFromDictionary expands a sliced dictionary array with NULLs,
// and refuses an index past its dictionary.
func TestPlainFromDictionary(t *testing.T) {
	mem := memory.DefaultAllocator
	dictValues, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["", "EU", "ASIA"]`))
	if err != nil {
		t.Fatal(err)
	}
	defer dictValues.Release()
	idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[2, 1, null, 0, 2, 1]`))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Release()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	d := array.NewDictionaryArray(dt, idx, dictValues)
	defer d.Release()
	sliced := array.NewSlice(d, 1, 6).(*array.Dictionary)
	defer sliced.Release()
	out, err := plainFromDictionary(sliced, arrow.BinaryTypes.String, bufferpool.New())
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if got := out.String(); got != `["EU" (null) "" "ASIA" "EU"]` || out.NullN() != 1 {
		t.Fatalf("expanded %s (%d NULLs)", got, out.NullN())
	}

	// Without NULLs: values of at most 8 bytes are expanded a word at a
	// time, a dictionary with a longer one by the general loops.
	for _, words := range []string{`["", "EU", "ASIA", "1-URGENT"]`, `["", "EU", "ASIA", "DELIVER IN PERSON"]`} {
		values, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(words))
		if err != nil {
			t.Fatal(err)
		}
		defer values.Release()
		idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[3, 1, 0, 2, 3, 3, 1]`))
		if err != nil {
			t.Fatal(err)
		}
		defer idx.Release()
		d := array.NewDictionaryArray(dt, idx, values)
		defer d.Release()
		out, err := plainFromDictionary(d, arrow.BinaryTypes.String, bufferpool.New())
		if err != nil {
			t.Fatal(err)
		}
		defer out.Release()
		last := values.(*array.String).Value(3)
		want := fmt.Sprintf(`[%q "EU" "" "ASIA" %q %q "EU"]`, last, last, last)
		if got := out.String(); got != want || out.NullN() != 0 {
			t.Fatalf("expanded %s, want %s", got, want)
		}
	}

	bad, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(`[0, 3]`))
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Release()
	corrupt := array.NewDictionaryArray(dt, bad, dictValues)
	defer corrupt.Release()
	if _, err := plainFromDictionary(corrupt, arrow.BinaryTypes.String, bufferpool.New()); err == nil || !strings.Contains(err.Error(), "index 3") {
		t.Fatalf("an index past the dictionary: %v", err)
	}
}
