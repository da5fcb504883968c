package extgrammar

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestRoundTripProperty builds random statements, including names that
// need quoting (keywords, capitals, quotes, dots, non-ASCII letters,
// words of this grammar) and expressions with comments, quotes and
// nesting, and checks that each statement's SQL parses
// back to an equal statement.
func TestRoundTripProperty(t *testing.T) {
	g := statementGen{rand.New(rand.NewPCG(20, 26))}
	for range 3000 {
		stmt := g.statement()
		assertRoundTrip(t, stmt)
	}
}

// statementGen makes random valid statements.
type statementGen struct{ r *rand.Rand }

func (g statementGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

// name joins one to three pieces: plain words, keywords reserved or not,
// this grammar's own words, and characters that force quoting.
func (g statementGen) name() string {
	atoms := []string{
		"orders", "acdemo", "sales_wh", "Orders", "x", "t1", "_u", "select", "user", "role",
		"table", "view", "schema", "catalog", "database", "all", "future", "tables", "deny",
		"grants", "effective", "modify", "usage", "access", "with", "to", "on", "if", "type",
		`q"t`, "ñandú", "Ünï", "with.dot", "a$b", "1st", "a-b", "MiXeD", "current_user", "e",
	}
	var b strings.Builder
	for range 1 + g.r.IntN(3) {
		b.WriteString(g.pick(atoms))
	}
	return b.String()
}

// roleName is a name that is not one of the reserved role names.
func (g statementGen) roleName() string {
	for {
		if n := g.name(); n != "public" && n != "none" {
			return n
		}
	}
}

func (g statementGen) parts(max int) []string {
	out := make([]string, 1+g.r.IntN(max))
	for i := range out {
		out[i] = g.name()
	}
	return out
}

func (g statementGen) privilege() Privilege {
	k := PrivilegeKind(1 + g.r.IntN(int(PrivilegeNative)))
	if k != PrivilegeNative {
		return Privilege{Kind: k}
	}
	native := g.pick([]string{"table-data-read", "catalog-content-manage", "manage", "select",
		"read-2", "x.y", "table", "namespace-list", "usage", "modify"})
	return Privilege{Kind: PrivilegeNative, Native: native}
}

func (g statementGen) privileges() []Privilege {
	if g.r.IntN(8) == 0 {
		return []Privilege{{Kind: PrivilegeAll}}
	}
	var out []Privilege
	for range 1 + g.r.IntN(3) {
		if p := g.privilege(); p.Kind != PrivilegeAll {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		out = append(out, Privilege{Kind: PrivilegeSelect})
	}
	return out
}

// object is an object of a kind in [1, kinds].
func (g statementGen) object(kinds int) Object {
	k := ObjectKind(1 + g.r.IntN(kinds))
	return Object{Kind: k, Name: g.parts(k.maxParts())}
}

func (g statementGen) grantee() Grantee {
	k := GranteeKind(1 + g.r.IntN(3))
	if k == GranteeRole {
		return Grantee{Kind: k, Name: g.roleName()}
	}
	return Grantee{Kind: k, Name: g.name()}
}

func (g statementGen) grantees() []Grantee {
	out := make([]Grantee, 1+g.r.IntN(3))
	for i := range out {
		out[i] = g.grantee()
	}
	return out
}

func (g statementGen) statement() Statement {
	switch g.r.IntN(15) {
	case 14:
		s := &SetSortOrder{Table: g.parts(3)}
		for range g.r.IntN(4) {
			if c := g.name(); !slices.ContainsFunc(s.Fields, func(f SortItem) bool { return f.Column == c }) {
				s.Fields = append(s.Fields, SortItem{Column: c, Descending: g.r.IntN(2) == 0, NullsFirst: g.r.IntN(2) == 0})
			}
		}
		return s
	case 13:
		s := &ColumnDeny{Action: []Action{ActionDeny, ActionRevoke}[g.r.IntN(2)], Table: g.parts(3), Grantees: g.grantees()}
		for range 1 + g.r.IntN(3) {
			if c := g.name(); !slices.Contains(s.Columns, c) {
				s.Columns = append(s.Columns, c)
			}
		}
		return s
	case 9, 10, 11:
		return g.gateTwoStatement()
	case 12:
		return &ShowAccess{Table: g.parts(3), User: g.name()}
	case 7:
		s := &ShowSchemas{}
		if g.r.IntN(2) == 0 {
			s.Catalog = g.name()
		}
		return s
	case 8:
		s := &ShowTables{}
		if g.r.IntN(3) > 0 {
			s.Schema = g.name()
			if g.r.IntN(2) == 0 {
				s.Catalog = g.name()
			}
		}
		return s
	case 0:
		s := &GrantPrivileges{
			Action:     Action(1 + g.r.IntN(3)),
			Privileges: g.privileges(),
			Grantees:   g.grantees(),
		}
		first := g.object(int(ObjectFutureViewsInSchema))
		s.Objects = []Object{first}
		for range g.r.IntN(3) {
			s.Objects = append(s.Objects, Object{Kind: first.Kind, Name: g.parts(first.Kind.maxParts())})
		}
		s.WithGrantOption = s.Action == ActionGrant && g.r.IntN(2) == 0
		return s
	case 1:
		s := &GrantRoles{Action: Action(1 + g.r.IntN(2)), Grantees: g.grantees()}
		for range 1 + g.r.IntN(3) {
			s.Roles = append(s.Roles, g.roleName())
		}
		return s
	case 2:
		s := &ShowGrants{}
		if g.r.IntN(3) > 0 {
			o := g.object(int(ObjectCatalog))
			if g.r.IntN(3) == 0 {
				o = Object{Kind: ObjectAny, Name: g.parts(3)}
			}
			s.On = &o
		}
		if g.r.IntN(2) == 0 {
			gr := g.grantee()
			s.To = &gr
		}
		return s
	case 3:
		return &ShowEffectiveGrants{User: g.name()}
	case 4:
		return &CheckAccess{Privilege: g.privilege(), Object: g.object(int(ObjectCatalog)), User: g.name()}
	case 5:
		for {
			if n := g.roleName(); !strings.HasPrefix(n, "pg_") {
				return &CreateRole{Name: n}
			}
		}
	default:
		s := &DropRole{IfExists: g.r.IntN(2) == 0}
		for range 1 + g.r.IntN(3) {
			s.Names = append(s.Names, g.roleName())
		}
		return s
	}
}
