package extgrammar

import "fmt"

// Statement is one parsed extension statement: *GrantPrivileges,
// *ColumnDeny, *GrantRoles, *ShowGrants, *ShowEffectiveGrants, *CheckAccess,
// *ShowAccess, *CreateRole, *DropRole, *ShowSchemas, *ShowTables,
// *CreatePolicy, *DropPolicy, *ShowPolicies, *SetTags, *UnsetTags,
// *ShowTags or *SetSortOrder. String renders it as canonical SQL, which parses back to an
// equal statement.
type Statement interface {
	fmt.Stringer
	extensionStatement()
}

// Action is what a privilege or role statement does.
type Action int

const (
	// ActionGrant adds an allow.
	ActionGrant Action = iota + 1
	// ActionRevoke removes an allow or a deny.
	ActionRevoke
	// ActionDeny adds an explicit denial, which beats every allow.
	ActionDeny
)

// String is the statement keyword: GRANT, REVOKE or DENY.
func (a Action) String() string {
	switch a {
	case ActionGrant:
		return "GRANT"
	case ActionRevoke:
		return "REVOKE"
	case ActionDeny:
		return "DENY"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// preposition is the word before the grantees: FROM for REVOKE, TO
// otherwise.
func (a Action) preposition() string {
	if a == ActionRevoke {
		return "FROM"
	}
	return "TO"
}
