package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// pgbenchTarget is where pgbench connects, and the password it sends (an
// SQE token; empty for PostgreSQL's trust authentication).
type pgbenchTarget struct {
	host, port, user, database string
	password                   string
}

// pgbenchRun is one invocation of pgbench over custom scripts, without
// its TPC-B initialisation (-n).
type pgbenchRun struct {
	// scripts are script files, each optionally suffixed "@weight".
	scripts  []string
	protocol string // simple, extended or prepared (-M)
	clients  int
	threads  int
	duration time.Duration
	// rate caps the transactions per second (-R); 0: as fast as possible.
	rate int
	// progress prints pgbench's progress report this often (-P); 0: never.
	progress time.Duration
	// logPrefix is where pgbench writes its per-transaction log (-l),
	// from which the latency percentiles are read.
	logPrefix string
}

// pgbenchResult is what one run measured.
type pgbenchResult struct {
	processed int64
	failed    int64
	tps       float64
	p50, p99  time.Duration
	// statements is pgbench's report of each statement's mean latency.
	statements string
	// perScript counts the successful transactions of each script, from
	// the transaction log.
	perScript []int64
	// aborted is pgbench's first error line when a client gave up; such
	// a run failed whatever the counts say.
	aborted string
}

// scriptCount is the number of successful transactions of script i, 0
// when the log was not read (an aborted run).
func (r pgbenchResult) scriptCount(i int) int64 {
	if i < 0 || i >= len(r.perScript) {
		return 0
	}
	return r.perScript[i]
}

// ok reports whether every transaction succeeded.
func (r pgbenchResult) ok() bool { return r.failed == 0 && r.aborted == "" && r.processed > 0 }

// args are pgbench's command-line arguments for run against t.
func (run pgbenchRun) args(t pgbenchTarget) []string {
	args := []string{"-n", "-r", "-M", run.protocol,
		"-c", strconv.Itoa(run.clients), "-j", strconv.Itoa(min(run.threads, run.clients)),
		"-T", strconv.Itoa(max(1, int(run.duration.Round(time.Second)/time.Second))),
		"-l", "--log-prefix", run.logPrefix,
		"-h", t.host, "-p", t.port, "-U", t.user}
	if run.rate > 0 {
		args = append(args, "-R", strconv.Itoa(run.rate))
	}
	if run.progress > 0 {
		args = append(args, "-P", strconv.Itoa(max(1, int(run.progress/time.Second))))
	}
	for _, s := range run.scripts {
		args = append(args, "-f", s)
	}
	return append(args, t.database)
}

// runPgbench runs pgbench (from pgBin) and reads its summary and its
// per-transaction log. A non-zero exit is not an error here: pgbench exits
// 2 when a client aborted, which the result records for the caller to
// judge; only failing to run or to read the output is.
func runPgbench(ctx context.Context, pgBin string, run pgbenchRun, t pgbenchTarget) (pgbenchResult, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(pgBin, "pgbench"), run.args(t)...)
	cmd.Env = append(withoutSQEVars(os.Environ()), "PGSSLMODE=disable")
	if t.password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+t.password)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if run.progress > 0 {
		// Progress lines go to stderr: show them as they come.
		cmd.Stderr = io.MultiWriter(&stderr, os.Stderr)
	}
	err := cmd.Run()
	if err != nil && cmd.ProcessState == nil {
		return pgbenchResult{}, fmt.Errorf("run pgbench: %w", err)
	}
	if ctx.Err() != nil {
		return pgbenchResult{}, ctx.Err()
	}
	res, perr := parsePgbenchSummary(bytes.NewReader(stdout.Bytes()))
	res.aborted = firstPgbenchError(stderr.String())
	res.statements = statementLatencies(stdout.String())
	if err != nil && res.aborted == "" {
		res.aborted = fmt.Sprintf("pgbench: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	if perr != nil {
		if res.aborted != "" {
			return res, nil
		}
		return res, fmt.Errorf("pgbench: %w\n%s%s", perr, stdout.String(), stderr.String())
	}
	txs, err := readPgbenchLogs(run.logPrefix)
	if err != nil {
		return res, err
	}
	lat := make([]time.Duration, len(txs))
	res.perScript = make([]int64, len(run.scripts))
	for i, tx := range txs {
		lat[i] = tx.latency
		if tx.script >= 0 && tx.script < len(res.perScript) {
			res.perScript[tx.script]++
		}
	}
	res.p50, res.p99 = percentile(lat, 50), percentile(lat, 99)
	return res, nil
}

