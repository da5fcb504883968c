package pgwire

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// fuzzHangLimit is how long the server may take, beyond any timeout it is
// configured with, to answer and close a fuzzed connection. Inputs finish in
// milliseconds; anything near this is a hang.
const fuzzHangLimit = 3 * time.Second

// fuzzMaxOutput bounds how much of a server's reply one input keeps for
// checking; the rest is read and dropped.
const fuzzMaxOutput = 4 << 20

// FuzzStartupPhase writes arbitrary bytes as the first bytes of a
// connection: where a StartupMessage, SSLRequest, GSSENCRequest or
// CancelRequest belongs. The server must answer with well-formed messages
// (any error in this phase FATAL and last) or just close; it must never
// panic, must close by StartupTimeout even when the client stays silent
// (keepOpen), and must leave no goroutine, slot or session behind.
func FuzzStartupPhase(f *testing.F) {
	fs := startFuzzServer(f, Config{
		DataDir:        f.TempDir(),           // TLS available: SSLRequest leads into a handshake
		StartupTimeout: 25 * time.Millisecond, // short: silent inputs (keepOpen) cost this much each
		MaxConnections: 1,                     // a leaked slot refuses the next input
		MaxMessageSize: 64 << 10,
	})
	for _, seed := range startupSeeds(f) {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, input []byte, keepOpen bool) {
		out := fs.exchange(t, input, keepOpen)
		checkReplies(t, skipEncryptionAnswers(out), false)
	})
}

// FuzzFrontendMessages logs in and then writes arbitrary bytes as the
// frontend message stream. The server must answer with well-formed
// messages (a FATAL error only as the last one) or close, never panic or
// hang, and release everything the connection held so the next input can
// log in again.
func FuzzFrontendMessages(f *testing.F) {
	fs := startFuzzServer(f, Config{
		StartupTimeout: 5 * time.Second,
		MaxConnections: 1,
		MaxMessageSize: 64 << 10,
	})
	login := concat(f,
		&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
			Parameters: map[string]string{"user": "alice", "database": "sales", "application_name": "fuzz"}},
		&pgproto3.PasswordMessage{Password: goodToken},
	)
	for _, seed := range frontendSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		out := fs.exchange(t, append(login[:len(login):len(login)], input...), false)
		replies := checkReplies(t, out, true)
		if len(replies) == 0 || replies[0] != "AuthenticationCleartextPassword" {
			t.Fatalf("login did not start: %v", replies)
		}
		for i, r := range replies {
			if strings.HasPrefix(r, "ErrorResponse") {
				t.Fatalf("login failed: %v", replies[:i+1])
			}
			if strings.HasPrefix(r, "ReadyForQuery") {
				return
			}
		}
		t.Fatalf("login did not finish: %v", replies)
	})
}

// fuzzServer is one Server on a loopback port, shared by every input of a
// fuzz run so an input costs a connection, not a server.
type fuzzServer struct {
	srv     *Server
	addr    string
	opened  chan *fakeSession // the session of the current input, if it logged in
	panics  *panicRecorder
	timeout time.Duration // the server's StartupTimeout
}

func startFuzzServer(f *testing.F, cfg Config) *fuzzServer {
	f.Helper()
	cfg.Listen = "127.0.0.1:0"
	fs := &fuzzServer{opened: make(chan *fakeSession, 1), panics: &panicRecorder{}, timeout: cfg.StartupTimeout}
	srv, err := NewServer(cfg, fakeAuth{}, fuzzFactory{opened: fs.opened}, slog.New(fs.panics))
	if err != nil {
		f.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		f.Fatal(err)
	}
	fs.srv, fs.addr = srv, srv.Addr().String()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background()) }()
	f.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			f.Errorf("shutdown: %v", err)
		}
		if err := <-served; err != nil {
			f.Errorf("serve: %v", err)
		}
	})
	return fs
}

