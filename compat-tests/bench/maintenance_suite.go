package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

// -suite maintenance (`make soak-maintenance`) runs single-row INSERTs
// into one table for -maint-duration with the server's automatic
// maintenance on, and samples every -maint-interval what maintenance is
// to bound: the table's data files, manifests and metadata files on disk,
// and the p50 and p99 latency of a fixed SELECT that reads every row. A
// table fed this way without maintenance grows by a data file, a
// manifest, a manifest list and a metadata file per INSERT, and every
// read plans over all of them. The retention is shortened
// (-maint-snapshot-age) so that expiry shows within the run.

type maintenanceSuiteOptions struct {
	duration, interval, snapshotAge, debounce time.Duration
	writers, rate                             int
}

// maintenanceTable is the table the suite writes.
const maintenanceTable = "maint.events"

// maintenanceRead is the fixed SELECT: a filter that no statistics
// answer, so it reads every data file.
const maintenanceRead = "SELECT count(*) FROM maint.events WHERE id % 7 = 3"

// maintenanceSample is one sample of the table and the reads since the
// previous one.
type maintenanceSample struct {
	at                              time.Duration
	rows                            int64
	dataFiles, manifests, metadatas int
	// snapshots and liveFiles are the current metadata's snapshots and
	// its current snapshot's data files.
	snapshots, liveFiles int
	p50, p99             time.Duration
	reads                int
}

func runMaintenanceSuite(ctx context.Context, opts options, bin, work string) (err error) {
	mo := opts.maintenance
	port, err := freePort()
	if err != nil {
		return err
	}
	httpAddr := fmt.Sprintf("127.0.0.1:%d", port)
	env := []string{
		"SQE_HTTP__LISTEN=" + httpAddr,
		"SQE_MAINTENANCE__ENABLED=true",
		"SQE_MAINTENANCE__DEBOUNCE=" + mo.debounce.String(),
		"SQE_MAINTENANCE__SNAPSHOT_MAX_AGE=" + mo.snapshotAge.String(),
	}
	name := "sqe-maintenance"
	srv, err := startSQEWith(ctx, bin, work, filepath.Join(work, name), false, name, env)
	if err != nil {
		return err
	}
	defer func() {
		if serr := srv.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	conn, err := srv.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := execAll(ctx, conn, []string{
		"CREATE SCHEMA IF NOT EXISTS maint",
		"DROP TABLE IF EXISTS " + maintenanceTable,
		"CREATE TABLE " + maintenanceTable + " (id bigint NOT NULL, v text)",
	}); err != nil {
		return fmt.Errorf("sqe: %w", err)
	}
	tableDir := filepath.Join(work, name, "warehouse", "maint.db", "events")

	progress("maintenance: %d writers, %d single-row INSERTs/s in all, for %s", mo.writers, mo.rate, mo.duration)
	runCtx, stop := context.WithTimeout(ctx, mo.duration)
	defer stop()
	var (
		wg       sync.WaitGroup
		inserted atomic.Int64
		mu       sync.Mutex
		errs     []error
		lat      []time.Duration
	)
	fail := func(err error) {
		if runCtx.Err() != nil {
			return // the run ended under the statement
		}
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
		stop()
	}
	tick := time.NewTicker(time.Second / time.Duration(max(mo.rate, 1)))
	defer tick.Stop()
	var next atomic.Int64
	for range mo.writers {
		w, err := srv.connect(ctx)
		if err != nil {
			return err
		}
		defer w.Close(context.WithoutCancel(ctx))
		wg.Go(func() {
			for {
				select {
				case <-runCtx.Done():
					return
				case <-tick.C:
				}
				id := next.Add(1)
				if _, err := w.Exec(runCtx, "INSERT INTO "+maintenanceTable+" VALUES ($1, 'v')", id); err != nil {
					fail(fmt.Errorf("insert %d: %w", id, err))
					return
				}
				inserted.Add(1)
			}
		})
	}
	reader, err := srv.connect(ctx)
	if err != nil {
		return err
	}
	defer reader.Close(context.WithoutCancel(ctx))
	wg.Go(func() {
		for runCtx.Err() == nil {
			start := time.Now()
			var n int64
			if err := reader.QueryRow(runCtx, maintenanceRead).Scan(&n); err != nil {
				fail(fmt.Errorf("read: %w", err))
				return
			}
			mu.Lock()
			lat = append(lat, time.Since(start))
			mu.Unlock()
			sleepOrDone(runCtx, 100*time.Millisecond)
		}
	})

	var samples []maintenanceSample
	begin := time.Now()
	sample := func() error {
		s, err := countTableFiles(tableDir)
		if err != nil {
			return err
		}
		mu.Lock()
		s.p50, s.p99, s.reads = percentile(lat, 50), percentile(lat, 99), len(lat)
		lat = nil
		mu.Unlock()
		s.at, s.rows = time.Since(begin).Round(time.Second), inserted.Load()
		samples = append(samples, s)
		return nil
	}
	every := time.NewTicker(mo.interval)
	defer every.Stop()
	for done := false; !done; {
		select {
		case <-runCtx.Done():
			done = true
		case <-every.C:
			if err := sample(); err != nil {
				return err
			}
		}
	}
	wg.Wait()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var rows int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+maintenanceTable).Scan(&rows); err != nil {
		return err
	}
	// An INSERT the end of the run cancelled may have committed.
	if rows < inserted.Load() || rows > next.Load() {
		return fmt.Errorf("maintenance: %d rows acknowledged and %d sent, but %d in the table", inserted.Load(), next.Load(), rows)
	}
	metrics, err := maintenanceMetricLines(ctx, httpAddr)
	if err != nil {
		return err
	}
	writeMaintenanceReport(os.Stdout, mo, samples, rows, metrics)
	return nil
}