var (
	processedLine = regexp.MustCompile(`(?m)^number of transactions actually processed: (\d+)`)
	failedLine    = regexp.MustCompile(`(?m)^number of failed transactions: (\d+)`)
	tpsLine       = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
)

// parsePgbenchSummary reads the counts and the throughput from pgbench's
// report on stdout (PostgreSQL 15's format).
func parsePgbenchSummary(r io.Reader) (pgbenchResult, error) {
	out, err := io.ReadAll(r)
	if err != nil {
		return pgbenchResult{}, err
	}
	var res pgbenchResult
	m := processedLine.FindSubmatch(out)
	if m == nil {
		return res, fmt.Errorf("no transaction count in pgbench's report")
	}
	res.processed, _ = strconv.ParseInt(string(m[1]), 10, 64)
	if m := failedLine.FindSubmatch(out); m != nil {
		res.failed, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	m = tpsLine.FindSubmatch(out)
	if m == nil {
		return res, fmt.Errorf("no tps in pgbench's report")
	}
	if res.tps, err = strconv.ParseFloat(string(m[1]), 64); err != nil {
		return res, fmt.Errorf("tps in pgbench's report: %w", err)
	}
	return res, nil
}

// statementLatencies is the part of pgbench's report (-r) listing each
// statement's mean latency, without its \set lines.
func statementLatencies(report string) string {
	var b strings.Builder
	inside := false
	for line := range strings.SplitSeq(report, "\n") {
		switch {
		case strings.Contains(line, "statement latencies"):
			inside = true
		case strings.HasPrefix(line, "SQL script"):
			inside = false
			b.WriteString(line + "\n")
		case inside && strings.HasPrefix(line, " "):
			if !strings.Contains(line, `\set`) {
				b.WriteString(line + "\n")
			}
		default:
			inside = false
		}
	}
	return b.String()
}

// firstPgbenchError is the first line of pgbench's stderr that reports a
// client's error or abort, "" when there is none.
func firstPgbenchError(stderr string) string {
	for line := range strings.SplitSeq(stderr, "\n") {
		if strings.Contains(line, "aborted") || strings.Contains(line, "error:") || strings.Contains(line, "ERROR:") {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// loggedTx is one successful transaction of pgbench's log.
type loggedTx struct {
	script  int // index of its script among the -f options
	latency time.Duration
}

// readPgbenchLogs reads every per-transaction log file of prefix (pgbench
// writes prefix.<pid> and prefix.<pid>.<thread>) and returns the
// transactions that succeeded.
func readPgbenchLogs(prefix string) ([]loggedTx, error) {
	files, err := filepath.Glob(prefix + ".*")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("pgbench wrote no transaction log at %s.*", prefix)
	}
	var txs []loggedTx
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("pgbench log: %w", err)
		}
		txs, err = appendLoggedTxs(txs, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("pgbench log %s: %w", name, err)
		}
	}
	return txs, nil
}

// appendLoggedTxs parses pgbench's per-transaction log lines
// ("client_id transaction_no time script_no time_epoch time_us ...", time
// in microseconds, or "failed" / "skipped" in its place).
func appendLoggedTxs(txs []loggedTx, r io.Reader) ([]loggedTx, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) < 6 {
			return txs, fmt.Errorf("unexpected line %q", sc.Text())
		}
		if fields[2] == "failed" || fields[2] == "skipped" {
			continue
		}
		us, err1 := strconv.ParseInt(fields[2], 10, 64)
		script, err2 := strconv.Atoi(fields[3])
		if err := errors.Join(err1, err2); err != nil {
			return txs, fmt.Errorf("unexpected line %q: %w", sc.Text(), err)
		}
		txs = append(txs, loggedTx{script: script, latency: time.Duration(us) * time.Microsecond})
	}
	return txs, sc.Err()
}

// percentile is the nearest-rank p-th percentile of lat, 0 when empty.
func percentile(lat []time.Duration, p int) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	rank := (p*len(s) + 99) / 100
	return s[max(rank, 1)-1]
}