// exchange sends input on a new connection and returns what the server
// sent until it closed. Unless keepOpen, the client half-closes after the
// input, so the server sees EOF and must close at once; with keepOpen it
// stays silent and the server must give up by StartupTimeout (or, once
// logged in, close on the EOF the client then sends). Afterwards it checks
// that the connection left nothing behind.
func (fs *fuzzServer) exchange(t *testing.T, input []byte, keepOpen bool) []byte {
	t.Helper()
	goroutines := runtime.NumGoroutine()
	select {
	case <-fs.opened: // left over from an earlier input that failed
	default:
	}

	nc, err := net.DialTimeout("tcp", fs.addr, fuzzHangLimit)
	if err != nil {
		t.Fatalf("server no longer accepts connections: %v", err)
	}
	tc := nc.(*net.TCPConn)
	defer tc.Close()

	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		_, _ = tc.Write(input) // fails when the server closes first
		if !keepOpen {
			_ = tc.CloseWrite()
		}
	}()
	replied := make(chan []byte, 1)
	go func() { replied <- readUntilClosed(tc) }()

	limit := time.NewTimer(fuzzHangLimit + fs.timeout)
	defer limit.Stop()
	var out []byte
	var sess *fakeSession
	waiting := true
	for waiting {
		select {
		case out = <-replied:
			waiting = false
		case sess = <-fs.opened:
			if keepOpen {
				// Logged in: from here an idle connection is legitimate.
				<-wrote
				_ = tc.CloseWrite()
			}
		case <-limit.C:
			tc.Close()
			<-wrote
			t.Fatalf("server neither closed nor finished within %s of the input (keepOpen=%v)", fuzzHangLimit+fs.timeout, keepOpen)
		}
	}
	tc.Close()
	<-wrote
	if sess == nil {
		select {
		case sess = <-fs.opened:
		default:
		}
	}

	fs.waitIdle(t)
	if sess != nil && !sess.isClosed() {
		t.Fatal("session still open after its connection ended")
	}
	waitGoroutines(t, goroutines)
	if p := fs.panics.take(); len(p) > 0 {
		t.Fatalf("server recovered from a panic:\n%s", strings.Join(p, "\n"))
	}
	return out
}

// readUntilClosed returns what r delivers until EOF or an error (a reset
// when the server closes with input unread), keeping fuzzMaxOutput bytes.
func readUntilClosed(r io.Reader) []byte {
	var out bytes.Buffer
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if out.Len() < fuzzMaxOutput {
			out.Write(buf[:min(n, fuzzMaxOutput-out.Len())])
		}
		if err != nil {
			return out.Bytes()
		}
	}
}

// waitIdle waits until the server has forgotten every connection: handler
// and reader goroutines done, slot released, cancel key unregistered.
func (fs *fuzzServer) waitIdle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(fuzzHangLimit)
	for pause := 10 * time.Microsecond; ; pause = min(2*pause, 10*time.Millisecond) {
		fs.srv.mu.Lock()
		conns, slots, keys := len(fs.srv.conns), fs.srv.slotsUse, len(fs.srv.byPID)
		fs.srv.mu.Unlock()
		if conns == 0 && slots == 0 && keys == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the client left the server still holds %d connections, %d slots, %d cancel keys", conns, slots, keys)
		}
		time.Sleep(pause)
	}
}

// waitGoroutines waits until no more goroutines run than before the input.
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(fuzzHangLimit)
	for pause := 10 * time.Microsecond; runtime.NumGoroutine() > before; pause = min(2*pause, 10*time.Millisecond) {
		if time.Now().After(deadline) {
			var dump bytes.Buffer
			_ = pprof.Lookup("goroutine").WriteTo(&dump, 1)
			t.Fatalf("%d goroutines left behind:\n%s", runtime.NumGoroutine()-before, dump.String())
		}
		time.Sleep(pause)
	}
}

// skipEncryptionAnswers drops the one-byte answers to SSLRequest and
// GSSENCRequest ('N'; the server never sends NoticeResponse, whose type
// byte is the same) at the start of a startup reply. After an 'S' the rest
// is TLS, which is not checked: nothing is returned.
func skipEncryptionAnswers(out []byte) []byte {
	for len(out) > 0 {
		switch out[0] {
		case 'N':
			out = out[1:]
		case 'S':
			return nil
		default:
			return out
		}
	}
	return out
}

