package extgrammar

import "fmt"

// GranteeKind is who a grantee is.
type GranteeKind int

const (
	// GranteeUser is USER name.
	GranteeUser GranteeKind = iota + 1
	// GranteeRole is ROLE name, or a bare name as in PostgreSQL.
	GranteeRole
	// GranteeGroup is GROUP name. It parses, but the grants backends do
	// not write group grants: refusing them is the executor's decision.
	GranteeGroup
)

// String is the keyword before the grantee's name.
func (k GranteeKind) String() string {
	switch k {
	case GranteeUser:
		return "USER"
	case GranteeRole:
		return "ROLE"
	case GranteeGroup:
		return "GROUP"
	}
	return fmt.Sprintf("GranteeKind(%d)", int(k))
}

// Grantee is a user, role or group a statement names.
type Grantee struct {
	Kind GranteeKind
	Name string
}

// String renders the grantee as SQL, always with its kind.
func (g Grantee) String() string {
	return g.Kind.String() + " " + quoteIdent(g.Name)
}

// granteeList renders grantees separated by commas.
func granteeList(gs []Grantee) string {
	s := ""
	for i, g := range gs {
		if i > 0 {
			s += ", "
		}
		s += g.String()
	}
	return s
}
