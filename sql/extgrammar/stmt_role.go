package extgrammar

import "strings"

// CreateRole is CREATE ROLE name. A role only groups privileges and
// members: it takes no options.
type CreateRole struct {
	Name string
}

func (*CreateRole) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *CreateRole) String() string {
	return "CREATE ROLE " + quoteIdent(s.Name)
}

// DropRole is DROP ROLE [IF EXISTS] name[, ...].
type DropRole struct {
	IfExists bool
	Names    []string
}

func (*DropRole) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *DropRole) String() string {
	out := "DROP ROLE "
	if s.IfExists {
		out += "IF EXISTS "
	}
	names := make([]string, len(s.Names))
	for i, n := range s.Names {
		names[i] = quoteIdent(n)
	}
	return out + strings.Join(names, ", ")
}
