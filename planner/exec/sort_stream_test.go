package exec_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/types"
)

// TestSortStream sorts batches from outside a plan, in memory and past a
// budget that makes it spill, and checks the order, the rows and that
// the batches keep the source's schema (its field metadata included).
func TestSortStream(t *testing.T) {
	const rows, batch = 60_000, 1000
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true, Metadata: arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{"1"})},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true, Metadata: arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{"2"})},
	}, nil)
	cols := []planner.Column{{ID: 7, Name: "id", Type: types.Int8}, {ID: 8, Name: "s", Type: types.Text}}
	perm := rand.New(rand.NewPCG(3, 4)).Perm(rows)
	tests := []struct {
		name  string
		limit int64 // memory budget; 0 is none
		desc  bool
		spill bool
	}{
		{name: "in memory ascending"},
		{name: "in memory descending", desc: true},
		{name: "spilled", limit: 512 << 10, spill: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			budget := exec.NewMemoryBudget(tc.limit)
			ctx = exec.WithMemoryBudget(ctx, budget)
			var area *exec.SpillArea
			if tc.spill {
				area = exec.NewSpillDir(t.TempDir()).NewArea()
				ctx = exec.WithSpillArea(ctx, area)
			}
			pos := 0
			next := func(context.Context) (arrow.RecordBatch, error) {
				if pos >= rows {
					return nil, nil
				}
				b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
				defer b.Release()
				for _, v := range perm[pos : pos+batch] {
					if v%1000 == 0 {
						b.Field(0).AppendNull()
					} else {
						b.Field(0).(*array.Int64Builder).Append(int64(v))
					}
					b.Field(1).(*array.StringBuilder).Append("row")
				}
				pos += batch
				return b.NewRecordBatch(), nil
			}
			keys := []planner.SortKey{{Expr: &planner.ColRef{ID: 7, Name: "id", Typ: types.Int8}, Desc: tc.desc, NullsFirst: !tc.desc}}
			op, err := exec.SortStream(ctx, schema, cols, keys, next)
			if err != nil {
				t.Fatal(err)
			}
			defer op.Close()
			got, nulls, prev, last := 0, 0, int64(0), false
			for {
				b, err := op.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				if !b.Schema().Equal(schema) || !b.Schema().Field(0).Metadata.Equal(schema.Field(0).Metadata) {
					t.Fatalf("schema %v, want %v", b.Schema(), schema)
				}
				ids := b.Column(0).(*array.Int64)
				for i := range ids.Len() {
					if ids.IsNull(i) {
						// Ascending NULLS FIRST and descending NULLS LAST.
						if last != tc.desc {
							t.Fatalf("NULL at row %d after values", got+i)
						}
						nulls++
						continue
					}
					v := ids.Value(i)
					if last && (!tc.desc && v < prev || tc.desc && v > prev) {
						t.Fatalf("row %d: %d after %d", got+i, v, prev)
					}
					prev, last = v, true
				}
				got += int(b.NumRows())
				b.Release()
			}
			if got != rows || nulls != rows/1000 {
				t.Fatalf("%d rows with %d NULLs, want %d with %d", got, nulls, rows, rows/1000)
			}
			if tc.spill {
				op.Close()
				checkSpilledWithin(t, area, budget, tc.limit)
			}
		})
	}
}