func sleepOrDone(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// countTableFiles counts a table's files on disk: Parquet data files,
// manifests (Avro files other than manifest lists) and metadata files;
// and, from the newest metadata file, the snapshots and the current
// snapshot's data files.
func countTableFiles(dir string) (maintenanceSample, error) {
	var s maintenanceSample
	type metadataFile struct {
		path    string
		version int
	}
	var metadatas []metadataFile
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case d.IsDir():
		case strings.HasSuffix(name, ".parquet"):
			s.dataFiles++
		case strings.HasSuffix(name, ".avro") && !strings.HasPrefix(name, "snap-"):
			s.manifests++
		case strings.HasSuffix(name, ".metadata.json"):
			s.metadatas++
			if v, err := strconv.Atoi(strings.SplitN(name, "-", 2)[0]); err == nil {
				metadatas = append(metadatas, metadataFile{p, v})
			}
		}
		return nil
	})
	if err != nil || len(metadatas) == 0 {
		return s, err
	}
	var meta struct {
		Current   int64 `json:"current-snapshot-id"`
		Snapshots []struct {
			ID      int64             `json:"snapshot-id"`
			Summary map[string]string `json:"summary"`
		} `json:"snapshots"`
	}
	// The newest file may still be being written (or already be removed
	// by the metadata clean-up): the newest complete one is read.
	slices.SortFunc(metadatas, func(a, b metadataFile) int { return cmp.Compare(b.version, a.version) })
	var readErr error
	for _, m := range metadatas {
		data, err := os.ReadFile(m.path)
		if err == nil {
			err = json.Unmarshal(data, &meta)
		}
		if err == nil {
			readErr = nil
			break
		}
		readErr = fmt.Errorf("%s: %w", m.path, err)
	}
	if readErr != nil {
		return s, readErr
	}
	s.snapshots = len(meta.Snapshots)
	for _, snap := range meta.Snapshots {
		if snap.ID == meta.Current {
			s.liveFiles, _ = strconv.Atoi(snap.Summary["total-data-files"])
		}
	}
	return s, nil
}

// maintenanceMetricLines are the server's sqe_maintenance_ samples.
func maintenanceMetricLines(ctx context.Context, httpAddr string) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+httpAddr+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "sqe_maintenance_") && !strings.HasPrefix(line, "sqe_maintenance_last_run") {
			out = append(out, line)
		}
	}
	return out, sc.Err()
}

func writeMaintenanceReport(w io.Writer, mo maintenanceSuiteOptions, samples []maintenanceSample, rows int64, metrics []string) {
	fmt.Fprintf(w, "\nAutomatic maintenance under single-row INSERTs (%d writers, %d/s, %s; snapshot_max_age %s, debounce %s)\n\n",
		mo.writers, mo.rate, mo.duration, mo.snapshotAge, mo.debounce)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "elapsed\trows\tsnapshots\tlive data files\tdata files on disk\tmanifests on disk\tmetadata files\treads\tread p50\tread p99\t")
	for _, s := range samples {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", s.at, s.rows, s.snapshots, s.liveFiles, s.dataFiles, s.manifests, s.metadatas, s.reads,
			s.p50.Round(10*time.Microsecond), s.p99.Round(10*time.Microsecond))
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d rows, every acknowledged INSERT present. Files are counted on disk under the table's location; reads and their latency are those since the previous sample.\n", rows)
	for _, m := range metrics {
		fmt.Fprintln(w, "  "+m)
	}
}

func (o maintenanceSuiteOptions) validate() error {
	if o.duration <= 0 || o.interval <= 0 || o.writers < 1 || o.rate < 1 || o.snapshotAge <= 0 || o.debounce < 0 {
		return errors.New("-maint-duration, -maint-interval, -maint-writers, -maint-rate and -maint-snapshot-age must be positive")
	}
	return nil
}
