package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Automatic maintenance, one table at a time (a pass). The steps, in
// order:
//
//  1. rewrite the data files of each partition that holds at least
//     min-input-files small ones, merging the manifests in the same
//     commit; or, when there is nothing to compact but the snapshot
//     has more manifests than commit.manifest.min-count-to-merge, merge
//     those alone;
//  2. expire snapshots older than the retention, keeping the newest few
//     of every branch and what any branch or tag references
//     (iceberg-go's expiry), and delete the files only they referenced
//     (after the rewrite, so that the snapshots it replaced go at once
//     when they are old enough);
//  3. delete the metadata files older than the ones the current
//     metadata's log keeps (each commit trims the log to
//     write.metadata.previous-versions-max, 100 by default);
//  4. on a scheduled pass, remove orphan files: files under the table's
//     location that no metadata file, snapshot, manifest or statistics
//     file the metadata lists references, and older than the orphan
//     window (which covers writes in flight: their files exist before
//     the commit that references them).
//
// Steps 1 and 2 commit, through the same commit lock and replay as the
// procedures (so a concurrent writer's group commit is never lost), and
// only under the table's maintenance lease (maintenance_lease.go).
// Steps 3 and 4 only delete files that no metadata reachable from the
// catalog references, which any server may do at any time. A pass
// decides from the metadata first and takes the lease only when a
// commit is due: an idle table is never written.

// Maintenance step names, as the log and the metrics show them.
const (
	StepExpireSnapshots  = "expire_snapshots"
	StepRewriteData      = "rewrite_data_files"
	StepRewriteManifests = "rewrite_manifests"
	StepMetadataFiles    = "delete_metadata_files"
	StepOrphanFiles      = "remove_orphan_files"
	StepLease            = "lease"
)

// Step outcomes.
const (
	OutcomeDone     = "done"     // the step changed something
	OutcomeConflict = "conflict" // another writer or server won; tried again later
	OutcomeSkipped  = "skipped"  // the step could not run here (reason in Err)
	OutcomeFailed   = "failed"
)

// Table properties of maintenance that Iceberg does not define.
const (
	// PropMaintenanceEnabled = "false" leaves a table out of automatic
	// maintenance.
	PropMaintenanceEnabled = "sqe.maintenance.enabled"
	// PropMinInputFiles is how many small files a partition must hold
	// before its data files are rewritten.
	PropMinInputFiles = "sqe.maintenance.min-input-files"
)

// The Iceberg table properties maintenance reads.
const (
	propMaxSnapshotAge       = "history.expire.max-snapshot-age-ms"
	propMinSnapshotsToKeep   = "history.expire.min-snapshots-to-keep"
	propManifestMergeEnabled = "commit.manifest-merge.enabled"
	propManifestMinMerge     = "commit.manifest.min-count-to-merge"
	propMetadataDelete       = "write.metadata.delete-after-commit.enabled"
)

// MaintenanceSettings are a server's defaults for automatic maintenance;
// each has a table property that overrides it for one table.
type MaintenanceSettings struct {
	// SnapshotMaxAge: snapshots older are expired
	// (history.expire.max-snapshot-age-ms).
	SnapshotMaxAge time.Duration
	// MinSnapshotsToKeep of each branch are kept whatever their age
	// (history.expire.min-snapshots-to-keep).
	MinSnapshotsToKeep int
	// MinInputFiles: a partition's data files are rewritten when it
	// holds at least this many small ones (sqe.maintenance.min-input-files).
	MinInputFiles int
	// ManifestMinCountToMerge: a snapshot's manifests are merged when it
	// has more (commit.manifest.min-count-to-merge; merging is off when
	// commit.manifest-merge.enabled is false).
	ManifestMinCountToMerge int
	// DeleteOldMetadata deletes the metadata files the metadata log no
	// longer lists (write.metadata.delete-after-commit.enabled, which
	// SQE's maintenance treats as true when a table does not set it).
	DeleteOldMetadata bool
	// OrphanMinAge: an unreferenced file is removed only when older.
	OrphanMinAge time.Duration
}

