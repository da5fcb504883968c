package sqlwrite_test

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/iceberg-go"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// peopleTable is a table the tests plan over; it holds no rows.
type peopleTable struct {
	name string
	cols []planner.TableColumn
	// local marks a table SQE alone reads (as a metadata table).
	local bool
}

func (t *peopleTable) QualifiedName() planner.TableName {
	return planner.TableName{Catalog: "lake", Schema: "hr", Name: t.name}
}
func (t *peopleTable) OID() uint32                    { return 40000 + uint32(len(t.name)) }
func (t *peopleTable) Columns() []planner.TableColumn { return t.cols }
func (t *peopleTable) RowEstimate() int64             { return 100 }
func (t *peopleTable) Shared() bool                   { return !t.local }
func (t *peopleTable) Scan(context.Context, []int, iceberg.BooleanExpression) (planner.RecordStream, error) {
	return nil, errors.New("the test tables cannot be read")
}

// hrCatalog holds people (secured in the tests) and dept (open).
type hrCatalog struct{}

func (hrCatalog) ResolveTable(_ context.Context, n planner.TableName) (planner.Table, error) {
	switch n.Name {
	case "people":
		return &peopleTable{name: "people", cols: []planner.TableColumn{
			{Name: "id", Type: types.Int8, Nullable: true},
			{Name: "name", Type: types.Text, Nullable: true},
			{Name: "region", Type: types.Text, Nullable: true},
			{Name: "ssn", Type: types.Text, Nullable: true},
			{Name: "dept", Type: types.Int4, Nullable: true},
		}}, nil
	case "people$snapshots":
		return &peopleTable{name: n.Name, local: true, cols: []planner.TableColumn{
			{Name: "snapshot_id", Type: types.Int8, Nullable: true},
		}}, nil
	case "dept":
		return &peopleTable{name: "dept", cols: []planner.TableColumn{
			{Name: "dept", Type: types.Int4, Nullable: true},
			{Name: "title", Type: types.Text, Nullable: true},
		}}, nil
	}
	return nil, errors.New("no table " + n.Name)
}

// peoplePolicy keeps the rows of people whose region is EU and masks ssn
// with mask (unless it is empty); dept is open.
type peoplePolicy struct{ mask string }

func (p peoplePolicy) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := planner.OpenRelation{}.Secure(ctx, t)
	if err != nil || t.QualifiedName().Name != "people" {
		return rel, err
	}
	rel.RowFilters = []string{"region = 'EU'"}
	if p.mask != "" {
		rel.Masks = map[int]string{3: p.mask}
	}
	return rel, nil
}

// ssnMask replaces ssn by a fixed text unless it is NULL.
const ssnMask = "CASE WHEN ssn IS NULL THEN NULL ELSE 'xxx-xx-xxxx' END"

// bind binds one SELECT under sec and returns its plan, optimized when
// optimize is set.
func bind(t *testing.T, sql string, sec planner.Security, optimize bool) planner.Node {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	b := planner.NewBinder(context.Background(), hrCatalog{}, sec, sql)
	sel, ok := tree.Stmts[0].Stmt.Node.(*pg_query.Node_SelectStmt)
	if !ok {
		t.Fatalf("%q: not a SELECT", sql)
	}
	p, err := b.BindSelect(sel.SelectStmt)
	if err != nil {
		t.Fatalf("bind %q: %v", sql, err)
	}
	if optimize {
		p = planner.Optimize(p, planner.ParallelOptions{})
	}
	return p.Root
}
