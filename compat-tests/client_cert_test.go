package compattests

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqe-db/sqe/pgwire/tlstest"
)

// clientCertServer is a private server that requires client certificates
// signed by its CA and matches their Common Name to the token's user,
// with its own server certificate for 127.0.0.1 and localhost.
type clientCertServer struct {
	srv    *server
	ca     *tlstest.CA
	caFile string
	// certs are the client certificates by name: alice's and bob's from
	// the server's CA, "foreign" (alice's name) from another one.
	certs map[string]tlstest.Pair
	files map[string][2]string // name -> cert file, key file
	dir   string
}

func startClientCertServer(t *testing.T) *clientCertServer {
	t.Helper()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "SQE test CA")
	other := tlstest.NewCA(t, "another CA")
	cs := &clientCertServer{
		ca: ca, caFile: ca.WriteFile(t, dir, "ca"), dir: dir,
		certs: map[string]tlstest.Pair{"alice": ca.Client(t, "alice"), "bob": ca.Client(t, "bob"), "foreign": other.Client(t, "alice")},
		files: map[string][2]string{},
	}
	for name, p := range cs.certs {
		certFile, keyFile := p.WriteFiles(t, dir, name)
		cs.files[name] = [2]string{certFile, keyFile}
	}
	serverCert, serverKey := ca.Server(t).WriteFiles(t, dir, "server")
	cs.srv = startConfiguredServer(t, fmt.Sprintf(`[pgwire]
tls_cert = %q
tls_key = %q
tls_client_ca = %q
require_client_cert = true
client_cert_user_match = true
`, serverCert, serverKey, cs.caFile))
	return cs
}

// psqlConninfo is what psql adds for verify-full against the server's CA
// and, unless cert is "", that client certificate. Without one it names
// a file that does not exist, so that no certificate of the home
// directory is sent either.
func (cs *clientCertServer) psqlConninfo(cert string) string {
	files, ok := cs.files[cert]
	if !ok {
		absent := filepath.Join(cs.dir, "absent")
		files = [2]string{absent + ".crt", absent + ".key"}
	}
	return fmt.Sprintf("sslrootcert=%s sslcert=%s sslkey=%s", cs.caFile, files[0], files[1])
}

// pgxConnect logs in with pgx as user, verifying the server's certificate
// and name (as verify-full does) and presenting cert ("" for none).
func (cs *clientCertServer) pgxConnect(t *testing.T, ctx context.Context, user, token, cert string) (*pgx.Conn, error) {
	t.Helper()
	cfg := pgxConfig(t, cs.srv, user, demoDatabase, "disable", token)
	cfg.TLSConfig = &tls.Config{RootCAs: cs.ca.Pool(), ServerName: cs.srv.host}
	if p, ok := cs.certs[cert]; ok {
		// Sent whatever CAs the server names, as libpq sends sslcert
		// (Certificates would hold back the foreign one).
		cfg.TLSConfig.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &p.TLS, nil }
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn, nil
}