// DefaultMaintenanceSettings are Iceberg's defaults where it has one.
func DefaultMaintenanceSettings() MaintenanceSettings {
	return MaintenanceSettings{
		SnapshotMaxAge:          5 * 24 * time.Hour,
		MinSnapshotsToKeep:      1,
		MinInputFiles:           5,
		ManifestMinCountToMerge: 100,
		DeleteOldMetadata:       true,
		OrphanMinAge:            3 * 24 * time.Hour,
	}
}

// tableMaintenance is the settings for one table, its properties applied.
type tableMaintenance struct {
	MaintenanceSettings
	enabled, gc, mergeManifests bool
}

// forTable applies a table's properties to s. A malformed property is
// an error: maintenance of that table fails until it is fixed, rather
// than running with a value nobody set.
func (s MaintenanceSettings) forTable(props iceberg.Properties) (tableMaintenance, error) {
	tm := tableMaintenance{MaintenanceSettings: s, enabled: true, gc: true, mergeManifests: true}
	boolProp := func(key string, into *bool) error {
		if v, ok := props[key]; ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return badProperty(key, v)
			}
			*into = b
		}
		return nil
	}
	intProp := func(key string, into *int, least int) error {
		if v, ok := props[key]; ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < least {
				return badProperty(key, v)
			}
			*into = n
		}
		return nil
	}
	if v, ok := props[propMaxSnapshotAge]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > math.MaxInt64/int64(time.Millisecond) {
			return tm, badProperty(propMaxSnapshotAge, v)
		}
		tm.SnapshotMaxAge = time.Duration(n) * time.Millisecond
	}
	for _, err := range []error{
		boolProp(PropMaintenanceEnabled, &tm.enabled),
		boolProp(table.GCEnabledKey, &tm.gc),
		boolProp(propManifestMergeEnabled, &tm.mergeManifests),
		boolProp(propMetadataDelete, &tm.DeleteOldMetadata),
		intProp(propMinSnapshotsToKeep, &tm.MinSnapshotsToKeep, 1),
		intProp(PropMinInputFiles, &tm.MinInputFiles, 2),
		intProp(propManifestMinMerge, &tm.ManifestMinCountToMerge, 0),
	} {
		if err != nil {
			return tm, err
		}
	}
	return tm, nil
}

func badProperty(key, v string) error {
	return pgerror.New(pgerror.InvalidParameterValue, "table property %s has an invalid value %q", key, v)
}

// StepReport is what one step of a pass did.
type StepReport struct {
	Step     string
	Outcome  string
	Duration time.Duration
	// SnapshotsExpired and FilesRemoved (data, delete, manifest,
	// manifest list, statistics, metadata or orphan files deleted).
	SnapshotsExpired int64
	FilesRemoved     int64
	// FilesRewritten were replaced by FilesAdded; ManifestsRewritten
	// were merged.
	FilesRewritten     int64
	FilesAdded         int64
	ManifestsRewritten int64
	// Err is why the step failed, conflicted or was skipped.
	Err error
}

// passPlan is what a pass found due on a table, from its metadata.
type passPlan struct {
	expire, compact, mergeManifests bool
}

// planPass decides which committing steps are due on t at now.
func (t *Table) planPass(ctx context.Context, tm tableMaintenance, now time.Time) (passPlan, error) {
	var p passPlan
	base := t.tbl
	if base.CurrentSnapshot() == nil {
		return p, nil
	}
	if tm.gc {
		tx := base.NewTransaction()
		if err := tx.ExpireSnapshots(tm.expireOptions(now)...); err != nil {
			return p, fmt.Errorf("plan expiry of %s: %w", t.ident, err)
		}
		tc, err := tx.TableCommit()
		if err != nil {
			return p, fmt.Errorf("plan expiry of %s: %w", t.ident, err)
		}
		p.expire = len(tc.Updates) > 0
	}
	target := base.Properties().GetInt64(table.WriteTargetFileSizeBytesKey, defaultCompactionTarget)
	tasks, err := t.planInCommitOrder(ctx, nil, 0)
	if err != nil {
		return p, fmt.Errorf("plan compaction of %s: %w", t.ident, err)
	}
	small := map[string]int{}
	for _, task := range tasks {
		if len(task.DeleteFiles) > 0 || len(task.EqualityDeleteFiles) > 0 || len(task.DeletionVectorFiles) > 0 {
			// Copy-on-write tables have none; a table that has some is
			// not SQE's to compact (see Rewrite).
			small = nil
			break
		}
		if task.File.FileSizeBytes() < target {
			k := partitionKey(task.File)
			small[k]++
			if small[k] >= tm.MinInputFiles {
				p.compact = true
			}
		}
	}
	if small == nil {
		p.compact = false
	}
	if tm.mergeManifests && !p.compact {
		fsys, err := base.FS(ctx)
		if err != nil {
			return p, err
		}
		mans, err := base.CurrentSnapshot().Manifests(fsys)
		if err != nil {
			return p, fmt.Errorf("plan manifest merge of %s: %w", t.ident, err)
		}
		p.mergeManifests = len(mans) > tm.ManifestMinCountToMerge
	}
	return p, nil
}

