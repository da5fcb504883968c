package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/remote"
)

// executionSetting says where the session's SELECTs run: 'local' here,
// 'remote' on the engine, 'auto' on the engine when their scans read at
// least the engine's MinScanBytes. remoteEngineSetting names the engine
// (empty: the first configured).
const (
	executionSetting    = "sqe.execution"
	remoteEngineSetting = "sqe.remote_engine"
)

// executionModes are the values of sqe.execution, from the one that
// sends the least work away.
var executionModes = []string{"local", "auto", "remote"}

// RemoteEngine is an engine a session's SELECTs may be sent to.
type RemoteEngine struct {
	Engine remote.Engine
	// MinScanBytes is how many bytes of data files a SELECT's scans must
	// read for 'auto' to send it to the engine.
	MinScanBytes int64
}

// RemoteExecution is where SELECTs may run besides here.
type RemoteExecution struct {
	// Engines are the engines; the first is a session's default.
	Engines []RemoteEngine
	// Default is sqe.execution for a user in none of ByRole's roles
	// (empty: local); among a user's roles the mode that sends the most
	// work away wins.
	Default string
	ByRole  map[string]string
	// Observer counts the statements sent and the bytes answered; nil
	// counts nothing.
	Observer RemoteObserver
}

// RemoteObserver counts what remote execution does.
type RemoteObserver interface {
	// RemoteStatement counts a statement sent to engine, by outcome: ok,
	// error, cancelled, or local (auto ran it here: engine unreachable).
	RemoteStatement(engine, outcome string)
	// RemoteBytes counts bytes of answer engine sent.
	RemoteBytes(engine string, n int64)
}

// executionFor is the sqe.execution default of a user holding roles.
func (r *RemoteExecution) executionFor(roles []string) string {
	if r == nil || len(r.Engines) == 0 {
		return "local"
	}
	best := r.Default
	if best == "" {
		best = "local"
	}
	for _, role := range roles {
		if m, ok := r.ByRole[role]; ok && modeRank(m) > modeRank(best) {
			best = m
		}
	}
	return best
}

func modeRank(mode string) int {
	for i, m := range executionModes {
		if m == mode {
			return i
		}
	}
	return -1
}

// remoteEngine is the engine the session sends its statements to.
func (s *Session) remoteEngine() (RemoteEngine, error) {
	r := s.engine.cfg.Remote
	if r == nil || len(r.Engines) == 0 {
		return RemoteEngine{}, pgerror.New(pgerror.FeatureNotSupported, "no remote engine is configured").
			WithHint("Add an [[engine]] to the server's configuration, or SET sqe.execution = 'local'.")
	}
	name := strings.TrimSpace(s.settings.values[remoteEngineSetting])
	if name == "" {
		return r.Engines[0], nil
	}
	for _, e := range r.Engines {
		if e.Engine.Name() == name {
			return e, nil
		}
	}
	return RemoteEngine{}, pgerror.New(pgerror.UndefinedObject, "remote engine \"%s\" is not configured", name)
}

// placement is where a SELECT runs: root is the plan to run (a Remote
// over the secured plan, or the local plan), and note, when set, says
// why a statement the session would send away runs here.
type placement struct {
	root planner.Node
	note string
}

