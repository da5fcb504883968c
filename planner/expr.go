package planner

import (
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// ColumnID identifies a column within one plan.
type ColumnID int

// Column is one column a plan node produces.
type Column struct {
	ID   ColumnID
	Name string
	Type types.T
	// Qualifier is the table name or alias the column can be qualified by
	// in the scope that produced it ("" for computed columns).
	Qualifier string
	// TableOID and AttNum identify a plain table column for
	// RowDescription; zero otherwise.
	TableOID uint32
	AttNum   int16
	Nullable bool
}

// Expr is a bound, typed scalar expression.
type Expr interface {
	Type() types.T
	// Leakproof reports whether evaluating the expression on any row can
	// neither fail nor reveal the row's values other than through its
	// result.
	Leakproof() bool
	String() string
}

// ColRef reads a column of the input.
type ColRef struct {
	ID   ColumnID
	Name string
	Typ  types.T
}

func (c *ColRef) Type() types.T   { return c.Typ }
func (c *ColRef) Leakproof() bool { return true }
func (c *ColRef) String() string  { return fmt.Sprintf("%s#%d", c.Name, c.ID) }

// Const is a literal. A nil Value is NULL. Values are held as: bool,
// int64 (all integer types), float64, decimal128.Num (numeric, at the
// type's scale), string, int32 days (date), int64 microseconds
// (timestamps).
type Const struct {
	Typ   types.T
	Value any
}

func (c *Const) Type() types.T   { return c.Typ }
func (c *Const) Leakproof() bool { return true }
func (c *Const) String() string {
	if c.Value == nil {
		return "NULL::" + c.Typ.Name()
	}
	return fmt.Sprintf("%v::%s", c.Value, c.Typ.Name())
}

// BinOp applies a binary operator. Both arguments already have the
// operator's argument type (the binder inserted casts).
type BinOp struct {
	Op   functions.Operator
	L, R Expr
	Typ  types.T
}

func (b *BinOp) Type() types.T { return b.Typ }
func (b *BinOp) Leakproof() bool {
	return b.Op.Leakproof && b.L.Leakproof() && b.R.Leakproof()
}
func (b *BinOp) String() string {
	return fmt.Sprintf("(%s %s %s)", b.L, b.Op.Name, b.R)
}

// Not is boolean negation.
type Not struct{ Arg Expr }

func (n *Not) Type() types.T   { return types.Bool }
func (n *Not) Leakproof() bool { return n.Arg.Leakproof() }
func (n *Not) String() string  { return fmt.Sprintf("(NOT %s)", n.Arg) }

// Negate is unary minus; it can overflow (-(-2^63)), so it is not
// leakproof.
type Negate struct{ Arg Expr }

func (n *Negate) Type() types.T   { return n.Arg.Type() }
func (n *Negate) Leakproof() bool { return false }
func (n *Negate) String() string  { return fmt.Sprintf("(-%s)", n.Arg) }

// IsNull tests for NULL (or NOT NULL when Negated).
type IsNull struct {
	Arg     Expr
	Negated bool
}

func (n *IsNull) Type() types.T   { return types.Bool }
func (n *IsNull) Leakproof() bool { return n.Arg.Leakproof() }
func (n *IsNull) String() string {
	if n.Negated {
		return fmt.Sprintf("(%s IS NOT NULL)", n.Arg)
	}
	return fmt.Sprintf("(%s IS NULL)", n.Arg)
}

// Cast converts its argument to To.
type Cast struct {
	Arg Expr
	To  types.T
}

func (c *Cast) Type() types.T { return c.To }

// Leakproof: only lossless widenings cannot fail.
func (c *Cast) Leakproof() bool { return c.Arg.Leakproof() && losslessCast(c.Arg.Type(), c.To) }
func (c *Cast) String() string  { return fmt.Sprintf("CAST(%s AS %s)", c.Arg, c.To.Name()) }

func losslessCast(from, to types.T) bool {
	if from.OID == to.OID && from.OID != types.OIDNumeric {
		return true
	}
	switch {
	case IntWidening(from, to):
		return true
	case from.Family() == types.FamilyString && to.Family() == types.FamilyString && to.Precision == 0:
		return true
	case from.OID == types.OIDFloat4 && to.OID == types.OIDFloat8:
		return true
	case intRank(from) > 0 && to.OID == types.OIDFloat8 && from.OID != types.OIDInt8:
		return true
	}
	return false
}

// AggCall is an aggregate computed by an Aggregate node; its result is
// the column Out.
type AggCall struct {
	Func functions.Aggregate
	// Arg is the aggregated value: nil for count(*), the WITHIN GROUP
	// ordering's expression for an ordered-set aggregate.
	Arg Expr
	// Delim is the second argument: a delimited aggregate's delimiter
	// (string_agg), a regression aggregate's X (corr(Y, X)), a pair
	// aggregate's value (json_object_agg).
	Delim Expr
	// RowArgs are the fields of a row-valued argument, count(DISTINCT (a,
	// b)). A row is never NULL, so Arg is then a non-NULL stand-in and
	// DISTINCT compares the fields (NULLs equal, as records compare).
	RowArgs []Expr
	// Distinct feeds each distinct argument value once: agg(DISTINCT x).
	Distinct bool
	// Filter keeps the rows for which it is true: FILTER (WHERE ...).
	Filter Expr
	// OrderBy is the order rows are fed in: agg(x ORDER BY y). For an
	// ordered-set aggregate it is the WITHIN GROUP ordering, whose one key
	// is Arg.
	OrderBy []SortKey
	// Direct is an ordered-set aggregate's direct argument (percentile's
	// fraction), nil when it takes none.
	Direct Expr
	Out    Column
}

func (a *AggCall) String() string {
	var b strings.Builder
	b.WriteString(a.Func.Name)
	b.WriteByte('(')
	if a.Func.OrderedSet {
		if a.Direct != nil {
			b.WriteString(a.Direct.String())
		}
	} else {
		if a.Distinct {
			b.WriteString("DISTINCT ")
		}
		switch {
		case len(a.RowArgs) > 0:
			fmt.Fprintf(&b, "ROW(%s)", joinExprs(a.RowArgs))
		case a.Arg == nil:
			b.WriteByte('*')
		default:
			b.WriteString(a.Arg.String())
		}
		if a.Delim != nil {
			fmt.Fprintf(&b, ", %s", a.Delim)
		}
		if len(a.OrderBy) > 0 {
			b.WriteString(" ORDER BY ")
			writeSortKeys(&b, a.OrderBy)
		}
	}
	b.WriteByte(')')
	if a.Func.OrderedSet {
		b.WriteString(" WITHIN GROUP (ORDER BY ")
		writeSortKeys(&b, a.OrderBy)
		b.WriteByte(')')
	}
	if a.Filter != nil {
		fmt.Fprintf(&b, " FILTER (WHERE %s)", a.Filter)
	}
	return b.String()
}

func writeSortKeys(b *strings.Builder, keys []SortKey) {
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.Expr.String())
		if k.Desc {
			b.WriteString(" DESC")
		}
		if k.NullsFirst != k.Desc {
			if k.NullsFirst {
				b.WriteString(" NULLS FIRST")
			} else {
				b.WriteString(" NULLS LAST")
			}
		}
	}
}