// expireOptions are iceberg-go's expiry options for tm at now.
func (tm tableMaintenance) expireOptions(now time.Time) []table.ExpireSnapshotsOpt {
	return []table.ExpireSnapshotsOpt{
		table.WithOlderThan(max(time.Since(now.Add(-tm.SnapshotMaxAge)), 0)),
		table.WithRetainLast(tm.MinSnapshotsToKeep),
		table.WithPostCommit(false),
	}
}

// runExpire is step 1.
func (t *Table) runExpire(ctx context.Context, tm tableMaintenance, now time.Time) (*Table, StepReport) {
	start := time.Now()
	r := StepReport{Step: StepExpireSnapshots}
	next, res, err := t.ExpireSnapshots(ctx, ExpireOptions{OlderThan: now.Add(-tm.SnapshotMaxAge), RetainLast: tm.MinSnapshotsToKeep})
	r.Duration = time.Since(start)
	if err != nil {
		r.Outcome, r.Err = stepFailure(err), err
		return t, r
	}
	r.Outcome = OutcomeDone
	r.SnapshotsExpired = res.ExpiredSnapshots
	r.FilesRemoved = res.DeletedDataFiles + res.DeletedPositionDeleteFiles + res.DeletedEqualityDeleteFiles +
		res.DeletedManifests + res.DeletedManifestLists + res.DeletedStatisticsFiles
	return next, r
}

// runRewrite is step 2: compaction with the manifests merged, or the
// manifests alone.
func (t *Table) runRewrite(ctx context.Context, tm tableMaintenance, p passPlan, sort RowSorter) (*Table, StepReport) {
	start := time.Now()
	r := StepReport{Step: StepRewriteData}
	opts := rewriteOptions{minInputFiles: tm.MinInputFiles, mergeManifests: tm.mergeManifests}
	if !p.compact {
		r.Step, opts.minInputFiles = StepRewriteManifests, math.MaxInt
	}
	next, res, err := t.rewriteDataFiles(ctx, sort, opts)
	r.Duration = time.Since(start)
	if err != nil {
		r.Outcome, r.Err = stepFailure(err), err
		return t, r
	}
	r.Outcome = OutcomeDone
	r.FilesRewritten, r.FilesAdded = int64(res.RewrittenDataFiles), int64(res.AddedDataFiles)
	r.ManifestsRewritten = int64(res.RewrittenManifests)
	return next, r
}

// stepFailure classifies a committing step's error: losing a race to
// another writer is a conflict, to be tried again on a later pass.
func stepFailure(err error) string {
	if errors.Is(err, ErrCommitConflict) || errors.Is(err, ErrLeaseHeld) || isCommitConflict(err) {
		return OutcomeConflict
	}
	var rerun *RerunConflict
	if errors.As(err, &rerun) {
		return OutcomeConflict
	}
	return OutcomeFailed
}

