package pgwire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgproto3/v2"
	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// goodToken is the password fakeAuth accepts.
const goodToken = "eyJhbGciOiJFUzI1NiJ9.good-token.signature"

// expiredToken logs in, but the identity it gives expired a minute ago.
const expiredToken = "eyJhbGciOiJFUzI1NiJ9.expired-token.signature"

// fakeAuth accepts goodToken (and any password of 16 KiB or more that
// starts with it), answers "pgerror" with its own 28P01 error and refuses
// everything else with a plain error.
type fakeAuth struct{}

func (fakeAuth) Authenticate(_ context.Context, st Startup, password string) (auth.Identity, error) {
	switch {
	case password == goodToken, len(password) >= 16<<10 && strings.HasPrefix(password, goodToken):
		return auth.Identity{User: st.User, Token: password, Expiry: time.Now().Add(time.Hour)}, nil
	case password == expiredToken:
		// A token accepted at login that has expired since.
		return auth.Identity{User: st.User, Token: password, Expiry: time.Now().Add(-time.Minute)}, nil
	case password == "pgerror":
		return auth.Identity{}, pgerror.New(pgerror.InvalidPassword, "token expired")
	}
	return auth.Identity{}, errors.New("signature does not verify")
}

// fakeFactory opens fakeSessions and remembers them.
type fakeFactory struct {
	mu       sync.Mutex
	sessions []*fakeSession
	startups []Startup
}

func (f *fakeFactory) NewSession(_ context.Context, id auth.Identity, st Startup) (Session, error) {
	if st.Database == "nodb" {
		return nil, pgerror.New(pgerror.InvalidCatalogName, "database \"nodb\" does not exist")
	}
	s := &fakeSession{
		user:     id.User,
		params:   map[string]string{"application_name": st.Params["application_name"], "TimeZone": "UTC"},
		started:  make(chan string, 16),
		ctxErrs:  make(chan error, 16),
		txStatus: 'I',
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions = append(f.sessions, s)
	f.startups = append(f.startups, st)
	return s, nil
}

func (f *fakeFactory) last(t *testing.T) (*fakeSession, Startup) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sessions) == 0 {
		t.Fatal("no session was opened")
	}
	return f.sessions[len(f.sessions)-1], f.startups[len(f.startups)-1]
}

// fakeSession understands a handful of canned statements:
//
//	select ints      two rows (1, 'one'), (2, NULL) of (n bigint, s text)
//	select many N    N bigint rows in batches of 1000
//	syntax error     a parse error pointing at "error"
//	fail             42P01
//	internal         a plain (internal) error
//	panic            panics
//	sleep            blocks until its context ends
//	set app X        changes application_name
//	begin            enters a transaction block
//
// Any other statement succeeds without rows and with its first word as tag.
type fakeSession struct {
	user string

	mu       sync.Mutex
	params   map[string]string
	executed []string
	closed   bool
	txStatus byte
	prepared sql.PreparedStatements

	started chan string // the SQL of each statement as it begins
	ctxErrs chan error  // why a sleeping statement's context ended
}

func (s *fakeSession) Parse(_ context.Context, query string) ([]*sql.Statement, error) {
	var out []*sql.Statement
	offset := 0
	for _, piece := range strings.SplitAfter(query, ";") {
		start := offset
		offset += len(piece)
		text := strings.TrimSpace(strings.TrimSuffix(piece, ";"))
		text = stripComments(text)
		if text == "" {
			continue
		}
		lead := strings.Index(piece, text)
		if i := strings.Index(text, "syntax error"); i >= 0 {
			pos := start + lead + i + len("syntax ") + 1 // 1-based
			return nil, pgerror.New(pgerror.SyntaxError, "syntax error at or near \"error\"").WithPosition(int32(pos))
		}
		out = append(out, &sql.Statement{SQL: text, Offset: start + lead})
	}
	return out, nil
}

