package extgrammar

import "slices"

// gateTwoStatement makes a random policy, tag, or narrowed grant
// statement.
func (g statementGen) gateTwoStatement() Statement {
	switch g.r.IntN(7) {
	case 0:
		return &DropPolicy{IfExists: g.r.IntN(2) == 0, Name: g.name()}
	case 1:
		s := &ShowPolicies{}
		if g.r.IntN(3) > 0 {
			on := g.policyTarget()
			s.On = &on
		}
		return s
	case 2:
		s := &SetTags{Table: g.parts(3)}
		for range 1 + g.r.IntN(3) {
			c := ColumnTags{Column: g.column()}
			for range 1 + g.r.IntN(3) {
				c.Tags = append(c.Tags, g.tag())
			}
			s.Columns = append(s.Columns, c)
		}
		return dedupeTags(s)
	case 3:
		s := &UnsetTags{Table: g.parts(3)}
		for range 1 + g.r.IntN(3) {
			s.Columns = append(s.Columns, g.column())
		}
		s.Columns = distinct(s.Columns)
		return s
	case 4:
		return &ShowTags{Table: g.parts(3)}
	case 5:
		s := &GrantPrivileges{
			Action:     ActionGrant,
			Privileges: []Privilege{{Kind: PrivilegeSelect}},
			Objects:    []Object{{Kind: ObjectTable, Name: g.parts(3)}},
			Grantees:   g.grantees(),
		}
		if g.r.IntN(3) > 0 {
			s.RowFilter = g.expression()
		}
		if s.RowFilter == "" || g.r.IntN(2) == 0 {
			var cols []string
			for range 1 + g.r.IntN(3) {
				cols = append(cols, g.column())
			}
			for _, c := range distinct(cols) {
				s.Masks = append(s.Masks, ColumnMask{Column: c, Expr: g.expression()})
			}
		}
		return s
	}
	return g.createPolicy()
}

func (g statementGen) createPolicy() *CreatePolicy {
	s := &CreatePolicy{
		OrReplace: g.r.IntN(2) == 0,
		Name:      g.name(),
		On:        g.policyTarget(),
		Kind:      PolicyKind(1 + g.r.IntN(2)),
		Grantees:  g.grantees(),
	}
	if s.Kind == PolicyRowFilter {
		s.Filter = g.expression()
		return s
	}
	s.Mask = MaskType{Name: g.pick([]string{"MASK_NULL", "MASK_SHOW_LAST_4", "MASK", "MASK_HASH", "CUSTOM",
		"custom", "Mixed_Case", "NULL", "SELECT", "DENY", `Q"T`, "x:y", "ÑANDÚ", "MASK_NONE"})}
	if g.r.IntN(2) == 0 {
		s.Mask.Component = g.pick([]string{"hive", "Trino", "select", "spark_sql", "a.b"})
	}
	if s.Mask.Name == maskCustom {
		s.MaskExpr = g.pick([]string{"{col}", "'***-**-' || RIGHT({col}, 4)",
			"CASE WHEN current_user() = 'it''s' THEN {col} END", "md5({col}) -- hashed\n", "$$x$$ || {col}", `"{col}"`})
	}
	if s.On.Table != nil {
		s.Column = g.column()
	}
	return s
}

func (g statementGen) policyTarget() PolicyTarget {
	if g.r.IntN(2) == 0 {
		return PolicyTarget{Table: g.parts(3)}
	}
	return PolicyTarget{Tag: g.tag()}
}

func (g statementGen) tag() string {
	return g.pick([]string{"PII", "pii", "GEO", "Personal Data", "it's", `back\slash`, "Ünï", "{col}", "$$", `"q"`, "a;b", "--x"})
}

// column is a table's column: any name, spaces and punctuation included.
func (g statementGen) column() string {
	if g.r.IntN(4) == 0 {
		return g.pick([]string{"Full Name", "a/b", "50%", "with space", "select"})
	}
	return g.name()
}

// expression is SQL as a policy or grant may hold it: comments, quotes,
// nested parentheses, subqueries and words this grammar gives a meaning.
func (g statementGen) expression() string {
	return g.pick([]string{
		"region = 'EU'",
		"owner = current_user() OR is_role_in_session('auditor')",
		"a = 1 -- one\n  AND b = 2",
		"x /* ) */ > 0",
		"id IN (SELECT id FROM masked WHERE y = $tag$it's; done$tag$)",
		"(a, b) = (1, 2)",
		"tags[1] = ANY (ARRAY['x', 'y'])",
		`"Full Name" IS NOT NULL`,
		"masked",
		"'***-**-' || RIGHT(ssn, 4)",
		"NULL",
		"CASE WHEN rows > 1 THEN 'a' ELSE 'b' END",
	})
}

// distinct drops repeated names, keeping the first of each.
func distinct(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// dedupeTags makes a SET TAGS name each column, and each tag of a
// column, once, as the parser requires.
func dedupeTags(s *SetTags) *SetTags {
	var cols []ColumnTags
	var names []string
	for _, c := range s.Columns {
		if !slices.Contains(names, c.Column) {
			names = append(names, c.Column)
			cols = append(cols, ColumnTags{Column: c.Column, Tags: distinct(c.Tags)})
		}
	}
	s.Columns = cols
	return s
}
