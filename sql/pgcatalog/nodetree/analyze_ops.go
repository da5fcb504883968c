package nodetree

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/types"
)

// aExpr is an operator expression: binary and prefix operators, and
// NULLIF.
func (a *analyzer) aExpr(e *pg_query.A_Expr) (*Node, error) {
	switch e.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP, pg_query.A_Expr_Kind_AEXPR_NULLIF:
	default:
		return nil, unsupported("operator expression %s", e.Kind)
	}
	op, err := builtinName(e.Name)
	if err != nil {
		return nil, err
	}
	if op == "!=" {
		op = "<>"
	}
	r, err := a.expr(e.Rexpr)
	if err != nil {
		return nil, err
	}
	if e.Lexpr == nil {
		// PostgreSQL's prefix operators on numbers.
		if (op != "-" && op != "+") || !numericRank(r.Type).ok() {
			return nil, unsupported("prefix operator %s on %s", op, r.Type.Name())
		}
		return &Node{Kind: OpExpr, Type: r.Type, Name: op, Args: []*Node{r}}, nil
	}
	l, err := a.expr(e.Lexpr)
	if err != nil {
		return nil, err
	}
	lt, rt, result, err := binaryOperator(op, l.Type, r.Type)
	if err != nil {
		return nil, err
	}
	if l, err = a.coerce(l, lt, false); err != nil {
		return nil, err
	}
	if r, err = a.coerce(r, rt, false); err != nil {
		return nil, err
	}
	if e.Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF {
		// NULLIF(a, b) compares with a = b and returns a's type.
		if op != "=" {
			return nil, unsupported("NULLIF with %s", op)
		}
		return &Node{Kind: NullIfExpr, Type: l.Type, Name: "NULLIF", Args: []*Node{l, r}}, nil
	}
	return &Node{Kind: OpExpr, Type: result, Name: op, Args: []*Node{l, r}}, nil
}

// binaryOperator resolves a binary operator on operands of types l and
// r as PostgreSQL's operator lookup does for the built-in operators a
// default uses: the types the operands are converted to, and the result.
func binaryOperator(op string, l, r types.T) (types.T, types.T, types.T, error) {
	unknownL, unknownR := l.OID == types.OIDUnknown, r.OID == types.OIDUnknown
	switch {
	case unknownL && unknownR:
		// Two untyped literals: only the string operators apply.
		l, r = types.Text, types.Text
	case unknownL:
		l = unknownOperand(op, r)
	case unknownR:
		r = unknownOperand(op, l)
	}
	switch op {
	case "=", "<>", "<", "<=", ">", ">=":
		lt, rt, err := comparisonOperands(l, r)
		return lt, rt, types.Bool, err
	case "||":
		return concatOperands(l, r)
	case "+", "-", "*", "/", "%":
		if lt, rt, result, ok := datetimeArithmetic(op, l, r); ok {
			return lt, rt, result, nil
		}
		return numericArithmetic(op, l, r)
	}
	return types.T{}, types.T{}, types.T{}, unsupported("operator %s", op)
}

// unknownOperand is the type an untyped literal takes beside an operand
// of type other: other's own, PostgreSQL's first guess, except where no
// operator takes two of other (timestamp + timestamp) or the operator
// takes text (||).
func unknownOperand(op string, other types.T) types.T {
	switch {
	case op == "||":
		return types.Text
	case op == "+" && (other.Family() == types.FamilyTimestamp || other.Family() == types.FamilyTime):
		return types.Interval
	}
	return other
}

// comparisonOperands are the operand types of a comparison: numbers and
// date/times compare across their kinds, strings as text (character as
// itself).
func comparisonOperands(l, r types.T) (types.T, types.T, error) {
	switch {
	case l.Family() == types.FamilyString && r.Family() == types.FamilyString:
		if l.OID == types.OIDBpchar && r.OID == types.OIDBpchar {
			return l, r, nil
		}
		return types.Text, types.Text, nil
	case numericRank(l).ok() && numericRank(r).ok():
		return numericOperands(l, r)
	case isDatetime(l) && isDatetime(r):
		return l, r, nil
	case l.OID == r.OID:
		return l, r, nil
	}
	return types.T{}, types.T{}, unsupported("comparison of %s and %s", l.Name(), r.Name())
}

// concatOperands resolve ||: strings concatenate as text, and a string
// with a value of another type as anynonarray || text.
func concatOperands(l, r types.T) (types.T, types.T, types.T, error) {
	switch {
	case l.OID == types.OIDJSONB && r.OID == types.OIDJSONB:
		return l, r, l, nil
	case l.Family() == types.FamilyArray || r.Family() == types.FamilyArray:
		return types.T{}, types.T{}, types.T{}, unsupported("array concatenation")
	case l.Family() == types.FamilyString && r.Family() == types.FamilyString:
		return types.Text, types.Text, types.Text, nil
	case l.Family() == types.FamilyString:
		return types.Text, r, types.Text, nil
	case r.Family() == types.FamilyString:
		return l, types.Text, types.Text, nil
	}
	return types.T{}, types.T{}, types.T{}, unsupported("%s || %s", l.Name(), r.Name())
}

// rank orders the numeric types by PostgreSQL's implicit conversions:
// each converts implicitly to every type ranked above it.
type rank int

const (
	notNumeric rank = iota
	rankInt2
	rankInt4
	rankInt8
	rankNumeric
	rankFloat4
	rankFloat8
)

