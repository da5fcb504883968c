package pgwire

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestLoginAndParameterStatus(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.ServerVersion = "15.18" })
	c := ts.connect(t)
	pc := c.PgConn()
	want := map[string]string{
		"server_version":                "15.18",
		"default_transaction_read_only": "off",
		"in_hot_standby":                "off",
		"server_encoding":               "UTF8",
		"client_encoding":               "UTF8",
		"DateStyle":                     "ISO, MDY",
		"integer_datetimes":             "on",
		"standard_conforming_strings":   "on",
		"IntervalStyle":                 "postgres",
		"TimeZone":                      "UTC",
		"is_superuser":                  "off",
		"session_authorization":         "alice",
	}
	for k, v := range want {
		if got := pc.ParameterStatus(k); got != v {
			t.Errorf("ParameterStatus %s = %q, want %q", k, got, v)
		}
	}
	if got := pc.ParameterStatus("server_version_num"); got != "" {
		t.Errorf("server_version_num reported as %q: PostgreSQL 15 does not report it", got)
	}
	if pc.PID() == 0 {
		t.Error("no BackendKeyData process id")
	}
	_, st := ts.factory.last(t)
	if st.User != "alice" || st.Database != "sales" || st.TLS || st.RemoteAddr == nil {
		t.Errorf("startup = %+v", st)
	}
}

func TestRawLoginSequence(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dialRaw(t)
	got := c.startup("bob", goodToken)
	if got[0] != "AuthenticationOk" || got[len(got)-1] != "ReadyForQuery[I]" || got[len(got)-2] != "BackendKeyData" {
		t.Fatalf("login sequence = %v", got)
	}
	joined := strings.Join(got, " ")
	for _, want := range []string{"ParameterStatus[application_name=rawtest]", "ParameterStatus[session_authorization=bob]"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %s in %v", want, got)
		}
	}
}