// TestTLSClientCertificates: with require_client_cert and
// client_cert_user_match, psql (sslmode=verify-full, sslcert, sslkey) and
// pgx (a tls.Config with the certificate) log in only with a certificate
// of the server's CA naming the token's user; the token stays the
// password.
func TestTLSClientCertificates(t *testing.T) {
	t.Parallel()
	cs := startClientCertServer(t)
	ctx := testContext(t, 2*time.Minute)
	tokens := map[string]string{}
	for _, user := range []string{"alice", "bob"} {
		token, err := cs.srv.mintCLI(user)
		if err != nil {
			t.Fatal(err)
		}
		tokens[user] = token
	}
	const (
		works         = "works"
		refused       = "refused"       // the TLS handshake fails with an alert: no server error
		certAuthError = "certAuthError" // FATAL 28000 certificate authentication failed
	)
	tests := []struct {
		name, user, cert, want string
		// psqlAlert and pgxAlert are how each client reports the TLS
		// alert of a refused handshake.
		psqlAlert, pgxAlert string
	}{
		{name: "alice's certificate", user: "alice", cert: "alice", want: works},
		{name: "bob's certificate", user: "bob", cert: "bob", want: works},
		{name: "no certificate", user: "alice", want: refused,
			psqlAlert: "SSL error: tlsv13 alert certificate required", pgxAlert: "remote error: tls: certificate required"},
		{name: "a certificate of another CA", user: "alice", cert: "foreign", want: refused,
			psqlAlert: "SSL error: tlsv1 alert unknown ca", pgxAlert: "remote error: tls: unknown certificate authority"},
		{name: "alice's certificate with bob's token", user: "bob", cert: "alice", want: certAuthError},
	}
	for _, tt := range tests {
		t.Run("psql/"+tt.name, func(t *testing.T) {
			res := runPsql(t, cs.srv, psqlRun{user: tt.user, sslmode: "verify-full", password: tokens[tt.user],
				conninfo: cs.psqlConninfo(tt.cert), args: unaligned("SELECT 1, current_user")})
			switch tt.want {
			case works:
				if res.exitCode != 0 || strings.TrimSpace(res.stdout) != "1|"+tt.user {
					t.Fatalf("psql exited %d, stdout %q, stderr:\n%s", res.exitCode, res.stdout, res.stderr)
				}
			case refused:
				if res.exitCode != 2 || res.stdout != "" || !strings.Contains(res.stderr, tt.psqlAlert) {
					t.Fatalf("psql exited %d, stdout %q, stderr:\n%s\nwant a refused connection", res.exitCode, res.stdout, res.stderr)
				}
			case certAuthError:
				want := `FATAL:  certificate authentication failed for user "` + tt.user + `"`
				if res.exitCode != 2 || !strings.Contains(res.stderr, want) || strings.Contains(res.stderr, "DETAIL") {
					t.Fatalf("psql exited %d, stderr:\n%s\nwant %s and no more", res.exitCode, res.stderr, want)
				}
			}
		})
		t.Run("pgx/"+tt.name, func(t *testing.T) {
			conn, err := cs.pgxConnect(t, ctx, tt.user, tokens[tt.user], tt.cert)
			if err == nil {
				// TLS 1.3 reports a refused certificate at the client's
				// first read after the handshake.
				var user string
				err = conn.QueryRow(ctx, "SELECT current_user").Scan(&user)
				if err == nil && user != tt.user {
					t.Fatalf("current_user %q, want %q", user, tt.user)
				}
			}
			var pe *pgconn.PgError
			switch tt.want {
			case works:
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
			case refused:
				if err == nil || errors.As(err, &pe) || !strings.Contains(err.Error(), tt.pgxAlert) {
					t.Fatalf("got %v, want a refused TLS handshake", err)
				}
			case certAuthError:
				if !errors.As(err, &pe) || pe.Code != "28000" || pe.Message != `certificate authentication failed for user "`+tt.user+`"` || pe.Detail != "" {
					t.Fatalf("got %v, want 28000 certificate authentication failed for user %q", err, tt.user)
				}
			}
		})
	}

	t.Run("the log says why", func(t *testing.T) {
		log := cs.srv.log()
		for _, want := range []string{`reason="the certificate's common name is not the user" common_name=alice`, "tls handshake failed"} {
			if !strings.Contains(log, want) {
				t.Errorf("the server log does not say %q", want)
			}
		}
	})
	t.Run("plaintext is refused, loopback too", func(t *testing.T) {
		res := runPsql(t, cs.srv, psqlRun{sslmode: "disable", password: tokens["alice"], args: unaligned("SELECT 1")})
		if res.exitCode != 2 || !strings.Contains(res.stderr, "FATAL:  connection must use TLS (SSL)") {
			t.Fatalf("psql exited %d, stderr:\n%s", res.exitCode, res.stderr)
		}
	})
	// verify-full checks the configured server certificate against the
	// name connected to: hostaddr connects to the server whatever host
	// says, so only the name differs.
	for _, tt := range []struct {
		host  string
		works bool
	}{{"localhost", true}, {"127.0.0.1", true}, {"sqe.invalid", false}} {
		t.Run("verify-full as "+tt.host, func(t *testing.T) {
			res := runPsql(t, cs.srv, psqlRun{sslmode: "verify-full", password: tokens["alice"],
				conninfo: cs.psqlConninfo("alice") + " host=" + tt.host + " hostaddr=127.0.0.1", args: unaligned("SELECT 1")})
			if tt.works && (res.exitCode != 0 || strings.TrimSpace(res.stdout) != "1") {
				t.Fatalf("psql exited %d, stdout %q, stderr:\n%s", res.exitCode, res.stdout, res.stderr)
			}
			if !tt.works && (res.exitCode != 2 || !strings.Contains(res.stderr, `does not match host name "sqe.invalid"`)) {
				t.Fatalf("psql exited %d, stderr:\n%s\nwant the host name refused", res.exitCode, res.stderr)
			}
		})
	}
}
