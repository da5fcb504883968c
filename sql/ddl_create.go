package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// columnSpec is one column of a table being created or added.
type columnSpec struct {
	name    string
	typ     types.T
	notNull bool
	// defaultSQL is the DEFAULT expression's SQL text, "" for none.
	defaultSQL string
}

// arrowField is the column's storage field.
func (c columnSpec) arrowField() (arrow.Field, error) {
	dt, err := storedType(c.typ)
	if err != nil {
		return arrow.Field{}, err
	}
	return arrow.Field{Name: c.name, Type: dt, Nullable: !c.notNull}, nil
}

// properties are the column's per-column table properties (ddl_columns.go).
func (c columnSpec) properties() map[string]string {
	m := map[string]string{}
	if needsDeclaredType(c.typ) {
		m[propDeclaredType] = c.typ.Name()
	}
	if c.defaultSQL != "" {
		m[propDefault] = c.defaultSQL
	}
	return m
}

// runCreateTable creates an empty Iceberg table.
func (s *Session) runCreateTable(ctx context.Context, st *pg_query.CreateStmt, query string) (Result, error) {
	switch {
	case len(st.InhRelations) > 0:
		return nil, pgerror.Unsupported("table inheritance is not supported")
	case st.Partbound != nil:
		return nil, pgerror.Unsupported("partitions of a table are not supported")
	case st.Partspec != nil:
		return nil, pgerror.Unsupported("PARTITION BY is not supported").
			WithHint("Partition the Iceberg table with WITH (partitioning = 'day(col), bucket(16, id)').")
	case st.OfTypename != nil:
		return nil, pgerror.Unsupported("typed tables (OF type) are not supported")
	case st.Tablespacename != "":
		return nil, pgerror.Unsupported("tablespaces are not supported")
	case st.AccessMethod != "":
		return nil, pgerror.Unsupported("table access methods are not supported")
	case st.Oncommit != pg_query.OnCommitAction_ONCOMMIT_NOOP && st.Oncommit != pg_query.OnCommitAction_ON_COMMIT_ACTION_UNDEFINED:
		return nil, pgerror.Unsupported("ON COMMIT is only for temporary tables, which are not supported")
	}
	cat, ns, err := s.creationSchema(ctx, st.Relation)
	if err != nil {
		return nil, err
	}
	var cols []columnSpec
	for _, e := range st.TableElts {
		switch x := e.Node.(type) {
		case *pg_query.Node_ColumnDef:
			c, err := s.columnDef(ctx, x.ColumnDef, query)
			if err != nil {
				return nil, err
			}
			for _, prev := range cols {
				if prev.name == c.name {
					return nil, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" specified more than once", c.name)
				}
			}
			cols = append(cols, c)
		case *pg_query.Node_Constraint:
			return nil, constraintUnsupported(x.Constraint.Contype)
		case *pg_query.Node_TableLikeClause:
			return nil, pgerror.Unsupported("CREATE TABLE ... LIKE is not supported")
		default:
			// Named by the statement, never by the parser's Go type.
			return nil, pgerror.Unsupported("this element of CREATE TABLE is not supported")
		}
	}
	opts, err := tableOptions(st.Options)
	if err != nil {
		return nil, err
	}
	fields := make([]arrow.Field, len(cols))
	opts.ColumnProperties = map[string]map[string]string{}
	for i, c := range cols {
		if fields[i], err = c.arrowField(); err != nil {
			return nil, err
		}
		if p := c.properties(); len(p) > 0 {
			opts.ColumnProperties[c.name] = p
		}
	}
	_, err = cat.CreateTable(ctx, ns, st.Relation.Relname, arrow.NewSchema(fields, nil), opts)
	if errors.Is(err, storage.ErrAlreadyExists) && st.IfNotExists {
		s.notice(pgerror.DuplicateTable, "", "relation \"%s\" already exists, skipping", st.Relation.Relname)
		return commandResult("CREATE TABLE"), nil
	}
	if err != nil {
		return nil, relationErr(err, st.Relation.Relname)
	}
	return commandResult("CREATE TABLE"), nil
}

// relationErr rewords storage's "relation ns.t" messages the way
// PostgreSQL names the relation in DDL errors: by its bare name.
func relationErr(err error, name string) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) && (pe.Code == pgerror.DuplicateTable || pe.Code == pgerror.UndefinedTable) {
		verb := "already exists"
		if pe.Code == pgerror.UndefinedTable {
			verb = "does not exist"
		}
		return pgerror.Wrap(err, pe.Code, "relation \"%s\" %s", name, verb)
	}
	return err
}

