package extgrammar

// ShowGrants is
//
//	SHOW GRANTS [ON [CATALOG | DATABASE | SCHEMA | TABLE | VIEW] name] [TO | FOR grantee]
//
// On filters by resource (a dotted prefix, matched at dot boundaries by
// the executor) and To by grantee; either may be nil.
type ShowGrants struct {
	On *Object // Kind is ObjectAny when no kind was written
	To *Grantee
}

func (*ShowGrants) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *ShowGrants) String() string {
	out := "SHOW GRANTS"
	if s.On != nil {
		out += " ON " + s.On.String()
	}
	if s.To != nil {
		out += " TO " + s.To.String()
	}
	return out
}

// ShowEffectiveGrants is SHOW EFFECTIVE GRANTS FOR USER name: what the
// user holds directly and through roles.
type ShowEffectiveGrants struct {
	User string
}

func (*ShowEffectiveGrants) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *ShowEffectiveGrants) String() string {
	return "SHOW EFFECTIVE GRANTS FOR USER " + quoteIdent(s.User)
}

// CheckAccess is CHECK ACCESS privilege ON object FOR USER name: whether
// the user would be allowed, and why.
type CheckAccess struct {
	Privilege Privilege
	// Object is a catalog, schema, table or view (never an ALL or FUTURE
	// kind).
	Object Object
	User   string
}

func (*CheckAccess) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *CheckAccess) String() string {
	return "CHECK ACCESS " + s.Privilege.String() + " ON " + s.Object.String() +
		" FOR USER " + quoteIdent(s.User)
}

// ShowAccess is SHOW ACCESS ON [TABLE] name FOR USER user: what the user
// sees of the table (each column raw, masked or hidden, the row filters)
// and the policies that decide it, at both gates.
type ShowAccess struct {
	Table []string // dotted name parts, as Object's
	User  string
}

func (*ShowAccess) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *ShowAccess) String() string {
	return "SHOW ACCESS ON TABLE " + qualifiedName(s.Table) + " FOR USER " + quoteIdent(s.User)
}