// placeSelect decides where a SELECT, bound (and secured) as bound, runs.
// Only what sqlwrite can write exactly leaves SQE; under 'auto' anything
// else runs here, under 'remote' it is an error naming what cannot be
// written, except a keyed mask, which runs here (the key never leaves
// SQE). The plan for here is optimized only when it may run.
func (s *Session) placeSelect(ctx context.Context, bound *planner.Plan) (placement, error) {
	mode := s.settings.values[executionSetting]
	var serial, parallel *planner.Plan
	local := func() planner.Node {
		if parallel == nil {
			if s.parallelOptions().Workers <= 1 && serial != nil {
				parallel = serial
			} else {
				parallel = s.optimize(bound)
			}
		}
		return parallel.Root
	}
	here := func(note string) (placement, error) { return placement{root: local(), note: note}, nil }
	if mode == "local" || mode == "" {
		return here("")
	}
	eng, err := s.remoteEngine()
	if err != nil {
		if mode == "auto" {
			// 'auto' with nowhere else to go runs here.
			return here(pgerror.From(err).Message)
		}
		return placement{}, err
	}
	// Sent and sized as the plan optimized serially: its scans read only
	// the columns used and prune as locally, and it holds no exchange
	// between workers.
	serial = planner.Optimize(bound, planner.ParallelOptions{})
	reason := "sqe.execution = 'remote'"
	if mode == "auto" {
		n, known := planner.ScanBytes(ctx, serial.Root)
		if !known {
			return here("its tables' sizes are unknown")
		}
		if n < eng.MinScanBytes {
			return here(fmt.Sprintf("its scans read %d bytes, under the engine's remote_min_scan_bytes (%d)", n, eng.MinScanBytes))
		}
		reason = fmt.Sprintf("its scans read %d bytes, at least remote_min_scan_bytes (%d)", n, eng.MinScanBytes)
	}
	zf, followsZone := eng.Engine.(remote.ZoneFollower)
	followsZone = followsZone && zf.FollowsTimeZone()
	text, err := sqlwrite.WriteWith(serial.Root, eng.Engine.Dialect(), eng.Engine.Catalogs(), sqlwrite.Options{SessionZone: followsZone})
	if err != nil {
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != pgerror.FeatureNotSupported {
			return placement{}, err
		}
		if mode == "auto" || errors.Is(err, sqlwrite.ErrKeyedMask) {
			return here(pe.Message)
		}
		return placement{}, pgerror.New(pgerror.FeatureNotSupported, "cannot run this statement on remote engine \"%s\": %s", eng.Engine.Name(), pe.Message).
			WithHint("SET sqe.execution = 'auto' runs such statements in SQE.")
	}
	var fallback planner.Node
	if mode == "auto" {
		fallback = local()
	}
	return placement{root: &planner.Remote{
		Input: serial.Root, Engine: eng.Engine.Name(), Dialect: eng.Engine.Dialect().String(),
		SQL: text, ShowSQL: s.superuser, Reason: reason,
		Runner: &remoteRunner{s: s, eng: eng.Engine, fallback: fallback, zone: s.settings.values["timezone"]},
	}}, nil
}

// remoteRunner runs a Remote's statement on its engine, counting it;
// under 'auto' an engine that cannot be reached leaves the statement to
// fallback, the local plan, with a NOTICE saying so.
type remoteRunner struct {
	s        *Session
	eng      remote.Engine
	fallback planner.Node
	// zone is the caller's TimeZone when the statement was placed, which
	// an engine that follows it runs the statement in.
	zone string
}

func (r *remoteRunner) observer() RemoteObserver { return r.s.engine.cfg.Remote.Observer }

func (r *remoteRunner) count(outcome string, bytes int64) {
	if o := r.observer(); o != nil {
		o.RemoteStatement(r.eng.Name(), outcome)
		if bytes > 0 {
			o.RemoteBytes(r.eng.Name(), bytes)
		}
	}
}

func (r *remoteRunner) RunRemote(ctx context.Context, sql string, cols []planner.Column) (planner.RecordStream, error) {
	st, err := r.eng.Query(remote.WithTimeZone(ctx, r.zone), sql, cols)
	if err == nil {
		return &countedStream{Stream: st, r: r}, nil
	}
	var pe *pgerror.Error
	if r.fallback != nil && ctx.Err() == nil && errors.As(err, &pe) && strings.HasPrefix(pe.Code, "08") {
		r.count("local", 0)
		r.s.notice(pgerror.Warning, "", "remote engine \"%s\" cannot be reached: the statement runs in SQE", r.eng.Name())
		op, berr := exec.Build(ctx, r.fallback)
		if berr != nil {
			return nil, berr
		}
		return &operatorStream{ctx: ctx, op: op}, nil
	}
	if ctx.Err() != nil {
		r.count("cancelled", 0)
	} else {
		r.count("error", 0)
	}
	return nil, err
}

// countedStream counts a remote statement's outcome and bytes when it
// ends.
type countedStream struct {
	remote.Stream
	r       *remoteRunner
	counted bool
}

func (c *countedStream) Next() (arrow.RecordBatch, error) {
	b, err := c.Stream.Next()
	if err != nil && !c.counted {
		c.counted = true
		outcome := "ok"
		if !errors.Is(err, planner.EOF) {
			outcome = "error"
		}
		c.r.count(outcome, c.Stream.BytesRead())
	}
	return b, err
}

func (c *countedStream) Close() error {
	if !c.counted {
		c.counted = true
		c.r.count("cancelled", c.Stream.BytesRead())
	}
	return c.Stream.Close()
}

// operatorStream reads a local operator tree as a RecordStream.
type operatorStream struct {
	ctx context.Context
	op  exec.Operator
}

func (o *operatorStream) Next() (arrow.RecordBatch, error) {
	b, err := o.op.Next(o.ctx)
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, planner.EOF
	}
	return b, nil
}

func (o *operatorStream) Close() error {
	o.op.Close()
	return nil
}
