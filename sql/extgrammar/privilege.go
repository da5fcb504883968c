package extgrammar

import (
	"fmt"
	"strings"
)

// PrivilegeKind is a SQL privilege, or PrivilegeNative for an access type
// of the policy store named directly.
type PrivilegeKind int

const (
	PrivilegeSelect PrivilegeKind = iota + 1
	PrivilegeInsert
	PrivilegeUpdate
	PrivilegeDelete
	PrivilegeModify
	PrivilegeDrop
	PrivilegeCreateTable
	PrivilegeUsage
	PrivilegeCreateSchema
	PrivilegeDropSchema
	// PrivilegeAll is ALL or ALL PRIVILEGES.
	PrivilegeAll
	// PrivilegeNative is any other word, passed through lower-cased as an
	// access type (table-data-read, catalog-content-manage, ...).
	PrivilegeNative
)

// String is the privilege's canonical SQL spelling.
func (k PrivilegeKind) String() string {
	switch k {
	case PrivilegeSelect:
		return "SELECT"
	case PrivilegeInsert:
		return "INSERT"
	case PrivilegeUpdate:
		return "UPDATE"
	case PrivilegeDelete:
		return "DELETE"
	case PrivilegeModify:
		return "MODIFY"
	case PrivilegeDrop:
		return "DROP"
	case PrivilegeCreateTable:
		return "CREATE TABLE"
	case PrivilegeUsage:
		return "USAGE"
	case PrivilegeCreateSchema:
		return "CREATE SCHEMA"
	case PrivilegeDropSchema:
		return "DROP SCHEMA"
	case PrivilegeAll:
		return "ALL PRIVILEGES"
	case PrivilegeNative:
		return "native"
	}
	return fmt.Sprintf("PrivilegeKind(%d)", int(k))
}

// Privilege is one privilege of a statement.
type Privilege struct {
	Kind PrivilegeKind
	// Native is the lower-cased access type when Kind is
	// PrivilegeNative, and empty otherwise. Nothing checks here that the
	// policy store knows it.
	Native string
}

// String renders the privilege as SQL: the SQL privilege's words, or the
// access type, bare when it reads back as one (table-data-read) and
// quoted otherwise.
func (p Privilege) String() string {
	if p.Kind != PrivilegeNative {
		return p.Kind.String()
	}
	if bareAccessType(p.Native) {
		return p.Native
	}
	return quoteIdent(p.Native)
}

// bareAccessType reports whether an access type can be written without
// quotes: hyphen-joined lower-case words, more than one, or one word that
// is neither a keyword nor a privilege of this grammar.
func bareAccessType(s string) bool {
	words := strings.Split(s, "-")
	for _, w := range words {
		if !plainWord(w) {
			return false
		}
	}
	return len(words) > 1 || !needsQuotes(s)
}
