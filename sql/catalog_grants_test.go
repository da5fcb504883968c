package sql

import (
	"slices"
	"testing"

	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql/pgcatalog"
)

func TestCatalogGrantsEntries(t *testing.T) {
	rules, err := loadACLRules()
	if err != nil {
		t.Fatal(err)
	}
	res := func(ns, table string) grants.Resource {
		return grants.Resource{Root: "*", Catalog: "wh", Namespace: ns, Table: table}
	}
	row := func(r grants.Resource, kind, grantee, accessType, effect string, grantable bool) access.GrantRow {
		return access.GrantRow{AccessType: accessType, Object: r.String(), Resource: r, GranteeKind: kind, Grantee: grantee,
			Effect: effect, Grantable: grantable, GrantedBy: "carol"}
	}
	rows := []access.GrantRow{
		row(res("", ""), "ROLE", "eng", "namespace-create", "ALLOW", false),
		row(res("s", ""), "USER", "alice", "namespace-properties-read", "ALLOW", false),
		row(res("s", ""), "ROLE", "eng", "table-create", "ALLOW", false),
		row(res("s", "t"), "USER", "alice", "table-data-read", "ALLOW", false),
		row(res("s", "t"), "USER", "bob", "table-data-write", "ALLOW", true),
		row(res("s", "t"), "USER", "dave", "table-data-read", "ALLOW", false),
		row(res("s", "t"), "USER", "dave", "table-data-read", "DENY", false),
		// Every table of s, by a wildcard.
		row(res("s", "*"), "ROLE", "analyst", "table-data-read", "ALLOW", false),
		// A view's SELECT is view-properties-read: table-data-read gives
		// none on a view.
		row(res("s", "v"), "USER", "alice", "view-properties-read", "ALLOW", false),
		// A grant on another table never shows on t.
		row(res("s", "u"), "USER", "erin", "table-data-read", "ALLOW", false),
	}
	g := newCatalogGrants("wh", rules, rows)
	tests := []struct {
		name string
		got  func() []string
		want []string
	}{
		{"table t", func() []string { return itemTexts(g.Relation("s", "t", false)) },
			[]string{"alice=r/carol", "analyst=r/carol", "bob=a*r*w*d*D*/carol"}},
		{"table u", func() []string { return itemTexts(g.Relation("s", "u", false)) },
			[]string{"analyst=r/carol", "erin=r/carol"}},
		{"view v", func() []string { return itemTexts(g.Relation("s", "v", true)) }, []string{"alice=r/carol"}},
		{"schema s", func() []string { return itemTexts(g.Namespace("s")) }, []string{"alice=U/carol", "eng=C/carol"}},
		{"other schema", func() []string { return itemTexts(g.Namespace("x")) }, nil},
		{"database", func() []string { return itemTexts(g.Database("wh")) }, []string{"eng=C/carol"}},
		{"other database", func() []string { return itemTexts(g.Database("other")) }, nil},
	}
	for _, tt := range tests {
		if got := tt.got(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	var names []string
	for _, gr := range g.Grantees() {
		names = append(names, gr.Name)
	}
	// The grantees, then the grantors.
	if want := []string{"eng", "alice", "bob", "dave", "analyst", "erin", "carol"}; !slices.Equal(names, want) {
		t.Errorf("grantees %v, want %v", names, want)
	}
}

// itemTexts is each aclitem as text.
func itemTexts(items []pgcatalog.ACLItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.String())
	}
	return out
}
