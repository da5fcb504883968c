package extgrammar

// ShowSchemas is SHOW SCHEMAS [FROM | IN catalog]: the schemas of a
// catalog (the session's database when Catalog is empty) the caller may
// see.
type ShowSchemas struct {
	Catalog string
}

func (*ShowSchemas) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *ShowSchemas) String() string {
	if s.Catalog == "" {
		return "SHOW SCHEMAS"
	}
	return "SHOW SCHEMAS FROM " + quoteIdent(s.Catalog)
}

// ShowTables is SHOW TABLES [FROM | IN [catalog.]schema]: the tables and
// views the caller may see in a schema, or in every schema on the search
// path when Schema is empty.
type ShowTables struct {
	Catalog, Schema string
}

func (*ShowTables) extensionStatement() {}

// String renders the statement as canonical SQL.
func (s *ShowTables) String() string {
	switch {
	case s.Schema == "":
		return "SHOW TABLES"
	case s.Catalog == "":
		return "SHOW TABLES FROM " + quoteIdent(s.Schema)
	}
	return "SHOW TABLES FROM " + quoteIdent(s.Catalog) + "." + quoteIdent(s.Schema)
}
