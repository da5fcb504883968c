package pgwire

import (
	"context"
	"crypto/tls"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqe-db/sqe/pgwire/tlstest"
)

// certFixture is a CA with a server certificate, client certificates for
// alice and bob, and one for alice from a CA the server does not trust.
type certFixture struct {
	ca                  *tlstest.CA
	caFile              string
	certFile, keyFile   string
	alice, bob, foreign tlstest.Pair
}

func newCertFixture(t *testing.T) certFixture {
	t.Helper()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "SQE test CA")
	other := tlstest.NewCA(t, "another CA")
	certFile, keyFile := ca.Server(t).WriteFiles(t, dir, "server")
	return certFixture{
		ca: ca, caFile: ca.WriteFile(t, dir, "ca"), certFile: certFile, keyFile: keyFile,
		alice: ca.Client(t, "alice"), bob: ca.Client(t, "bob"), foreign: other.Client(t, "alice"),
	}
}

// config makes Config use the fixture's server certificate and CA.
func (f certFixture) config(require, userMatch bool) func(*Config) {
	return func(c *Config) {
		c.TLSCertFile, c.TLSKeyFile, c.TLSClientCAFile = f.certFile, f.keyFile, f.caFile
		c.RequireClientCert, c.ClientCertUserMatch = require, userMatch
	}
}

// connectWithCert logs in as user over TLS, verifying the server's
// certificate and its name, presenting the first of certs (none when
// empty).
func (f certFixture) connectWithCert(t *testing.T, ts *testServer, user string, certs ...tls.Certificate) (*pgx.Conn, error) {
	t.Helper()
	cfg := ts.pgxConfig(t, goodToken, "disable")
	cfg.User = user
	cfg.TLSConfig = &tls.Config{RootCAs: f.ca.Pool(), ServerName: "localhost"}
	if len(certs) > 0 {
		// Sent whatever CAs the server names, as libpq sends sslcert;
		// Certificates would hold back one the server's CAs did not sign.
		cfg.TLSConfig.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &certs[0], nil }
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err == nil {
		// With TLS 1.3 the client learns of a refused certificate at its
		// first read after the handshake: a query settles it.
		if err = c.Ping(ctx); err != nil {
			c.Close(context.Background())
			return nil, err
		}
		t.Cleanup(func() { c.Close(context.Background()) })
	}
	return c, err
}

func TestClientCertificates(t *testing.T) {
	f := newCertFixture(t)
	const (
		ok          = ""
		refusedTLS  = "tls"   // the handshake fails: no pgerror reaches the client
		certFailed  = "28000" // FATAL 28000 certificate authentication failed
		mustUseTLS  = "28000 must use TLS"
		handshakeLg = "tls handshake failed"
	)
	tests := []struct {
		name             string
		require, match   bool
		user             string
		certs            []tls.Certificate
		plaintext        bool
		want, wantLogged string
	}{
		{name: "required, alice's certificate", require: true, user: "alice", certs: []tls.Certificate{f.alice.TLS}, want: ok},
		{name: "required, no certificate", require: true, user: "alice", want: refusedTLS, wantLogged: handshakeLg},
		{name: "required, a certificate of another CA", require: true, user: "alice", certs: []tls.Certificate{f.foreign.TLS}, want: refusedTLS, wantLogged: handshakeLg},
		{name: "required, plaintext", require: true, user: "alice", plaintext: true, want: mustUseTLS},
		{name: "optional, no certificate", user: "alice", want: ok},
		{name: "optional, a certificate of another CA", user: "alice", certs: []tls.Certificate{f.foreign.TLS}, want: refusedTLS, wantLogged: handshakeLg},
		{name: "optional, plaintext from loopback", user: "alice", plaintext: true, want: ok},
		{name: "user match, alice as alice", require: true, match: true, user: "alice", certs: []tls.Certificate{f.alice.TLS}, want: ok},
		{name: "user match, alice's certificate for bob", require: true, match: true, user: "bob", certs: []tls.Certificate{f.alice.TLS}, want: certFailed,
			wantLogged: `reason="the certificate's common name is not the user" common_name=alice`},
		{name: "no user match, alice's certificate for bob", require: true, user: "bob", certs: []tls.Certificate{f.alice.TLS}, want: ok},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, f.config(tt.require, tt.match))
			var err error
			if tt.plaintext {
				var c *pgx.Conn
				c, err = pgx.ConnectConfig(context.Background(), ts.pgxConfig(t, goodToken, "disable"))
				if err == nil {
					c.Close(context.Background())
				}
			} else {
				_, err = f.connectWithCert(t, ts, tt.user, tt.certs...)
			}
			var pe *pgconn.PgError
			switch tt.want {
			case ok:
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
			case refusedTLS:
				if err == nil {
					t.Fatal("connected")
				}
				if errors.As(err, &pe) {
					t.Fatalf("got a server error %v, want a refused TLS handshake", pe)
				}
			case certFailed:
				if !errors.As(err, &pe) || pe.Severity != "FATAL" || pe.Code != "28000" ||
					pe.Message != `certificate authentication failed for user "`+tt.user+`"` || pe.Detail != "" || pe.Hint != "" {
					t.Fatalf("got %v, want FATAL 28000 certificate authentication failed for user %q and nothing more", err, tt.user)
				}
			case mustUseTLS:
				if !errors.As(err, &pe) || pe.Code != "28000" || !strings.Contains(pe.Message, "must use TLS (SSL)") {
					t.Fatalf("got %v, want 28000 must use TLS", err)
				}
			}
			if tt.wantLogged != "" && !ts.logs.waitFor(tt.wantLogged) {
				t.Errorf("the log does not say %q:\n%s", tt.wantLogged, ts.logs.String())
			}
			// A refused connection is only that: the server serves the
			// next client.
			if _, err := f.connectWithCert(t, ts, "alice", f.alice.TLS); err != nil {
				t.Fatalf("after %s: a good client is refused: %v", tt.name, err)
			}
		})
	}
}

