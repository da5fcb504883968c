package extgrammar

// CreatePolicy is one of gate two's policies:
//
//	CREATE [OR REPLACE] POLICY name ON TABLE name
//	    ROW FILTER TO grantee[, ...] USING (expression)
//	CREATE [OR REPLACE] POLICY name ON TABLE name
//	    COLUMN MASK mask_type [USING ('expression')] TO grantee[, ...] ON COLUMN column
//	CREATE [OR REPLACE] POLICY name ON TAG tag
//	    ROW FILTER TO grantee[, ...] USING (expression)
//	CREATE [OR REPLACE] POLICY name ON TAG tag
//	    COLUMN MASK mask_type [USING ('expression')] TO grantee[, ...]
//
// PostgreSQL's CREATE POLICY name ON table (row security) is not this
// statement: it has neither ON TABLE nor ON TAG.
type CreatePolicy struct {
	OrReplace bool
	Name      string
	On        PolicyTarget
	Kind      PolicyKind
	// Grantees are users, roles and groups: a policy matches the groups
	// of the caller's token, so GROUP is meaningful here.
	Grantees []Grantee
	// Filter is a row filter's expression, as written.
	Filter string
	// Mask is a column mask's type, and MaskExpr a CUSTOM mask's
	// expression, as written, {col} standing for the column (only CUSTOM
	// has one, and it must).
	Mask     MaskType
	MaskExpr string
	// Column is the column a table's mask applies to; a tag's mask
	// applies to every column carrying the tag, and has none.
	Column string
}

func (*CreatePolicy) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *CreatePolicy) String() string {
	out := "CREATE "
	if s.OrReplace {
		out += "OR REPLACE "
	}
	out += "POLICY " + quoteIdent(s.Name) + " ON " + s.On.String() + " " + s.Kind.String()
	if s.Kind == PolicyRowFilter {
		return out + " TO " + granteeList(s.Grantees) + " USING (" + s.Filter + ")"
	}
	out += " " + s.Mask.String()
	if s.MaskExpr != "" {
		out += " USING (" + quoteLiteral(s.MaskExpr) + ")"
	}
	out += " TO " + granteeList(s.Grantees)
	if s.Column != "" {
		out += " ON COLUMN " + quoteIdent(s.Column)
	}
	return out
}

// DropPolicy is DROP POLICY [IF EXISTS] name. PostgreSQL's DROP POLICY
// name ON table is not this statement.
type DropPolicy struct {
	IfExists bool
	Name     string
}

func (*DropPolicy) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *DropPolicy) String() string {
	if s.IfExists {
		return "DROP POLICY IF EXISTS " + quoteIdent(s.Name)
	}
	return "DROP POLICY " + quoteIdent(s.Name)
}

// ShowPolicies is SHOW POLICIES [ON TABLE name | ON TAG tag]: every
// policy, or those of one table or tag.
type ShowPolicies struct {
	On *PolicyTarget
}

func (*ShowPolicies) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *ShowPolicies) String() string {
	if s.On == nil {
		return "SHOW POLICIES"
	}
	return "SHOW POLICIES ON " + s.On.String()
}