// constraintUnsupported refuses a constraint Iceberg cannot enforce.
func constraintUnsupported(t pg_query.ConstrType) error {
	switch t {
	case pg_query.ConstrType_CONSTR_PRIMARY:
		return pgerror.Unsupported("PRIMARY KEY constraints are not supported: Iceberg tables cannot enforce uniqueness").
			WithHint("Declare the key columns NOT NULL.")
	case pg_query.ConstrType_CONSTR_UNIQUE:
		return pgerror.Unsupported("UNIQUE constraints are not supported: Iceberg tables cannot enforce uniqueness")
	case pg_query.ConstrType_CONSTR_CHECK:
		return pgerror.Unsupported("CHECK constraints are not supported")
	case pg_query.ConstrType_CONSTR_FOREIGN:
		return pgerror.Unsupported("FOREIGN KEY constraints are not supported")
	case pg_query.ConstrType_CONSTR_EXCLUSION:
		return pgerror.Unsupported("EXCLUDE constraints are not supported")
	case pg_query.ConstrType_CONSTR_GENERATED, pg_query.ConstrType_CONSTR_IDENTITY:
		return pgerror.Unsupported("generated and identity columns are not supported")
	}
	return pgerror.Unsupported("constraint %s is not supported", strings.TrimPrefix(t.String(), "CONSTR_"))
}

// columnDef reads a column definition: type, NULL / NOT NULL and DEFAULT.
func (s *Session) columnDef(ctx context.Context, cd *pg_query.ColumnDef, query string) (columnSpec, error) {
	c := columnSpec{name: cd.Colname}
	if cd.CollClause != nil {
		return c, pgerror.Unsupported("COLLATE in column definitions is not supported")
	}
	t, err := planner.TypeFromName(cd.TypeName)
	if err != nil {
		return c, err
	}
	c.typ = t
	if _, err := storedType(t); err != nil {
		return c, err
	}
	c.notNull = cd.IsNotNull
	var def *pg_query.Node
	for _, n := range cd.Constraints {
		k := n.GetConstraint()
		if k == nil {
			return c, pgerror.Unsupported("this option of column \"%s\" is not supported", c.name)
		}
		switch k.Contype {
		case pg_query.ConstrType_CONSTR_NOTNULL:
			c.notNull = true
		case pg_query.ConstrType_CONSTR_NULL:
			if c.notNull {
				return c, pgerror.New(pgerror.SyntaxError, "conflicting NULL/NOT NULL declarations for column \"%s\"", c.name)
			}
		case pg_query.ConstrType_CONSTR_DEFAULT:
			if def != nil {
				return c, pgerror.New(pgerror.SyntaxError, "multiple default values specified for column \"%s\"", c.name)
			}
			def = k.RawExpr
		default:
			return c, constraintUnsupported(k.Contype)
		}
	}
	if def != nil {
		if c.defaultSQL, err = s.checkDefault(ctx, def, cd.TypeName, query); err != nil {
			return c, err
		}
	}
	return c, nil
}

// checkDefault checks a DEFAULT expression as PostgreSQL does when the
// table is created (no column references, no subqueries, converts to the
// column's type) by evaluating it once, and returns its SQL text.
func (s *Session) checkDefault(ctx context.Context, expr *pg_query.Node, typ *pg_query.TypeName, query string) (string, error) {
	var bad error
	walkNodes(expr.ProtoReflect(), func(m protoreflect.Message) bool {
		switch n := m.Interface().(type) {
		case *pg_query.ColumnRef:
			bad = pgerror.New(pgerror.FeatureNotSupported, "cannot use column reference in DEFAULT expression").WithPosition(n.Location + 1)
		case *pg_query.SubLink:
			bad = pgerror.New(pgerror.FeatureNotSupported, "cannot use subquery in DEFAULT expression").WithPosition(n.Location + 1)
		}
		return bad == nil
	})
	if bad != nil {
		return "", bad
	}
	text, err := deparseExpr(expr)
	if err != nil {
		return "", err
	}
	sel := &pg_query.SelectStmt{Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT, TargetList: []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(
		&pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{Arg: expr, TypeName: typ, Location: -1}}}, -1)}}
	res, err := s.runSelect(ctx, sel, query, nil)
	if err != nil {
		return "", err
	}
	defer res.Close()
	for {
		b, err := res.Next(ctx)
		if err != nil {
			return "", err
		}
		if b == nil {
			return text, nil
		}
		b.Release()
	}
}

