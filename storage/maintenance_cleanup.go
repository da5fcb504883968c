package storage

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// deleteExpiredFiles deletes the files that only the snapshots of before
// missing from after referenced: their manifest lists and statistics
// files, their manifests that no kept snapshot lists, and the data and
// delete files of those manifests that no kept manifest holds live. It
// follows iceberg-go's own clean-up after an expiry (which reports no
// counts) and counts what it deletes.
func deleteExpiredFiles(ctx context.Context, before, after *table.Table) (ExpiryResult, error) {
	var res ExpiryResult
	kept := map[int64]bool{}
	for _, s := range after.Metadata().Snapshots() {
		kept[s.SnapshotID] = true
	}
	expired := map[int64]table.Snapshot{}
	for _, s := range before.Metadata().Snapshots() {
		if !kept[s.SnapshotID] {
			expired[s.SnapshotID] = s
		}
	}
	res.ExpiredSnapshots = int64(len(expired))
	if len(expired) == 0 {
		return res, nil
	}
	fs, err := before.FS(ctx)
	if err != nil {
		return res, err
	}
	keptManifests, live, err := liveFiles(fs, after)
	if err != nil {
		return res, err
	}

	var lists, manifests []string
	var files []iceberg.DataFile
	seenManifest, seenFile := map[string]bool{}, map[string]bool{}
	for _, s := range expired {
		lists = append(lists, s.ManifestList)
		mans, err := s.Manifests(fs)
		if err != nil {
			return res, fmt.Errorf("read manifest list %s: %w", s.ManifestList, err)
		}
		for _, m := range mans {
			path := m.FilePath()
			if keptManifests[path] || seenManifest[path] {
				continue
			}
			seenManifest[path] = true
			manifests = append(manifests, path)
			for e, err := range m.Entries(fs, false) {
				if err != nil {
					return res, fmt.Errorf("read manifest %s: %w", path, err)
				}
				df := e.DataFile()
				if p := df.FilePath(); !live[p] && !seenFile[p] {
					seenFile[p] = true
					files = append(files, df)
				}
			}
		}
	}

	for _, df := range files {
		if fs.Remove(df.FilePath()) != nil {
			continue
		}
		switch df.ContentType() {
		case iceberg.EntryContentPosDeletes:
			res.DeletedPositionDeleteFiles++
		case iceberg.EntryContentEqDeletes:
			res.DeletedEqualityDeleteFiles++
		default:
			res.DeletedDataFiles++
		}
	}
	res.DeletedManifests = removeEach(fs, manifests)
	res.DeletedManifestLists = removeEach(fs, lists)
	res.DeletedStatisticsFiles = removeEach(fs, expiredStatistics(before, after, expired))
	return res, nil
}

// liveFiles lists the manifests of every snapshot of tbl and the files
// they hold live (added or existing).
func liveFiles(fs iceio.IO, tbl *table.Table) (manifests, files map[string]bool, err error) {
	manifests, files = map[string]bool{}, map[string]bool{}
	for _, s := range tbl.Metadata().Snapshots() {
		mans, err := s.Manifests(fs)
		if err != nil {
			return nil, nil, fmt.Errorf("read manifest list %s: %w", s.ManifestList, err)
		}
		for _, m := range mans {
			if manifests[m.FilePath()] {
				continue
			}
			manifests[m.FilePath()] = true
			for e, err := range m.Entries(fs, true) {
				if err != nil {
					return nil, nil, fmt.Errorf("read manifest %s: %w", m.FilePath(), err)
				}
				files[e.DataFile().FilePath()] = true
			}
		}
	}
	return manifests, files, nil
}

// expiredStatistics lists the statistics files of the expired snapshots
// that after no longer lists.
func expiredStatistics(before, after *table.Table, expired map[int64]table.Snapshot) []string {
	keep := map[string]bool{}
	for sf := range after.Metadata().Statistics() {
		keep[sf.StatisticsPath] = true
	}
	for sf := range after.Metadata().PartitionStatistics() {
		keep[sf.StatisticsPath] = true
	}
	var out []string
	add := func(id int64, path string) {
		if _, ok := expired[id]; ok && path != "" && !keep[path] {
			keep[path] = true
			out = append(out, path)
		}
	}
	for sf := range before.Metadata().Statistics() {
		add(sf.SnapshotID, sf.StatisticsPath)
	}
	for sf := range before.Metadata().PartitionStatistics() {
		add(sf.SnapshotID, sf.StatisticsPath)
	}
	return out
}

// removeEach deletes paths and counts the ones deleted.
func removeEach(fs iceio.IO, paths []string) int64 {
	var n int64
	for _, p := range paths {
		if fs.Remove(p) == nil {
			n++
		}
	}
	return n
}
