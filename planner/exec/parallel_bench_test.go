package exec_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/types"
)

// BenchmarkParallel runs a filtered scan and a grouped aggregate over an
// in-memory table of 1M rows (128 morsels of 8192) with 1, 2 and 4
// workers.
func BenchmarkParallel(b *testing.B) {
	const rows, batch = 1 << 20, 8192
	cols := []planner.TableColumn{{Name: "id", Type: types.Int8}, {Name: "qty", Type: types.Int4}}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "qty", Type: arrow.PrimitiveTypes.Int32}}, nil)
	tbl := &memTable{name: "t", cols: cols, batchMorsels: true}
	for lo := 0; lo < rows; lo += batch {
		bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := lo; i < lo+batch; i++ {
			bld.Field(0).(*array.Int64Builder).Append(int64(i))
			bld.Field(1).(*array.Int32Builder).Append(int32(i*7919) % 1000)
		}
		tbl.batches = append(tbl.batches, bld.NewRecordBatch())
		bld.Release()
	}
	b.Cleanup(func() {
		for _, x := range tbl.batches {
			x.Release()
		}
	})
	queries := map[string]string{
		"scan":      "SELECT id * 2 FROM t WHERE qty % 3 = 0",
		"aggregate": "SELECT qty, count(*), sum(id), max(id) FROM t WHERE id % 5 <> 0 GROUP BY qty",
	}
	for name, sql := range queries {
		tree, err := pg_query.Parse(sql)
		if err != nil {
			b.Fatal(err)
		}
		p, err := planner.NewBinder(context.Background(), memCatalog{tbl}, planner.OpenRelation{}, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
		if err != nil {
			b.Fatal(err)
		}
		for _, workers := range []int{1, 2, 4} {
			plan := planner.Optimize(p, exec.ParallelOptions(workers, 0, 0)).Root
			b.Run(fmt.Sprintf("%s/workers=%d", name, workers), func(b *testing.B) {
				for range b.N {
					op, err := exec.Build(context.Background(), plan)
					if err != nil {
						b.Fatal(err)
					}
					for {
						out, err := op.Next(context.Background())
						if err != nil {
							b.Fatal(err)
						}
						if out == nil {
							break
						}
						out.Release()
					}
					op.Close()
				}
			})
		}
	}
}
