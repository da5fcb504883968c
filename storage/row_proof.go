package storage

import (
	"cmp"
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// AdmitsEveryRow reports whether every row a scan of the table reads
// makes filter true, as SQL evaluates it, judging from the data files'
// column statistics alone: no file is read. A row filter it proves costs
// a query nothing, not even reading the columns it names.
//
// The answer errs one way only. Any doubt (a file without statistics for
// a column, a NULL or NaN among its values, a predicate it cannot judge)
// is false, and false only means the filter must run. SQL's three-valued
// logic is why NULLs count as doubt: Iceberg's own strict evaluator
// treats NULL <> 'x' as a match, SQL does not admit that row.
func (t *Table) AdmitsEveryRow(ctx context.Context, filter iceberg.BooleanExpression) (bool, error) {
	bound, err := t.bindProof(filter)
	if err != nil {
		return false, fmt.Errorf("prove filter on %s: %w", t.ident, err)
	}
	tasks, err := t.planInCommitOrder(ctx, filter, 0)
	if err != nil {
		return false, fmt.Errorf("prove filter on %s: %w", t.ident, err)
	}
	// Deletes only take rows away, so the files' statistics still bound
	// what remains.
	for _, task := range append(t.visible(tasks), t.stagedTasks()...) {
		ok, err := fileAdmitsEveryRow(bound, task)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// bindProof binds filter to the table's schema in the form fileProof
// judges: without NOT.
func (t *Table) bindProof(filter iceberg.BooleanExpression) (iceberg.BooleanExpression, error) {
	rewritten, err := iceberg.RewriteNotExpr(filter)
	if err != nil {
		return nil, err
	}
	return iceberg.BindExpr(t.tbl.Schema(), rewritten, true)
}

func fileAdmitsEveryRow(bound iceberg.BooleanExpression, task table.FileScanTask) (bool, error) {
	f := task.File
	if f == nil {
		return false, nil
	}
	if f.Count() == 0 {
		return true, nil
	}
	return iceberg.VisitExprEvaluator(bound, &fileProof{file: f})
}

// fileProof judges a bound expression for every row of one data file.
type fileProof struct{ file iceberg.DataFile }

func (*fileProof) VisitTrue() bool                            { return true }
func (*fileProof) VisitFalse() bool                           { return false }
func (*fileProof) VisitAnd(l, r bool) bool                    { return l && r }
func (*fileProof) VisitOr(l, r bool) bool                     { return l || r }
func (*fileProof) VisitNot(bool) bool                         { return false } // RewriteNotExpr leaves none
func (*fileProof) VisitUnbound(iceberg.UnboundPredicate) bool { return false }

func (p *fileProof) VisitBound(pred iceberg.BoundPredicate) bool {
	ref, ok := pred.Term().(iceberg.BoundReference)
	if !ok {
		return false // a transform or an extract
	}
	id := ref.Field().ID
	nulls, counted := p.file.NullValueCounts()[id]
	switch pred.Op() {
	case iceberg.OpNotNull:
		return counted && nulls == 0
	case iceberg.OpIsNull:
		return counted && nulls == p.file.Count()
	}
	lp, ok := pred.(iceberg.BoundLiteralPredicate)
	if !ok || !counted || nulls != 0 {
		return false
	}
	switch ref.Field().Type.(type) {
	case iceberg.Int32Type, iceberg.Int64Type, iceberg.StringType, iceberg.DateType, iceberg.BooleanType:
	default:
		// Floats order NaN apart from SQL; others are not pushed.
		return false
	}
	lower, okL := boundLiteral(ref.Field().Type, p.file.LowerBoundValues()[id])
	upper, okU := boundLiteral(ref.Field().Type, p.file.UpperBoundValues()[id])
	if !okL || !okU {
		return false
	}
	lit := lp.Literal()
	lo, okL := compareLiterals(lower, lit)
	hi, okU := compareLiterals(upper, lit)
	if !okL || !okU {
		return false
	}
	// Every value v of the file lies in [lower, upper], truncated bounds
	// included (a truncated upper bound is rounded up).
	switch pred.Op() {
	case iceberg.OpLT:
		return hi < 0
	case iceberg.OpLTEQ:
		return hi <= 0
	case iceberg.OpGT:
		return lo > 0
	case iceberg.OpGTEQ:
		return lo >= 0
	case iceberg.OpEQ:
		return lo == 0 && hi == 0
	case iceberg.OpNEQ:
		return lo > 0 || hi < 0
	}
	return false
}

// boundLiteral decodes a lower or upper bound of a column of type typ.
func boundLiteral(typ iceberg.Type, raw []byte) (iceberg.Literal, bool) {
	if raw == nil {
		return nil, false
	}
	lit, err := iceberg.LiteralFromBytes(typ, raw)
	return lit, err == nil
}

// compareLiterals orders a against b when both are of one of the types
// fileProof or the row-group statistics judge.
func compareLiterals(a, b iceberg.Literal) (int, bool) {
	switch x := a.(type) {
	case iceberg.Int32Literal:
		return compareAs(x, b)
	case iceberg.Int64Literal:
		return compareAs(x, b)
	case iceberg.StringLiteral:
		return compareAs(x, b)
	case iceberg.DateLiteral:
		return compareAs(x, b)
	case iceberg.TimestampLiteral:
		return compareAs(x, b)
	case iceberg.DecimalLiteral:
		// Bounds and filter literals are at the column's scale.
		y, ok := b.(iceberg.DecimalLiteral)
		if !ok || x.Scale != y.Scale {
			return 0, false
		}
		return x.Val.Cmp(y.Val), true
	case iceberg.BoolLiteral:
		y, ok := b.(iceberg.BoolLiteral)
		return x.Comparator()(bool(x), bool(y)), ok
	}
	return 0, false
}

// compareAs orders x against b when b is of x's literal type.
func compareAs[T interface {
	cmp.Ordered
	iceberg.Literal
}](x T, b iceberg.Literal) (int, bool) {
	y, ok := b.(T)
	return cmp.Compare(x, y), ok
}
