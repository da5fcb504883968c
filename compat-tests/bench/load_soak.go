package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// The soak (-suite soak, `make soak`) holds one SQE server at a moderate,
// steady load for a long time: pgbench's read and write mixes together
// (four reads to one write), capped at -soak-rate transactions per second,
// while the server's RSS, Go heap and goroutines are sampled every
// -soak-interval, and the written tables are maintained every
// -soak-maintenance (soak_maintenance.go). It reports them at the start
// and end of the load and once the clients have gone, and fails on a
// failed transaction, a lost write, a failed maintenance statement, or
// goroutines left behind by the closed sessions.

type soakOptions struct {
	duration time.Duration
	clients  int
	rate     int
	interval time.Duration
	maintain time.Duration // between maintenance rounds; 0: none
}

// soakWeights are the read and write mixes' pgbench weights.
var soakWeights = []int{4, 1}

// soakSettle is how long the load runs before the first sample, so the
// clients have logged in.
const soakSettle = 10 * time.Second

type soakReport struct {
	opts     soakOptions
	idle     serverStats   // before the load
	samples  []serverStats // under load
	after    serverStats   // once the clients are gone
	res      pgbenchResult
	protocol string
	maint    maintenanceCounts
}

func runSoakSuite(ctx context.Context, opts options, root, bin, work string) (err error) {
	so := opts.load.soak
	srv, httpAddr, err := startMeasuredSQE(ctx, bin, work, "sqe-soak", 0)
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
	if err := execAll(ctx, conn, loadSetup(true)); err != nil {
		return fmt.Errorf("sqe: %w", err)
	}
	target, err := srv.pgbenchTarget(so.duration)
	if err != nil {
		return err
	}
	before, err := readWriteCounts(ctx, conn)
	if err != nil {
		return err
	}
	rep := soakReport{opts: so, protocol: opts.load.protocols[0]}
	if rep.idle, err = sampleStats(ctx, srv.pid(), httpAddr); err != nil {
		return err
	}

	progress("soak: %d clients, at most %d transactions/s, for %s", so.clients, so.rate, so.duration)
	sampleCtx, stopSampling := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var sampleErr error
	wg.Go(func() {
		rep.samples, sampleErr = sampleEvery(sampleCtx, srv.pid(), httpAddr, so.interval)
	})
	var maintConn *pgx.Conn
	if so.maintain > 0 {
		if maintConn, err = srv.connect(ctx); err != nil {
			stopSampling()
			wg.Wait()
			return err
		}
		wg.Go(func() { rep.maint = maintainEvery(sampleCtx, maintConn, so.maintain) })
	}
	scripts := make([]string, len(loadMixes))
	for i, mix := range loadMixes {
		scripts[i] = fmt.Sprintf("%s@%d", loadScript(root, mix.script), soakWeights[i])
	}
	rep.res, err = runPgbench(ctx, opts.pgBin, pgbenchRun{
		scripts:   scripts,
		protocol:  rep.protocol,
		clients:   so.clients,
		threads:   opts.load.threads,
		duration:  so.duration,
		rate:      so.rate,
		progress:  max(so.interval, time.Minute),
		logPrefix: filepath.Join(work, "soak-tx"),
	}, target)
	stopSampling()
	wg.Wait()
	if maintConn != nil {
		// Closed before the goroutines are counted: its session has two.
		if cerr := maintConn.Close(ctx); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		return err
	}
	if sampleErr != nil {
		return sampleErr
	}
	if rep.after, err = waitGoroutines(ctx, srv.pid(), httpAddr, rep.idle.goroutines); err != nil {
		return err
	}
	after, err := readWriteCounts(ctx, conn)
	if err != nil {
		return err
	}
	if err := rep.write(os.Stdout); err != nil {
		return err
	}
	if !rep.res.ok() {
		return fmt.Errorf("soak: %d transactions failed %s", rep.res.failed, rep.res.aborted)
	}
	if err := checkWrites(before, after, rep.res.scriptCount(1)); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	if rep.maint.failed > 0 {
		return fmt.Errorf("soak: %d maintenance statements failed, the first: %w", rep.maint.failed, rep.maint.firstErr)
	}
	if rep.after.goroutines > rep.idle.goroutines {
		return fmt.Errorf("soak: %d goroutines once the clients left, %d before the load", rep.after.goroutines, rep.idle.goroutines)
	}
	return nil
}

// sampleEvery samples the server soakSettle after it starts and then
// every interval until ctx ends; a last sample is taken at the end.
func sampleEvery(ctx context.Context, pid int, httpAddr string, interval time.Duration) ([]serverStats, error) {
	var samples []serverStats
	wait := soakSettle
	for {
		select {
		case <-ctx.Done():
			// The end of the load: sampled with a fresh context.
			s, err := sampleStats(context.Background(), pid, httpAddr)
			if err != nil {
				return samples, err
			}
			return append(samples, s), nil
		case <-time.After(wait):
		}
		s, err := sampleStats(ctx, pid, httpAddr)
		if err != nil {
			if ctx.Err() != nil {
				continue
			}
			return samples, err
		}
		samples = append(samples, s)
		wait = interval
	}
}

func (r soakReport) write(w io.Writer) error {
	res := r.res
	if _, err := fmt.Fprintf(w, "\nsoak: %d clients, read and write mixes %d:%d, at most %d transactions/s, %s, %s protocol\n"+
		"transactions %d (writes %d), failed %d, tps %.1f, p50 %s, p99 %s\n",
		r.opts.clients, soakWeights[0], soakWeights[1], r.opts.rate, r.opts.duration, r.protocol,
		res.processed, res.scriptCount(1), res.failed, res.tps, formatDuration(res.p50), formatDuration(res.p99)); err != nil {
		return err
	}
	if r.opts.maintain > 0 {
		if _, err := fmt.Fprintf(w, "maintenance every %s: %d rounds, %d snapshots expired, %d statements failed\n",
			r.opts.maintain, r.maint.rounds, r.maint.expired, r.maint.failed); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintf(w, "mean latency of each statement, in milliseconds, and its failures (pgbench -r):\n%s", res.statements); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "%-22s %12s %14s %11s\n", "", "RSS", "Go heap in use", "goroutines"); err != nil {
		return err
	}
	line := func(label string, s serverStats) error {
		_, err := fmt.Fprintf(w, "%-22s %12s %14s %11d\n", label, formatMiB(s.rss), formatMiB(s.heapInuse), s.goroutines)
		return err
	}
	if err := line("idle, before", r.idle); err != nil {
		return err
	}
	start := r.samples[0].at
	for _, s := range r.samples {
		if err := line(fmt.Sprintf("load, %s", (s.at.Sub(start)+soakSettle).Round(time.Second)), s); err != nil {
			return err
		}
	}
	return line("idle, after", r.after)
}
