package policy

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestRenameColumnIn(t *testing.T) {
	for _, c := range []struct {
		expr, from, to, want string
		found                bool
	}{
		{"region = 'EU'", "region", "area", "area = 'EU'", true},
		{"Region = 'EU' AND region <> 'x'", "region", "area", "area = 'EU' AND area <> 'x'", true},
		{`"region" = 'region'`, "region", "area", `area = 'region'`, true},
		{"region = 'EU'", "region", "Area", `"Area" = 'EU'`, true},
		{"region = 'EU'", "region", "select", `"select" = 'EU'`, true},
		{`"Email" IS NOT NULL`, "Email", "mail", "mail IS NOT NULL", true},
		{"email IS NOT NULL", "Email", "mail", "email IS NOT NULL", false}, // email is not "Email"
		{"owner = current_user()", "owner", "owned_by", "owned_by = current_user()", true},
		{"lower(region) = 'eu'", "lower", "x", "lower(region) = 'eu'", false}, // a function, not a column
		{"t.region = 'EU'", "region", "area", "t.region = 'EU'", false},       // qualified: not this column
		{"x::region = 1", "region", "area", "x::region = 1", false},           // a type name
		{"year > 2020", "year", "yr", "yr > 2020", true},                      // a non-reserved keyword as a column
		{"id = 1 AND 'unterminated", "id", "k", "id = 1 AND 'unterminated", false},
	} {
		got, found := renameColumnIn(c.expr, c.from, c.to)
		if got != c.want || found != c.found {
			t.Errorf("renameColumnIn(%q, %q, %q) = %q, %v; want %q, %v", c.expr, c.from, c.to, got, found, c.want, c.found)
		}
	}
}

// renamePolicy is a hive policy of the given type over resources
// (database, table, column; "" leaves a level out).
func renamePolicy(name string, policyType int, database, table, column string) ranger.Policy {
	res := map[string]ranger.PolicyResource{}
	for level, v := range map[string]string{"database": database, "table": table, "column": column} {
		if v != "" {
			res[level] = ranger.PolicyResource{Values: strings.Split(v, ",")}
		}
	}
	p := ranger.Policy{Name: name, PolicyType: policyType, Resources: res}
	item := ranger.PolicyItem{Roles: []string{"engineer"}, Accesses: []ranger.PolicyItemAccess{{Type: "select"}}}
	switch policyType {
	case ranger.PolicyTypeDataMask:
		p.DataMaskPolicyItems = []ranger.DataMaskPolicyItem{{PolicyItem: item, DataMaskInfo: ranger.DataMaskInfo{DataMaskType: "MASK_NULL"}}}
	case ranger.PolicyTypeRowFilter:
		p.RowFilterPolicyItems = []ranger.RowFilterPolicyItem{{PolicyItem: item, RowFilterInfo: ranger.RowFilterInfo{FilterExpr: "region = 'EU'"}}}
	default:
		p.DenyPolicyItems = []ranger.PolicyItem{item}
	}
	return p
}

func values(p ranger.Policy, level string) string {
	return strings.Join(p.Resources[level].Values, ",")
}

