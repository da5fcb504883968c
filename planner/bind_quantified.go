package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// x op ANY (subquery) with an operator other than =, and x op ALL
// (subquery), are rewritten into EXISTS tests with SQL's three-valued
// answer:
//
//	x op ANY (S): true if some row satisfies x op v; else NULL if some
//	              comparison is NULL; else false (also for an empty S)
//	x op ALL (S): false if some row fails x op v; else NULL if some
//	              comparison is NULL; else true (also for an empty S)
//
// Each EXISTS is a correlated subquery over S, which SQE memoises per
// value of x. (= ANY keeps its hash-set path.)

const (
	quantifiedAlias  = "sqe_quantified"
	quantifiedColumn = "sqe_value"
)

// quantifiedSubLink returns the rewritten expression for sl, or nil when
// sl is not one of the forms above.
func quantifiedSubLink(sl *pg_query.SubLink) *pg_query.Node {
	op := ""
	if len(sl.OperName) > 0 {
		op = sl.OperName[len(sl.OperName)-1].GetString_().GetSval()
	}
	all := sl.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK
	if !all && (sl.SubLinkType != pg_query.SubLinkType_ANY_SUBLINK || op == "=" || op == "") {
		return nil
	}
	compare := func() *pg_query.Node {
		ref := &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{Fields: []*pg_query.Node{
			pg_query.MakeStrNode(quantifiedAlias), pg_query.MakeStrNode(quantifiedColumn)}, Location: -1}}}
		return &pg_query.Node{Node: &pg_query.Node_AExpr{AExpr: &pg_query.A_Expr{
			Kind: pg_query.A_Expr_Kind_AEXPR_OP, Name: sl.OperName,
			Lexpr: proto.Clone(sl.Testexpr).(*pg_query.Node), Rexpr: ref, Location: sl.Location}}}
	}
	exists := func(where *pg_query.Node) *pg_query.Node {
		from := &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
			Subquery: proto.Clone(sl.Subselect).(*pg_query.Node),
			Alias:    &pg_query.Alias{Aliasname: quantifiedAlias, Colnames: []*pg_query.Node{pg_query.MakeStrNode(quantifiedColumn)}},
		}}}
		sel := &pg_query.SelectStmt{
			TargetList:  []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(pg_query.MakeAConstIntNode(1, -1), -1)},
			FromClause:  []*pg_query.Node{from},
			WhereClause: where,
			Op:          pg_query.SetOperation_SETOP_NONE,
			LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
		}
		return &pg_query.Node{Node: &pg_query.Node_SubLink{SubLink: &pg_query.SubLink{
			SubLinkType: pg_query.SubLinkType_EXISTS_SUBLINK,
			Subselect:   &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}},
			Location:    sl.Location,
		}}}
	}
	boolConst := func(v bool) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{
			Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: v}}, Location: -1}}}
	}
	null := &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Isnull: true, Location: -1}}}
	unknown := &pg_query.Node{Node: &pg_query.Node_NullTest{NullTest: &pg_query.NullTest{
		Arg: compare(), Nulltesttype: pg_query.NullTestType_IS_NULL, Location: -1}}}
	decided := compare()
	if all {
		decided = &pg_query.Node{Node: &pg_query.Node_BoolExpr{BoolExpr: &pg_query.BoolExpr{
			Boolop: pg_query.BoolExprType_NOT_EXPR, Args: []*pg_query.Node{decided}, Location: -1}}}
	}
	return &pg_query.Node{Node: &pg_query.Node_CaseExpr{CaseExpr: &pg_query.CaseExpr{
		Args: []*pg_query.Node{
			{Node: &pg_query.Node_CaseWhen{CaseWhen: &pg_query.CaseWhen{Expr: exists(decided), Result: boolConst(!all), Location: -1}}},
			{Node: &pg_query.Node_CaseWhen{CaseWhen: &pg_query.CaseWhen{Expr: exists(unknown), Result: null, Location: -1}}},
		},
		Defresult: boolConst(all),
		Location:  sl.Location,
	}}}
}
