package sql

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// ALTER TABLE ... SET TAGS / UNSET TAGS change the table property
// sqe.column-tags in one Iceberg commit; SHOW TAGS reads it. Tags decide
// which tag policies apply to a column, so changing them needs an
// administrator role, as writing a policy does.

// tagColumns is SHOW TAGS' row shape.
var tagColumns = []string{"column_name", "tags"}

// runSetTags merges set into the table's column tags (SET TAGS keeps the
// tags of columns it does not name) or removes every tag of the unset
// columns.
func (s *Session) runSetTags(ctx context.Context, parts []string, set []extgrammar.ColumnTags, unset []string) (_ Result, err error) {
	verb := "ALTER TABLE SET TAGS"
	if set == nil {
		verb = "ALTER TABLE UNSET TAGS"
	}
	var changes []string
	object := "table " + strings.Join(parts, ".")
	defer func() { s.auditChange(verb, nil, object, changes, err) }()
	if err := s.requirePolicyAdmin(verb, true); err != nil {
		return nil, err
	}
	obj, a, err := s.policyTable(ctx, parts)
	if err != nil {
		return nil, err
	}
	object = obj.String()
	fieldIDs := map[string]int{}
	for _, f := range a.t.Schema().Fields() {
		fieldIDs[f.Name] = storage.FieldID(f.Metadata.ToMap())
	}
	idOf := func(col string) (string, error) {
		id, ok := fieldIDs[col]
		if !ok || id < 0 {
			return "", pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, obj.Name)
		}
		return strconv.Itoa(id), nil
	}
	// Names are checked before anything is written.
	for _, c := range set {
		if _, err := idOf(c.Column); err != nil {
			return nil, err
		}
		changes = append(changes, c.Column)
	}
	for _, c := range unset {
		if _, err := idOf(c); err != nil {
			return nil, err
		}
		changes = append(changes, c)
	}
	altered, err := a.t.Alter(s.callerContext(ctx), func(al *storage.Alteration) error {
		props, err := al.Properties()
		if err != nil {
			return err
		}
		doc, err := readColumnTags(props)
		if err != nil {
			return pgerror.Wrap(err, pgerror.DataCorrupted, "the column tags of table %s cannot be read", obj.Name)
		}
		for _, c := range set {
			doc.add(fieldIDs[c.Column], c.Column, c.Tags)
		}
		for _, c := range unset {
			id, _ := idOf(c)
			delete(doc, id)
		}
		value, err := doc.encode()
		if err != nil {
			return err
		}
		return al.SetProperties(map[string]string{propColumnTags: value})
	})
	if err != nil {
		return nil, err
	}
	if a, err := newTableAdapter(altered); err == nil {
		if _, _, err := s.projectTags(ctx, a); err != nil {
			s.warnProjection(obj.String(), err)
		}
	}
	return commandResult("ALTER TABLE"), nil
}

// runShowTags lists the tagged columns of a table in column order.
func (s *Session) runShowTags(ctx context.Context, x *extgrammar.ShowTags) (Result, error) {
	_, a, err := s.policyTable(ctx, x.Table)
	if err != nil {
		return nil, err
	}
	tags, err := a.ColumnTags()
	if err != nil {
		return nil, pgerror.Wrap(err, pgerror.DataCorrupted, "the column tags of table %s cannot be read", a.t.Ident().Table)
	}
	var rows [][]string
	for i, c := range a.Columns() {
		if ts := tags[i]; len(ts) > 0 {
			ts = slices.Clone(ts)
			slices.Sort(ts)
			rows = append(rows, []string{c.Name, strings.Join(ts, ", ")})
		}
	}
	return newTextResult(tagColumns, rows, "SHOW")
}