func TestLoginRefused(t *testing.T) {
	tests := []struct {
		name, user, password, want string
	}{
		{"wrong token", "alice", "not-a-token", `ErrorResponse[FATAL 28P01 password authentication failed for user "alice"]`},
		{"empty password", "alice", "", `ErrorResponse[FATAL 28P01 password authentication failed for user "alice"]`},
		{"authenticator's own error", "alice", "pgerror", `ErrorResponse[FATAL 28P01 token expired]`},
		{"missing user", "", goodToken, `ErrorResponse[FATAL 28000 no PostgreSQL user name specified in startup packet]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, nil)
			c := ts.dialRaw(t)
			got := c.startup(tt.user, tt.password)
			if got[len(got)-1] != tt.want {
				t.Fatalf("got %v, want %s", got, tt.want)
			}
			c.expectClosed()
			if strings.Contains(ts.logs.String(), "not-a-token") {
				t.Error("refused password was logged")
			}
		})
	}
}

func TestLoginRefusedViaPgx(t *testing.T) {
	ts := startServer(t, nil)
	_, err := pgx.ConnectConfig(context.Background(), ts.pgxConfig(t, "wrong", "disable"))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28P01" || pe.Message != `password authentication failed for user "alice"` {
		t.Fatalf("got %v", err)
	}
}

func TestLargeToken(t *testing.T) {
	ts := startServer(t, nil)
	token := goodToken + strings.Repeat("x", 20<<10)
	cfg := ts.pgxConfig(t, "placeholder", "disable")
	cfg.Password = token
	c, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestSessionFactoryErrorIsFatal(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dialRaw(t)
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "alice", "database": "nodb"}})
	if got := c.receive(); got != "AuthenticationCleartextPassword" {
		t.Fatal(got)
	}
	c.send(&pgproto3.PasswordMessage{Password: goodToken})
	if got, want := c.receive(), `ErrorResponse[FATAL 3D000 database "nodb" does not exist]`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	c.expectClosed()
}

func TestDatabaseDefaultsToUser(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dialRaw(t)
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "carol"}})
	c.receive()
	c.send(&pgproto3.PasswordMessage{Password: goodToken})
	c.receiveUntilReady()
	if _, st := ts.factory.last(t); st.Database != "carol" {
		t.Fatalf("database = %q, want carol", st.Database)
	}
}

func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, func(c *Config) { c.DataDir = dir; c.RequireTLS = true })
	c, err := pgx.ConnectConfig(context.Background(), ts.pgxConfig(t, goodToken, "require"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if _, st := ts.factory.last(t); !st.TLS {
		t.Error("session startup does not report TLS")
	}
	tc, ok := c.PgConn().Conn().(*tls.Conn)
	if !ok {
		t.Fatalf("connection is %T, not TLS", c.PgConn().Conn())
	}
	if v := tc.ConnectionState().Version; v < tls.VersionTLS12 {
		t.Errorf("TLS version %x", v)
	}
	for _, name := range []string{"server.crt", "server.key"} {
		fi, err := os.Stat(filepath.Join(dir, "tls", name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", name, fi.Mode().Perm())
		}
	}
}

func TestSelfSignedCertificateIsMadeOnce(t *testing.T) {
	dir := t.TempDir()
	if _, err := loadTLSConfig(Config{DataDir: dir}); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(filepath.Join(dir, "tls", "server.crt"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loadTLSConfig(Config{DataDir: dir}); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(filepath.Join(dir, "tls", "server.crt"))
	if string(first) != string(second) {
		t.Fatal("certificate was regenerated")
	}
}

func TestPlaintextPolicy(t *testing.T) {
	t.Run("accepted on loopback", func(t *testing.T) {
		ts := startServer(t, func(c *Config) { c.DataDir = t.TempDir() })
		c := ts.connect(t)
		if err := c.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("refused with RequireTLS", func(t *testing.T) {
		ts := startServer(t, func(c *Config) { c.DataDir = t.TempDir(); c.RequireTLS = true })
		_, err := pgx.ConnectConfig(context.Background(), ts.pgxConfig(t, goodToken, "disable"))
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "28000" || !strings.Contains(pe.Message, "must use TLS (SSL)") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("refused from a non-loopback address", func(t *testing.T) {
		ts := startServer(t, nil)
		client, server := net.Pipe()
		t.Cleanup(func() { client.Close() })
		if !ts.srv.track(remoteAddrConn{Conn: server, remote: &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 5555}}) {
			t.Fatal("server refused to track the connection")
		}
		_ = client.SetDeadline(time.Now().Add(5 * time.Second))
		fe := pgproto3.NewFrontend(pgproto3.NewChunkReader(client), client)
		if err := fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
			Parameters: map[string]string{"user": "alice"}}); err != nil {
			t.Fatal(err)
		}
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		er, ok := msg.(*pgproto3.ErrorResponse)
		if !ok || er.Severity != "FATAL" || er.Code != "28000" || !strings.Contains(er.Message, "must use TLS (SSL)") {
			t.Fatalf("got %s", describe(msg))
		}
	})
}

// remoteAddrConn pretends a connection comes from elsewhere.
type remoteAddrConn struct {
	net.Conn
	remote net.Addr
}

func (c remoteAddrConn) RemoteAddr() net.Addr { return c.remote }

func TestNegotiationPackets(t *testing.T) {
	writePacket := func(t *testing.T, c *rawClient, code uint32) byte {
		t.Helper()
		var b [8]byte
		binary.BigEndian.PutUint32(b[:4], 8)
		binary.BigEndian.PutUint32(b[4:], code)
		if _, err := c.conn.Write(b[:]); err != nil {
			t.Fatal(err)
		}
		var reply [1]byte
		if _, err := c.conn.Read(reply[:]); err != nil {
			t.Fatal(err)
		}
		return reply[0]
	}
	t.Run("GSSENCRequest is declined and startup continues", func(t *testing.T) {
		ts := startServer(t, nil)
		c := ts.dialRaw(t)
		if r := writePacket(t, c, gssEncRequestCode); r != 'N' {
			t.Fatalf("GSSENCRequest answered %q", r)
		}
		if got := c.startup("alice", goodToken); got[len(got)-1] != "ReadyForQuery[I]" {
			t.Fatal(got)
		}
	})
	t.Run("SSLRequest without a certificate is declined", func(t *testing.T) {
		ts := startServer(t, nil)
		c := ts.dialRaw(t)
		if r := writePacket(t, c, sslRequestCode); r != 'N' {
			t.Fatalf("SSLRequest answered %q", r)
		}
		if got := c.startup("alice", goodToken); got[len(got)-1] != "ReadyForQuery[I]" {
			t.Fatal(got)
		}
	})
	t.Run("second SSLRequest after TLS is a protocol violation", func(t *testing.T) {
		ts := startServer(t, func(c *Config) { c.DataDir = t.TempDir() })
		c := ts.dialRaw(t)
		if r := writePacket(t, c, sslRequestCode); r != 'S' {
			t.Fatalf("SSLRequest answered %q", r)
		}
		tc := tls.Client(c.conn, &tls.Config{InsecureSkipVerify: true})
		if err := tc.Handshake(); err != nil {
			t.Fatal(err)
		}
		tls := &rawClient{t: t, conn: tc, fe: pgproto3.NewFrontend(pgproto3.NewChunkReader(tc), tc)}
		tls.send(&pgproto3.SSLRequest{})
		if got := tls.receive(); !strings.HasPrefix(got, "ErrorResponse[FATAL 08P01") {
			t.Fatalf("got %s", got)
		}
		tls.expectClosed()
	})
	t.Run("unsupported protocol version", func(t *testing.T) {
		ts := startServer(t, nil)
		c := ts.dialRaw(t)
		var b [8]byte
		binary.BigEndian.PutUint32(b[:4], 8)
		binary.BigEndian.PutUint32(b[4:], 2<<16)
		c.conn.Write(b[:])
		if got := c.receive(); got != "ErrorResponse[FATAL 08P01 unsupported frontend protocol 2.0: server supports 3.0 to 3.0]" {
			t.Fatalf("got %s", got)
		}
		c.expectClosed()
	})
}

func TestTooManyConnections(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxConnections = 1 })
	first := ts.connect(t)
	_, err := pgx.ConnectConfig(context.Background(), ts.pgxConfig(t, goodToken, "disable"))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "53300" || pe.Message != "sorry, too many clients already" {
		t.Fatalf("got %v", err)
	}
	// The slot comes back when the first client leaves.
	first.Close(context.Background())
	waitFor(t, "slot release", func() bool {
		c, err := pgx.ConnectConfig(context.Background(), ts.pgxConfig(t, goodToken, "disable"))
		if err != nil {
			return false
		}
		c.Close(context.Background())
		return true
	})
}

// A refused login gives its slot back before the client hears the
// refusal: the next login, sent at once, is admitted.
func TestRefusedLoginFreesItsSlotFirst(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxConnections = 1 })
	ctx := context.Background()
	for i := 0; i < 50; i++ {
		_, err := pgx.ConnectConfig(ctx, ts.pgxConfig(t, "not-a-token", "disable"))
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "28P01" {
			t.Fatalf("login %d with a bad token: %v, want 28P01", i, err)
		}
		c, err := pgx.ConnectConfig(ctx, ts.pgxConfig(t, goodToken, "disable"))
		if err != nil {
			t.Fatalf("login %d right after a refused one: %v", i, err)
		}
		c.Close(ctx)
		waitFor(t, "slot release", func() bool {
			ts.srv.mu.Lock()
			defer ts.srv.mu.Unlock()
			return ts.srv.slotsUse == 0
		})
	}
}

func TestStartupTimeout(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.StartupTimeout = 200 * time.Millisecond })
	c := ts.dialRaw(t)
	start := time.Now()
	c.expectClosed() // never sends a startup packet
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("dropped after %s", d)
	}
	// A client that stalls at the password prompt is dropped too.
	c2 := ts.dialRaw(t)
	c2.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "alice"}})
	if got := c2.receive(); got != "AuthenticationCleartextPassword" {
		t.Fatal(got)
	}
	c2.expectClosed()
}

func TestServerVersionNum(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"15.18", 150018, true},
		{"16.2", 160002, true},
		{"9.6.3", 90603, true},
		{"9.6", 90600, true},
		{"15", 0, false},
		{"15.1.2", 0, false},
		{"x.1", 0, false},
	}
	for _, tt := range tests {
		got, err := serverVersionNum(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("serverVersionNum(%q) = %d, %v", tt.in, got, err)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"bad version", Config{ServerVersion: "fifteen"}},
		{"cert without key", Config{TLSCertFile: "server.crt"}},
		{"negative limit", Config{MaxConnections: -1}},
		{"require tls without certificate", Config{RequireTLS: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewServer(tt.cfg, fakeAuth{}, &fakeFactory{}, nil); err == nil {
				t.Fatal("expected an error")
			}
		})
	}
}
