package policy

import (
	"context"
	"fmt"
	"slices"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/planner"
)

// Explanation is what a caller sees of a table under gate two, and the
// policies that decided it: SHOW ACCESS's answer to "what does this user
// see in that table".
type Explanation struct {
	// Store is the [policy] engine keeping the policies.
	Store string
	// Columns are the table's columns, in table order.
	Columns []ColumnAccess
	// RowFilters all apply: a row is seen when every one admits it.
	RowFilters []RowFilterAccess
	// NoRows is why no row is admitted whatever the policies say (fail
	// closed: the store unreachable, the tags unknown...), with its cause;
	// empty when the policies were evaluated.
	NoRows string
	// Roles are the caller's roles as policies and session functions saw
	// them, those the store's role download adds included.
	Roles []string
}

// How a column reaches the caller.
const (
	AccessRaw    = "raw"    // the stored value
	AccessMasked = "masked" // the value of a mask expression
	AccessHidden = "hidden" // not at all
)

// ColumnAccess is one column of an Explanation.
type ColumnAccess struct {
	Name   string
	Access string // AccessRaw, AccessMasked or AccessHidden
	// MaskType is the deciding mask policy's type (MASK_NONE for an
	// exemption, which leaves the column raw); empty when none applies.
	MaskType string
	// Expression replaces the column's value when it is masked.
	Expression string
	// Failure is why the mask could not be built, which makes the column
	// NULL; empty otherwise.
	Failure string
	Decider Decider
}

// RowFilterAccess is one row filter of an Explanation.
type RowFilterAccess struct {
	// Expression is the filter as it applies to the caller, session
	// functions folded; empty for an item without one, which admits every
	// row.
	Expression string
	Decider    Decider
}

// Decider is the policy that decided a column or a row filter.
type Decider struct {
	// Policy is its name, empty when no policy decided.
	Policy string
	// Tag is the tag a tag policy applied through; empty for a resource
	// policy.
	Tag string
}

// Explain evaluates gate two for id on t as Secure does, and describes
// the result and the policies behind it. Like Secure it never fails: a
// relation that admits no row is explained by NoRows.
func (e *Enforcer) Explain(ctx context.Context, id auth.Identity, t planner.Table) *Explanation {
	ev := e.evaluate(ctx, id, t)
	out := &Explanation{Store: e.cfg.Store.Engine(), Roles: ev.roles}
	if ev.closed != "" {
		out.NoRows = ev.closed
		if ev.err != nil {
			out.NoRows += ": " + ev.err.Error()
		}
	}
	for i, col := range t.Columns() {
		c := ColumnAccess{Name: col.Name, Access: AccessRaw}
		if i < len(ev.masks) && ev.masks[i].PolicyID >= 0 && ev.masks[i].MaskType != "" {
			res := ev.masks[i]
			c.MaskType = res.MaskType
			c.Decider = ev.decider(res.PolicyID, res.ByTag, res.Tag)
		}
		if expr, ok := ev.rel.Masks[i]; ok {
			c.Access, c.Expression = AccessMasked, expr
			if err := ev.maskFailures[i]; err != nil {
				c.Failure = err.Error()
			}
		}
		if !slices.Contains(ev.rel.Visible, i) {
			c = ColumnAccess{Name: col.Name, Access: AccessHidden}
			if res, ok := ev.restrictions[i]; ok {
				c.Decider = ev.decider(res.PolicyID, res.ByTag, "")
			}
		}
		out.Columns = append(out.Columns, c)
	}
	for i, f := range ev.filters {
		out.RowFilters = append(out.RowFilters, RowFilterAccess{
			Expression: ev.filterExprs[i],
			Decider:    ev.decider(f.PolicyID, f.ByTag, f.Tag),
		})
	}
	return out
}

// decider names the policy the evaluator reported by id: a tag policy's
// among the snapshot's tag policies, any other's among its resource
// policies (the embedded store numbers both by position in the snapshot,
// Ranger by its own ids).
func (ev *evaluation) decider(id int64, byTag bool, tag string) Decider {
	policies := ev.snap.Policies
	if byTag {
		policies = ev.snap.TagPolicies
	}
	for _, p := range policies {
		if p.ID == id {
			return Decider{Policy: p.Name, Tag: tag}
		}
	}
	return Decider{Policy: fmt.Sprintf("policy id %d", id), Tag: tag}
}
