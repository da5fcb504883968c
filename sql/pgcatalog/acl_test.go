package pgcatalog

import (
	"context"
	"slices"
	"testing"
)

func TestACLItemText(t *testing.T) {
	tests := []struct {
		item ACLItem
		text string
	}{
		{ACLItem{Grantee: "alice", Grantor: "sqe", Privileges: "rwa"}, "alice=arw/sqe"},
		{ACLItem{Grantor: "sqe", Privileges: "r"}, "=r/sqe"},
		{ACLItem{Grantee: "Bob.X", Grantor: "sqe-demo-loader", Privileges: "rU", GrantOptions: "r"}, `"Bob.X"=r*U/"sqe-demo-loader"`},
		{ACLItem{Grantee: `say "hi"`, Grantor: "o_1", Privileges: "CTc", GrantOptions: "CTc"}, `"say ""hi"""=C*T*c*/o_1`},
		{ACLItem{Grantee: "Émile", Grantor: "sqe", Privileges: "d"}, `"Émile"=d/sqe`},
	}
	for _, tt := range tests {
		if got := tt.item.String(); got != tt.text {
			t.Errorf("%+v: %q, want %q", tt.item, got, tt.text)
		}
		back, err := ParseACLItem(tt.text)
		if err != nil {
			t.Errorf("parse %q: %v", tt.text, err)
			continue
		}
		if back.String() != tt.text {
			t.Errorf("parse %q: %+v prints %q", tt.text, back, back.String())
		}
	}
}

func TestParseACLItemRejects(t *testing.T) {
	for _, text := range []string{"alice", "alice=q/sqe", "alice=r/", `"alice=r/sqe`, "alice=r/sqe junk", "alice=*r/sqe"} {
		if item, err := ParseACLItem(text); err == nil {
			t.Errorf("%q parsed as %+v", text, item)
		}
	}
	item, err := ParseACLItem(" bob = r w ")
	if err == nil {
		t.Errorf("space between letters parsed as %+v", item)
	}
	if item, err := ParseACLItem("bob=r"); err != nil || item.Grantor != OwnerName {
		t.Errorf("no grantor: %+v, %v; want the owner", item, err)
	}
}

func TestACLDefault(t *testing.T) {
	tests := []struct {
		kind byte
		want []string
	}{
		{'r', []string{"sqe=arwdDxt/sqe"}},
		{'n', []string{"sqe=UC/sqe"}},
		{'d', []string{"=c/sqe", "sqe=CTc/sqe"}},
		{'f', []string{"=X/sqe", "sqe=X/sqe"}},
		{'T', []string{"=U/sqe", "sqe=U/sqe"}},
	}
	for _, tt := range tests {
		items, ok := ACLDefault(tt.kind, OwnerName)
		var got []string
		for _, it := range items {
			got = append(got, it.String())
		}
		if !ok || !slices.Equal(got, tt.want) {
			t.Errorf("acldefault(%c): %v %v, want %v", tt.kind, got, ok, tt.want)
		}
	}
	if _, ok := ACLDefault('z', OwnerName); ok {
		t.Error("acldefault('z') accepted")
	}
}

// fakeGrants gives orders two grantees and acdemo one.
type fakeGrants struct{}

func (fakeGrants) Relation(ns, name string, view bool) []ACLItem {
	if ns == "acdemo" && name == "orders" {
		return []ACLItem{{Grantee: "alice", Grantor: "carol", Privileges: "r"},
			{Grantee: "dave", Grantor: "carol", Privileges: "arwdD", GrantOptions: "r"}}
	}
	return nil
}
func (fakeGrants) Namespace(name string) []ACLItem {
	if name == "acdemo" {
		return []ACLItem{{Grantee: "analyst", Grantor: "carol", Privileges: "U"}}
	}
	return nil
}
func (fakeGrants) Database(string) []ACLItem { return nil }
func (fakeGrants) Grantees() []Grantee {
	return []Grantee{{Name: "alice", Login: true}, {Name: "dave", Login: true}, {Name: "analyst"}}
}

