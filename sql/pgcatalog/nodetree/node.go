package nodetree

import (
	"encoding/json"
	"fmt"

	"github.com/sqe-db/sqe/sql/types"
)

// Kind names a node as PostgreSQL's primnodes.h does.
type Kind string

const (
	// Const is a constant: Value is the type's output text ("t" / "f"
	// for boolean), or Null is set.
	Const Kind = "Const"
	// FuncExpr is a function call: Name(Args...), or with SQLSyntax the
	// SQL-standard form it was written in (TRIM(BOTH FROM x)).
	FuncExpr Kind = "FuncExpr"
	// CastFunc converts Args[0] to Type through a cast function, or to
	// Type's modifier (a length coercion); Explicit says the user wrote
	// the cast rather than the analysis adding it.
	CastFunc Kind = "CastFunc"
	// Relabel converts Args[0] to Type without a function: a
	// binary-compatible relabelling or an I/O conversion (RelabelType,
	// CoerceViaIO), which print like CastFunc but take parentheses
	// differently.
	Relabel Kind = "Relabel"
	// OpExpr applies operator Name to Args: two, or one for a prefix
	// operator.
	OpExpr Kind = "OpExpr"
	// BoolExpr is AND / OR over Args, or NOT of Args[0] (Name).
	BoolExpr Kind = "BoolExpr"
	// NullTest is Args[0] IS [NOT] NULL (Name: "IS NULL", "IS NOT NULL").
	NullTest Kind = "NullTest"
	// BooleanTest is Args[0] IS [NOT] TRUE / FALSE / UNKNOWN (Name).
	BooleanTest Kind = "BooleanTest"
	// SQLValueFunction is CURRENT_DATE, CURRENT_USER and kin (Name, with
	// its precision when written with one: "CURRENT_TIMESTAMP(3)").
	SQLValueFunction Kind = "SQLValueFunction"
	// CaseExpr is CASE [Arg] WHEN Args[0] THEN Args[1] ... ELSE Default
	// END.
	CaseExpr Kind = "CaseExpr"
	// CoalesceExpr is COALESCE(Args...).
	CoalesceExpr Kind = "CoalesceExpr"
	// MinMaxExpr is GREATEST or LEAST (Name) of Args.
	MinMaxExpr Kind = "MinMaxExpr"
	// NullIfExpr is NULLIF(Args[0], Args[1]).
	NullIfExpr Kind = "NullIfExpr"
	// ArrayExpr is ARRAY[Args...].
	ArrayExpr Kind = "ArrayExpr"
	// Verbatim is an expression kept as its SQL text (Value), for one
	// Analyze cannot reproduce PostgreSQL's analysis of.
	Verbatim Kind = "Verbatim"
)

// Node is one node of an analysed expression.
type Node struct {
	Kind Kind `json:"kind"`
	// Type is the node's result type; Unknown for an untyped literal.
	Type      types.T `json:"type"`
	Value     string  `json:"value,omitempty"`
	Null      bool    `json:"null,omitempty"`
	Name      string  `json:"name,omitempty"`
	Explicit  bool    `json:"explicit,omitempty"`
	SQLSyntax bool    `json:"sql_syntax,omitempty"`
	Args      []*Node `json:"args,omitempty"`
	// Arg is a simple CASE's operand and Default its ELSE result.
	Arg     *Node `json:"arg,omitempty"`
	Default *Node `json:"default,omitempty"`
}

// Encode is the tree as adbin holds it.
func (n *Node) Encode() string {
	b, err := json.Marshal(n)
	if err != nil {
		// A Node holds only strings, numbers, booleans and Nodes.
		panic(fmt.Sprintf("encode expression tree: %v", err))
	}
	return string(b)
}

// Decode reads a tree Encode wrote.
func Decode(s string) (*Node, error) {
	var n Node
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		return nil, fmt.Errorf("decode expression tree: %w", err)
	}
	if err := n.check(); err != nil {
		return nil, fmt.Errorf("decode expression tree: %w", err)
	}
	return &n, nil
}

// check verifies the shape each kind's printer relies on.
func (n *Node) check() error {
	want := -1 // any number of arguments
	switch n.Kind {
	case Const, SQLValueFunction, Verbatim:
		want = 0
	case CastFunc, Relabel, NullTest, BooleanTest:
		want = 1
	case NullIfExpr:
		want = 2
	case OpExpr:
		if len(n.Args) != 1 && len(n.Args) != 2 {
			return fmt.Errorf("operator %s with %d arguments", n.Name, len(n.Args))
		}
	case BoolExpr:
		if len(n.Args) == 0 || (n.Name == "NOT" && len(n.Args) != 1) {
			return fmt.Errorf("%s with %d arguments", n.Name, len(n.Args))
		}
	case CaseExpr:
		if len(n.Args) == 0 || len(n.Args)%2 != 0 || n.Default == nil {
			return fmt.Errorf("CASE with %d WHEN parts", len(n.Args))
		}
	case FuncExpr:
		if n.SQLSyntax && !sqlSyntaxArgs(n) {
			return fmt.Errorf("%s with %d arguments in SQL syntax", n.Name, len(n.Args))
		}
	case CoalesceExpr, MinMaxExpr, ArrayExpr:
	default:
		return fmt.Errorf("unknown node kind %q", n.Kind)
	}
	if want >= 0 && len(n.Args) != want {
		return fmt.Errorf("%s with %d arguments", n.Kind, len(n.Args))
	}
	for _, a := range n.Args {
		if a == nil {
			return fmt.Errorf("%s with a missing argument", n.Kind)
		}
		if err := a.check(); err != nil {
			return err
		}
	}
	for _, a := range []*Node{n.Arg, n.Default} {
		if a != nil {
			if err := a.check(); err != nil {
				return err
			}
		}
	}
	return nil
}

// sqlSyntaxArgs reports whether a function in SQL syntax has the
// arguments its printed form takes.
func sqlSyntaxArgs(n *Node) bool {
	switch n.Name {
	case "btrim", "ltrim", "rtrim":
		return len(n.Args) == 1 || len(n.Args) == 2
	case "substring":
		return len(n.Args) == 2 || len(n.Args) == 3
	case "position":
		return len(n.Args) == 2
	case "extract":
		return len(n.Args) == 2 && n.Args[0] != nil && n.Args[0].Kind == Const
	}
	return false
}
