package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// MergeAction is what a WHEN clause of MERGE does.
type MergeAction int

// The actions of MERGE's WHEN clauses.
const (
	MergeNothing MergeAction = iota
	MergeUpdate
	MergeDelete
	MergeInsert
)

// MergePlan is a bound MERGE. Matches is the source left-joined with the
// target's candidate rows on the join condition: per joined row, the
// target row id (NULL when no target row matched), the new image of
// every table column (for an UPDATE or INSERT action), and last the
// 1-based index into Actions of the WHEN clause that applies (NULL when
// none does).
type MergePlan struct {
	Table   Table
	Target  *WorkTable
	Matches Node
	Actions []MergeAction
}

// BindMerge binds MERGE INTO tbl USING source ON cond WHEN ... as
// PostgreSQL 15 does; defaults holds the DEFAULT expression of the
// columns that have one, by column index.
func (b *Binder) BindMerge(stmt *pg_query.MergeStmt, tbl Table, defaults map[int]*pg_query.Node) (*MergePlan, error) {
	if stmt.WithClause != nil {
		return nil, pgerror.Unsupported("WITH in MERGE is not supported yet")
	}
	t, err := b.bindRewriteTarget(stmt.Relation, tbl, "MERGE")
	if err != nil {
		return nil, err
	}
	if t.policy != nil {
		// New rows would need the policy's check; refuse rather than let
		// MERGE write rows its user could not see.
		return nil, pgerror.New(pgerror.InsufficientPrivilege, "permission denied for table %s", stmt.Relation.Relname).
			WithDetail("MERGE is not allowed on a table with a row policy for this user.")
	}
	src, ssc, err := b.bindFromItem(stmt.SourceRelation)
	if err != nil {
		return nil, err
	}
	if err := checkDistinctQualifiers(t.user, ssc); err != nil {
		return nil, err
	}
	sc := ssc.concat(t.user)
	on, err := b.bindExpr(stmt.JoinCondition, &exprCtx{scope: sc, clause: "JOIN/ON"})
	if err != nil {
		return nil, err
	}
	if on, err = b.requireBool(on, 0, "JOIN/ON"); err != nil {
		return nil, err
	}
	join := &Join{Left: src, Right: t.node, Kind: LeftJoin, On: on}

	ins := &insertBinding{b: b, tbl: tbl, tcols: tbl.Columns(), defaults: defaults, relname: stmt.Relation.Relname}
	rowID := &ColRef{ID: t.rowID.ID, Name: t.rowID.Name, Typ: t.rowID.Type}
	plan := &MergePlan{Table: tbl, Target: t.work}
	var guards []Expr
	var images [][]Expr // per clause; nil for DELETE and DO NOTHING
	for _, n := range stmt.MergeWhenClauses {
		w := n.GetMergeWhenClause()
		if w == nil {
			return nil, b.unsupportedNode(n)
		}
		guard := Expr(&IsNull{Arg: rowID, Negated: w.Matched})
		if w.Condition != nil {
			c, err := b.bindExpr(w.Condition, &exprCtx{scope: sc, clause: "WHEN"})
			if err != nil {
				return nil, err
			}
			if c, err = b.requireBool(c, 0, "WHEN"); err != nil {
				return nil, err
			}
			guard = b.and(guard, c)
		}
		var img []Expr
		var action MergeAction
		switch w.CommandType {
		case pg_query.CmdType_CMD_UPDATE:
			action = MergeUpdate
			if img, err = b.bindSetClause(ins, t, sc, w.TargetList); err != nil {
				return nil, err
			}
		case pg_query.CmdType_CMD_DELETE:
			action = MergeDelete
		case pg_query.CmdType_CMD_INSERT:
			action = MergeInsert
			if img, err = b.bindMergeInsert(ins, ssc, w); err != nil {
				return nil, err
			}
		case pg_query.CmdType_CMD_NOTHING:
			action = MergeNothing
		default:
			return nil, b.unsupportedNode(n)
		}
		plan.Actions = append(plan.Actions, action)
		guards = append(guards, guard)
		images = append(images, img)
	}
	plan.Matches = b.mergeProject(t, join, guards, images)
	b.settleParams()
	return plan, nil
}

// bindMergeInsert binds WHEN NOT MATCHED THEN INSERT [(cols)] VALUES
// (...) | DEFAULT VALUES over the source's columns: the new row, in
// table order, with defaults for the columns not given.
func (b *Binder) bindMergeInsert(ins *insertBinding, ssc *scope, w *pg_query.MergeWhenClause) ([]Expr, error) {
	if w.Override != pg_query.OverridingKind_OVERRIDING_NOT_SET {
		return nil, pgerror.Unsupported("OVERRIDING is not supported")
	}
	if len(w.Values) == 0 && len(w.TargetList) == 0 {
		return ins.fullRow(nil, nil)
	}
	targets, locs, err := ins.targetColumns(w.TargetList)
	if err != nil {
		return nil, err
	}
	var extra int32 = -1
	if len(w.Values) > len(targets) {
		extra = firstLocation(w.Values[len(targets):])
	}
	filled, err := ins.checkArity(len(w.Values), extra, targets, locs, len(w.TargetList) > 0)
	if err != nil {
		return nil, err
	}
	given := make([]Expr, len(w.Values))
	for i, v := range w.Values {
		col := filled[i]
		if v.GetSetToDefault() != nil {
			if given[i], err = ins.defaultFor(col); err != nil {
				return nil, err
			}
			continue
		}
		e, err := b.bindExpr(v, &exprCtx{scope: ssc, clause: "VALUES"})
		if err != nil {
			return nil, err
		}
		if given[i], err = ins.assign(e, col, firstLocation([]*pg_query.Node{v})); err != nil {
			return nil, err
		}
	}
	return ins.fullRow(filled, given)
}

// mergeProject builds Matches: the row id, each column's new value as a
// CASE over the clauses that write one (the first clause whose guard
// holds wins, as in the action column), and the action index.
func (b *Binder) mergeProject(t *rewriteTarget, input Node, guards []Expr, images [][]Expr) *Project {
	tcols := t.tbl.Columns()
	exprs := make([]Expr, len(tcols))
	for c, tc := range tcols {
		cs := &Case{Typ: tc.Type, Else: &Const{Typ: tc.Type}}
		for i, g := range guards {
			res := Expr(&Const{Typ: tc.Type})
			if images[i] != nil {
				res = images[i][c]
			}
			cs.Whens = append(cs.Whens, When{Cond: g, Result: res})
		}
		exprs[c] = cs
	}
	p := b.rowIDProject(t, input, exprs)
	t.writeBack(p.Cols[1 : 1+len(exprs)])
	action := &Case{Typ: types.Int8, Else: &Const{Typ: types.Int8}}
	for i, g := range guards {
		action.Whens = append(action.Whens, When{Cond: g, Result: &Const{Typ: types.Int8, Value: int64(i + 1)}})
	}
	p.Exprs = append(p.Exprs, action)
	p.Cols = append(p.Cols, b.newColumn("?action?", Column{Type: types.Int8, Nullable: true}))
	return p
}
