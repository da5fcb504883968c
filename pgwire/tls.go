package pgwire

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// selfSignedValidity is how long a generated certificate lasts. It is a
// development convenience (clients use sslmode=require, which does not
// verify), so a long life avoids surprise expiries.
const selfSignedValidity = 10 * 365 * 24 * time.Hour

// loadTLSConfig returns the server's TLS configuration, or nil when TLS is
// unavailable (no certificate configured and no data directory to create
// one in).
func loadTLSConfig(cfg Config) (*tls.Config, error) {
	certFile, keyFile := cfg.TLSCertFile, cfg.TLSKeyFile
	if certFile == "" {
		if cfg.DataDir == "" {
			return nil, nil
		}
		dir := filepath.Join(cfg.DataDir, "tls")
		certFile, keyFile = filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key")
		if err := ensureSelfSigned(dir, certFile, keyFile); err != nil {
			return nil, err
		}
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("load tls certificate %s: %w", certFile, err)
	}
	tc := &tls.Config{
		Certificates: []tls.Certificate{cert},
		MinVersion:   tls.VersionTLS12,
	}
	if cfg.TLSClientCAFile != "" {
		pool, err := LoadClientCAs(cfg.TLSClientCAFile)
		if err != nil {
			return nil, err
		}
		tc.ClientCAs = pool
		tc.ClientAuth = tls.VerifyClientCertIfGiven
		if cfg.RequireClientCert {
			tc.ClientAuth = tls.RequireAndVerifyClientCert
		}
	}
	return tc, nil
}

// LoadClientCAs reads a PEM file of CA certificates, the authorities
// client certificates must chain to. A file that cannot be read, holds
// something other than certificates or none at all is an error: a server
// that silently trusted no one (or anyone) would be worse than one that
// does not start.
func LoadClientCAs(path string) (*x509.CertPool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read client CA file: %w", err)
	}
	pool := x509.NewCertPool()
	n := 0
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break // text between and after blocks (bundles' comments) is ignored
		}
		if block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("client CA file %s: a %q block, want only CERTIFICATE blocks", path, block.Type)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("client CA file %s: certificate %d: %w", path, n+1, err)
		}
		pool.AddCert(cert)
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("client CA file %s holds no certificate", path)
	}
	return pool, nil
}

// ensureSelfSigned creates a self-signed certificate and key unless both
// already exist, so a restarted server keeps presenting the same one.
func ensureSelfSigned(dir, certFile, keyFile string) error {
	_, certErr := os.Stat(certFile)
	_, keyErr := os.Stat(keyFile)
	if certErr == nil && keyErr == nil {
		return nil
	}
	if (certErr != nil && !errors.Is(certErr, fs.ErrNotExist)) || (keyErr != nil && !errors.Is(keyErr, fs.ErrNotExist)) {
		return fmt.Errorf("stat tls files in %s: %w", dir, errors.Join(certErr, keyErr))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create tls directory: %w", err)
	}
	certPEM, keyPEM, err := generateSelfSigned()
	if err != nil {
		return err
	}
	// Key first: a certificate without its key would look complete to the
	// next start.
	if err := writeFileAtomic(keyFile, keyPEM); err != nil {
		return err
	}
	return writeFileAtomic(certFile, certPEM)
}

func generateSelfSigned() (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generate tls key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, nil, fmt.Errorf("generate certificate serial: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "localhost", Organization: []string{"SQE self-signed"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(selfSignedValidity),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("create self-signed certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("marshal tls key: %w", err)
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	return certPEM, keyPEM, nil
}

// writeFileAtomic writes data with mode 0600 under a temporary name and
// renames it into place, so a crash never leaves a half-written file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("chmod %s: %w", filepath.Base(path), err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("install %s: %w", filepath.Base(path), err)
	}
	return nil
}

// isLoopback reports whether addr is a loopback TCP address (or a Unix
// socket, which is local by construction).
func isLoopback(addr net.Addr) bool {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	case *net.UnixAddr:
		return true
	}
	return false
}

// tlsHandshakeError is a failed TLS handshake: a client certificate that
// is missing, expired or signed by another CA, a client that does not
// trust ours, or garbage. The connection ends without an answer, since
// the two sides share no channel to send one on.
type tlsHandshakeError struct{ err error }

func (e *tlsHandshakeError) Error() string { return "tls handshake: " + e.err.Error() }
func (e *tlsHandshakeError) Unwrap() error { return e.err }