// checkReplies decodes the server's messages and checks the rules every
// reply follows: each message is well-formed, a FATAL error is the last
// message, an error before login is FATAL, and ReadyForQuery carries a
// valid status. A message cut short at the end is allowed, since a server
// that closes with input unread makes the client's kernel reset the
// connection. It returns the decoded messages, described.
func checkReplies(t *testing.T, out []byte, loginExpected bool) []string {
	t.Helper()
	fe := pgproto3.NewFrontend(pgproto3.NewChunkReader(bytes.NewReader(out)), io.Discard)
	var got []string
	loggedIn, fatalSeen := false, false
	for {
		msg, err := fe.Receive()
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return got
		}
		if err != nil {
			t.Fatalf("server sent an undecodable message after %v: %v", got, err)
		}
		d := describe(msg)
		if fatalSeen {
			t.Fatalf("message after a FATAL error: %v then %s", got, d)
		}
		got = append(got, d)
		switch m := msg.(type) {
		case *pgproto3.AuthenticationOk:
			loggedIn = true
		case *pgproto3.ErrorResponse:
			if len(m.Code) != 5 || m.Message == "" {
				t.Fatalf("malformed error %s", d)
			}
			fatalSeen = m.Severity == pgerror.SeverityFatal
			if !loggedIn && !fatalSeen {
				t.Fatalf("non-fatal error before login: %v", got)
			}
		case *pgproto3.ReadyForQuery:
			if !strings.ContainsRune("ITE", rune(m.TxStatus)) {
				t.Fatalf("ReadyForQuery with status %q", m.TxStatus)
			}
			if !loggedIn {
				t.Fatalf("ReadyForQuery before login: %v", got)
			}
		}
		if loginExpected && len(got) == 1 && d != "AuthenticationCleartextPassword" {
			t.Fatalf("unexpected first reply %s", d)
		}
	}
}

// panicRecorder is the fuzz servers' log: it keeps every record of a
// recovered panic (an internal error caused by "panic in ..."),
// except the one the fake session raises on purpose for the statement
// "panic".
type panicRecorder struct {
	mu     sync.Mutex
	panics []string
}

func (r *panicRecorder) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }

func (r *panicRecorder) Handle(_ context.Context, rec slog.Record) error {
	var b strings.Builder
	b.WriteString(rec.Message)
	panicked, deliberate := false, false
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key == "cause" && strings.Contains(a.Value.String(), "cause: panic in ") {
			panicked = true
			deliberate = strings.Contains(a.Value.String(), ": session bug\n")
		}
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	if panicked && !deliberate {
		r.mu.Lock()
		r.panics = append(r.panics, b.String())
		r.mu.Unlock()
	}
	return nil
}

func (r *panicRecorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *panicRecorder) WithGroup(string) slog.Handler      { return r }

func (r *panicRecorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.panics
	r.panics = nil
	return p
}

// fuzzFactory opens the usual fake sessions without remembering them (a
// fuzz run opens hundreds of thousands) and hands each to the running
// input, which checks that it gets closed.
type fuzzFactory struct{ opened chan<- *fakeSession }

func (f fuzzFactory) NewSession(ctx context.Context, id auth.Identity, st Startup) (Session, error) {
	s, err := new(fakeFactory).NewSession(ctx, id, st)
	if err != nil {
		return nil, err
	}
	fs := s.(*fakeSession)
	select {
	case f.opened <- fs:
	default:
	}
	return boundedSession{fs}, nil
}

// boundedSession keeps a fuzzed "select many N" from asking the fake
// session for more rows than an input should cost.
type boundedSession struct{ *fakeSession }

func (s boundedSession) Execute(ctx context.Context, stmt *sql.Statement) (sql.Result, error) {
	if f := strings.Fields(stmt.SQL); len(f) == 3 && f[0] == "select" && f[1] == "many" {
		if n, err := strconv.Atoi(f[2]); err != nil || n > 5000 {
			return nil, pgerror.New(pgerror.ProgramLimitExceeded, "too many rows for a fuzz input")
		}
	}
	return s.fakeSession.Execute(ctx, stmt)
}

// concat encodes msgs back to back.
func concat(f *testing.F, msgs ...pgproto3.FrontendMessage) []byte {
	f.Helper()
	var out []byte
	for _, m := range msgs {
		var err error
		if out, err = m.Encode(out); err != nil {
			f.Fatalf("encode %T: %v", m, err)
		}
	}
	return out
}

// packet frames body with a message type (0 for startup packets, which
// have none) and a declared length that may lie: declared < 0 means the
// true length.
func packet(typ byte, declared int, body []byte) []byte {
	n := uint32(declared)
	if declared < 0 {
		n = uint32(4 + len(body))
	}
	var out []byte
	if typ != 0 {
		out = append(out, typ)
	}
	out = binary.BigEndian.AppendUint32(out, n)
	return append(out, body...)
}

