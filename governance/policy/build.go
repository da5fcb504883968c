package policy

import (
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/ranger"
)

// A policy statement (CREATE POLICY, the older GRANT ... ROWS WHERE /
// MASKED WITH forms, the demo) is written as one Ranger policy with one
// item naming its grantees, as Ranger's console would write it, so that
// Spark reading the same service enforces the same thing.

// Grantee is a user, role or group a policy applies to (gate one's
// grantee: the SQL surface names them alike).
type Grantee = grants.Grantee

// Target is what a policy protects: a table (Database = the Iceberg
// namespace, as Ranger's hive model names it), one of its columns, or a
// tag.
type Target struct {
	Database, Table, Column string
	Tag                     string
}

// RowFilter builds a row-filter policy: rows of target for which expr
// is true, for the grantees.
func RowFilter(name string, target Target, grantees []Grantee, expr string) (ranger.Policy, error) {
	p, err := newPolicy(name, ranger.PolicyTypeRowFilter, target, false)
	if err != nil {
		return p, err
	}
	p.RowFilterPolicyItems = []ranger.RowFilterPolicyItem{{PolicyItem: item(grantees), RowFilterInfo: ranger.RowFilterInfo{FilterExpr: expr}}}
	return p, nil
}

// ColumnMask builds a data-mask policy: the grantees see target's column
// (or every column tagged target.Tag) through maskType; customExpr is
// CUSTOM's expression with {col} for the column. A tag policy's mask type
// is component-qualified ("hive:MASK_SHOW_LAST_4"), as the tag service
// defines only qualified names.
func ColumnMask(name string, target Target, grantees []Grantee, maskType, customExpr string) (ranger.Policy, error) {
	p, err := newPolicy(name, ranger.PolicyTypeDataMask, target, true)
	if err != nil {
		return p, err
	}
	if target.Tag != "" && !strings.Contains(maskType, ":") {
		maskType = "hive:" + maskType
	}
	p.DataMaskPolicyItems = []ranger.DataMaskPolicyItem{{PolicyItem: item(grantees),
		DataMaskInfo: ranger.DataMaskInfo{DataMaskType: maskType, ValueExpr: customExpr}}}
	return p, nil
}

func newPolicy(name string, typ int, target Target, column bool) (ranger.Policy, error) {
	p := ranger.Policy{Name: name, PolicyType: typ}
	switch {
	case target.Tag != "":
		p.Resources = map[string]ranger.PolicyResource{"tag": {Values: []string{target.Tag}}}
	case target.Database == "" || target.Table == "":
		return p, fmt.Errorf("policy %s names no table", name)
	case column && target.Column == "":
		return p, fmt.Errorf("policy %s names no column", name)
	default:
		p.Resources = map[string]ranger.PolicyResource{
			"database": {Values: []string{target.Database}},
			"table":    {Values: []string{target.Table}},
		}
		if column {
			p.Resources["column"] = ranger.PolicyResource{Values: []string{target.Column}}
		}
	}
	return p, nil
}

// item is a policy item granting select to the grantees.
func item(grantees []Grantee) ranger.PolicyItem {
	it := ranger.PolicyItem{Accesses: []ranger.PolicyItemAccess{{Type: "select"}}}
	for _, g := range grantees {
		switch g.Kind {
		case grants.GranteeUser:
			it.Users = append(it.Users, g.Name)
		case grants.GranteeGroup:
			it.Groups = append(it.Groups, g.Name)
		default:
			it.Roles = append(it.Roles, g.Name)
		}
	}
	return it
}
