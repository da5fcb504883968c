package policy

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// A rename takes an object out of every policy that named it under its
// old name. Gate two's policies follow Ranger's hive model, where a
// policy names a database (namespace), table and column by value, so
// each store works out from the policies themselves which ones a rename
// touches: planRename below, shared by the embedded store (which follows
// the rename) and the Ranger store (which refuses it).

// renameEdit is how a rename changes one policy.
type renameEdit struct {
	original ranger.Policy
	// widened covers the object under both names; it is written before
	// the catalog renames.
	widened ranger.Policy
	// final is the policy once the rename is made: the old name dropped
	// where the policy named only that object, expressions naming a
	// renamed column rewritten.
	final ranger.Policy
}

// renameLevel is the resource level a rename moves and the levels above
// it, with the values the object has there.
type renameLevel struct {
	level   string
	parents [][2]string // level, value
}

func levelOf(r governance.ObjectRename) renameLevel {
	switch r.Kind {
	case governance.RenameNamespace:
		return renameLevel{level: "database"}
	case governance.RenameTable:
		return renameLevel{level: "table", parents: [][2]string{{"database", r.Namespace}}}
	default:
		return renameLevel{level: "column", parents: [][2]string{{"database", r.Namespace}, {"table", r.Table}}}
	}
}

// planRename works out how the rename r changes policies: the edits for
// the policies it touches, or a refusal (42501) naming a policy that
// would stop applying and cannot be made to follow.
func planRename(lv *ranger.LevelValues, policies []ranger.Policy, r governance.ObjectRename) ([]renameEdit, error) {
	var edits []renameEdit
	for _, p := range policies {
		e, err := planPolicyRename(lv, p, r)
		if err != nil {
			return nil, err
		}
		if e != nil {
			edits = append(edits, *e)
		}
	}
	return edits, nil
}

// planPolicyRename is planRename for one policy: nil when the rename
// leaves it as it is.
func planPolicyRename(lv *ranger.LevelValues, p ranger.Policy, r governance.ObjectRename) (*renameEdit, error) {
	if IsTagPolicy(&p) {
		// A tag policy follows its tag, which follows the column by field
		// id; only an expression that names the column by name is lost.
		if r.Kind == governance.RenameColumn && expressionsName(&p, r.From) {
			return nil, renameRefusal(r, p.Name, "Its expression names the column, and a tag policy applies to every table whose columns carry its tag.")
		}
		return nil, nil
	}
	widenedCopy, err := clonePolicy(p)
	if err != nil {
		return nil, err
	}
	finalCopy, err := clonePolicy(p)
	if err != nil {
		return nil, err
	}
	e := renameEdit{original: p, widened: widenedCopy, final: finalCopy}
	rl := levelOf(r)
	changed := false
	widenedSets, finalSets := resourceSets(&e.widened), resourceSets(&e.final)
	for i, rs := range resourceSets(&p) {
		res, ok := rs[rl.level]
		if !ok || !parentsMatch(lv, p.PolicyType, rs, rl.parents) {
			continue
		}
		if !lv.Matches(p.PolicyType, rl.level, res, r.From) || lv.Matches(p.PolicyType, rl.level, res, r.To) {
			continue // it does not cover the object, or covers both names
		}
		if res.IsExcludes {
			return nil, renameRefusal(r, p.Name, fmt.Sprintf("It applies to every %s except those it lists, and it lists the new name.", rl.level))
		}
		widened := widenedSets[i][rl.level]
		widened.Values = append(slices.Clone(res.Values), r.To)
		widenedSets[i][rl.level] = widened
		final := finalSets[i][rl.level]
		final.Values = slices.Clone(widened.Values)
		if parentsPinned(lv, p.PolicyType, rs, rl.parents) {
			// The policy names only this object's parents, so its old
			// name stands for nothing else once the object is renamed.
			final.Values = slices.DeleteFunc(final.Values, func(v string) bool {
				return lv.IsLiteral(p.PolicyType, rl.level, v) && lv.SameName(p.PolicyType, rl.level, v, r.From)
			})
		}
		finalSets[i][rl.level] = final
		changed = true
	}
	if r.Kind == governance.RenameColumn && p.PolicyType != ranger.PolicyTypeAccess && coversTable(lv, &p, r) && expressionsName(&p, r.From) {
		// The expression is the policy's for every table it covers: it
		// can follow the rename only when this table is the only one.
		sets := resourceSets(&p)
		if len(sets) != 1 || !parentsPinned(lv, p.PolicyType, sets[0], [][2]string{{"database", r.Namespace}, {"table", r.Table}}) {
			return nil, renameRefusal(r, p.Name, "Its expression names the column, and it applies to other tables too.")
		}
		renameExpressions(&e.final, r.From, r.To)
		changed = true
	}
	if !changed {
		return nil, nil
	}
	followColumnDenyName(&p, &e.final)
	return &e, nil
}