func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func startupSeeds(f *testing.F) [][]byte {
	startup := func(params map[string]string) []byte {
		return concat(f, &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: params})
	}
	alice := startup(map[string]string{"user": "alice", "database": "sales"})
	good := concat(f, &pgproto3.PasswordMessage{Password: goodToken})
	ssl := concat(f, &pgproto3.SSLRequest{})
	gss := concat(f, &pgproto3.GSSEncRequest{})
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	return [][]byte{
		{},
		ssl,
		join(ssl, ssl),
		join(ssl, []byte{0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00}), // a stunted ClientHello
		gss,
		join(gss, gss),
		join(gss, ssl, alice),
		join(gss, alice, good),
		concat(f, &pgproto3.CancelRequest{ProcessID: 1, SecretKey: 42}),
		packet(0, 12, u32(cancelRequestCode)), // cancel request too short for its key
		alice,
		join(alice, good),
		join(alice, good, concat(f, &pgproto3.Query{String: "select ints"}, &pgproto3.Terminate{})),
		join(alice, concat(f, &pgproto3.PasswordMessage{Password: "wrong"})),
		join(alice, concat(f, &pgproto3.PasswordMessage{Password: ""})),
		join(alice, concat(f, &pgproto3.Query{String: "select 1"})),
		join(alice, packet('p', 1<<30, nil)),
		startup(map[string]string{"database": "sales"}),
		startup(map[string]string{"user": "alice", "database": "nodb"}),
		startup(map[string]string{"user": "alice", "application_name": "\xff\xfe", "options": "-c search_path=x"}),
		packet(0, -1, append(u32(2<<16), "user\x00alice\x00\x00"...)),   // protocol 2.0
		packet(0, -1, append(u32(3<<16|1), "user\x00alice\x00\x00"...)), // protocol 3.1
		packet(0, -1, append(u32(pgproto3.ProtocolVersionNumber), "user\x00alice"...)),
		packet(0, 7, nil),
		packet(0, maxStartupPacket+1, nil),
		packet(0, 0xffffffff, nil),
		[]byte("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"),
	}
}

func frontendSeeds(f *testing.F) [][]byte {
	msgs := func(m ...pgproto3.FrontendMessage) []byte { return concat(f, m...) }
	query := msgs(&pgproto3.Query{String: "select ints"})
	extended := msgs(
		&pgproto3.Parse{Name: "s1", Query: "select $1", ParameterOIDs: []uint32{23}},
		&pgproto3.Bind{DestinationPortal: "p1", PreparedStatement: "s1", ParameterFormatCodes: []int16{0}, Parameters: [][]byte{[]byte("1")}},
		&pgproto3.Describe{ObjectType: 'P', Name: "p1"},
		&pgproto3.Execute{Portal: "p1"},
		&pgproto3.Close{ObjectType: 'S', Name: "s1"},
		&pgproto3.Sync{},
	)
	return [][]byte{
		{},
		query,
		msgs(&pgproto3.Query{String: "select 1; fail; select ints"}),
		msgs(&pgproto3.Query{String: ""}, &pgproto3.Query{String: "-- only a comment"}),
		msgs(&pgproto3.Query{String: "syntax error"}, &pgproto3.Query{String: "begin"}, &pgproto3.Query{String: "internal"}),
		msgs(&pgproto3.Query{String: "set app x; select many 1500"}),
		msgs(&pgproto3.Query{String: "select \xff\xfe\xfd; select 'caf\xc3'"}),
		msgs(&pgproto3.Query{String: "sleep"}),
		msgs(&pgproto3.Query{String: "panic"}),
		extended,
		msgs(&pgproto3.Parse{Query: "select 1"}, &pgproto3.Flush{}, &pgproto3.Sync{}, &pgproto3.Sync{}),
		msgs(&pgproto3.Terminate{}),
		append(msgs(&pgproto3.Terminate{}), query...),
		msgs(&pgproto3.FunctionCall{Function: 1, Arguments: [][]byte{[]byte("x")}, ResultFormatCode: 0}),
		msgs(&pgproto3.CopyData{Data: []byte("1\t2\n")}, &pgproto3.CopyDone{}),
		msgs(&pgproto3.CopyFail{Message: "no"}),
		msgs(&pgproto3.PasswordMessage{Password: goodToken}),
		concat(f, &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "bob"}}),
		// Truncated and lying lengths.
		query[:len(query)-1],
		query[:3],
		extended[:len(extended)/2],
		packet('Q', 3, nil),
		packet('Q', 0xffffffff, nil),
		packet('Q', 1<<20, []byte("select 1\x00")),
		packet('Q', 8, []byte("select 1\x00")),
		append(packet('Q', 20, []byte("select 1\x00")), query...),
		packet('Q', -1, []byte("select 1")), // no terminating NUL
		packet('B', -1, []byte("\x00\x00\x00\x05\x00\x01\x00\x01\xff\xff\xff\xf0")),
		packet('P', -1, []byte("s\x00select\x00\xff\xff")),
		packet('Z', -1, nil),
	}
}

