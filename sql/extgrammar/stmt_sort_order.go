package extgrammar

import "strings"

// SetSortOrder is ALTER TABLE name SET SORT ORDER (column [ASC | DESC]
// [NULLS FIRST | NULLS LAST][, ...]) or SET SORT ORDER NONE: the
// table's Iceberg sort order, which SQE's writes order their rows by.
// No fields (NONE, or its synonym UNSORTED) makes the table unsorted.
type SetSortOrder struct {
	Table  []string // dotted name parts, as Object's
	Fields []SortItem
}

// SortItem is one column of a sort order. As in Iceberg, NULLs come
// first in ascending order and last in descending order unless NULLS
// says otherwise; the parser sets NullsFirst from that default.
type SortItem struct {
	Column     string
	Descending bool
	NullsFirst bool
}

func (*SetSortOrder) extensionStatement() {}

// String renders the statement as canonical SQL, every direction and
// null order spelled out.
func (s *SetSortOrder) String() string {
	head := "ALTER TABLE " + qualifiedName(s.Table) + " SET SORT ORDER "
	if len(s.Fields) == 0 {
		return head + "NONE"
	}
	items := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		dir, nulls := "ASC", "NULLS LAST"
		if f.Descending {
			dir = "DESC"
		}
		if f.NullsFirst {
			nulls = "NULLS FIRST"
		}
		items[i] = quoteIdent(f.Column) + " " + dir + " " + nulls
	}
	return head + "(" + strings.Join(items, ", ") + ")"
}
