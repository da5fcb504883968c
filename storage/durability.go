package storage

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// An acknowledged commit must survive an operating-system crash, not only
// a killed process. SQLite makes the pointer swap durable; everything the
// new metadata refers to must be durable before it: otherwise a crash
// could leave the pointer naming a metadata file, manifest or data file
// whose contents, or whose directory entry, never reached the disk, and
// the table unreadable. Object stores are durable once a PUT returns;
// files of a local warehouse (file:// or a bare path) are flushed here.

// fileSyncer flushes files and directories of the local file system to
// stable storage.
type fileSyncer interface {
	// syncOpen flushes f, still open after being written, before its Close.
	syncOpen(f openFile) error
	// syncPath flushes the file or directory at path, a local path: for a
	// directory, the entries added to it.
	syncPath(path string) error
}

// openFile is a file being written that can be flushed (*os.File).
type openFile interface {
	Name() string
	Sync() error
}

// osSyncer is the fileSyncer of the operating system: fsync.
type osSyncer struct{}

func (osSyncer) syncOpen(f openFile) error { return f.Sync() }

func (osSyncer) syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}

// localPath is the path of loc when it names a local file (file:// or a
// bare path); ok is false for an object store's location.
func localPath(loc string) (path string, ok bool) {
	if !strings.Contains(loc, "://") {
		if strings.HasPrefix(loc, "file:") {
			loc = "file://" + strings.TrimPrefix(loc, "file:")
		} else {
			return filepath.Clean(loc), true
		}
	}
	u, err := url.Parse(loc)
	if err != nil || !strings.EqualFold(u.Scheme, "file") || (u.Host != "" && !strings.EqualFold(u.Host, "localhost")) {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), true
}

// newFiles gathers the local files one change created and the directories
// that gained them, so that each is flushed once. Directories are flushed
// from each file's up to root (the table's location, or the warehouse's
// for a new table), because a write may have created them.
type newFiles struct {
	root  string
	files []string
	dirs  []string
}

// newFileSet gathers files under rootLoc; a remote rootLoc gathers none.
func newFileSet(rootLoc string) *newFiles {
	root, ok := localPath(rootLoc)
	if !ok {
		return &newFiles{}
	}
	return &newFiles{root: root}
}

// add records the file at loc, which is ignored unless local (and the
// set's root is).
func (s *newFiles) add(loc string) {
	if s.root == "" {
		return
	}
	p, ok := localPath(loc)
	if !ok {
		return
	}
	s.files = append(s.files, p)
	s.addDirsOf(p)
}

// addWritten records the directories of a file at loc that was flushed
// as it was written.
func (s *newFiles) addWritten(loc string) {
	if s.root == "" {
		return
	}
	if p, ok := localPath(loc); ok {
		s.addDirsOf(p)
	}
}

func (s *newFiles) addDirsOf(p string) {
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		if !slices.Contains(s.dirs, dir) {
			s.dirs = append(s.dirs, dir)
		}
		if dir == s.root || !strings.HasPrefix(dir, s.root+string(filepath.Separator)) {
			return
		}
	}
}

// sync flushes the files, then the directories, each once. The files
// are flushed together, and then the directories, so that a journaling
// file system can commit them at once rather than one journal commit
// each. It fails with SQLSTATE 58030 at a failure: the change must then
// not be made visible (after a failed fsync, the file's contents are
// unknown).
func (s *newFiles) sync(syncer fileSyncer) error {
	if err := syncAll(syncer, slices.Compact(slices.Sorted(slices.Values(s.files)))); err != nil {
		return err
	}
	return syncAll(syncer, s.dirs)
}

// syncAll flushes paths concurrently.
func syncAll(syncer fileSyncer, paths []string) error {
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Go(func() {
			if err := syncer.syncPath(p); err != nil {
				errs[i] = pgerror.Wrap(err, pgerror.IOError, "could not fsync %q: %v", p, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
