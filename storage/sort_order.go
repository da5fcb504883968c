package storage

import (
	"fmt"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// SortField is one field of a table's Iceberg sort order: a top-level
// column, by name, in the identity transform (the only one SQE writes
// by), ascending or descending, with NULLs first or last. Iceberg's
// default null order, which other engines write when none is given, is
// NULLS FIRST ascending and NULLS LAST descending.
type SortField struct {
	Column     string
	Descending bool
	NullsFirst bool
}

// String prints the field as a sort order list writes it:
// `id ASC NULLS FIRST`.
func (f SortField) String() string {
	var b strings.Builder
	b.WriteString(quoteColumn(f.Column))
	if f.Descending {
		b.WriteString(" DESC")
	} else {
		b.WriteString(" ASC")
	}
	if f.NullsFirst {
		b.WriteString(" NULLS FIRST")
	} else {
		b.WriteString(" NULLS LAST")
	}
	return b.String()
}

// FormatSortOrder prints fields as the list the sort_order table option
// takes, "" for none.
func FormatSortOrder(fields []SortField) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.String()
	}
	return strings.Join(parts, ", ")
}

// quoteColumn writes a column name as an SQL identifier: bare when it is
// a lower-case word, double-quoted otherwise.
func quoteColumn(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
		}
	}
	if plain {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// icebergSortOrder builds the sort order of fields over schema, with id
// orderID (the metadata builder renumbers it when it adds the order to a
// table). No fields is Iceberg's unsorted order. A column that does not
// exist is 42703, one named twice 42701, one that is not of a primitive
// type 0A000.
func icebergSortOrder(orderID int, fields []SortField, schema *iceberg.Schema) (table.SortOrder, error) {
	if len(fields) == 0 {
		return table.UnsortedSortOrder, nil
	}
	out := make([]table.SortField, 0, len(fields))
	seen := map[int]bool{}
	for _, f := range fields {
		src, ok := schema.FindFieldByName(f.Column)
		if !ok {
			return table.SortOrder{}, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" named in the sort order does not exist", f.Column)
		}
		if _, ok := src.Type.(iceberg.PrimitiveType); !ok {
			return table.SortOrder{}, pgerror.New(pgerror.FeatureNotSupported, "cannot sort a table by column \"%s\" of type %s", f.Column, src.Type)
		}
		if seen[src.ID] {
			return table.SortOrder{}, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" appears twice in the sort order", f.Column)
		}
		seen[src.ID] = true
		sf := table.SortField{SourceIDs: []int{src.ID}, Transform: iceberg.IdentityTransform{},
			Direction: table.SortASC, NullOrder: table.NullsLast}
		if f.Descending {
			sf.Direction = table.SortDESC
		}
		if f.NullsFirst {
			sf.NullOrder = table.NullsFirst
		}
		out = append(out, sf)
	}
	order, err := table.NewSortOrder(orderID, out)
	if err != nil {
		return table.SortOrder{}, pgerror.Wrap(err, pgerror.InvalidParameterValue, "invalid sort order: %s", err)
	}
	return order, nil
}

// sortFields reads an Iceberg sort order over schema back as SortFields.
// ok is false when a field is not one SQE can sort by (a transform other
// than identity, or a column the schema no longer has): the order is
// then not honoured by SQE's writes, as other engines' unknown orders
// are not.
func sortFields(order table.SortOrder, schema *iceberg.Schema) (fields []SortField, ok bool) {
	for _, f := range order.Fields() {
		if _, identity := f.Transform.(iceberg.IdentityTransform); !identity || len(f.SourceIDs) != 1 {
			return nil, false
		}
		name, found := schema.FindColumnName(f.SourceID())
		if !found || strings.Contains(name, ".") {
			return nil, false
		}
		fields = append(fields, SortField{Column: name, Descending: f.Direction == table.SortDESC, NullsFirst: f.NullOrder == table.NullsFirst})
	}
	return fields, true
}

// SortOrder is the table's current sort order, nil when it is unsorted
// or sorted in a way SQE does not write (another engine's transform).
// Writes order their rows by it before they are written, so that each
// file, and each row group, holds a narrow range of its first column.
func (t *Table) SortOrder() []SortField {
	fields, ok := sortFields(t.tbl.SortOrder(), t.tbl.Schema())
	if !ok {
		return nil
	}
	return fields
}

// SetSortOrder makes fields the table's sort order, none making it
// unsorted. Files already written keep their layout until rewritten
// (RewriteDataFiles).
func (a *Alteration) SetSortOrder(fields []SortField) error {
	sc, err := a.icebergSchema()
	if err != nil {
		return err
	}
	order, err := icebergSortOrder(table.InitialSortOrderID, fields, sc)
	if err != nil {
		return err
	}
	if err := a.tx.ReplaceSortOrder(order); err != nil {
		return fmt.Errorf("alter %s: set sort order: %w", a.ident, err)
	}
	return nil
}

// SortOrder is the staged sort order, as Table.SortOrder reports it.
func (a *Alteration) SortOrder() ([]SortField, error) {
	staged, err := a.tx.StagedTable()
	if err != nil {
		return nil, fmt.Errorf("alter %s: %w", a.ident, err)
	}
	fields, ok := sortFields(staged.SortOrder(), staged.Schema())
	if !ok {
		return nil, nil
	}
	return fields, nil
}
