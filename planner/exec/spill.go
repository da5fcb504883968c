package exec

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Spilling. A blocking operator whose state would pass the query's
// memory budget writes part of it to local disk instead of failing with
// 53200: a sort writes sorted runs and merges them (sort_spill.go), a hash
// aggregate writes the rows of the groups it has no room for to hash
// partitions and aggregates each partition afterwards
// (aggregate_spill.go), and so do the workers' parts of a parallel
// aggregate, whose merged groups take in what the parts spilled; a hash
// join partitions both sides and joins them pair by pair (join_spill.go),
// an INTERSECT or EXCEPT partitions its state and both inputs the same
// way (setop_spill.go), and a window sorts its input through a spilling
// sort and computes a run of whole partitions at a time
// (window_spill.go). SELECT DISTINCT and UNION are aggregates, DISTINCT ON
// a window. What still fails with 53200: a window partition, a join
// build's partition or an aggregate's group state that does not fit by
// itself (a single huge partition, key or string_agg), an aggregate of
// GROUPING SETS, ROLLUP or CUBE, a join build that parallel workers share,
// a recursive query's work table, and a subquery's materialised rows.
//
// The server's SpillDir ([query] spill_dir) holds one SpillArea per query
// that spilled: a directory of its own, created (mode 0700) on the first
// spill and removed with everything in it when the query's result is
// closed, whether the query succeeded, failed, was cancelled or timed out,
// or its client went away. At start the server removes what earlier
// processes left behind: only the entries it names itself
// (spillAreaPrefix), never anything else in the directory.
//
// Spill files are Arrow IPC streams of record batches. They hold stored
// values as the query read them, below the access policies that govern
// what a client may see, so they never outlive the query and their
// contents are never logged. A failed file operation reports a SQLSTATE
// (53100 disk full, 58030 I/O error) and a reason to the client, never a
// path; the path is only in the error's cause, which the server logs.

// spillAreaPrefix starts the name of every spill area, followed by the
// pid of the process that made it.
const spillAreaPrefix = "sqe-spill-"

// maxSpillBatchBytes is about the largest batch written to a spill file:
// small enough that a merge can hold one per run within a small budget,
// large enough to keep the per-batch overhead low. Under a budget of less
// than 16 times that, batches are a sixteenth of the budget (at least
// minSpillBatchBytes).
const (
	maxSpillBatchBytes = 64 << 10
	minSpillBatchBytes = 4 << 10
)

// SpillDir is the directory the queries of a server spill under, and the
// server's running totals of what they wrote there. It is safe for use by
// several goroutines.
type SpillDir struct {
	path  string
	bytes atomic.Int64
	files atomic.Int64
}

// NewSpillDir returns the spill directory at path; nothing is created
// until a query spills.
func NewSpillDir(path string) *SpillDir {
	return &SpillDir{path: path}
}

// Path is the directory's path.
func (d *SpillDir) Path() string { return d.path }

// SpillTotals is what a server's queries spilled since it started.
type SpillTotals struct {
	Bytes int64
	Files int64
}

// Totals returns the bytes and files spilled so far.
func (d *SpillDir) Totals() SpillTotals {
	return SpillTotals{Bytes: d.bytes.Load(), Files: d.files.Load()}
}

// RemoveStale removes the spill areas earlier processes left: entries
// named spillAreaPrefix<pid>- whose process is this one (a restart that
// reused the pid) or is gone. Other entries are left alone. It returns
// how many areas it removed; a missing directory is no error.
func (d *SpillDir) RemoveStale() (int, error) {
	entries, err := os.ReadDir(d.path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("spill dir: %w", err)
	}
	removed := 0
	for _, e := range entries {
		pid, ok := spillAreaPID(e.Name())
		if !ok || !e.IsDir() || (pid != os.Getpid() && processAlive(pid)) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(d.path, e.Name())); err != nil {
			return removed, fmt.Errorf("spill dir: remove stale area: %w", err)
		}
		removed++
	}
	return removed, nil
}

// spillAreaPID reads the pid out of a spill area's name.
func spillAreaPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, spillAreaPrefix)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// processAlive reports whether a process with this pid exists (one of
// another user counts).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// NewArea returns a new query's spill area.
func (d *SpillDir) NewArea() *SpillArea {
	return &SpillArea{dir: d}
}

// SpillArea is one query's spill files, in a directory of their own that
// is created on the first spill. Close removes it.
type SpillArea struct {
	dir *SpillDir

	mu     sync.Mutex
	path   string // "" until the first file
	closed bool
}

// Close removes the area's directory and every file in it; the area
// takes no file afterwards.
func (a *SpillArea) Close() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	if a.path == "" {
		return nil
	}
	err := os.RemoveAll(a.path)
	a.path = ""
	if err != nil {
		return fmt.Errorf("remove spill area: %w", err)
	}
	return nil
}

// Path is the area's directory, "" while nothing has spilled.
func (a *SpillArea) Path() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.path
}

// create makes a new spill file; kind starts its name.
func (a *SpillArea) create(kind string) (*os.File, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return nil, errors.New("spill area is closed")
	}
	if a.path == "" {
		if err := os.MkdirAll(a.dir.path, 0o700); err != nil {
			return nil, spillIOError("create temporary directory", err)
		}
		p, err := os.MkdirTemp(a.dir.path, spillAreaPrefix+strconv.Itoa(os.Getpid())+"-")
		if err != nil {
			return nil, spillIOError("create temporary directory", err)
		}
		a.path = p
	}
	f, err := os.CreateTemp(a.path, kind+"-*.arrow")
	if err != nil {
		return nil, spillIOError("create temporary file", err)
	}
	a.dir.files.Add(1)
	return f, nil
}

