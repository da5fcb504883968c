package sqllogictest

import (
	"context"
	"fmt"
	"time"
)

// RunOptions say how Run treats the server under test.
type RunOptions struct {
	// Engine selects onlyif/skipif records ("postgres").
	Engine string
	// Shim, when set, marks the records it stands for as set up through
	// the storage API instead of sending them.
	Shim *ShimPlan
	// CreateSchemas drops and creates each file's schema before the file
	// runs (PostgreSQL); SQE's namespaces come from the shim's Apply.
	CreateSchemas bool
	// RecordTimeout bounds one record; 0 means 30 seconds.
	RecordTimeout time.Duration
}

// Run executes every file of the suite on its own connection, records in
// file order, and reports each record's outcome. It fails only when the
// server cannot be reached at all.
func Run(ctx context.Context, s *Suite, connect Connector, o RunOptions) (*Report, error) {
	if o.RecordTimeout == 0 {
		o.RecordTimeout = 30 * time.Second
	}
	rep := &Report{Engine: o.Engine}
	for _, f := range s.Files {
		fr, err := runFile(ctx, s, f, connect, o)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", f.Name, err)
		}
		rep.Files = append(rep.Files, fr)
	}
	return rep, nil
}

func runFile(ctx context.Context, s *Suite, f *File, connect Connector, o RunOptions) (*FileReport, error) {
	ns := Namespace(f.Name)
	var setup []string
	if o.CreateSchemas {
		if err := recreateSchema(ctx, connect, ns); err != nil {
			return nil, err
		}
	}
	setup = append(setup, searchPathStatement(f.Name))
	sess := &session{connect: connect, setup: setup}
	defer sess.close(ctx)
	if _, err := sess.get(ctx); err != nil {
		return nil, err
	}
	fr := &FileReport{Name: f.Name}
	for _, r := range f.Records {
		res := Result{Record: r}
		switch {
		case !r.RunsOn(o.Engine):
			res.Outcome = Skipped
		case o.Shim.Handles(r.ID()):
			res.Outcome = SetUp
			res.Reason = "setup via storage API"
		default:
			res.Outcome, res.Reason = runRecord(ctx, s, sess, r, o.RecordTimeout)
		}
		fr.Results = append(fr.Results, res)
	}
	return fr, nil
}

func recreateSchema(ctx context.Context, connect Connector, ns string) error {
	conn, err := connect(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	stmt := fmt.Sprintf("DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s", ns, ns)
	if err := execAll(ctx, conn.PgConn(), stmt); err != nil {
		return fmt.Errorf("create schema %s: %w", ns, err)
	}
	return nil
}

func runRecord(ctx context.Context, s *Suite, sess *session, r Record, timeout time.Duration) (Outcome, string) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := sess.get(ctx)
	if err != nil {
		return Failed, describeError(err)
	}
	if r.Kind == Statement {
		err := execStatement(ctx, conn.PgConn(), r.SQL, s.readData)
		return judgeError(r, err)
	}
	rows, err := queryRows(ctx, conn.PgConn(), r.SQL)
	if err != nil || r.ExpectError {
		return judgeError(r, err)
	}
	if diff := Match(r, rows); diff != "" {
		return Failed, oneLine(diff)
	}
	return Passed, ""
}

// judgeError decides a record by whether it failed: the error patterns
// are DataFusion's messages, so any error satisfies an error record.
func judgeError(r Record, err error) (Outcome, string) {
	switch {
	case r.ExpectError && err != nil, !r.ExpectError && err == nil:
		return Passed, ""
	case r.ExpectError:
		return Failed, "succeeded, want an error"
	}
	return Failed, describeError(err)
}
