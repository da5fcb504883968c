package sql

import (
	"context"
	"errors"
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// pendingNotice is a notice raised while staging an alteration, sent only
// once it commits (the staging may run again on a conflict).
type pendingNotice struct{ code, msg string }

// runAlterTable runs ALTER TABLE's subcommands (ADD COLUMN, DROP COLUMN,
// SET / RESET options) as one Iceberg metadata commit.
func (s *Session) runAlterTable(ctx context.Context, st *pg_query.AlterTableStmt, query string) (Result, error) {
	_, t, err := s.findTable(ctx, st.Relation)
	if errors.Is(err, storage.ErrNoSuchTable) && st.MissingOk {
		s.notice(pgerror.SuccessfulCompletion, "", "relation \"%s\" does not exist, skipping", st.Relation.Relname)
		return commandResult("ALTER TABLE"), nil
	}
	if err != nil {
		return nil, err
	}
	// Column definitions are checked (and their defaults evaluated) once,
	// before staging.
	adds := map[int]columnSpec{}
	for i, c := range st.Cmds {
		cmd := c.GetAlterTableCmd()
		if cmd == nil {
			return nil, pgerror.New(pgerror.SyntaxError, "unexpected ALTER TABLE subcommand")
		}
		if cmd.Subtype == pg_query.AlterTableType_AT_AddColumn {
			spec, err := s.columnDef(ctx, cmd.Def.GetColumnDef(), query)
			if err != nil {
				return nil, err
			}
			adds[i] = spec
		}
	}
	var notices []pendingNotice
	rel := t.Ident().Table
	_, err = t.Alter(ctx, func(a *storage.Alteration) error {
		notices = notices[:0]
		for i, c := range st.Cmds {
			cmd := c.GetAlterTableCmd()
			var err error
			switch cmd.Subtype {
			case pg_query.AlterTableType_AT_AddColumn:
				var n *pendingNotice
				n, err = addColumn(a, rel, adds[i], cmd.MissingOk)
				if n != nil {
					notices = append(notices, *n)
				}
			case pg_query.AlterTableType_AT_DropColumn:
				var n *pendingNotice
				n, err = dropColumn(a, rel, cmd.Name, cmd.MissingOk)
				if n != nil {
					notices = append(notices, *n)
				}
			case pg_query.AlterTableType_AT_SetRelOptions:
				err = setOptions(a, cmd.Def)
			case pg_query.AlterTableType_AT_ResetRelOptions:
				err = resetOptions(a, cmd.Def)
			default:
				err = pgerror.Unsupported("ALTER TABLE %s is not supported", alterName(cmd.Subtype))
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, n := range notices {
		s.notice(n.code, "", "%s", n.msg)
	}
	return commandResult("ALTER TABLE"), nil
}

func alterName(t pg_query.AlterTableType) string {
	switch t {
	case pg_query.AlterTableType_AT_AlterColumnType:
		return "ALTER COLUMN TYPE"
	case pg_query.AlterTableType_AT_SetNotNull:
		return "SET NOT NULL"
	case pg_query.AlterTableType_AT_DropNotNull:
		return "DROP NOT NULL"
	case pg_query.AlterTableType_AT_ColumnDefault:
		return "ALTER COLUMN DEFAULT"
	case pg_query.AlterTableType_AT_AddConstraint:
		return "ADD CONSTRAINT"
	}
	return t.String()
}

// hasColumn reports whether the staged schema has the column.
func hasColumn(a *storage.Alteration, name string) (bool, error) {
	sc, err := a.Schema()
	if err != nil {
		return false, err
	}
	return len(sc.FieldIndices(name)) > 0, nil
}

func addColumn(a *storage.Alteration, rel string, c columnSpec, ifNotExists bool) (*pendingNotice, error) {
	exists, err := hasColumn(a, c.name)
	if err != nil {
		return nil, err
	}
	if exists {
		msg := fmt.Sprintf("column \"%s\" of relation \"%s\" already exists", c.name, rel)
		if ifNotExists {
			return &pendingNotice{pgerror.DuplicateColumn, msg + ", skipping"}, nil
		}
		return nil, pgerror.New(pgerror.DuplicateColumn, "%s", msg)
	}
	if a.RowCountEstimate() != 0 {
		if c.notNull && c.defaultSQL == "" {
			return nil, pgerror.New(pgerror.NotNullViolation, "column \"%s\" of relation \"%s\" contains null values", c.name, rel)
		}
		if c.defaultSQL != "" {
			// PostgreSQL fills existing rows with the default; an Iceberg
			// v2 column added later reads NULL from the existing files.
			return nil, pgerror.Unsupported("ADD COLUMN with DEFAULT on a table that has rows is not supported: existing rows would read NULL").
				WithHint("Add the column without DEFAULT.")
		}
	}
	f, err := c.arrowField()
	if err != nil {
		return nil, err
	}
	id, err := a.AddColumn(c.name, f.Type, c.notNull, "")
	if err != nil {
		return nil, err
	}
	props := map[string]string{}
	for prefix, v := range c.properties() {
		props[storage.ColumnProperty(prefix, id)] = v
	}
	return nil, a.SetProperties(props)
}

func dropColumn(a *storage.Alteration, rel, name string, ifExists bool) (*pendingNotice, error) {
	exists, err := hasColumn(a, name)
	if err != nil {
		return nil, err
	}
	if !exists {
		msg := fmt.Sprintf("column \"%s\" of relation \"%s\" does not exist", name, rel)
		if ifExists {
			return &pendingNotice{pgerror.SuccessfulCompletion, msg + ", skipping"}, nil
		}
		return nil, pgerror.New(pgerror.UndefinedColumn, "%s", msg)
	}
	sc, err := a.Schema()
	if err != nil {
		return nil, err
	}
	if sc.NumFields() == 1 {
		// PostgreSQL allows a table without columns; Iceberg does not.
		return nil, pgerror.Unsupported("cannot drop the last column of table \"%s\"", rel)
	}
	id, err := a.DropColumn(name)
	if err != nil {
		return nil, err
	}
	return nil, a.RemoveProperties([]string{
		storage.ColumnProperty(propDeclaredType, id), storage.ColumnProperty(propDefault, id),
	})
}

func setOptions(a *storage.Alteration, def *pg_query.Node) error {
	props := map[string]string{}
	for _, o := range def.GetList().GetItems() {
		d := o.GetDefElem()
		if d == nil {
			return pgerror.New(pgerror.SyntaxError, "unexpected table option")
		}
		if d.Defname == "partitioning" {
			return pgerror.Unsupported("changing the partitioning of a table is not supported")
		}
		v, err := optionText(d)
		if err != nil {
			return err
		}
		if isSortOrderOption(optionKey(d)) {
			order, err := parseSortOrder(v)
			if err != nil {
				return err
			}
			if err := a.SetSortOrder(order); err != nil {
				return err
			}
			continue
		}
		if err := checkPropertyKey(optionKey(d)); err != nil {
			return err
		}
		props[optionKey(d)] = v
	}
	return a.SetProperties(props)
}

func resetOptions(a *storage.Alteration, def *pg_query.Node) error {
	var keys []string
	for _, o := range def.GetList().GetItems() {
		d := o.GetDefElem()
		if d == nil {
			return pgerror.New(pgerror.SyntaxError, "unexpected table option")
		}
		if isSortOrderOption(optionKey(d)) {
			if err := a.SetSortOrder(nil); err != nil {
				return err
			}
			continue
		}
		if err := checkPropertyKey(optionKey(d)); err != nil {
			return err
		}
		keys = append(keys, optionKey(d))
	}
	return a.RemoveProperties(keys)
}

func optionKey(d *pg_query.DefElem) string {
	if d.Defnamespace != "" {
		return d.Defnamespace + "." + d.Defname
	}
	return d.Defname
}

// runRename runs ALTER TABLE ... RENAME TO and RENAME COLUMN.
func (s *Session) runRename(ctx context.Context, st *pg_query.RenameStmt) (Result, error) {
	cat, t, err := s.findTable(ctx, st.Relation)
	if errors.Is(err, storage.ErrNoSuchTable) && st.MissingOk {
		s.notice(pgerror.SuccessfulCompletion, "", "relation \"%s\" does not exist, skipping", st.Relation.Relname)
		return commandResult("ALTER TABLE"), nil
	}
	if err != nil {
		return nil, err
	}
	id := t.Ident()
	r := governance.ObjectRename{Catalog: id.Catalog, Namespace: id.Namespace, To: st.Newname}
	var renamed *storage.Table
	switch st.RenameType {
	case pg_query.ObjectType_OBJECT_TABLE:
		r.Kind, r.Table, r.From = governance.RenameTable, id.Table, id.Table
		err := s.followRename(ctx, r, func(ctx context.Context) (err error) {
			renamed, err = cat.RenameTable(ctx, id.Namespace, id.Table, st.Newname)
			return err
		})
		if err != nil {
			return nil, relationErr(err, st.Newname)
		}
	case pg_query.ObjectType_OBJECT_COLUMN:
		if len(t.Schema().FieldIndices(st.Subname)) == 0 {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" does not exist", st.Subname)
		}
		r.Kind, r.Table, r.From = governance.RenameColumn, id.Table, st.Subname
		err := s.followRename(ctx, r, func(ctx context.Context) (err error) {
			renamed, err = t.Alter(ctx, func(a *storage.Alteration) error {
				if ok, err := hasColumn(a, st.Subname); err != nil || !ok {
					if err == nil {
						err = pgerror.New(pgerror.UndefinedColumn, "column \"%s\" does not exist", st.Subname)
					}
					return err
				}
				if ok, err := hasColumn(a, st.Newname); err != nil || ok {
					if err == nil {
						err = pgerror.New(pgerror.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", st.Newname, id.Table)
					}
					return err
				}
				return a.RenameColumn(st.Subname, st.Newname)
			})
			return err
		})
		if err != nil {
			return nil, err
		}
	default:
		return nil, pgerror.Unsupported("this form of ALTER TABLE ... RENAME is not supported")
	}
	// Column tags follow the field id in the table's own property; a
	// store that also projects them by name (Ranger, for other engines)
	// gets them again under the new names.
	if a, err := newTableAdapter(renamed); err == nil {
		if _, _, err := s.projectTags(ctx, a); err != nil {
			s.warnProjection(renamed.Ident().String(), err)
		}
	}
	return commandResult("ALTER TABLE"), nil
}

// runComment runs COMMENT ON TABLE / COLUMN: the table's comment is the
// Iceberg property "comment", a column's is its field doc. NULL or ”
// removes the comment.
func (s *Session) runComment(ctx context.Context, st *pg_query.CommentStmt) (Result, error) {
	var parts []string
	for _, it := range st.Object.GetList().GetItems() {
		parts = append(parts, it.GetString_().GetSval())
	}
	var column string
	switch st.Objtype {
	case pg_query.ObjectType_OBJECT_VIEW:
		return s.runCommentOnView(ctx, parts, st.Comment)
	case pg_query.ObjectType_OBJECT_TABLE:
	case pg_query.ObjectType_OBJECT_COLUMN:
		if len(parts) < 2 {
			return nil, pgerror.New(pgerror.SyntaxError, "column name must be qualified")
		}
		column, parts = parts[len(parts)-1], parts[:len(parts)-1]
	default:
		return nil, pgerror.Unsupported("COMMENT ON %s is not supported", st.Objtype)
	}
	rv, err := rangeVarFromParts(parts)
	if err != nil {
		return nil, err
	}
	_, t, err := s.findTable(ctx, rv)
	if err != nil {
		return nil, err
	}
	_, err = t.Alter(ctx, func(a *storage.Alteration) error {
		if column == "" {
			if st.Comment == "" {
				return a.RemoveProperties([]string{propComment})
			}
			return a.SetProperties(map[string]string{propComment: st.Comment})
		}
		if ok, err := hasColumn(a, column); err != nil || !ok {
			if err == nil {
				err = pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", column, rangeVarName(rv))
			}
			return err
		}
		return a.SetColumnDoc(column, st.Comment)
	})
	if err != nil {
		return nil, err
	}
	return commandResult("COMMENT"), nil
}
