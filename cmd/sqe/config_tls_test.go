package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/sqe-db/sqe/pgwire/tlstest"
)

func TestClientCertConfig(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "SQE test CA")
	caFile := ca.WriteFile(t, dir, "ca")
	_, keyFile := ca.Client(t, "alice").WriteFiles(t, dir, "alice")
	tests := []configCase{
		{name: "off by default", check: func(t *testing.T, c Config) {
			if p := c.PGWire; p.TLSClientCA != "" || p.RequireClientCert || p.ClientCertUserMatch {
				t.Errorf("pgwire %+v", p)
			}
		}},
		{name: "all three", file: "[pgwire]\ntls_client_ca = \"" + caFile + "\"\nrequire_client_cert = true\nclient_cert_user_match = true\n",
			check: func(t *testing.T, c Config) {
				if p := c.PGWire; p.TLSClientCA != caFile || !p.RequireClientCert || !p.ClientCertUserMatch {
					t.Errorf("pgwire %+v", p)
				}
			}},
		{name: "from the environment", env: []string{"SQE_PGWIRE__TLS_CLIENT_CA=" + caFile, "SQE_PGWIRE__REQUIRE_CLIENT_CERT=true"},
			check: func(t *testing.T, c Config) {
				if p := c.PGWire; p.TLSClientCA != caFile || !p.RequireClientCert || p.ClientCertUserMatch {
					t.Errorf("pgwire %+v", p)
				}
			}},
		{name: "required without a CA", env: []string{"SQE_PGWIRE__REQUIRE_CLIENT_CERT=true"}, wantErr: "[pgwire] require_client_cert needs tls_client_ca"},
		{name: "user match without required", env: []string{"SQE_PGWIRE__TLS_CLIENT_CA=" + caFile, "SQE_PGWIRE__CLIENT_CERT_USER_MATCH=true"},
			wantErr: "[pgwire] client_cert_user_match needs require_client_cert = true"},
		{name: "CA file missing", env: []string{"SQE_PGWIRE__TLS_CLIENT_CA=" + filepath.Join(dir, "absent.crt")}, wantErr: "[pgwire] tls_client_ca: read client CA file"},
		{name: "CA file is a key", env: []string{"SQE_PGWIRE__TLS_CLIENT_CA=" + keyFile}, wantErr: `[pgwire] tls_client_ca: client CA file ` + keyFile + `: a "PRIVATE KEY" block`},
	}
	runConfigCases(t, tests)
}

func TestProxyProtocolConfig(t *testing.T) {
	runConfigCases(t, []configCase{
		{name: "off by default", check: func(t *testing.T, c Config) {
			if p, err := c.proxyProtocolFrom(); err != nil || len(p) != 0 {
				t.Errorf("proxies %v, %v", p, err)
			}
		}},
		{name: "addresses and ranges", file: "[pgwire]\nproxy_protocol_from = [\"10.0.0.5\", \"192.168.0.0/16\", \"::ffff:10.9.9.9\", \"2001:db8::/32\"]\n",
			check: func(t *testing.T, c Config) {
				p, err := c.proxyProtocolFrom()
				if err != nil || fmt.Sprint(p) != "[10.0.0.5/32 192.168.0.0/16 10.9.9.9/32 2001:db8::/32]" {
					t.Errorf("proxies %v, %v", p, err)
				}
			}},
		{name: "from the environment", env: []string{`SQE_PGWIRE__PROXY_PROTOCOL_FROM=["10.1.0.0/16"]`},
			check: func(t *testing.T, c Config) {
				if p, err := c.proxyProtocolFrom(); err != nil || fmt.Sprint(p) != "[10.1.0.0/16]" {
					t.Errorf("proxies %v, %v", p, err)
				}
			}},
		{name: "a host name", file: "[pgwire]\nproxy_protocol_from = [\"lb.internal\"]\n", wantErr: `proxy_protocol_from: "lb.internal" is neither an address nor a CIDR range`},
		{name: "a bad range", file: "[pgwire]\nproxy_protocol_from = [\"10.0.0.0/33\"]\n", wantErr: "proxy_protocol_from"},
	})
}
