package exec

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// TestAggregateReadsFilterSelection: Q1's aggregate reads its filter's
// selection in place, and answers as it does over the filter's copied
// rows.
func TestAggregateReadsFilterSelection(t *testing.T) {
	tbl := newLineitemTable(t, 3*benchBatchRows+100)
	plan := q1Plan(t, tbl)
	run := func(inPlace bool) []string {
		op, err := Build(context.Background(), plan)
		if err != nil {
			t.Fatal(err)
		}
		defer op.Close()
		h, ok := rootOperator(op).(*hashAggregate)
		if !ok {
			t.Fatalf("Q1 built as %T", op)
		}
		if h.selecting == nil {
			t.Fatal("Q1's aggregate does not read its filter's selection")
		}
		if !inPlace {
			h.selecting = nil
		}
		var rows []string
		drainOperator(t, op, func(b arrow.RecordBatch) { rows = append(rows, batchRows(b)...) })
		return rows
	}
	inPlace, copied := run(true), run(false)
	if len(copied) != 6 {
		t.Fatalf("%d groups, want 6", len(copied))
	}
	if !slices.Equal(inPlace, copied) {
		t.Errorf("in place %q\ncopied %q", inPlace, copied)
	}
}

// TestSumsShared: Q1's averages of l_quantity and l_extendedprice read
// the sums beside them; the average of l_discount, alone, keeps its own.
func TestSumsShared(t *testing.T) {
	plan := q1Plan(t, newLineitemTable(t, 10))
	op, err := Build(t.Context(), plan)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	h := rootOperator(op).(*hashAggregate)
	for i, want := range []int{-1, -1, -1, -1, 0, 1, -1, -1} {
		v, ok := h.accs[i].(*sumView)
		switch {
		case want < 0 && ok:
			t.Errorf("%s is a view", plan.Aggs[i].Out.Name)
		case want >= 0 && (!ok || v.of != h.accs[want]):
			t.Errorf("aggregate %d (%s) is %T, want a view of aggregate %d", i, plan.Aggs[i].Out.Name, h.accs[i], want)
		}
	}
}

// TestAggregateSelectionNeedsPlainInputs: an aggregate whose argument
// calls a volatile function does not evaluate it on the rows its filter
// rejected.
func TestAggregateSelectionNeedsPlainInputs(t *testing.T) {
	tbl := newLineitemTable(t, 10)
	plan := q1Plan(t, tbl)
	if !evaluatesAside(plan) {
		t.Fatal("Q1's aggregate does not evaluate aside")
	}
	volatile := *plan
	volatile.Aggs = slices.Clone(plan.Aggs)
	call := *plan.Aggs[0]
	call.Arg = &planner.Func{Name: "random", Typ: types.Float8}
	volatile.Aggs[0] = &call
	if evaluatesAside(&volatile) {
		t.Error("an argument calling random() evaluates aside")
	}
}

// batchRows renders b's rows as "a|b|c".
func batchRows(b arrow.RecordBatch) []string {
	var rows []string
	for r := range int(b.NumRows()) {
		row := ""
		for c := range int(b.NumCols()) {
			if c > 0 {
				row += "|"
			}
			row += fmt.Sprint(b.Column(c).ValueStr(r))
		}
		rows = append(rows, row)
	}
	return rows
}

// rootOperator is the operator Build made for the plan's root, under the
// wrapper that gives its run the query's buffer pool.
func rootOperator(op Operator) Operator {
	if r, ok := op.(*pooledRoot); ok {
		return r.Operator
	}
	return op
}
