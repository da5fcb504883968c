package main

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/sqe-db/sqe/pgwire"
)

// validateClientCerts checks [pgwire] tls_client_ca, require_client_cert
// and client_cert_user_match: each needs the one before it, and the CA
// file must be readable and hold certificates now rather than when the
// first client arrives.
func (cfg Config) validateClientCerts() error {
	p := cfg.PGWire
	if p.RequireClientCert && p.TLSClientCA == "" {
		return fmt.Errorf("config: [pgwire] require_client_cert needs tls_client_ca, the CA file client certificates are verified against")
	}
	if p.ClientCertUserMatch && !p.RequireClientCert {
		return fmt.Errorf("config: [pgwire] client_cert_user_match needs require_client_cert = true")
	}
	if p.TLSClientCA != "" {
		if _, err := pgwire.LoadClientCAs(p.TLSClientCA); err != nil {
			return fmt.Errorf("config: [pgwire] tls_client_ca: %w", err)
		}
	}
	return nil
}

// proxyProtocolFrom reads [pgwire] proxy_protocol_from: each entry an
// address ("10.0.0.5", one host) or a CIDR range ("10.0.0.0/24").
func (cfg Config) proxyProtocolFrom() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range cfg.PGWire.ProxyProtocolFrom {
		v = strings.TrimSpace(v)
		if strings.Contains(v, "/") {
			p, err := netip.ParsePrefix(v)
			if err != nil {
				return nil, fmt.Errorf("config: [pgwire] proxy_protocol_from: %w", err)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(v)
		if err != nil {
			return nil, fmt.Errorf("config: [pgwire] proxy_protocol_from: %q is neither an address nor a CIDR range", v)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}
