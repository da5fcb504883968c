package extgrammar

import "strings"

// ColumnDeny is DENY of SELECT on some columns of one table, or REVOKE of
// such a denial:
//
//	DENY SELECT (column[, ...]) ON [TABLE] name TO grantee[, ...]
//	REVOKE SELECT (column[, ...]) ON [TABLE] name FROM grantee[, ...]
//
// The columns are hidden from the grantees (gate two's column
// restriction). Only SELECT takes a column list, and GRANT takes none:
// column-level grants are not modelled.
type ColumnDeny struct {
	Action   Action // ActionDeny or ActionRevoke
	Columns  []string
	Table    []string // one to three parts, as written
	Grantees []Grantee
}

func (*ColumnDeny) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *ColumnDeny) String() string {
	cols := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = quoteIdent(c)
	}
	return s.Action.String() + " SELECT (" + strings.Join(cols, ", ") + ") ON " +
		Object{Kind: ObjectTable, Name: s.Table}.String() + " " + s.Action.preposition() + " " + granteeList(s.Grantees)
}