func (r rank) ok() bool      { return r != notNumeric }
func (r rank) isFloat() bool { return r >= rankFloat4 }
func (r rank) isInt() bool   { return r >= rankInt2 && r <= rankInt8 }

func numericRank(t types.T) rank {
	switch t.OID {
	case types.OIDInt2:
		return rankInt2
	case types.OIDInt4:
		return rankInt4
	case types.OIDInt8:
		return rankInt8
	case types.OIDNumeric:
		return rankNumeric
	case types.OIDFloat4:
		return rankFloat4
	case types.OIDFloat8:
		return rankFloat8
	}
	return notNumeric
}

// numericOperands are the operand types of a numeric operator: the
// integer types and the float types have operators across their sizes
// (int4 + int8, float4 * float8); otherwise the lower operand converts
// to numeric, or to double precision beside a float.
func numericOperands(l, r types.T) (types.T, types.T, error) {
	lr, rr := numericRank(l), numericRank(r)
	switch {
	case !lr.ok() || !rr.ok():
		return types.T{}, types.T{}, unsupported("arithmetic on %s and %s", l.Name(), r.Name())
	case lr == rr, lr.isInt() && rr.isInt(), lr.isFloat() && rr.isFloat():
		return l, r, nil
	case lr.isFloat():
		return l, types.Float8, nil
	case rr.isFloat():
		return types.Float8, r, nil
	}
	return types.T{OID: types.OIDNumeric}, types.T{OID: types.OIDNumeric}, nil
}

// numericArithmetic resolves + - * / % on numbers; the result is the
// wider operand's type.
func numericArithmetic(op string, l, r types.T) (types.T, types.T, types.T, error) {
	lt, rt, err := numericOperands(l, r)
	if err != nil {
		return types.T{}, types.T{}, types.T{}, err
	}
	result := lt
	if numericRank(rt) > numericRank(lt) {
		result = rt
	}
	if op == "%" && numericRank(result).isFloat() {
		return types.T{}, types.T{}, types.T{}, unsupported("%% on %s", result.Name())
	}
	return lt, rt, types.T{OID: result.OID}, nil
}

func isDatetime(t types.T) bool {
	switch t.Family() {
	case types.FamilyDate, types.FamilyTimestamp, types.FamilyTime:
		return true
	}
	return t.OID == timeTZ.OID
}

// datetimeArithmetic resolves the date, time and interval operators;
// ok is false when neither operand is one of those types.
func datetimeArithmetic(op string, l, r types.T) (types.T, types.T, types.T, bool) {
	lf, rf := l.Family(), r.Family()
	switch {
	case lf == types.FamilyTimestamp && rf == types.FamilyInterval && (op == "+" || op == "-"):
		return l, r, l, true
	case lf == types.FamilyInterval && rf == types.FamilyTimestamp && op == "+":
		return l, r, r, true
	case lf == types.FamilyTimestamp && l.OID == r.OID && op == "-":
		return l, r, types.Interval, true
	case lf == types.FamilyDate && numericRank(r).isInt() && (op == "+" || op == "-"):
		return l, types.Int4, l, true
	case numericRank(l).isInt() && rf == types.FamilyDate && op == "+":
		return types.Int4, r, r, true
	case lf == types.FamilyDate && rf == types.FamilyDate && op == "-":
		return l, r, types.Int4, true
	case lf == types.FamilyDate && rf == types.FamilyInterval && (op == "+" || op == "-"):
		return l, r, types.Timestamp, true
	case lf == types.FamilyDate && rf == types.FamilyTime && op == "+":
		return l, r, types.Timestamp, true
	case lf == types.FamilyTime && rf == types.FamilyInterval && (op == "+" || op == "-"):
		return l, r, l, true
	case lf == types.FamilyTime && rf == types.FamilyTime && op == "-":
		return l, r, types.Interval, true
	case lf == types.FamilyInterval && rf == types.FamilyInterval && (op == "+" || op == "-"):
		return l, r, l, true
	case lf == types.FamilyInterval && numericRank(r).ok() && (op == "*" || op == "/"):
		return l, types.Float8, l, true
	case numericRank(l).ok() && rf == types.FamilyInterval && op == "*":
		return types.Float8, r, r, true
	}
	return types.T{}, types.T{}, types.T{}, false
}

// commonType is select_common_type: text for untyped literals alone,
// else the type every other converts to implicitly.
func commonType(ts []types.T) (types.T, error) {
	var out types.T
	for _, t := range ts {
		switch {
		case t.OID == types.OIDUnknown:
		case out.OID == 0, out == t:
			out = t
		case out.OID == t.OID:
			out = types.T{OID: t.OID}
		case numericRank(out).ok() && numericRank(t).ok():
			if numericRank(t) > numericRank(out) {
				out = types.T{OID: t.OID}
			}
		case out.Family() == types.FamilyString && t.Family() == types.FamilyString:
			if t.OID == types.OIDText {
				out = types.Text
			}
		case isDatetime(out) && isDatetime(t):
			if datetimeRank(t) > datetimeRank(out) {
				out = t
			}
		default:
			return types.T{}, unsupported("no common type for %s and %s", out.Name(), t.Name())
		}
	}
	if out.OID == 0 {
		return types.Text, nil
	}
	return out, nil
}

// datetimeRank orders date < timestamp < timestamptz.
func datetimeRank(t types.T) int {
	switch t.OID {
	case types.OIDDate:
		return 1
	case types.OIDTimestamp:
		return 2
	case types.OIDTimestampTZ:
		return 3
	}
	return 0
}
