package pgwire

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pires/go-proxyproto"
)

// proxiedDial dials as a load balancer would for a client at source: the
// PROXY protocol header (version 1 or 2) first, then the client's bytes.
func proxiedDial(version byte, source string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		src, err := net.ResolveTCPAddr("tcp", source)
		if err != nil {
			nc.Close()
			return nil, err
		}
		if _, err := proxyproto.HeaderProxyFromAddrs(version, src, nc.RemoteAddr()).WriteTo(nc); err != nil {
			nc.Close()
			return nil, err
		}
		return nc, nil
	}
}

// TestProxyProtocol: behind a load balancer named in ProxyProtocolFrom
// the client's address is the PROXY header's, whichever version; a
// balancer's connection without a header is closed; and a header from
// anyone else is never read, so it cannot claim an address.
func TestProxyProtocol(t *testing.T) {
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	connectVia := func(t *testing.T, ts *testServer, sslmode string, dial func(context.Context, string, string) (net.Conn, error)) (*pgx.Conn, error) {
		t.Helper()
		cfg := ts.pgxConfig(t, goodToken, sslmode)
		if dial != nil {
			cfg.DialFunc = dial
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return pgx.ConnectConfig(ctx, cfg)
	}

	t.Run("the header's client, v1 and v2, plaintext and TLS", func(t *testing.T) {
		ts := startServer(t, func(c *Config) { c.DataDir = t.TempDir(); c.ProxyProtocolFrom = loopback })
		for _, tc := range []struct {
			version        byte
			source, ssl    string
			wantRemote     string
			wantPlainFatal bool
		}{
			{1, "127.0.0.9:4001", "disable", "127.0.0.9:4001", false},
			{2, "127.0.0.9:4002", "disable", "127.0.0.9:4002", false},
			{2, "[::1]:4003", "disable", "[::1]:4003", false},
			{2, "203.0.113.7:4004", "require", "203.0.113.7:4004", false},
			// A client elsewhere may not send its token in plaintext,
			// though the balancer is on loopback.
			{1, "203.0.113.7:4005", "disable", "", true},
			{2, "203.0.113.7:4006", "disable", "", true},
		} {
			c, err := connectVia(t, ts, tc.ssl, proxiedDial(tc.version, tc.source))
			if tc.wantPlainFatal {
				var pe *pgconn.PgError
				if !errors.As(err, &pe) || pe.Code != "28000" || !strings.Contains(pe.Message, "only from loopback") {
					t.Errorf("v%d from %s in plaintext: %v, want FATAL 28000", tc.version, tc.source, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("v%d from %s: %v", tc.version, tc.source, err)
			}
			if _, st := ts.factory.last(t); st.RemoteAddr.String() != tc.wantRemote || st.TLS != (tc.ssl == "require") {
				t.Errorf("v%d from %s: session from %v (TLS %v), want %s", tc.version, tc.source, st.RemoteAddr, st.TLS, tc.wantRemote)
			}
			c.Close(context.Background())
		}
	})

	t.Run("a balancer's connection without a header is closed", func(t *testing.T) {
		ts := startServer(t, func(c *Config) { c.DataDir = t.TempDir(); c.ProxyProtocolFrom = loopback })
		if _, err := connectVia(t, ts, "disable", nil); err == nil {
			t.Fatal("a connection from the balancer without a PROXY header logged in")
		}
		if !ts.logs.waitFor("without a valid header") {
			t.Errorf("the refusal is not logged:\n%s", ts.logs.String())
		}
	})

	t.Run("a header from an address not named is not read", func(t *testing.T) {
		ts := startServer(t, func(c *Config) {
			c.DataDir = t.TempDir()
			c.ProxyProtocolFrom = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
		})
		if _, err := connectVia(t, ts, "disable", proxiedDial(2, "127.0.0.9:4007")); err == nil {
			t.Fatal("a PROXY header from an address not named was accepted")
		}
		// The same client without a header is an ordinary client.
		ts.connect(t)
		if _, st := ts.factory.last(t); !strings.HasPrefix(st.RemoteAddr.String(), "127.0.0.1:") {
			t.Errorf("plain client's session from %v", st.RemoteAddr)
		}
	})

	t.Run("a missing header ends with the startup timeout", func(t *testing.T) {
		ts := startServer(t, func(c *Config) {
			c.DataDir = t.TempDir()
			c.ProxyProtocolFrom = loopback
			c.StartupTimeout = 300 * time.Millisecond
		})
		nc, err := net.DialTimeout("tcp", ts.addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		// A balancer that connects and sends nothing.
		_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		_, err = pgproto3.NewFrontend(pgproto3.NewChunkReader(nc), nc).Receive()
		if err == nil || time.Since(start) > 3*time.Second {
			t.Errorf("no header: %v after %s, want the connection closed at the startup timeout", err, time.Since(start))
		}

	})
}
