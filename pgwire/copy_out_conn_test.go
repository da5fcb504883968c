package pgwire

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgproto3/v2"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

// copySession adds two COPY statements to fakeSession:
//
//	copy ints     the rows of "select ints" as COPY text
//	copy endless  COPY text rows until its context ends
type copySession struct {
	*fakeSession
	endlessErrs chan error // why an endless COPY stopped
}

func (s *copySession) Execute(ctx context.Context, stmt *sql.Statement) (sql.Result, error) {
	f := sql.CopyFormat{Mode: sql.CopyText, Delimiter: '\t', Null: `\N`}
	switch stmt.SQL {
	case "copy ints":
		r := intsResult(memory.NewGoAllocator())
		f.Columns = r.cols
		return &fakeCopyResult{fakeResult: fakeResult{batches: r.batches, tag: "COPY 2"}, format: f}, nil
	case "copy endless":
		f.Columns = []sql.Column{{Name: "i", Type: types.Int8}}
		return &endlessCopy{format: f, stopped: s.endlessErrs}, nil
	}
	return s.fakeSession.Execute(ctx, stmt)
}

type fakeCopyResult struct {
	fakeResult
	format sql.CopyFormat
}

func (r *fakeCopyResult) CopyFormat() sql.CopyFormat { return r.format }

// endlessCopy produces batches of 1000 rows until its context ends.
type endlessCopy struct {
	format  sql.CopyFormat
	stopped chan error
	once    sync.Once
}

func (r *endlessCopy) Columns() []sql.Column      { return nil }
func (r *endlessCopy) CopyFormat() sql.CopyFormat { return r.format }
func (r *endlessCopy) CommandTag() string         { return "COPY ?" }
func (r *endlessCopy) Close()                     { r.once.Do(func() { r.stopped <- errResultClosed }) }

// errResultClosed records that pgwire closed the result, which is how a
// COPY ends when a write to a departed client fails before the statement
// context is cancelled.
var errResultClosed = errors.New("result closed")

func (r *endlessCopy) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		r.once.Do(func() { r.stopped <- context.Cause(ctx) })
		return nil, err
	}
	b := array.NewInt64Builder(memory.NewGoAllocator())
	defer b.Release()
	for i := 0; i < 1000; i++ {
		b.Append(int64(i))
	}
	arr := b.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, 1000), nil
}

type copyFactory struct {
	fakeFactory
	endlessErrs chan error
}

func (f *copyFactory) NewSession(ctx context.Context, id auth.Identity, st Startup) (Session, error) {
	s, err := f.fakeFactory.NewSession(ctx, id, st)
	if err != nil {
		return nil, err
	}
	return &copySession{fakeSession: s.(*fakeSession), endlessErrs: f.endlessErrs}, nil
}

// startCopyServer is startServer with copySessions.
func startCopyServer(t *testing.T) (*testServer, *copyFactory) {
	t.Helper()
	factory := &copyFactory{endlessErrs: make(chan error, 4)}
	ts := startServerWith(t, nil, factory)
	ts.factory = &factory.fakeFactory
	return ts, factory
}

func TestCopyOutMessages(t *testing.T) {
	ts, _ := startCopyServer(t)
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	c.send(&pgproto3.Query{String: "copy ints"})
	var got []string
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		switch m := msg.(type) {
		case *pgproto3.CopyOutResponse:
			got = append(got, "CopyOutResponse")
			if m.OverallFormat != 0 || len(m.ColumnFormatCodes) != 2 {
				t.Errorf("CopyOutResponse %+v", m)
			}
		case *pgproto3.CopyData:
			got = append(got, "CopyData "+string(m.Data))
		case *pgproto3.CopyDone:
			got = append(got, "CopyDone")
		default:
			got = append(got, describe(msg))
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	want := []string{"CopyOutResponse", "CopyData 1\tone\n", "CopyData 2\t\\N\n", "CopyDone", "CommandComplete[COPY 2]", "ReadyForQuery[I]"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d: %q, want %q", i, got[i], want[i])
		}
	}
}

func TestCopyToWithPgconn(t *testing.T) {
	ts, _ := startCopyServer(t)
	c := ts.connect(t)
	var buf bytes.Buffer
	tag, err := c.PgConn().CopyTo(context.Background(), &buf, "copy ints")
	if err != nil {
		t.Fatal(err)
	}
	if tag.String() != "COPY 2" || buf.String() != "1\tone\n2\t\\N\n" {
		t.Fatalf("tag %q, data %q", tag, buf.String())
	}
}

// signalWriter reports when the first bytes of COPY data arrive.
type signalWriter struct {
	once sync.Once
	got  chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.got) })
	return len(p), nil
}

func TestCancelRequestStopsCopy(t *testing.T) {
	ts, factory := startCopyServer(t)
	c := ts.connect(t)
	w := &signalWriter{got: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := c.PgConn().CopyTo(context.Background(), w, "copy endless")
		done <- err
	}()
	select {
	case <-w.got:
	case <-time.After(5 * time.Second):
		t.Fatal("no COPY data arrived")
	}
	if err := c.PgConn().CancelRequest(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "57014" {
			t.Fatalf("COPY ended with %v, want 57014", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("COPY still running after the cancel request")
	}
	if err := <-factory.endlessErrs; !errors.Is(err, context.Canceled) && !errors.Is(err, errResultClosed) {
		t.Fatalf("COPY's context ended with %v", err)
	}
	var n int64
	if err := c.QueryRow(context.Background(), "select ints").Scan(&n, new(*string)); err != nil || n != 1 {
		t.Fatalf("session unusable after the cancelled COPY: %v %d", err, n)
	}
}

func TestDisconnectStopsCopy(t *testing.T) {
	ts, factory := startCopyServer(t)
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	c.send(&pgproto3.Query{String: "copy endless"})
	for i := 0; i < 10; i++ {
		if _, err := c.fe.Receive(); err != nil {
			t.Fatal(err)
		}
	}
	c.conn.Close()
	select {
	case err := <-factory.endlessErrs:
		if !errors.Is(err, errClientGone) && !errors.Is(err, context.Canceled) && !errors.Is(err, errResultClosed) {
			t.Fatalf("COPY's context ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("COPY still running after the client left")
	}
}