// followColumnDenyName renames a column restriction that SQL wrote, which
// is named after its column (ColumnDenyName) so that DENY and REVOKE find
// it, after the column it names once renamed.
func followColumnDenyName(original, final *ranger.Policy) {
	from, ok := singleColumnTarget(original)
	if !ok || original.Name != ColumnDenyName(from) {
		return
	}
	if to, ok := singleColumnTarget(final); ok {
		final.Name = ColumnDenyName(to)
	}
}

// singleColumnTarget is the one column an access policy names, when it
// names exactly one database, table and column.
func singleColumnTarget(p *ranger.Policy) (Target, bool) {
	if p.PolicyType != ranger.PolicyTypeAccess || len(p.AdditionalResources) > 0 || len(p.Resources) != 3 {
		return Target{}, false
	}
	var t Target
	for level, dst := range map[string]*string{"database": &t.Database, "table": &t.Table, "column": &t.Column} {
		r, ok := p.Resources[level]
		if !ok || r.IsExcludes || len(r.Values) != 1 {
			return Target{}, false
		}
		*dst = r.Values[0]
	}
	return t, true
}

// renameRefusal is the error of a rename that would make the policy
// named policy stop applying.
func renameRefusal(r governance.ObjectRename, policy, why string) error {
	return pgerror.New(pgerror.InsufficientPrivilege, "cannot rename %s: policy \"%s\" would stop applying to it", r, policy).
		WithDetail("%s", why).
		WithHint("Change or drop the policy first, then rename.")
}

// resourceSets are the policy's resource sets: its resources and each of
// its additional resources. The maps are the policy's own.
func resourceSets(p *ranger.Policy) []map[string]ranger.PolicyResource {
	out := []map[string]ranger.PolicyResource{p.Resources}
	return append(out, p.AdditionalResources...)
}

// parentsMatch reports whether the resource set covers the object's
// parents.
func parentsMatch(lv *ranger.LevelValues, policyType int, rs map[string]ranger.PolicyResource, parents [][2]string) bool {
	for _, pv := range parents {
		res, ok := rs[pv[0]]
		if !ok || !lv.Matches(policyType, pv[0], res, pv[1]) {
			return false
		}
	}
	return true
}

// parentsPinned reports whether the resource set names exactly the
// object's parents and nothing else at their levels.
func parentsPinned(lv *ranger.LevelValues, policyType int, rs map[string]ranger.PolicyResource, parents [][2]string) bool {
	for _, pv := range parents {
		res, ok := rs[pv[0]]
		if !ok || !lv.NamesOnly(policyType, pv[0], res, pv[1]) {
			return false
		}
	}
	return true
}

// coversTable reports whether any of the policy's resource sets covers
// the table a column rename is in.
func coversTable(lv *ranger.LevelValues, p *ranger.Policy, r governance.ObjectRename) bool {
	for _, rs := range resourceSets(p) {
		if parentsMatch(lv, p.PolicyType, rs, [][2]string{{"database", r.Namespace}, {"table", r.Table}}) {
			return true
		}
	}
	return false
}

// policyExpressions are pointers to every SQL expression of the policy:
// row filters, mask conditions and custom mask values.
func policyExpressions(p *ranger.Policy) []*string {
	var out []*string
	for i := range p.RowFilterPolicyItems {
		out = append(out, &p.RowFilterPolicyItems[i].RowFilterInfo.FilterExpr)
	}
	for i := range p.DataMaskPolicyItems {
		info := &p.DataMaskPolicyItems[i].DataMaskInfo
		out = append(out, &info.ConditionExpr, &info.ValueExpr)
	}
	return out
}

// expressionsName reports whether any of the policy's expressions names
// the column.
func expressionsName(p *ranger.Policy, column string) bool {
	for _, e := range policyExpressions(p) {
		if _, ok := renameColumnIn(*e, column, column); ok {
			return true
		}
	}
	return false
}

// renameExpressions rewrites the policy's expressions to name the column
// from as to.
func renameExpressions(p *ranger.Policy, from, to string) {
	for _, e := range policyExpressions(p) {
		*e, _ = renameColumnIn(*e, from, to)
	}
}

// clonePolicy is a deep copy of p, so that the edits of a rename never
// reach the snapshot it was planned from.
func clonePolicy(p ranger.Policy) (ranger.Policy, error) {
	var out ranger.Policy
	b, err := json.Marshal(p)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		return ranger.Policy{}, fmt.Errorf("copy policy %s: %w", p.Name, err)
	}
	return out, nil
}

// RefuseRename is the rename check of a store that cannot rewrite its
// policies in the same statement (policies kept in Ranger, which other
// engines read too): it refuses (42501) a rename that any policy of snap
// would stop applying to, naming the policy.
func RefuseRename(snap *Snapshot, r governance.ObjectRename) error {
	lv, err := ranger.NewLevelValues(snap.ServiceDef)
	if err != nil {
		return err
	}
	policies := append(slices.Clone(snap.Policies), snap.TagPolicies...)
	edits, err := planRename(lv, policies, r)
	if err != nil {
		return err
	}
	if len(edits) > 0 {
		return renameRefusal(r, edits[0].original.Name, "The policy is kept in Ranger by name; SQE does not rewrite it.")
	}
	return nil
}
