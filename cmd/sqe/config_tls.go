package main

import (
	"fmt"

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
