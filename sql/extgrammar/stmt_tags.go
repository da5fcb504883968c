package extgrammar

import "strings"

// SetTags is ALTER TABLE name SET TAGS (column = ('tag'[, ...])[, ...]):
// it adds tags to columns, keeping the tags the table's other columns
// carry. Tag policies then apply to every column carrying their tag.
type SetTags struct {
	Table   []string // dotted name parts, as Object's
	Columns []ColumnTags
}

// ColumnTags is one column of SET TAGS and the tags it gets, in the order
// written.
type ColumnTags struct {
	Column string
	Tags   []string
}

func (*SetTags) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *SetTags) String() string {
	cols := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		tags := make([]string, len(c.Tags))
		for j, t := range c.Tags {
			tags[j] = quoteLiteral(t)
		}
		cols[i] = quoteIdent(c.Column) + " = (" + strings.Join(tags, ", ") + ")"
	}
	return "ALTER TABLE " + qualifiedName(s.Table) + " SET TAGS (" + strings.Join(cols, ", ") + ")"
}

// UnsetTags is ALTER TABLE name UNSET TAGS (column[, ...]): it removes
// every tag of the columns named.
type UnsetTags struct {
	Table   []string
	Columns []string
}

func (*UnsetTags) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *UnsetTags) String() string {
	cols := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		cols[i] = quoteIdent(c)
	}
	return "ALTER TABLE " + qualifiedName(s.Table) + " UNSET TAGS (" + strings.Join(cols, ", ") + ")"
}

// ShowTags is SHOW TAGS ON [TABLE] name: a table's columns and their
// tags.
type ShowTags struct {
	Table []string
}

func (*ShowTags) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *ShowTags) String() string {
	return "SHOW TAGS ON TABLE " + qualifiedName(s.Table)
}