// Exprs lists every expression the call reads from its input rows.
func (a *AggCall) Exprs() []Expr {
	var out []Expr
	for _, e := range []Expr{a.Arg, a.Delim, a.Filter, a.Direct} {
		if e != nil {
			out = append(out, e)
		}
	}
	for _, k := range a.OrderBy {
		out = append(out, k.Expr)
	}
	return append(out, a.RowArgs...)
}

// SplitConjuncts flattens a tree of ANDs into its conjuncts.
func SplitConjuncts(e Expr) []Expr {
	if b, ok := e.(*BinOp); ok && b.Op.Name == "AND" {
		return append(SplitConjuncts(b.L), SplitConjuncts(b.R)...)
	}
	return []Expr{e}
}

// ExprColumns adds the IDs of the columns e reads to set.
func ExprColumns(e Expr, set map[ColumnID]bool) {
	switch x := e.(type) {
	case *ColRef:
		set[x.ID] = true
	case *BinOp:
		ExprColumns(x.L, set)
		ExprColumns(x.R, set)
	case *Not:
		ExprColumns(x.Arg, set)
	case *Negate:
		ExprColumns(x.Arg, set)
	case *IsNull:
		ExprColumns(x.Arg, set)
	case *Cast:
		ExprColumns(x.Arg, set)
	case *Func:
		for _, a := range x.Args {
			ExprColumns(a, set)
		}
	case *Case:
		for _, w := range x.Whens {
			ExprColumns(w.Cond, set)
			ExprColumns(w.Result, set)
		}
		if x.Else != nil {
			ExprColumns(x.Else, set)
		}
	case *Subquery:
		for _, a := range x.Args {
			ExprColumns(a, set)
		}
		for _, c := range x.Outer {
			set[x.OuterSource(c.ID)] = true
		}
	case *ArrayExpr:
		for _, el := range x.Elems {
			ExprColumns(el, set)
		}
	case *ArrayCompare:
		ExprColumns(x.Left, set)
		ExprColumns(x.Array, set)
	case *OuterRef:
	case *Const, *Param:
	default:
		panic(fmt.Sprintf("ExprColumns: unhandled %T", e))
	}
}