func TestPlanRename(t *testing.T) {
	hive, _, err := serviceDefs()
	if err != nil {
		t.Fatal(err)
	}
	lv, err := ranger.NewLevelValues(hive)
	if err != nil {
		t.Fatal(err)
	}
	column := governance.ObjectRename{Kind: governance.RenameColumn, Catalog: "wh", Namespace: "s", Table: "p", From: "email", To: "mail"}
	table := governance.ObjectRename{Kind: governance.RenameTable, Catalog: "wh", Namespace: "s", Table: "p", From: "p", To: "q"}
	namespace := governance.ObjectRename{Kind: governance.RenameNamespace, Catalog: "wh", Namespace: "s", From: "s", To: "t"}
	filterOn := func(p ranger.Policy, expr string) ranger.Policy {
		p.RowFilterPolicyItems[0].RowFilterInfo.FilterExpr = expr
		return p
	}
	tagPolicy := func(expr string) ranger.Policy {
		p := ranger.Policy{Name: "tag_filter", PolicyType: ranger.PolicyTypeRowFilter,
			Resources: map[string]ranger.PolicyResource{"tag": {Values: []string{"PII"}}}}
		p.RowFilterPolicyItems = []ranger.RowFilterPolicyItem{{RowFilterInfo: ranger.RowFilterInfo{FilterExpr: expr}}}
		return p
	}
	// Ranger's hive definition turns wildcards off for masks and row
	// filters, so the patterns are tried on access policies (column
	// restrictions), where they are on.
	for _, c := range []struct {
		name   string
		policy ranger.Policy
		rename governance.ObjectRename
		// level is the resource level checked; widened and final its
		// values before and after the rename; "" when the rename leaves
		// the policy alone.
		level, widened, final string
		// filter is the final row filter, when it changes.
		filter string
		// refused names the policy a refusal names.
		refused bool
	}{
		{name: "column mask follows", policy: renamePolicy("m", 1, "s", "p", "email"), rename: column,
			level: "column", widened: "email,mail", final: "mail"},
		{name: "one of several columns", policy: renamePolicy("m", 1, "s", "p", "phone,email"), rename: column,
			level: "column", widened: "phone,email,mail", final: "phone,mail"},
		{name: "case-insensitive column value", policy: renamePolicy("m", 1, "s", "p", "EMAIL"), rename: column,
			level: "column", widened: "EMAIL,mail", final: "mail"},
		{name: "column of every table keeps the old name", policy: renamePolicy("deny", 0, "s", "*", "email"), rename: column,
			level: "column", widened: "email,mail", final: "email,mail"},
		{name: "pattern gains the new name", policy: renamePolicy("deny", 0, "s", "p", "e*"), rename: column,
			level: "column", widened: "e*,mail", final: "e*,mail"},
		{name: "every column already covers it", policy: renamePolicy("deny", 0, "s", "p", "*"), rename: column},
		{name: "a pattern matching both names", policy: renamePolicy("deny", 0, "s", "p", "*mail"), rename: column},
		{name: "a mask's star is a name, not a pattern", policy: renamePolicy("m", 1, "s", "p", "*"), rename: column},
		{name: "several tables keep the old column name", policy: renamePolicy("m", 1, "s", "p,other", "email"), rename: column,
			level: "column", widened: "email,mail", final: "email,mail"},
		{name: "another table's column", policy: renamePolicy("m", 1, "s", "other", "email"), rename: column},
		{name: "another column", policy: renamePolicy("m", 1, "s", "p", "ssn"), rename: column},
		{name: "column restriction follows", policy: renamePolicy("deny_email", 0, "s", "p", "email"), rename: column,
			level: "column", widened: "email,mail", final: "mail"},
		{name: "excludes listing the new name", rename: column, refused: true,
			policy: func() ranger.Policy {
				p := renamePolicy("m", 1, "s", "p", "mail")
				p.Resources["column"] = ranger.PolicyResource{Values: []string{"mail"}, IsExcludes: true}
				return p
			}()},
		{name: "row filter expression follows", policy: filterOn(renamePolicy("f", 2, "s", "p", ""), "email LIKE '%@corp'"), rename: column,
			filter: "mail LIKE '%@corp'"},
		{name: "row filter on another column stays", policy: renamePolicy("f", 2, "s", "p", ""), rename: column},
		{name: "shared row filter expression refuses", policy: filterOn(renamePolicy("f", 2, "s", "p,other", ""), "email IS NOT NULL"), rename: column,
			refused: true},
		{name: "tag policy naming the column refuses", policy: tagPolicy("email IS NOT NULL"), rename: column, refused: true},
		{name: "tag policy follows its tag", policy: tagPolicy("region = 'EU'"), rename: column},
		{name: "table mask follows", policy: renamePolicy("m", 1, "s", "p", "email"), rename: table,
			level: "table", widened: "p,q", final: "q"},
		{name: "table filter follows", policy: renamePolicy("f", 2, "s", "p", ""), rename: table,
			level: "table", widened: "p,q", final: "q"},
		{name: "table of every database keeps the old name", policy: renamePolicy("deny", 0, "*", "p", "ssn"), rename: table,
			level: "table", widened: "p,q", final: "p,q"},
		{name: "every table already covers it", policy: renamePolicy("deny", 0, "s", "*", "ssn"), rename: table},
		{name: "namespace follows", policy: renamePolicy("m", 1, "s", "p", "email"), rename: namespace,
			level: "database", widened: "s,t", final: "t"},
		{name: "other namespace", policy: renamePolicy("m", 1, "x", "p", "email"), rename: namespace},
	} {
		t.Run(c.name, func(t *testing.T) {
			original, err := clonePolicy(c.policy)
			if err != nil {
				t.Fatal(err)
			}
			edits, err := planRename(lv, []ranger.Policy{c.policy}, c.rename)
			if c.refused {
				if pgerror.Code(err) != pgerror.InsufficientPrivilege || !strings.Contains(err.Error(), `policy "`+c.policy.Name+`"`) {
					t.Fatalf("err %v, want 42501 naming %s", err, c.policy.Name)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.policy, original) {
				t.Fatalf("planRename changed the policy it was given")
			}
			if c.level == "" && c.filter == "" {
				if len(edits) != 0 {
					t.Fatalf("edits %+v, want none", edits)
				}
				return
			}
			if len(edits) != 1 {
				t.Fatalf("%d edits, want 1", len(edits))
			}
			e := edits[0]
			if c.level != "" {
				if got := values(e.widened, c.level); got != c.widened {
					t.Errorf("widened %s: %q, want %q", c.level, got, c.widened)
				}
				if got := values(e.final, c.level); got != c.final {
					t.Errorf("final %s: %q, want %q", c.level, got, c.final)
				}
			}
			if c.filter != "" {
				if got := e.final.RowFilterPolicyItems[0].RowFilterInfo.FilterExpr; got != c.filter {
					t.Errorf("final filter %q, want %q", got, c.filter)
				}
				if got := e.widened.RowFilterPolicyItems[0].RowFilterInfo.FilterExpr; got != c.policy.RowFilterPolicyItems[0].RowFilterInfo.FilterExpr {
					t.Errorf("the widened filter changed before the rename: %q", got)
				}
			}
		})
	}
}

// TestRefuseRename: the Ranger store's check refuses exactly the renames
// that would take an object out of a policy.
func TestRefuseRename(t *testing.T) {
	store := newMemStore(t, renamePolicy("orders_ssn", 1, "acdemo", "orders", "ssn"))
	snap, err := store.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rename  governance.ObjectRename
		refused bool
	}{
		{governance.ObjectRename{Kind: governance.RenameColumn, Namespace: "acdemo", Table: "orders", From: "ssn", To: "s"}, true},
		{governance.ObjectRename{Kind: governance.RenameColumn, Namespace: "acdemo", Table: "orders", From: "region", To: "r"}, false},
		{governance.ObjectRename{Kind: governance.RenameTable, Namespace: "acdemo", Table: "orders", From: "orders", To: "o"}, true},
		{governance.ObjectRename{Kind: governance.RenameTable, Namespace: "acdemo", Table: "sales", From: "sales", To: "s"}, false},
		{governance.ObjectRename{Kind: governance.RenameNamespace, Namespace: "acdemo", From: "acdemo", To: "a"}, true},
	} {
		err := RefuseRename(snap, c.rename)
		if c.refused != (err != nil) || (err != nil && pgerror.Code(err) != pgerror.InsufficientPrivilege) {
			t.Errorf("%s to %s: %v, refused want %v", c.rename, c.rename.To, err, c.refused)
		}
	}
}
