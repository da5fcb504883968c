package sql

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// regionsTable is a table the test never lets a plan read.
type regionsTable struct{ t *testing.T }

func (regionsTable) QualifiedName() planner.TableName {
	return planner.TableName{Catalog: "wh", Schema: "acdemo", Name: "orders"}
}
func (regionsTable) OID() uint32 { return 40000 }
func (regionsTable) Columns() []planner.TableColumn {
	return []planner.TableColumn{{Name: "region", Type: types.Text}}
}
func (regionsTable) RowEstimate() int64 { return 3 }
func (r regionsTable) Scan(context.Context, []int, iceberg.BooleanExpression) (planner.RecordStream, error) {
	r.t.Error("the table of a refused plan was read")
	return nil, errors.New("not readable")
}

// TestRunRefusesABrokenPlan: every plan a session runs starts in
// newRowsResult, which refuses, before anything is read, a plan whose
// secured scan lost its barrier filter, with XX000 (which the wire
// protocol sends as "internal error" with a request id, the cause going
// to the log); the message shows no value of the plan.
func TestRunRefusesABrokenPlan(t *testing.T) {
	region := planner.Column{ID: 1, Name: "region", Type: types.Text}
	eq, _ := functions.LookupOperator("=")
	policy := &planner.BinOp{Op: eq, L: &planner.ColRef{ID: 1, Name: "region", Typ: types.Text}, R: &planner.Const{Typ: types.Text, Value: "EU"}, Typ: types.Bool}
	scan := &planner.Scan{Table: regionsTable{t}, TableColumns: []int{0}, Cols: []planner.Column{region},
		Guard: &planner.Guard{Policy: policy}}
	root := &planner.Project{Input: scan, Exprs: []planner.Expr{&planner.ColRef{ID: 1, Name: "region", Typ: types.Text}},
		Cols: []planner.Column{{ID: 2, Name: "region", Type: types.Text}}}
	ctx := context.Background()
	res, err := newRowsResult(ctx, ctx, root, queryLimits{})
	if err == nil {
		for {
			b, err := res.Next(ctx)
			if b == nil || err != nil {
				break
			}
			b.Release()
		}
		res.Close()
		t.Fatal("a plan that lost its barrier filter ran")
	}
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.InternalError {
		t.Fatalf("got %v, want XX000", err)
	}
	if !strings.Contains(pe.Message, "lost its barrier filter") || strings.Contains(pe.Message, "EU") {
		t.Errorf("message %q: want the broken gate named, no value", pe.Message)
	}
}
