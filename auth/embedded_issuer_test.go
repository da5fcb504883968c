package auth

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestOpenEmbeddedIssuerCreatesPrivateKeyFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are not enforced on windows")
	}
	dataDir := t.TempDir()
	iss, err := OpenEmbeddedIssuer(dataDir)
	if err != nil {
		t.Fatalf("OpenEmbeddedIssuer: %v", err)
	}
	keyPath := filepath.Join(dataDir, "issuer", "signing-key.pem")
	info, err := os.Stat(keyPath)
	if err != nil {
		t.Fatalf("stat key: %v", err)
	}
	if got := info.Mode().Perm(); got != 0o600 {
		t.Errorf("key mode = %#o, want 0600", got)
	}
	dirInfo, err := os.Stat(filepath.Dir(keyPath))
	if err != nil {
		t.Fatalf("stat dir: %v", err)
	}
	if got := dirInfo.Mode().Perm(); got != 0o700 {
		t.Errorf("issuer dir mode = %#o, want 0700", got)
	}
	entries, err := os.ReadDir(filepath.Dir(keyPath))
	if err != nil {
		t.Fatalf("read dir: %v", err)
	}
	if len(entries) != 1 {
		t.Errorf("issuer dir holds %d entries, want only the key (temp file left behind?)", len(entries))
	}
	if iss.IssuerURL() != "sqe-embedded-issuer" {
		t.Errorf("IssuerURL = %q", iss.IssuerURL())
	}
	if want := thumbprint(t, iss.PublicKey()); iss.KeyID() != want {
		t.Errorf("KeyID = %q, want RFC 7638 thumbprint %q", iss.KeyID(), want)
	}
}

func TestOpenEmbeddedIssuerReusesKey(t *testing.T) {
	dataDir := t.TempDir()
	first, err := OpenEmbeddedIssuer(dataDir)
	if err != nil {
		t.Fatalf("first open: %v", err)
	}
	token, err := first.Mint(TokenRequest{User: "alice"})
	if err != nil {
		t.Fatalf("Mint: %v", err)
	}
	second, err := OpenEmbeddedIssuer(dataDir)
	if err != nil {
		t.Fatalf("second open: %v", err)
	}
	if first.KeyID() != second.KeyID() {
		t.Fatalf("key id changed across opens: %q then %q", first.KeyID(), second.KeyID())
	}
	// A token minted before the reopen still verifies with the reopened key.
	v := newEmbeddedVerifier(t, Config{}, second)
	if _, err := v.Verify(t.Context(), token, "alice"); err != nil {
		t.Fatalf("token from first open refused after reopen: %v", err)
	}
}

func TestOpenEmbeddedIssuerConcurrentFirstUse(t *testing.T) {
	dataDir := t.TempDir()
	const openers = 8
	kids := make([]string, openers)
	errs := make([]error, openers)
	var wg sync.WaitGroup
	for i := range openers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			iss, err := OpenEmbeddedIssuer(dataDir)
			errs[i] = err
			if err == nil {
				kids[i] = iss.KeyID()
			}
		}()
	}
	wg.Wait()
	for i := range openers {
		if errs[i] != nil {
			t.Fatalf("opener %d: %v", i, errs[i])
		}
		if kids[i] != kids[0] {
			t.Fatalf("opener %d got key %q, opener 0 got %q: racing creators must converge on one key", i, kids[i], kids[0])
		}
	}
}

func TestOpenEmbeddedIssuerRefusesBadKeyFiles(t *testing.T) {
	valid := func(t *testing.T, path string) {
		if _, err := OpenEmbeddedIssuer(filepath.Dir(filepath.Dir(path))); err != nil {
			t.Fatalf("create key: %v", err)
		}
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		wantErr string
	}{
		{
			name: "readable by others",
			prepare: func(t *testing.T, path string) {
				if runtime.GOOS == "windows" {
					t.Skip("file modes are not enforced on windows")
				}
				valid(t, path)
				if err := os.Chmod(path, 0o644); err != nil {
					t.Fatal(err)
				}
			},
			wantErr: "mode",
		},
		{
			name: "not PEM",
			prepare: func(t *testing.T, path string) {
				writeKeyFile(t, path, []byte("not a key"))
			},
			wantErr: "no PEM block",
		},
		{
			name: "wrong PEM type",
			prepare: func(t *testing.T, path string) {
				writeKeyFile(t, path, []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"))
			},
			wantErr: "unexpected PEM block",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dataDir := t.TempDir()
			path := signingKeyPath(dataDir)
			tc.prepare(t, path)
			_, err := OpenEmbeddedIssuer(dataDir)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("OpenEmbeddedIssuer error = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func writeKeyFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestMintClaimsAndHeader(t *testing.T) {
	iss := newTestIssuer(t)
	now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	iss.now = func() time.Time { return now }

	tests := []struct {
		name       string
		req        TokenRequest
		wantAud    string
		wantExp    time.Time
		wantRoles  bool
		wantGroups bool
	}{
		{
			name:    "defaults",
			req:     TokenRequest{User: "alice"},
			wantAud: "sqe",
			wantExp: now.Add(time.Hour),
		},
		{
			name:       "roles groups audience ttl",
			req:        TokenRequest{User: "bob", Roles: []string{"analyst"}, Groups: []string{"sales"}, TTL: 5 * time.Minute, Audience: "other"},
			wantAud:    "other",
			wantExp:    now.Add(5 * time.Minute),
			wantRoles:  true,
			wantGroups: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			token, err := iss.Mint(tc.req)
			if err != nil {
				t.Fatalf("Mint: %v", err)
			}
			parts := strings.Split(token, ".")
			if len(parts) != 3 {
				t.Fatalf("token has %d parts", len(parts))
			}
			header := decodeSegment(t, parts[0])
			if header["alg"] != "ES256" || header["kid"] != iss.KeyID() || header["typ"] != "JWT" {
				t.Errorf("header = %v, want ES256 with kid %q", header, iss.KeyID())
			}
			claims := decodeSegment(t, parts[1])
			checks := map[string]any{
				"iss":                "sqe-embedded-issuer",
				"sub":                tc.req.User,
				"preferred_username": tc.req.User,
				"iat":                float64(now.Unix()),
				"nbf":                float64(now.Unix()),
				"exp":                float64(tc.wantExp.Unix()),
			}
			for k, want := range checks {
				if claims[k] != want {
					t.Errorf("claim %s = %v, want %v", k, claims[k], want)
				}
			}
			if aud := claims["aud"]; aud != tc.wantAud && !(isList(aud) && aud.([]any)[0] == tc.wantAud) {
				t.Errorf("aud = %v, want %q", aud, tc.wantAud)
			}
			if _, ok := claims["roles"]; ok != tc.wantRoles {
				t.Errorf("roles present = %v, want %v", ok, tc.wantRoles)
			}
			if _, ok := claims["groups"]; ok != tc.wantGroups {
				t.Errorf("groups present = %v, want %v", ok, tc.wantGroups)
			}
		})
	}
}

func isList(v any) bool { _, ok := v.([]any); return ok }

func TestMintRejectsBadRequests(t *testing.T) {
	iss := newTestIssuer(t)
	tests := []struct {
		name string
		req  TokenRequest
	}{
		{"empty user", TokenRequest{}},
		{"negative ttl", TokenRequest{User: "alice", TTL: -time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if token, err := iss.Mint(tc.req); err == nil {
				t.Fatalf("Mint succeeded with %q", token)
			}
		})
	}
}