// runMetadataCleanup is step 3: it deletes the metadata files in the
// table's metadata folder whose version is older than the oldest one the
// current metadata's log keeps. A newer file may belong to a commit in
// flight, so it is never touched; a file whose name has no version is
// left to orphan removal.
func (t *Table) runMetadataCleanup(ctx context.Context) (r StepReport) {
	start := time.Now()
	r = StepReport{Step: StepMetadataFiles, Outcome: OutcomeDone}
	defer func() { r.Duration = time.Since(start) }()
	meta := t.tbl.Metadata()
	oldest, ok := metadataVersion(t.tbl.MetadataLocation())
	if !ok {
		r.Outcome, r.Err = OutcomeSkipped, fmt.Errorf("metadata file %s has no version in its name", t.tbl.MetadataLocation())
		return r
	}
	for e := range meta.PreviousFiles() {
		if v, ok := metadataVersion(e.MetadataFile); ok && v < oldest {
			oldest = v
		}
	}
	fsys, err := t.tbl.FS(ctx)
	if err != nil {
		r.Outcome, r.Err = OutcomeFailed, err
		return r
	}
	dir := parentOf(t.tbl.MetadataLocation())
	var doomed []string
	err = walkFiles(fsys, dir, func(p string, _ fs.FileInfo) {
		// Only the folder itself: a table never nests metadata.
		if strings.TrimPrefix(parentOf(p), "file://") != strings.TrimPrefix(dir, "file://") {
			return
		}
		if v, ok := metadataVersion(p); ok && v < oldest {
			doomed = append(doomed, p)
		}
	})
	if errors.Is(err, errNotListable) {
		r.Outcome, r.Err = OutcomeSkipped, err
		return r
	}
	if err != nil {
		r.Outcome, r.Err = OutcomeFailed, fmt.Errorf("list metadata files of %s: %w", t.ident, err)
		return r
	}
	r.FilesRemoved = removeEach(fsys, doomed)
	return r
}

// parentOf is the folder part of a location (path.Dir would fold a
// scheme's "//").
func parentOf(loc string) string {
	return loc[:max(strings.LastIndex(loc, "/"), 0)]
}

// metadataVersion is the version in a metadata file's name.
func metadataVersion(loc string) (int, bool) {
	m := metadataFileName.FindStringSubmatch(path.Base(loc))
	if m == nil {
		return 0, false
	}
	digits := m[1]
	if digits == "" {
		digits = m[2]
	}
	v, err := strconv.Atoi(digits)
	return v, err == nil
}

// errNotListable: the table's file system cannot list a folder (an IO
// without iceberg-go's ListableIO; its local and object-store IOs both
// list), so the steps that must list are skipped.
var errNotListable = errors.New("the table's file system cannot list files")

// walkFiles calls fn for every file under root.
func walkFiles(fsys iceio.IO, root string, fn func(path string, info fs.FileInfo)) error {
	l, ok := fsys.(iceio.ListableIO)
	if !ok {
		return errNotListable
	}
	err := l.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fn(p, info)
		return nil
	})
	return err
}

// runOrphanCleanup is step 4, with iceberg-go's orphan removal: files
// under the table's location older than tm.OrphanMinAge that the
// metadata references nowhere (current and logged metadata files, every
// snapshot's manifest list, manifests and files, statistics files).
// Snapshots any branch or tag references are in the metadata, so their
// files are referenced. A file's age is measured against the wall
// clock, as its modification time is.
func (t *Table) runOrphanCleanup(ctx context.Context, tm tableMaintenance) (r StepReport) {
	start := time.Now()
	r = StepReport{Step: StepOrphanFiles, Outcome: OutcomeDone}
	defer func() { r.Duration = time.Since(start) }()
	fsys, err := t.tbl.FS(ctx)
	if err != nil {
		r.Outcome, r.Err = OutcomeFailed, err
		return r
	}
	if _, ok := fsys.(iceio.ListableIO); !ok {
		r.Outcome, r.Err = OutcomeSkipped, errNotListable
		return r
	}
	res, err := t.tbl.DeleteOrphanFiles(ctx, table.WithFilesOlderThan(tm.OrphanMinAge))
	if err != nil {
		r.Outcome, r.Err = OutcomeFailed, fmt.Errorf("remove orphan files of %s: %w", t.ident, err)
		return r
	}
	r.FilesRemoved = int64(len(res.DeletedFiles))
	return r
}