// TestUndecodableMessages pins down the inputs the fuzzers found: bodies
// on which pgproto3's decoders panic are refused as protocol violations,
// before and after login, while well-formed Bind and FunctionCall messages
// still reach the processor.
func TestUndecodableMessages(t *testing.T) {
	bind := func(body string) []byte { return packet('B', -1, []byte(body)) }
	call := func(body string) []byte { return packet('F', -1, []byte(body)) }
	tests := []struct {
		name     string
		login    bool // send the message after logging in, else as the password
		input    []byte
		want     []string
		wantOpen bool
	}{
		{"empty Query", true, packet('Q', -1, nil), []string{"ErrorResponse[FATAL 08P01 invalid frontend message]"}, false},
		{"empty CopyFail", true, packet('f', -1, nil), []string{"ErrorResponse[FATAL 08P01 invalid frontend message]"}, false},
		{"Bind with parameter length -2", true, bind("\x00\x00\x00\x00\x00\x01\xff\xff\xff\xfe\x00\x00"), []string{"ErrorResponse[FATAL 08P01 invalid frontend message]"}, false},
		{"FunctionCall cut short", true, call("\x00\x00"), []string{"ErrorResponse[FATAL 08P01 invalid frontend message]"}, false},
		{"FunctionCall with NULL argument", true, call("\x00\x00\x00\x01\x00\x00\x00\x01\xff\xff\xff\xff\x00\x00"), []string{"ErrorResponse[FATAL 08P01 invalid frontend message]"}, false},
		{"empty FunctionCall as password", false, call(""), []string{"ErrorResponse[FATAL 08P01 invalid password packet]"}, false},
		{"empty Query as password", false, packet('Q', -1, nil), []string{"ErrorResponse[FATAL 08P01 invalid password packet]"}, false},
		{"well-formed FunctionCall", true, call("\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x01x\x00\x00"),
			[]string{"ErrorResponse[ERROR 08P01 fastpath function calls are not supported]", "ReadyForQuery[I]"}, true},
		{"well-formed Bind with NULL", true, append(bind("\x00\x00\x00\x00\x00\x02\xff\xff\xff\xff\x00\x00\x00\x01x\x00\x00"), packet('S', -1, nil)...),
			[]string{"ErrorResponse[ERROR 26000 unnamed prepared statement does not exist]", "ReadyForQuery[I]"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil)
			c := ts.dialRaw(t)
			if tt.login {
				if got := c.startup("alice", goodToken); got[len(got)-1] != "ReadyForQuery[I]" {
					t.Fatalf("login: %v", got)
				}
			} else {
				c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "alice"}})
				if got := c.receive(); got != "AuthenticationCleartextPassword" {
					t.Fatalf("got %s", got)
				}
			}
			if _, err := c.conn.Write(tt.input); err != nil {
				t.Fatal(err)
			}
			for _, want := range tt.want {
				if got := c.receive(); got != want {
					t.Fatalf("got %s, want %s", got, want)
				}
			}
			if tt.wantOpen {
				c.send(&pgproto3.Query{String: "select ints"})
				if got := c.receiveUntilReady(); len(got) != 5 {
					t.Fatalf("connection not usable afterwards: %v", got)
				}
			} else {
				c.expectClosed()
			}
			if logs := ts.logs.String(); strings.Contains(logs, "panic") {
				t.Errorf("server panicked:\n%s", logs)
			}
		})
	}
}
