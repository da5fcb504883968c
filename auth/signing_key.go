package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

const (
	issuerDirName   = "issuer"
	signingKeyName  = "signing-key.pem"
	pemBlockType    = "PRIVATE KEY" // PKCS #8
	signingKeyMode  = 0o600
	issuerDirMode   = 0o700
	tempKeyPattern  = ".signing-key-*.tmp"
	keyGroupOrOther = 0o077
)

// signingKeyPath is where the embedded issuer keeps its key under dataDir.
func signingKeyPath(dataDir string) string {
	return filepath.Join(dataDir, issuerDirName, signingKeyName)
}

// loadOrCreateSigningKey returns the key at path, creating it on first use.
//
// Two servers may start on the same data directory at once, so creation
// never overwrites: the key is written in full to a temporary file, which
// is then hard-linked to the final name. Link fails if the name exists, in
// which case the other process won and its key is the one read back. A
// reader therefore never sees a half-written key.
func loadOrCreateSigningKey(path string) (*ecdsa.PrivateKey, error) {
	key, err := readSigningKey(path)
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := createSigningKey(path); err != nil {
		return nil, err
	}
	return readSigningKey(path)
}

func createSigningKey(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, issuerDirMode); err != nil {
		return fmt.Errorf("create issuer directory: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate signing key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return fmt.Errorf("encode signing key: %w", err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: pemBlockType, Bytes: der})

	tmp, err := os.CreateTemp(dir, tempKeyPattern) // CreateTemp uses mode 0600
	if err != nil {
		return fmt.Errorf("create temporary signing key: %w", err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	if err := writeAndSync(tmp, data); err != nil {
		return fmt.Errorf("write temporary signing key: %w", err)
	}
	if err := os.Chmod(tmpName, signingKeyMode); err != nil {
		return fmt.Errorf("restrict temporary signing key: %w", err)
	}
	if err := os.Link(tmpName, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("install signing key: %w", err)
	}
	return nil
}

func writeAndSync(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readSigningKey reads and parses the key at path. A key that others can
// read is refused rather than used: anyone who can read it can mint tokens
// for any user.
func readSigningKey(path string) (*ecdsa.PrivateKey, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("stat signing key: %w", err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&keyGroupOrOther != 0 {
		return nil, fmt.Errorf("signing key %s has mode %#o; it must not be accessible to group or others (want %#o)",
			filepath.Base(path), info.Mode().Perm(), signingKeyMode)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	return parseSigningKey(data)
}

func parseSigningKey(data []byte) (*ecdsa.PrivateKey, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("parse signing key: no PEM block")
	}
	var parsed any
	var err error
	switch block.Type {
	case pemBlockType:
		parsed, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		parsed, err = x509.ParseECPrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("parse signing key: unexpected PEM block %q", block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("parse signing key: %w", err)
	}
	key, ok := parsed.(*ecdsa.PrivateKey)
	if !ok || key.Curve != elliptic.P256() {
		return nil, errors.New("parse signing key: not an ECDSA P-256 key")
	}
	return key, nil
}
