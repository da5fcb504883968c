package storage

import (
	"errors"
	"io"
	"strconv"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// BenchmarkPointLookup reads one row by id from a table of 100,000 rows
// in one data file, as "SELECT ... WHERE id = k" does (Morsels with the
// filter pushed for pruning only), and the whole table, as an aggregate
// does. "one row group" writes the file with the default row-group limit;
// "16,384-row groups" sets write.parquet.row-group-limit lower, so that
// the lookup reads one group and the scan reads them all.
func BenchmarkPointLookup(b *testing.B) {
	const rows = 100_000
	for _, layout := range []struct {
		name  string
		props map[string]string
	}{
		{"one row group", map[string]string{table.ParquetRowGroupLimitKey: strconv.Itoa(table.ParquetRowGroupLimitDefault)}},
		{"16,384-row groups", map[string]string{table.ParquetRowGroupLimitKey: "16384"}},
	} {
		ctx := adminCtx(b)
		cat := openCatalog(b, "wh", b.TempDir(), AllowAll{})
		if err := cat.CreateNamespace(ctx, "ns"); err != nil {
			b.Fatal(err)
		}
		tbl, err := cat.CreateTable(ctx, "ns", "t", idSchema, CreateTableOptions{Properties: layout.props})
		if err != nil {
			b.Fatal(err)
		}
		if tbl, err = tbl.Append(ctx, idBatches(b, 0, rows, 8192)); err != nil {
			b.Fatal(err)
		}
		read := func(b *testing.B, filter iceberg.BooleanExpression) int64 {
			m, err := tbl.Morsels(ctx, ScanRequest{Columns: []string{"id", "name"}, Filter: filter, PruneOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			var n int64
			for i := range m.Len() {
				st, err := m.Open(ctx, i)
				if err != nil {
					b.Fatal(err)
				}
				for {
					rec, err := st.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n += rec.NumRows()
					rec.Release()
				}
				_ = st.Close()
			}
			return n
		}
		b.Run(layout.name+"/lookup", func(b *testing.B) {
			var k int64
			for b.Loop() {
				k = (k + 7919) % rows
				if read(b, iceberg.EqualTo(iceberg.Reference("id"), k)) == 0 {
					b.Fatalf("id %d not read", k)
				}
			}
		})
		b.Run(layout.name+"/scan", func(b *testing.B) {
			for b.Loop() {
				if n := read(b, nil); n != rows {
					b.Fatalf("scan read %d rows, want %d", n, rows)
				}
			}
		})
	}
}
