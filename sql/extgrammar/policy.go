package extgrammar

import (
	"fmt"
	"strings"
)

// PolicyKind is what a gate-two policy does.
type PolicyKind int

const (
	// PolicyRowFilter admits only the rows its expression is true for.
	PolicyRowFilter PolicyKind = iota + 1
	// PolicyColumnMask replaces a column's values by masked ones.
	PolicyColumnMask
)

// String is the kind's SQL keywords.
func (k PolicyKind) String() string {
	switch k {
	case PolicyRowFilter:
		return "ROW FILTER"
	case PolicyColumnMask:
		return "COLUMN MASK"
	}
	return fmt.Sprintf("PolicyKind(%d)", int(k))
}

// PolicyTarget is what a policy applies to: one table, or every column
// carrying a tag. Exactly one of Table and Tag is set.
type PolicyTarget struct {
	// Table holds the table's dotted name parts (one to three), as Object
	// does; parts left out are resolved against the session.
	Table []string
	// Tag is the tag, case kept.
	Tag string
}

// String renders the target as SQL: TABLE name or TAG 'tag'.
func (t PolicyTarget) String() string {
	if t.Table != nil {
		return "TABLE " + qualifiedName(t.Table)
	}
	return "TAG " + quoteLiteral(t.Tag)
}

// MaskType names a mask of Ranger's vocabulary (MASK_NULL,
// MASK_SHOW_LAST_4, MASK_HASH, CUSTOM, ...), optionally qualified by the
// component whose definition it comes from, as tag policies need it
// (hive:MASK_SHOW_LAST_4). Whether the name is one the policy store knows
// is not checked here.
type MaskType struct {
	// Component is the qualifier before the colon, empty when none; it is
	// an identifier, so unquoted it folds to lower case, as Ranger's
	// component names are.
	Component string
	// Name is the mask type. Ranger's names are upper case, so an
	// unquoted name is upper-cased (mask_null is MASK_NULL); a quoted one
	// is kept as written.
	Name string
}

// maskCustom is the mask type whose expression the statement gives.
const maskCustom = "CUSTOM"

// String renders the mask type as SQL: the name bare when it is an upper
// case word that reads back as itself, quoted otherwise.
func (m MaskType) String() string {
	name := m.Name
	if !bareMaskName(name) {
		name = `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	}
	if m.Component == "" {
		return name
	}
	return quoteIdent(m.Component) + ":" + name
}

// bareMaskName reports whether a mask type's name can be written
// unquoted: upper-cased by the parser, it must come back unchanged, and
// in lower case it must be a plain word that is no keyword.
func bareMaskName(name string) bool {
	lower := strings.ToLower(name)
	return name == strings.ToUpper(name) && plainWord(lower) && !needsQuotes(lower)
}
