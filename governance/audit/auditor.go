package audit

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultBuffer is how many records may wait for the writer before new
// ones are dropped.
const DefaultBuffer = 4096

// dropReportInterval is how often dropped records are reported while
// records keep being dropped.
const dropReportInterval = 10 * time.Second

// Options configure an Auditor.
type Options struct {
	// RedactLiterals replaces every constant of a statement by $n.
	// Passwords and tokens are replaced whatever it says.
	RedactLiterals bool
	// Buffer is how many records may wait for the writer (DefaultBuffer
	// when 0).
	Buffer int
	// Logger receives dropped-record counts and write errors.
	Logger *slog.Logger
	// Ranger writes Ranger audit events (SinkRanger) rather than SQE's
	// records; RangerService is their "repo" (the service name Ranger's
	// audit tools filter on, "sqe" when empty) and RangerCluster their
	// cluster_name.
	Ranger        bool
	RangerService string
	RangerCluster string
}

// Auditor writes audit records as JSON lines. It is safe for concurrent
// use. Sessions hand records to one writer goroutine through a bounded
// channel rather than writing under a mutex, so a slow disk (or a
// blocked stdout pipe) never holds a session: the cost on the query path
// is a redaction and a non-blocking send, and what does not fit is
// dropped, counted and logged.
type Auditor struct {
	redact  redactor
	logger  *slog.Logger
	records chan any // record, or rangerEvent
	dropped atomic.Int64
	closed  atomic.Bool
	stop    chan struct{}
	done    chan struct{}
	out     *bufio.Writer
	closer  io.Closer
	close   sync.Once
	err     error
	// ranger: write Ranger audit events (Options.Ranger), as service on
	// host in cluster.
	ranger                 bool
	service, host, cluster string
}

// New starts an Auditor writing to w; closer (may be nil) is closed by
// Close after the last record is flushed.
func New(w io.Writer, closer io.Closer, opts Options) *Auditor {
	size := opts.Buffer
	if size <= 0 {
		size = DefaultBuffer
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	a := &Auditor{
		redact:  redactor{literals: opts.RedactLiterals},
		logger:  logger,
		records: make(chan any, size),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		out:     bufio.NewWriter(w),
		closer:  closer,
		ranger:  opts.Ranger,
		service: cmp.Or(opts.RangerService, "sqe"),
		cluster: opts.RangerCluster,
	}
	if a.ranger {
		a.host, _ = os.Hostname()
	}
	go a.run()
	return a
}

// Statement records a statement a session ran.
func (a *Auditor) Statement(st Statement) {
	red := a.redact.statement(st.Text)
	if a.ranger {
		for _, ev := range a.rangerEvents(st, red.text) {
			a.enqueue(ev)
		}
		return
	}
	r := newRecord(KindStatement, st.Caller, st.Start)
	r.Decisions = st.Decisions
	ms := float64(st.Duration.Microseconds()) / 1000
	r.Statement, r.DurationMS = &red.text, &ms
	if st.HasRows {
		rows := st.Rows
		r.Rows = &rows
	}
	r.Outcome = st.Outcome
	if st.Error != "" {
		r.Error = red.message(st.Error)
	}
	a.enqueue(r)
}

// PrivilegeChange records a GRANT, REVOKE, DENY or role statement and its
// result.
func (a *Auditor) PrivilegeChange(c PrivilegeChange) {
	if a.ranger {
		a.enqueue(a.rangerPrivilegeEvent(c))
		return
	}
	r := newRecord(KindPrivilegeChange, c.Caller, c.Time)
	r.Action, r.Privileges, r.Object, r.Grantees, r.Result = c.Action, c.Privileges, c.Object, c.Grantees, c.Result
	r.Error = redacted{}.message(c.Error)
	a.enqueue(r)
}

// Dropped is how many records were dropped because the writer fell
// behind.
func (a *Auditor) Dropped() int64 { return a.dropped.Load() }

func (a *Auditor) enqueue(r any) {
	if a.closed.Load() {
		a.dropped.Add(1)
		return
	}
	select {
	case a.records <- r:
	default:
		a.dropped.Add(1)
	}
}

// run writes records until Close. Dropped records are reported at most
// every dropReportInterval and at the end.
func (a *Auditor) run() {
	defer close(a.done)
	ticker := time.NewTicker(dropReportInterval)
	defer ticker.Stop()
	enc := json.NewEncoder(a.out)
	enc.SetEscapeHTML(false)
	reported := int64(0)
	report := func() {
		if n := a.dropped.Load(); n > reported {
			a.logger.Warn("audit records dropped: the audit log is not keeping up", "dropped", n-reported, "total", n)
			reported = n
		}
	}
	failing := false
	write := func(r any) {
		err := enc.Encode(r)
		if err == nil && len(a.records) == 0 {
			err = a.out.Flush()
		}
		if err != nil && !failing {
			a.logger.Error("audit log write failed", "error", err)
		}
		failing = err != nil
	}
	for {
		select {
		case r := <-a.records:
			write(r)
		case <-ticker.C:
			report()
		case <-a.stop:
			for {
				select {
				case r := <-a.records:
					write(r)
				default:
					report()
					return
				}
			}
		}
	}
}

// Close writes the records still queued, flushes and closes the sink.
// Records handed over after Close are dropped.
func (a *Auditor) Close() error {
	a.close.Do(func() {
		a.closed.Store(true)
		close(a.stop)
		<-a.done
		a.err = a.out.Flush()
		if a.closer != nil {
			if err := a.closer.Close(); err != nil && a.err == nil {
				a.err = err
			}
		}
		if a.err != nil {
			a.err = fmt.Errorf("audit log: %w", a.err)
		}
	})
	return a.err
}