type spillAreaKey struct{}

// WithSpillArea returns a context whose queries Build lets spill to a.
// Without one (or without a memory limit) nothing spills, and operators
// fail with 53200 past the budget.
func WithSpillArea(ctx context.Context, a *SpillArea) context.Context {
	return context.WithValue(ctx, spillAreaKey{}, a)
}

// spillAreaFor returns the area an operator built under ctx may spill
// to: nil when ctx has none or its budget has no limit (nothing would
// ever need to spill).
func spillAreaFor(ctx context.Context) *SpillArea {
	a, _ := ctx.Value(spillAreaKey{}).(*SpillArea)
	if a == nil || MemoryBudgetFrom(ctx).Limit() == 0 {
		return nil
	}
	return a
}

// spillIOError is the PostgreSQL error of a failed spill file operation:
// 53100 when the disk (or quota) is full, else 58030. The message names no
// path; the cause, which the server logs, does.
func spillIOError(action string, err error) error {
	code := pgerror.IOError
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		code = pgerror.DiskFull
	}
	reason := err.Error()
	var errno syscall.Errno
	if errors.As(err, &errno) {
		reason = errno.Error()
		if reason != "" {
			reason = strings.ToUpper(reason[:1]) + reason[1:]
		}
	}
	return pgerror.Wrap(err, code, "could not %s: %s", action, reason).
		WithHint("Check the free space and permissions of [query] spill_dir, or raise [query] memory_limit.")
}

// spillWriter writes record batches of one schema to a new spill file.
type spillWriter struct {
	area    *SpillArea
	f       *os.File
	buf     *bufio.Writer
	counted countingWriter
	w       *ipc.Writer
	rows    int64
	// batchMax is the largest batch written and memBytes all of them, in
	// memory.
	batchMax, memBytes int64
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// newSpillWriter starts a spill file whose writes go through a buffer of
// bufBytes.
func newSpillWriter(area *SpillArea, kind string, schema *arrow.Schema, bufBytes int) (*spillWriter, error) {
	f, err := area.create(kind)
	if err != nil {
		return nil, err
	}
	w := &spillWriter{area: area, f: f}
	w.counted.w = f
	w.buf = bufio.NewWriterSize(&w.counted, bufBytes)
	w.w = ipc.NewWriter(w.buf, ipc.WithSchema(schema), ipc.WithAllocator(memory.DefaultAllocator))
	return w, nil
}

// write appends b to the file.
func (w *spillWriter) write(b arrow.RecordBatch) error {
	if err := w.w.Write(b); err != nil {
		return spillIOError("write to temporary file", err)
	}
	size := batchBytes(b)
	w.rows += b.NumRows()
	w.batchMax = max(w.batchMax, size)
	w.memBytes += size
	return nil
}

// finish ends the file and returns it for reading.
func (w *spillWriter) finish() (*spillFile, error) {
	err := w.w.Close()
	if err == nil {
		err = w.buf.Flush()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	w.area.dir.bytes.Add(w.counted.n)
	if err != nil {
		_ = os.Remove(w.f.Name())
		return nil, spillIOError("write to temporary file", err)
	}
	return &spillFile{path: w.f.Name(), rows: w.rows, bytes: w.counted.n, batchMax: w.batchMax, memBytes: w.memBytes}, nil
}

// abort drops a file that will not be finished.
func (w *spillWriter) abort() {
	_ = w.f.Close()
	_ = os.Remove(w.f.Name())
	w.area.dir.bytes.Add(w.counted.n)
}

// spillFile is a finished spill file: its rows, its size on disk, and
// the memory of its largest batch and of all of them.
type spillFile struct {
	path     string
	rows     int64
	bytes    int64
	batchMax int64
	memBytes int64
}

// remove deletes the file once it is read, freeing its disk before the
// query ends.
func (f *spillFile) remove() { _ = os.Remove(f.path) }

// spillReader reads a spill file's batches in order.
type spillReader struct {
	f *os.File
	r *ipc.Reader
}

func (f *spillFile) open() (*spillReader, error) {
	file, err := os.Open(f.path)
	if err != nil {
		return nil, spillIOError("open temporary file", err)
	}
	r, err := ipc.NewReader(bufio.NewReaderSize(file, 64<<10), ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		_ = file.Close()
		return nil, spillIOError("read temporary file", err)
	}
	return &spillReader{f: file, r: r}, nil
}

// next returns the next batch (the caller releases it), or nil at the
// end.
func (r *spillReader) next() (arrow.RecordBatch, error) {
	if r.r.Next() {
		b := r.r.RecordBatch()
		b.Retain()
		return b, nil
	}
	if err := r.r.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, spillIOError("read temporary file", err)
	}
	return nil, nil
}

func (r *spillReader) close() {
	r.r.Release()
	_ = r.f.Close()
}

// spillBatchRows is how many rows of rowBytes each a spill batch holds
// under budget.
func spillBatchRows(budget *MemoryBudget, rowBytes int64) int {
	if rowBytes <= 0 {
		return outputBatchRows
	}
	target := int64(maxSpillBatchBytes)
	if l := budget.Limit(); l > 0 {
		target = min(max(l/16, minSpillBatchBytes), maxSpillBatchBytes)
	}
	return int(min(max(target/rowBytes, 16), outputBatchRows))
}
