package storage

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// syncCommit flushes what updated refers to that the commit from current
// created, other than its metadata file at metaLoc, which was flushed as
// it was written: the manifest list of each new snapshot, the manifests
// that snapshot added and the data files they add, the statistics files
// it registered, and the directories that gained them. Manifests are told new by the snapshot that added
// them (from the manifest list), and only those that add files are read.
// Nothing is done when the catalog does not sync or the files are remote.
func (c *embeddedCatalog) syncCommit(ctx context.Context, current, updated table.Metadata, metaLoc string) error {
	if c.sync == nil {
		return nil
	}
	set := newFileSet(updated.Location())
	if set.root == "" {
		return nil
	}
	set.addWritten(metaLoc)
	var fs icebergio.IO
	for _, snap := range newSnapshots(current, updated) {
		if snap.ManifestList == "" {
			continue
		}
		if fs == nil {
			var err error
			if fs, err = icebergio.LoadFS(ctx, c.ioProps(updated), snap.ManifestList); err != nil {
				return fmt.Errorf("sync snapshot %d: %w", snap.SnapshotID, err)
			}
		}
		if err := addSnapshotFiles(set, fs, snap); err != nil {
			return fmt.Errorf("sync snapshot %d: %w", snap.SnapshotID, err)
		}
	}
	known := map[string]bool{}
	for sf := range current.Statistics() {
		known[sf.StatisticsPath] = true
	}
	for sf := range updated.Statistics() {
		if !known[sf.StatisticsPath] {
			set.add(sf.StatisticsPath)
		}
	}
	return set.sync(c.sync)
}

// newSnapshots are the snapshots of updated that current lacks, found by
// walking back from the head of each of updated's refs to the first
// snapshot current has: a commit adds one or two snapshots to a history
// of possibly thousands, and Snapshots() would copy them all.
func newSnapshots(current, updated table.Metadata) []table.Snapshot {
	var out []table.Snapshot
	seen := map[int64]bool{}
	for _, ref := range updated.Refs() {
		for id := ref.SnapshotID; !seen[id] && current.SnapshotByID(id) == nil; {
			seen[id] = true
			snap := updated.SnapshotByID(id)
			if snap == nil {
				break
			}
			out = append(out, *snap)
			if snap.ParentSnapshotID == nil {
				break
			}
			id = *snap.ParentSnapshotID
		}
	}
	return out
}

// addSnapshotFiles adds snap's manifest list, the manifests snap added
// and the files they add to set.
func addSnapshotFiles(set *newFiles, fs icebergio.IO, snap table.Snapshot) error {
	set.add(snap.ManifestList)
	manifests, err := snap.Manifests(fs)
	if err != nil {
		return err
	}
	for _, m := range manifests {
		if m.SnapshotID() != snap.SnapshotID {
			continue
		}
		set.add(m.FilePath())
		if !m.HasAddedFiles() {
			continue
		}
		for e, err := range m.Entries(fs, true) {
			if err != nil {
				return fmt.Errorf("read manifest %s: %w", m.FilePath(), err)
			}
			if e.Status() == iceberg.EntryStatusADDED && e.SnapshotID() == snap.SnapshotID {
				set.add(e.DataFile().FilePath())
			}
		}
	}
	return nil
}

// syncCreated flushes the first metadata file of a table the SQL catalog
// created, and the directories from it up to the warehouse, which the
// creation may have made.
func (c *embeddedCatalog) syncCreated(meta table.Metadata, metaLoc string) error {
	if c.sync == nil {
		return nil
	}
	set := newFileSet(c.props.Get("warehouse", meta.Location()))
	set.add(metaLoc)
	return set.sync(c.sync)
}
