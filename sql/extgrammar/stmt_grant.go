package extgrammar

import "strings"

// GrantPrivileges is GRANT, REVOKE or DENY of privileges:
//
//	GRANT privilege[, ...] ON object[, ...] TO grantee[, ...] [WITH GRANT OPTION]
//	REVOKE privilege[, ...] ON object[, ...] FROM grantee[, ...]
//	DENY privilege[, ...] ON object[, ...] TO grantee[, ...]
//
// PostgreSQL's GRANT SELECT ON t TO r is this statement too.
type GrantPrivileges struct {
	Action     Action
	Privileges []Privilege // ALL PRIVILEGES comes alone, as in PostgreSQL
	// Objects are one or more objects of one kind: the kind is written
	// once before the list.
	Objects  []Object
	Grantees []Grantee
	// WithGrantOption lets the grantees grant the privileges on (Ranger's
	// delegate admin). Only a GRANT has it.
	WithGrantOption bool
}

func (*GrantPrivileges) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *GrantPrivileges) String() string {
	var b strings.Builder
	b.WriteString(s.Action.String())
	for i, p := range s.Privileges {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(" " + p.String())
	}
	b.WriteString(" ON " + objectList(s.Objects))
	b.WriteString(" " + s.Action.preposition() + " " + granteeList(s.Grantees))
	if s.WithGrantOption {
		b.WriteString(" WITH GRANT OPTION")
	}
	return b.String()
}

// GrantRoles is GRANT or REVOKE of role membership:
//
//	GRANT [ROLE] role[, ...] TO grantee[, ...]
//	REVOKE [ROLE] role[, ...] FROM grantee[, ...]
//
// A grantee that is a role makes the granted roles nested in it.
type GrantRoles struct {
	Action   Action // ActionGrant or ActionRevoke
	Roles    []string
	Grantees []Grantee
}

func (*GrantRoles) extensionStatement() {}

// String renders the statement as canonical SQL, with ROLE before the
// granted roles.
func (s *GrantRoles) String() string {
	names := make([]string, len(s.Roles))
	for i, r := range s.Roles {
		names[i] = quoteIdent(r)
	}
	return s.Action.String() + " ROLE " + strings.Join(names, ", ") + " " +
		s.Action.preposition() + " " + granteeList(s.Grantees)
}
