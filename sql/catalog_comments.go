package sql

import (
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/storage"
)

// addComments fills the table's and its columns' comments: the Iceberg
// table property "comment" and the fields' docs.
func addComments(info *pgcatalog.TableInfo, t *storage.Table) {
	info.Comment = t.Properties()[propComment]
	for i, f := range t.Schema().Fields() {
		if doc, ok := f.Metadata.GetValue("doc"); ok && doc != "" {
			for len(info.ColumnComments) < i {
				info.ColumnComments = append(info.ColumnComments, "")
			}
			info.ColumnComments = append(info.ColumnComments, doc)
		}
	}
}

// tableComment is obj_description / col_description: the comment of the
// visible table with OID a[0], of the table itself (column 0) or of a
// column by number; NULL when there is none.
func tableComment(index *catalogIndex, a []any, column int) (any, error) {
	t, found, err := index.tableOf(a[0])
	if err != nil || !found {
		return nil, err
	}
	var c string
	switch {
	case column == 0:
		c = t.Comment
	case column > 0 && column <= len(t.ColumnComments):
		c = t.ColumnComments[column-1]
	}
	if c == "" {
		return nil, nil
	}
	return c, nil
}