func joinExprs(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// Param is a statement parameter ($n) while a statement is prepared:
// it carries the parameter's type (possibly still unknown) but no value.
// A plan that is executed has every Param replaced by a Const.
type Param struct {
	Index int // 0-based
	Typ   types.T
}

func (p *Param) Type() types.T   { return p.Typ }
func (p *Param) Leakproof() bool { return true }
func (p *Param) String() string  { return fmt.Sprintf("$%d", p.Index+1) }

// isUnknown reports whether e is an untyped literal or parameter, whose
// type comes from where it is used.
func isUnknown(e Expr) bool { return e.Type().OID == types.OIDUnknown }

// Func calls a scalar function from the registry (sql/functions) by its
// kernel name; its arguments already have the function's argument types.
type Func struct {
	Name      string
	Args      []Expr
	Typ       types.T
	leakproof bool
	// Row, when set, computes the function one row at a time from
	// constant-representation values (a function of the session, such as
	// a catalog lookup); otherwise exec runs the kernel named Name.
	Row RowFunc
}

// RowFunc computes a function of one row's argument values (nil = NULL)
// and returns the result value (nil = NULL).
type RowFunc func(args []any) (any, error)

func (f *Func) Type() types.T { return f.Typ }
func (f *Func) Leakproof() bool {
	if !f.leakproof {
		return false
	}
	for _, a := range f.Args {
		if !a.Leakproof() {
			return false
		}
	}
	return true
}
func (f *Func) String() string { return fmt.Sprintf("%s(%s)", f.Name, joinExprs(f.Args)) }

// When is one branch of a Case.
type When struct {
	Cond, Result Expr
}

// Case is a searched CASE: the result of the first branch whose condition
// is true, else Else (NULL when nil). A branch's result is evaluated only
// for the rows that take it, so CASE guards errors as in PostgreSQL.
type Case struct {
	Whens []When
	Else  Expr
	Typ   types.T
}

func (c *Case) Type() types.T { return c.Typ }
func (c *Case) Leakproof() bool {
	for _, w := range c.Whens {
		if !w.Cond.Leakproof() || !w.Result.Leakproof() {
			return false
		}
	}
	return c.Else == nil || c.Else.Leakproof()
}
func (c *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range c.Whens {
		fmt.Fprintf(&b, " WHEN %s THEN %s", w.Cond, w.Result)
	}
	if c.Else != nil {
		fmt.Fprintf(&b, " ELSE %s", c.Else)
	}
	b.WriteString(" END")
	return b.String()
}

// SubqueryKind is how a subquery is used in an expression.
type SubqueryKind uint8

const (
	ScalarSubquery SubqueryKind = iota // (SELECT x ...): one value
	ExistsSubquery                     // EXISTS (SELECT ...)
	InSubquery                         // Arg IN (SELECT x ...)
	ArraySubquery                      // ARRAY(SELECT x ...)
)

// Subquery is a subquery used as an expression. An uncorrelated one
// (Outer empty) is run once per statement; a correlated one reads the
// enclosing row's Outer columns (as OuterRefs in Plan) and is run once per
// distinct combination of their values.
type Subquery struct {
	Kind SubqueryKind
	Plan Node
	// Args are the tested values of IN: one value, or the fields of a
	// row, (a, b) IN (SELECT x, y ...), compared column by column.
	Args  []Expr
	Typ   types.T
	Outer []Column
	// OuterFrom names, for an Outer column of a grouped query's input
	// that is a grouping key, the Aggregate's output column holding its
	// value in the row the subquery is evaluated on; others are read
	// under their own ID.
	OuterFrom map[ColumnID]ColumnID
}

// OuterSource is the column of the evaluating row that holds outer
// column c's value.
func (s *Subquery) OuterSource(c ColumnID) ColumnID {
	if from, ok := s.OuterFrom[c]; ok {
		return from
	}
	return c
}

// OuterRef reads a column of the enclosing query's current row, inside a
// correlated subquery's plan.
type OuterRef struct {
	ID   ColumnID
	Name string
	Typ  types.T
}

func (o *OuterRef) Type() types.T   { return o.Typ }
func (o *OuterRef) Leakproof() bool { return true }
func (o *OuterRef) String() string  { return fmt.Sprintf("outer.%s#%d", o.Name, o.ID) }

func (s *Subquery) Type() types.T { return s.Typ }

// Leakproof: a scalar subquery fails on more than one row.
func (s *Subquery) Leakproof() bool { return false }
func (s *Subquery) String() string {
	switch s.Kind {
	case ExistsSubquery:
		return "EXISTS(subquery)"
	case InSubquery:
		if len(s.Args) == 1 {
			return fmt.Sprintf("%s IN (subquery)", s.Args[0])
		}
		return fmt.Sprintf("(%s) IN (subquery)", joinExprs(s.Args))
	}
	return "(subquery)"
}

// ArrayExpr builds a one-dimensional array from its elements
// (ARRAY[a, b]); the elements have the array's element type.
type ArrayExpr struct {
	Elems []Expr
	Typ   types.T
}

func (a *ArrayExpr) Type() types.T { return a.Typ }
func (a *ArrayExpr) Leakproof() bool {
	for _, e := range a.Elems {
		if !e.Leakproof() {
			return false
		}
	}
	return true
}
func (a *ArrayExpr) String() string { return fmt.Sprintf("ARRAY[%s]", joinExprs(a.Elems)) }

// ArrayCompare is x op ANY (array) or x op ALL (array) over an array
// value, with SQL's NULL rules; Left has the array's element type.
type ArrayCompare struct {
	Op    functions.Operator
	Left  Expr
	Array Expr
	All   bool
}

func (a *ArrayCompare) Type() types.T { return types.Bool }
func (a *ArrayCompare) Leakproof() bool {
	return a.Op.Leakproof && a.Left.Leakproof() && a.Array.Leakproof()
}
func (a *ArrayCompare) String() string {
	q := "ANY"
	if a.All {
		q = "ALL"
	}
	return fmt.Sprintf("(%s %s %s(%s))", a.Left, a.Op.Name, q, a.Array)
}