func stripComments(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) != "" {
			keep = append(keep, line)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

func (s *fakeSession) Execute(ctx context.Context, stmt *sql.Statement) (sql.Result, error) {
	s.mu.Lock()
	s.executed = append(s.executed, stmt.SQL)
	s.mu.Unlock()
	select {
	case s.started <- stmt.SQL:
	default: // nobody is watching this many statements
	}
	mem := memory.NewGoAllocator()
	fields := strings.Fields(stmt.SQL)
	switch {
	case stmt.SQL == "select ints":
		return intsResult(mem), nil
	case len(fields) == 3 && fields[0] == "select" && fields[1] == "many":
		var n int
		fmt.Sscan(fields[2], &n)
		return manyResult(mem, n), nil
	case stmt.SQL == "fail":
		return nil, pgerror.New(pgerror.UndefinedTable, "relation \"missing\" does not exist")
	case stmt.SQL == "panic":
		panic("session bug")
	case stmt.SQL == "internal":
		return nil, errors.New("storage exploded at s3://bucket/secret-location")
	case stmt.SQL == "system error":
		return nil, pgerror.Wrap(&fs.PathError{Op: "open", Path: "/srv/warehouse/secret-location/data.parquet", Err: syscall.EACCES},
			pgerror.IOError, "could not read data file of table t").WithDetail("upstream said: <html>secret-body</html>")
	case stmt.SQL == "sleep":
		<-ctx.Done()
		s.ctxErrs <- context.Cause(ctx)
		return nil, fmt.Errorf("scan interrupted: %w", ctx.Err())
	case len(fields) == 3 && fields[0] == "set" && fields[1] == "app":
		s.mu.Lock()
		s.params["application_name"] = fields[2]
		s.mu.Unlock()
		return &fakeResult{tag: "SET"}, nil
	case stmt.SQL == "begin":
		s.mu.Lock()
		s.txStatus = 'T'
		s.mu.Unlock()
		return &fakeResult{tag: "BEGIN"}, nil
	}
	return &fakeResult{tag: strings.ToUpper(fields[0])}, nil
}

func (s *fakeSession) PreparedStatements() *sql.PreparedStatements { return &s.prepared }

func (s *fakeSession) TxStatus() byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.txStatus
}

func (s *fakeSession) ReportedParameters() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]string, len(s.params))
	for k, v := range s.params {
		out[k] = v
	}
	return out
}

func (s *fakeSession) FailTransaction() {}

func (s *fakeSession) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

func (s *fakeSession) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *fakeSession) statements() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.executed...)
}

// fakeResult streams canned batches.
type fakeResult struct {
	cols    []sql.Column
	batches []arrow.RecordBatch
	tag     string
}

func (r *fakeResult) Columns() []sql.Column { return r.cols }

func (r *fakeResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(r.batches) == 0 {
		return nil, nil
	}
	b := r.batches[0]
	r.batches = r.batches[1:]
	return b, nil
}

func (r *fakeResult) CommandTag() string { return r.tag }

func (r *fakeResult) Close() {
	for _, b := range r.batches {
		b.Release()
	}
	r.batches = nil
}

func intsResult(mem memory.Allocator) *fakeResult {
	cols := []sql.Column{
		{Name: "n", Type: types.Int8, TableOID: 16384, AttNum: 1},
		{Name: "s", Type: types.VarcharN(10), TableOID: 16384, AttNum: 2},
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"one", ""}, []bool{true, false})
	return &fakeResult{cols: cols, batches: []arrow.RecordBatch{b.NewRecordBatch()}, tag: "SELECT 2"}
}

