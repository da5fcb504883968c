package exec_test

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/iceberg-go"
)

// AdmitsEveryRow makes memTable a planner.RowFilterProver answering
// admitsEveryRow.
func (m *memTable) AdmitsEveryRow(context.Context, iceberg.BooleanExpression) bool {
	return m.admitsEveryRow
}

// TestProvenRowFilterIsNotRead: a row filter the table proves for every
// row is not evaluated and the column only it names is not read, in the
// serial plan and in workers; the answers are those of the evaluated
// filter.
func TestProvenRowFilterIsNotRead(t *testing.T) {
	const idColumn = 0
	tests := []struct {
		sql  string
		want []string
	}{
		{"SELECT count(qty) FROM t", []string{"4"}},
		{"SELECT region, qty FROM t WHERE qty > 2 ORDER BY qty", []string{"EU|3", "EU|7", "APAC|10"}},
		{"SELECT region, count(*) FROM t GROUP BY region ORDER BY region", []string{"APAC|1", "EU|2", "US|1", "NULL|1"}},
	}
	for _, tt := range tests {
		for _, proven := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				tbl := newTestTable(t)
				tbl.admitsEveryRow = proven
				tbl.batchMorsels = true
				rows, err := runSecuredWorkers(t, tbl, rowPolicy{filter: "id <> 99"}, tt.sql, workers)
				if err != nil {
					t.Fatalf("%s: %v", tt.sql, err)
				}
				if !slices.Equal(rows, tt.want) {
					t.Errorf("%s (proven %v, %d workers): %q, want %q", tt.sql, proven, workers, rows, tt.want)
				}
				if len(tbl.scanColumns) == 0 {
					t.Fatalf("%s: no scan", tt.sql)
				}
				for _, cols := range tbl.scanColumns {
					if slices.Contains(cols, idColumn) == proven {
						t.Errorf("%s (proven %v, %d workers): scan read columns %v", tt.sql, proven, workers, cols)
					}
				}
			}
		}
	}
}
