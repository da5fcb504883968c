package storage

import (
	"fmt"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Version names a past version of a table: a snapshot by id, a branch or
// tag by name, or the snapshot that was current at a time. Exactly one
// of its fields is set.
type Version struct {
	SnapshotID int64
	Ref        string
	AsOf       time.Time
}

// AtVersion returns the table as of v: the same table, with its current
// schema, partition specs and properties, whose scans read the files of
// the snapshot v names. Columns are matched to the snapshot's files by
// field id, as for any file written before a schema change: a column
// renamed since is read under its current name (so today's policies on it
// apply), one added since reads NULL, one dropped since is not read.
//
// The table it returns only reads: every write refuses it. A snapshot the
// table no longer keeps (expired) is an error naming it, never an empty
// table.
func (t *Table) AtVersion(v Version) (*Table, error) {
	snap, err := t.snapshotOf(v)
	if err != nil {
		return nil, err
	}
	tbl, err := viewAt(t.tbl, snap.SnapshotID)
	if err != nil {
		return nil, fmt.Errorf("read %s as of snapshot %d: %w", t.ident, snap.SnapshotID, err)
	}
	past := *t
	past.tbl = tbl
	past.staged, past.hidden, past.stagedRows = nil, nil, 0
	past.past = true
	return &past, nil
}

// viewAt is tbl with snapshot id as its current one: the metadata a scan
// plans from, with the schema, specs and properties as they are. It is
// never committed (it has no catalog).
func viewAt(tbl *table.Table, id int64) (*table.Table, error) {
	if cur := tbl.CurrentSnapshot(); cur != nil && cur.SnapshotID == id {
		return tbl, nil
	}
	b, err := table.MetadataBuilderFromBase(tbl.Metadata(), tbl.MetadataLocation())
	if err != nil {
		return nil, err
	}
	if err := b.SetSnapshotRef(table.MainBranch, id, table.BranchRef); err != nil {
		return nil, err
	}
	meta, err := b.Build()
	if err != nil {
		return nil, err
	}
	return table.New(tbl.Identifier(), meta, tbl.MetadataLocation(), tbl.FS, nil), nil
}

// Past reports whether the table is a past version (AtVersion), which
// only reads.
func (t *Table) Past() bool { return t.past }

// refuseWriteToPast is the error of a write to a past version of the
// table.
func (t *Table) refuseWriteToPast() error {
	if !t.past {
		return nil
	}
	return pgerror.New(pgerror.FeatureNotSupported, "cannot change table %s as of a past version", t.displayName()).
		WithHint("Write to the table itself, or to a branch of it.")
}

func (t *Table) displayName() string { return t.ident.Namespace + "." + t.ident.Table }

// snapshotOf finds the snapshot v names among those the table keeps.
func (t *Table) snapshotOf(v Version) (*table.Snapshot, error) {
	meta := t.tbl.Metadata()
	switch {
	case v.Ref != "":
		ref, ok := refOf(meta, v.Ref)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedObject, "table %s has no branch or tag \"%s\"", t.displayName(), v.Ref).
				WithHint("SELECT name FROM %s.\"%s$refs\" lists them.", t.ident.Namespace, t.ident.Table)
		}
		return t.keptSnapshot(ref.SnapshotID)
	case !v.AsOf.IsZero():
		ms := v.AsOf.UnixMilli()
		var (
			id    int64
			found bool
		)
		// The snapshot log lists the snapshots that were current, oldest
		// first; the one current at ms is the last that became current at
		// or before it.
		for e := range meta.SnapshotLogs() {
			if e.TimestampMs > ms {
				break
			}
			id, found = e.SnapshotID, true
		}
		if !found {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "table %s has no snapshot at or before %s", t.displayName(), formatInstant(v.AsOf)).
				WithHint("SELECT made_current_at FROM %s.\"%s$history\" lists when each snapshot became current.", t.ident.Namespace, t.ident.Table)
		}
		snap := meta.SnapshotByID(id)
		if snap == nil {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "snapshot %d of table %s, current at %s, has been expired", id, t.displayName(), formatInstant(v.AsOf)).
				WithDetail("Expired snapshots' files may have been deleted; the table cannot be read as it was then.")
		}
		return snap, nil
	default:
		return t.keptSnapshot(v.SnapshotID)
	}
}

// keptSnapshot is the snapshot id when the table still keeps it, or an
// error that says whether it was expired or never was the table's.
func (t *Table) keptSnapshot(id int64) (*table.Snapshot, error) {
	meta := t.tbl.Metadata()
	if snap := meta.SnapshotByID(id); snap != nil {
		return snap, nil
	}
	for e := range meta.SnapshotLogs() {
		if e.SnapshotID == id {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "snapshot %d of table %s has been expired", id, t.displayName()).
				WithDetail("Expired snapshots' files may have been deleted; the table cannot be read as it was then.")
		}
	}
	// Expiry removes a snapshot's entries from the snapshot log too, so an
	// id found nowhere may be one the table had.
	return nil, pgerror.New(pgerror.InvalidParameterValue, "snapshot %d of table %s does not exist or has been expired", id, t.displayName()).
		WithHint("SELECT snapshot_id FROM %s.\"%s$snapshots\" lists the snapshots the table keeps.", t.ident.Namespace, t.ident.Table)
}

// refOf finds a branch or tag by name.
func refOf(meta table.Metadata, name string) (table.SnapshotRef, bool) {
	for n, ref := range meta.Refs() {
		if n == name {
			return ref, true
		}
	}
	return table.SnapshotRef{}, false
}

// formatInstant prints a time as PostgreSQL prints a timestamptz in UTC.
func formatInstant(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05.999999") + "+00"
}