func manyResult(mem memory.Allocator, n int) *fakeResult {
	cols := []sql.Column{{Name: "i", Type: types.Int8}}
	schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int64}}, nil)
	r := &fakeResult{cols: cols, tag: fmt.Sprintf("SELECT %d", n)}
	for done := 0; done < n; {
		b := array.NewRecordBuilder(mem, schema)
		ib := b.Field(0).(*array.Int64Builder)
		for k := 0; k < 1000 && done < n; k++ {
			ib.Append(int64(done))
			done++
		}
		r.batches = append(r.batches, b.NewRecordBatch())
		b.Release()
	}
	return r
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor reports whether the log says want within five seconds. A
// refusal is logged by the server's goroutine, which may run after the
// client has already seen the connection fail.
func (b *syncBuffer) waitFor(want string) bool {
	deadline := time.Now().Add(5 * time.Second)
	for {
		if strings.Contains(b.String(), want) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// testServer is a running Server on a loopback port.
type testServer struct {
	srv     *Server
	addr    string
	factory *fakeFactory
	logs    *syncBuffer
	served  chan error
}

func startServer(t *testing.T, mutate func(*Config)) *testServer {
	t.Helper()
	factory := &fakeFactory{}
	ts := startServerWith(t, mutate, factory)
	ts.factory = factory
	return ts
}

// startServerWith is startServer with sessions from another factory (then
// ts.factory is nil).
func startServerWith(t *testing.T, mutate func(*Config), sessions SessionFactory) *testServer {
	t.Helper()
	cfg := Config{Listen: "127.0.0.1:0", StartupTimeout: 5 * time.Second}
	if mutate != nil {
		mutate(&cfg)
	}
	ts := &testServer{logs: &syncBuffer{}, served: make(chan error, 1)}
	logger := slog.New(slog.NewTextHandler(ts.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := NewServer(cfg, fakeAuth{}, sessions, logger)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ts.srv, ts.addr = srv, srv.Addr().String()
	ts.serve(t)
	return ts
}

// serve runs ts.srv, already listening, until the test ends, when it is
// shut down and must not have logged the test's password.
func (ts *testServer) serve(t *testing.T) {
	t.Helper()
	go func() { ts.served <- ts.srv.Serve(context.Background()) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := ts.srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-ts.served; err != nil {
			t.Errorf("serve: %v", err)
		}
		if logs := ts.logs.String(); strings.Contains(logs, goodToken) {
			t.Errorf("the server logged a password:\n%s", logs)
		}
	})
}

// pgxConfig returns a pgx configuration for user alice using the simple
// protocol.
func (ts *testServer) pgxConfig(t *testing.T, password, sslmode string) *pgx.ConnConfig {
	t.Helper()
	host, port, _ := net.SplitHostPort(ts.addr)
	cfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s user=alice dbname=sales password=%s sslmode=%s connect_timeout=5",
		host, port, password, sslmode))
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	return cfg
}

func (ts *testServer) connect(t *testing.T) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := pgx.ConnectConfig(ctx, ts.pgxConfig(t, goodToken, "disable"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// rawClient speaks the protocol with pgproto3 where exact messages matter.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	fe   *pgproto3.Frontend
}

func (ts *testServer) dialRaw(t *testing.T) *rawClient {
	t.Helper()
	nc, err := net.DialTimeout("tcp", ts.addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	return &rawClient{t: t, conn: nc, fe: pgproto3.NewFrontend(pgproto3.NewChunkReader(nc), nc)}
}

func (c *rawClient) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		if err := c.fe.Send(m); err != nil {
			c.t.Fatalf("send %T: %v", m, err)
		}
	}
}

// receive returns the next message as a compact string, e.g.
// "DataRow[1,NULL]" or "ErrorResponse[ERROR 42P01 ...]".
func (c *rawClient) receive() string {
	c.t.Helper()
	msg, err := c.fe.Receive()
	if err != nil {
		c.t.Fatalf("receive: %v", err)
	}
	return describe(msg)
}

// receiveUntilReady collects messages up to and including ReadyForQuery.
func (c *rawClient) receiveUntilReady() []string {
	c.t.Helper()
	var out []string
	for {
		m := c.receive()
		out = append(out, m)
		if strings.HasPrefix(m, "ReadyForQuery") {
			return out
		}
	}
}

func describe(msg pgproto3.BackendMessage) string {
	switch m := msg.(type) {
	case *pgproto3.DataRow:
		vals := make([]string, len(m.Values))
		for i, v := range m.Values {
			if v == nil {
				vals[i] = "NULL"
			} else {
				vals[i] = string(v)
			}
		}
		return "DataRow[" + strings.Join(vals, ",") + "]"
	case *pgproto3.RowDescription:
		var fs []string
		for _, f := range m.Fields {
			fs = append(fs, fmt.Sprintf("%s:%d/%d/%d/%d/%d", f.Name, f.DataTypeOID, f.DataTypeSize, f.TypeModifier, f.TableOID, f.TableAttributeNumber))
		}
		return "RowDescription[" + strings.Join(fs, ",") + "]"
	case *pgproto3.CommandComplete:
		return "CommandComplete[" + string(m.CommandTag) + "]"
	case *pgproto3.ReadyForQuery:
		return "ReadyForQuery[" + string(m.TxStatus) + "]"
	case *pgproto3.ErrorResponse:
		s := fmt.Sprintf("ErrorResponse[%s %s %s", m.Severity, m.Code, m.Message)
		if m.Position != 0 {
			s += fmt.Sprintf(" @%d", m.Position)
		}
		return s + "]"
	case *pgproto3.ParameterStatus:
		return "ParameterStatus[" + m.Name + "=" + m.Value + "]"
	case *pgproto3.EmptyQueryResponse:
		return "EmptyQueryResponse"
	case *pgproto3.BackendKeyData:
		return "BackendKeyData"
	case *pgproto3.AuthenticationOk:
		return "AuthenticationOk"
	case *pgproto3.AuthenticationCleartextPassword:
		return "AuthenticationCleartextPassword"
	}
	return fmt.Sprintf("%T", msg)
}

// startup sends a StartupMessage for user with the given password and
// returns every message up to ReadyForQuery (or the FATAL error).
func (c *rawClient) startup(user, password string) []string {
	c.t.Helper()
	params := map[string]string{"database": "sales", "application_name": "rawtest"}
	if user != "" {
		params["user"] = user
	}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: params})
	first := c.receive()
	if first != "AuthenticationCleartextPassword" {
		return []string{first}
	}
	c.send(&pgproto3.PasswordMessage{Password: password})
	var out []string
	for {
		m := c.receive()
		out = append(out, m)
		if strings.HasPrefix(m, "ReadyForQuery") || strings.HasPrefix(m, "ErrorResponse") {
			return out
		}
	}
}