// deparseExpr prints an expression as SQL.
func deparseExpr(expr *pg_query.Node) (string, error) {
	sel := &pg_query.SelectStmt{Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT, TargetList: []*pg_query.Node{pg_query.MakeResTargetNodeWithVal(expr, -1)}}
	out, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: sel}}}}})
	if err != nil {
		return "", fmt.Errorf("deparse expression: %w", err)
	}
	return strings.TrimPrefix(out, "SELECT "), nil
}

// walkNodes calls visit on m and every message below it, depth first,
// until visit returns false.
func walkNodes(m protoreflect.Message, visit func(protoreflect.Message) bool) bool {
	if !visit(m) {
		return false
	}
	ok := true
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len() && ok; i++ {
				ok = walkNodes(l.Get(i).Message(), visit)
			}
		case fd.Message() != nil && !fd.IsMap():
			ok = walkNodes(v.Message(), visit)
		}
		return ok
	})
	return ok
}

// tableOptions turns WITH (...) options into table properties, with
// partitioning read as an Iceberg partition spec and sort_order (or
// sorted_by) as its sort order.
func tableOptions(opts []*pg_query.Node) (storage.CreateTableOptions, error) {
	out := storage.CreateTableOptions{Properties: map[string]string{}}
	for _, o := range opts {
		d := o.GetDefElem()
		if d == nil {
			return out, pgerror.New(pgerror.SyntaxError, "unexpected table option")
		}
		key := d.Defname
		if d.Defnamespace != "" {
			key = d.Defnamespace + "." + key
		}
		v, err := optionText(d)
		if err != nil {
			return out, err
		}
		if key == "partitioning" {
			if out.Partitioning, err = parsePartitioning(v); err != nil {
				return out, err
			}
			continue
		}
		if isSortOrderOption(key) {
			if out.SortOrder != nil {
				return out, pgerror.New(pgerror.SyntaxError, "conflicting or redundant options").
					WithDetail("%s and %s both give the sort order.", optSortOrder, optSortedBy)
			}
			if out.SortOrder, err = parseSortOrder(v); err != nil {
				return out, err
			}
			continue
		}
		if err := checkPropertyKey(key); err != nil {
			return out, err
		}
		out.Properties[key] = v
	}
	return out, nil
}

// checkPropertyKey refuses properties that storage or SQE itself manage,
// and those that would choose where, or with which credentials, the
// server reads and writes files: iceberg-go opens a table's files with
// the table's properties over the catalog's, so a user able to create a
// table could otherwise point the server's writes at any path or
// endpoint, signed with the operator's keys.
func checkPropertyKey(key string) error {
	switch {
	case key == "format-version", key == "write.delete.mode", key == propComment,
		strings.HasPrefix(key, "sqe."):
		return pgerror.New(pgerror.InvalidParameterValue, "table property \"%s\" cannot be set", key)
	case isFileIOProperty(key):
		return pgerror.New(pgerror.InsufficientPrivilege, "table property \"%s\" cannot be set", key).
			WithDetail("It chooses where or with which credentials the server reads and writes files; only the catalog's configuration may.")
	}
	return nil
}

// isFileIOProperty reports the property families iceberg-go's file I/O
// and location providers read.
func isFileIOProperty(key string) bool {
	key = strings.ToLower(key)
	switch key {
	case "location", "warehouse", "write.data.path", "write.metadata.path", "write.folder-storage.path",
		"write.object-storage.path", "write.object-storage.enabled", "write.location-provider.impl":
		return true
	}
	for _, p := range []string{"s3.", "client.", "gcs.", "adls.", "oss.", "hdfs.", "header.", "rest.", "io-impl", "py-io-impl"} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// optionText is an option's value as text; a bare option is "true".
func optionText(d *pg_query.DefElem) (string, error) {
	if d.Arg == nil {
		return "true", nil
	}
	if tn := d.Arg.GetTypeName(); tn != nil {
		parts := make([]string, 0, len(tn.Names))
		for _, n := range tn.Names {
			parts = append(parts, n.GetString_().GetSval())
		}
		return strings.Join(parts, "."), nil
	}
	return defString(d)
}
