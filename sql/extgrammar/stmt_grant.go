package extgrammar

import "strings"

// GrantPrivileges is GRANT, REVOKE or DENY of privileges:
//
//	GRANT privilege[, ...] ON object[, ...] TO grantee[, ...] [WITH GRANT OPTION]
//	GRANT SELECT ON [TABLE] name TO grantee[, ...]
//	    [MASKED WITH (column AS expression[, ...])] [ROWS WHERE expression]
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
	// RowFilter (ROWS WHERE) and Masks (MASKED WITH) narrow what a GRANT
	// SELECT on one table lets its grantees see: only the rows the
	// filter admits, and each masked column's expression in place of its
	// values. RowFilter is the expression as written, empty when none;
	// Masks are in the order written, nil when none. No other statement
	// has them.
	RowFilter string
	Masks     []ColumnMask
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
	if len(s.Masks) > 0 {
		b.WriteString(" MASKED WITH (")
		for i, m := range s.Masks {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(m.String())
		}
		b.WriteString(")")
	}
	// The filter comes last: its expression runs to the end.
	if s.RowFilter != "" {
		b.WriteString(" ROWS WHERE " + s.RowFilter)
	}
	return b.String()
}

// ColumnMask is one column of MASKED WITH: the column, and the SQL
// expression over it that the grantees see instead of its values.
type ColumnMask struct {
	Column string
	Expr   string // as written
}

// String renders the mask as SQL: column AS expression.
func (m ColumnMask) String() string {
	return quoteIdent(m.Column) + " AS " + m.Expr
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