// expectClosed asserts that the server closes the connection.
func (c *rawClient) expectClosed() {
	c.t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		msg, err := c.fe.Receive()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				c.t.Fatal("connection still open")
			}
			return
		}
		c.t.Logf("message before close: %s", describe(msg))
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Prepare understands the same canned statements as Execute; each "$n"
// in the text is a parameter (of the declared type, else text).
func (s *fakeSession) Prepare(ctx context.Context, query string, paramOIDs []uint32) (*sql.PreparedStatement, error) {
	stmts, err := s.Parse(ctx, query)
	if err != nil {
		return nil, err
	}
	switch len(stmts) {
	case 0:
		return &sql.PreparedStatement{SQL: query, Empty: true}, nil
	case 1:
	default:
		return nil, pgerror.New(pgerror.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	ps := &sql.PreparedStatement{SQL: stmts[0].SQL}
	for i := 0; i < strings.Count(query, "$"); i++ {
		t := types.Text
		if i < len(paramOIDs) && paramOIDs[i] != 0 {
			t = types.T{OID: paramOIDs[i]}
		}
		ps.ParamTypes = append(ps.ParamTypes, t)
	}
	fields := strings.Fields(ps.SQL)
	switch {
	case ps.SQL == "select ints":
		ps.Columns = intsResult(memory.NewGoAllocator()).cols
	case len(fields) == 3 && fields[0] == "select" && fields[1] == "many":
		ps.Columns = []sql.Column{{Name: "i", Type: types.Int8}}
	}
	return ps, nil
}

// Bind checks the parameter count and defers the statement to the first
// Next, as the real session does.
func (s *fakeSession) Bind(_ context.Context, ps *sql.PreparedStatement, params [][]byte, _ []int16) (sql.Result, error) {
	if len(params) != len(ps.ParamTypes) {
		return nil, pgerror.New(pgerror.ProtocolViolation, "bind message supplies %d parameters, but prepared statement \"\" requires %d", len(params), len(ps.ParamTypes))
	}
	return &lazyResult{cols: ps.Columns, run: func(ctx context.Context) (sql.Result, error) {
		return s.Execute(ctx, &sql.Statement{SQL: ps.SQL})
	}}, nil
}

// lazyResult runs its statement at the first Next.
type lazyResult struct {
	cols  []sql.Column
	run   func(context.Context) (sql.Result, error)
	inner sql.Result
	ran   bool
}

func (r *lazyResult) Columns() []sql.Column { return r.cols }

func (r *lazyResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !r.ran {
		r.ran = true
		inner, err := r.run(ctx)
		if err != nil {
			return nil, err
		}
		r.inner = inner
	}
	if r.inner == nil {
		return nil, nil
	}
	return r.inner.Next(ctx)
}

func (r *lazyResult) CommandTag() string {
	if r.inner == nil {
		return ""
	}
	return r.inner.CommandTag()
}

func (r *lazyResult) Close() {
	if r.inner != nil {
		r.inner.Close()
	}
}