func TestACLColumns(t *testing.T) {
	src := fakeSource{grants: fakeGrants{}}
	tests := []struct {
		name, schema, rel, col, key, keyValue string
		want                                  []string
	}{
		{"relacl with grants", "pg_catalog", "pg_class", "relacl", "relname", "orders",
			[]string{`["sqe=arwdDxt/sqe","alice=r/carol","dave=ar*wdD/carol"]`}},
		{"relacl without grants", "pg_catalog", "pg_class", "relacl", "relname", "salaries", []string{"NULL"}},
		{"relacl of a catalog", "pg_catalog", "pg_class", "relacl", "relname", "pg_class", []string{`["sqe=arwdDxt/sqe","=r/sqe"]`}},
		{"nspacl", "pg_catalog", "pg_namespace", "nspacl", "nspname", "acdemo", []string{`["sqe=UC/sqe","analyst=U/carol"]`}},
		{"nspacl of pg_catalog", "pg_catalog", "pg_namespace", "nspacl", "nspname", "pg_catalog", []string{`["sqe=UC/sqe","=U/sqe"]`}},
		{"datacl without grants", "pg_catalog", "pg_database", "datacl", "datname", "sales_wh", []string{"NULL"}},
		{"grantees in pg_roles", "pg_catalog", "pg_roles", "rolcanlogin", "rolname", "dave", []string{"true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := column(scanAll(t, src, tt.schema, tt.rel), tt.col, tt.key, tt.keyValue)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	// Without grants (no gate one), every ACL of a stored object is NULL.
	got := column(scanAll(t, fakeSource{}, "pg_catalog", "pg_class"), "relacl", "relname", "orders")
	if !slices.Equal(got, []string{"NULL"}) {
		t.Errorf("relacl without gate one: %v", got)
	}
}

func TestTablePrivilegeRows(t *testing.T) {
	tests := []struct {
		name string
		src  fakeSource
		rows func(context.Context, Source) ([]row, error)
		want []string
	}{
		// alice (roles analyst, engineer) sees her own grant only; PUBLIC
		// rows of the catalogs are outside acdemo.
		{"alice", fakeSource{grants: fakeGrants{}}, tablePrivilegeRows, []string{"carol|alice|orders|SELECT|NO|YES"}},
		// A superuser sees every row, the owner's included.
		{"superuser", fakeSource{super: true, grants: fakeGrants{}}, roleTableGrantRows, []string{
			"carol|alice|orders|SELECT|NO|YES",
			"carol|dave|orders|DELETE|NO|NO", "carol|dave|orders|INSERT|NO|NO", "carol|dave|orders|SELECT|YES|YES",
			"carol|dave|orders|TRUNCATE|NO|NO", "carol|dave|orders|UPDATE|NO|NO",
			"sqe|sqe|orders|DELETE|YES|NO", "sqe|sqe|orders|INSERT|YES|NO", "sqe|sqe|orders|REFERENCES|YES|NO",
			"sqe|sqe|orders|SELECT|YES|YES", "sqe|sqe|orders|TRIGGER|YES|NO", "sqe|sqe|orders|TRUNCATE|YES|NO",
			"sqe|sqe|orders|UPDATE|YES|NO",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := tt.rows(context.Background(), tt.src)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				if r["table_schema"] != "acdemo" || r["table_name"] != "orders" {
					continue
				}
				got = append(got, r["grantor"].(string)+"|"+r["grantee"].(string)+"|"+r["table_name"].(string)+"|"+
					r["privilege_type"].(string)+"|"+r["is_grantable"].(string)+"|"+r["with_hierarchy"].(string))
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestColumnPrivilegeRows(t *testing.T) {
	tests := []struct {
		name string
		src  fakeSource
		rows func(context.Context, Source) ([]row, error)
		want []string
	}{
		// alice's SELECT on orders reaches each of its columns.
		{"alice", fakeSource{grants: fakeGrants{}}, columnPrivilegeRows, []string{
			"alice|amount|SELECT|NO", "alice|id|SELECT|NO", "alice|region|SELECT|NO",
		}},
		// dave's arwdD gives SELECT, INSERT and UPDATE on columns (DELETE
		// and TRUNCATE are table privileges only).
		{"superuser", fakeSource{super: true, grants: fakeGrants{}}, roleColumnGrantRows, []string{
			"alice|amount|SELECT|NO", "alice|id|SELECT|NO", "alice|region|SELECT|NO",
			"dave|amount|INSERT|NO", "dave|amount|SELECT|YES", "dave|amount|UPDATE|NO",
			"dave|id|INSERT|NO", "dave|id|SELECT|YES", "dave|id|UPDATE|NO",
			"dave|region|INSERT|NO", "dave|region|SELECT|YES", "dave|region|UPDATE|NO",
			"sqe|amount|INSERT|YES", "sqe|amount|REFERENCES|YES", "sqe|amount|SELECT|YES", "sqe|amount|UPDATE|YES",
			"sqe|id|INSERT|YES", "sqe|id|REFERENCES|YES", "sqe|id|SELECT|YES", "sqe|id|UPDATE|YES",
			"sqe|region|INSERT|YES", "sqe|region|REFERENCES|YES", "sqe|region|SELECT|YES", "sqe|region|UPDATE|YES",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := tt.rows(context.Background(), tt.src)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				if r["table_schema"] == "acdemo" && r["table_name"] == "orders" {
					got = append(got, r["grantee"].(string)+"|"+r["column_name"].(string)+"|"+
						r["privilege_type"].(string)+"|"+r["is_grantable"].(string))
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v\nwant %v", got, tt.want)
			}
		})
	}
}