// TestClientCertificateHandshakeGarbage: bytes that are no TLS handshake
// after 'S' end that connection alone.
func TestClientCertificateHandshakeGarbage(t *testing.T) {
	f := newCertFixture(t)
	ts := startServer(t, f.config(true, true))
	c := ts.dialRaw(t)
	if _, err := c.conn.Write([]byte{0, 0, 0, 8, 4, 210, 22, 47}); err != nil { // SSLRequest
		t.Fatal(err)
	}
	var reply [1]byte
	if _, err := c.conn.Read(reply[:]); err != nil || reply[0] != 'S' {
		t.Fatalf("SSLRequest answered %q, %v", reply[0], err)
	}
	if _, err := c.conn.Write([]byte("\x16\x03\x01\x00\x05hello garbage that is not a ClientHello")); err != nil {
		t.Fatal(err)
	}
	c.expectClosed()
	if _, err := f.connectWithCert(t, ts, "alice", f.alice.TLS); err != nil {
		t.Fatalf("a good client is refused after the garbage: %v", err)
	}
}

func TestClientCertificateConfig(t *testing.T) {
	f := newCertFixture(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	keyOnly := write("key.pem", string(f.alice.KeyPEM))
	empty := write("empty.pem", "")
	mixed := write("mixed.pem", string(f.ca.PEM)+string(f.alice.KeyPEM))
	bundle := write("bundle.pem", "# a comment, as system bundles have\n"+string(f.ca.PEM)+"\n# another\n"+string(tlstest.NewCA(t, "second").PEM))
	tests := []struct {
		name    string
		mutate  func(*Config)
		wantErr string
	}{
		{"required without a CA", func(c *Config) { c.DataDir = t.TempDir(); c.RequireClientCert = true }, "needs a client CA file"},
		{"user match without required", func(c *Config) { f.config(false, true)(c) }, "needs client certificates required"},
		{"CA file missing", func(c *Config) { f.config(true, false)(c); c.TLSClientCAFile = filepath.Join(dir, "absent.pem") }, "read client CA file"},
		{"CA file holds a key", func(c *Config) { f.config(true, false)(c); c.TLSClientCAFile = keyOnly }, `"PRIVATE KEY" block`},
		{"CA file holds a key after a certificate", func(c *Config) { f.config(true, false)(c); c.TLSClientCAFile = mixed }, `"PRIVATE KEY" block`},
		{"CA file empty", func(c *Config) { f.config(true, false)(c); c.TLSClientCAFile = empty }, "holds no certificate"},
		{"CA without any server certificate", func(c *Config) { c.TLSClientCAFile = f.caFile }, "no certificate is configured"},
		{"a bundle of two CAs with comments", func(c *Config) { f.config(true, true)(c); c.TLSClientCAFile = bundle }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Listen: "127.0.0.1:0"}
			tt.mutate(&cfg)
			srv, err := NewServer(cfg, fakeAuth{}, &fakeFactory{}, nil)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !srv.cfg.RequireTLS {
					t.Error("a required client certificate does not require TLS")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
