package storage

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Alteration stages changes to one table's schema and properties; Alter
// commits everything staged as one Iceberg metadata commit. Columns are
// addressed by name in the staged schema, which already reflects the
// changes staged before.
type Alteration struct {
	tx    *table.Transaction
	ident Ident
	rows  int64
	// schemaOps are the staged schema changes. Iceberg allows one schema
	// change per commit (each asserts the base schema id), so they are
	// replayed on a fresh UpdateSchema to see the staged schema and
	// committed together by Alter.
	schemaOps []func(*table.UpdateSchema) *table.UpdateSchema
}

// Alter runs fn on a fresh transaction over the newest metadata and commits
// what it staged, atomically. When a concurrent writer moves the table on,
// fn runs again on the reloaded table, so it must only stage, never act.
func (t *Table) Alter(ctx context.Context, fn func(*Alteration) error) (*Table, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	return t.commitStaged(ctx, "alter", func(base *table.Table, current *Table) (*table.Transaction, error) {
		a := &Alteration{tx: base.NewTransaction(), ident: t.ident, rows: current.RowCountEstimate()}
		if err := fn(a); err != nil {
			return nil, err
		}
		if len(a.schemaOps) > 0 {
			if err := a.newUpdate().Commit(); err != nil {
				return nil, fmt.Errorf("alter %s: %w", t.ident, err)
			}
		}
		return a.tx, nil
	})
}

// RowCountEstimate is the table's row count before the alteration, as
// Table.RowCountEstimate reports it.
func (a *Alteration) RowCountEstimate() int64 { return a.rows }

// Schema is the staged schema as Arrow, in the form Table.Schema has.
func (a *Alteration) Schema() (*arrow.Schema, error) {
	sc, err := a.icebergSchema()
	if err != nil {
		return nil, err
	}
	out, err := table.SchemaToArrowSchema(sc, nil, true, false)
	if err != nil {
		return nil, fmt.Errorf("alter %s: convert schema: %w", a.ident, err)
	}
	return out, nil
}

func (a *Alteration) icebergSchema() (*iceberg.Schema, error) {
	if len(a.schemaOps) == 0 {
		staged, err := a.tx.StagedTable()
		if err != nil {
			return nil, fmt.Errorf("alter %s: %w", a.ident, err)
		}
		return staged.Schema(), nil
	}
	sc, err := a.newUpdate().Apply()
	if err != nil {
		return nil, fmt.Errorf("alter %s: %w", a.ident, err)
	}
	return sc, nil
}

// newUpdate is a schema update over the transaction with every staged
// change applied. Incompatible changes are allowed because the only one
// staged is a required column, which callers add only to empty tables.
func (a *Alteration) newUpdate() *table.UpdateSchema {
	u := a.tx.UpdateSchema(true, true)
	for _, op := range a.schemaOps {
		u = op(u)
	}
	return u
}

// fieldID is the staged schema's id for the named top-level column.
func (a *Alteration) fieldID(name string) (int, error) {
	sc, err := a.icebergSchema()
	if err != nil {
		return 0, err
	}
	f, ok := sc.FindFieldByName(name)
	if !ok {
		return 0, unknownColumn(a.ident, name)
	}
	return f.ID, nil
}

// updateSchema stages one schema change, refusing it at once when it
// does not apply.
func (a *Alteration) updateSchema(change func(*table.UpdateSchema) *table.UpdateSchema) error {
	a.schemaOps = append(a.schemaOps, change)
	if _, err := a.newUpdate().Apply(); err != nil {
		a.schemaOps = a.schemaOps[:len(a.schemaOps)-1]
		return fmt.Errorf("alter %s: %w", a.ident, err)
	}
	return nil
}

// AddColumn adds a top-level column at the end and returns its new field
// id. Old data files read NULL for it, since they lack the id. A required
// column is only valid on an empty table; the caller checks.
func (a *Alteration) AddColumn(name string, typ arrow.DataType, required bool, doc string) (int, error) {
	it, err := table.ArrowTypeToIceberg(typ, false)
	if err != nil {
		return 0, fmt.Errorf("alter %s: column %q: %w", a.ident, name, err)
	}
	if err := a.updateSchema(func(u *table.UpdateSchema) *table.UpdateSchema {
		return u.AddColumn([]string{name}, it, doc, required, nil)
	}); err != nil {
		return 0, err
	}
	return a.fieldID(name)
}

// DropColumn removes a top-level column and returns the field id it had.
func (a *Alteration) DropColumn(name string) (int, error) {
	id, err := a.fieldID(name)
	if err != nil {
		return 0, err
	}
	order, err := a.SortOrder()
	if err != nil {
		return 0, err
	}
	for _, f := range order {
		if f.Column == name {
			return 0, pgerror.New(pgerror.DependentObjectsStillExist, "cannot drop column \"%s\" of table \"%s\" because the table's sort order uses it", name, a.ident.Table).
				WithHint("Change the sort order first (ALTER TABLE ... SET SORT ORDER).")
		}
	}
	return id, a.updateSchema(func(u *table.UpdateSchema) *table.UpdateSchema {
		return u.DeleteColumn([]string{name})
	})
}

// RenameColumn renames a top-level column; its field id, and so its data,
// stay.
func (a *Alteration) RenameColumn(from, to string) error {
	if _, err := a.fieldID(from); err != nil {
		return err
	}
	return a.updateSchema(func(u *table.UpdateSchema) *table.UpdateSchema {
		return u.RenameColumn([]string{from}, to)
	})
}

// SetColumnDoc sets a column's Iceberg doc string; "" removes it.
func (a *Alteration) SetColumnDoc(name, doc string) error {
	if _, err := a.fieldID(name); err != nil {
		return err
	}
	return a.updateSchema(func(u *table.UpdateSchema) *table.UpdateSchema {
		return u.UpdateColumn([]string{name}, table.ColumnUpdate{Doc: iceberg.Optional[string]{Valid: true, Val: doc}})
	})
}

// SetProperties sets table properties.
func (a *Alteration) SetProperties(props map[string]string) error {
	if len(props) == 0 {
		return nil
	}
	if err := a.tx.SetProperties(props); err != nil {
		return fmt.Errorf("alter %s: set properties: %w", a.ident, err)
	}
	return nil
}

// RemoveProperties removes table properties; absent keys are ignored.
func (a *Alteration) RemoveProperties(keys []string) error {
	staged, err := a.tx.StagedTable()
	if err != nil {
		return fmt.Errorf("alter %s: %w", a.ident, err)
	}
	present := make([]string, 0, len(keys))
	for _, k := range keys {
		if _, ok := staged.Properties()[k]; ok {
			present = append(present, k)
		}
	}
	if len(present) == 0 {
		return nil
	}
	if err := a.tx.RemoveProperties(present); err != nil {
		return fmt.Errorf("alter %s: remove properties: %w", a.ident, err)
	}
	return nil
}

// Properties are the staged table properties.
func (a *Alteration) Properties() (map[string]string, error) {
	staged, err := a.tx.StagedTable()
	if err != nil {
		return nil, fmt.Errorf("alter %s: %w", a.ident, err)
	}
	return staged.Properties(), nil
}
