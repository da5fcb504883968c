package compattests

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// These mirror the embedded issuer's contract as documented for clients:
// ES256 tokens with iss "sqe-embedded-issuer", aud "sqe" and the key's
// RFC 7638 thumbprint as kid.
const (
	embeddedIssuer   = "sqe-embedded-issuer"
	embeddedAudience = "sqe"
)

// claims is a token payload. Times are Unix seconds; zero leaves the claim
// out.
type claims struct {
	Issuer    string   `json:"iss,omitempty"`
	Subject   string   `json:"sub,omitempty"`
	Audience  []string `json:"aud,omitempty"`
	Expiry    int64    `json:"exp,omitempty"`
	NotBefore int64    `json:"nbf,omitempty"`
	IssuedAt  int64    `json:"iat,omitempty"`
	Username  string   `json:"preferred_username,omitempty"`
	Groups    []string `json:"groups,omitempty"`
}

// validClaims are claims the server accepts for user: issued now, valid
// for an hour.
func validClaims(user string) claims {
	now := time.Now().Unix()
	return claims{
		Issuer:    embeddedIssuer,
		Subject:   user,
		Audience:  []string{embeddedAudience},
		Expiry:    now + 3600,
		NotBefore: now,
		IssuedAt:  now,
		Username:  user,
	}
}

// tokenForge signs tokens the way an attacker or a misconfigured issuer
// would, using the issuer key read from a server's data directory.
type tokenForge struct {
	key *ecdsa.PrivateKey
	kid string
	// publicPEM is the issuer's public key as PEM, the bytes an
	// algorithm-confusion attack uses as an HMAC secret.
	publicPEM []byte
}

// newTokenForge reads <dataDir>/issuer/signing-key.pem (PKCS #8 PEM).
func newTokenForge(t *testing.T, dataDir string) *tokenForge {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dataDir, "issuer", "signing-key.pem"))
	if err != nil {
		t.Fatalf("read issuer key: %v", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		t.Fatalf("issuer key: want a PKCS #8 PEM block")
	}
	parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatalf("parse issuer key: %v", err)
	}
	key, ok := parsed.(*ecdsa.PrivateKey)
	if !ok {
		t.Fatalf("issuer key is %T, want ECDSA", parsed)
	}
	sum, err := (&jose.JSONWebKey{Key: &key.PublicKey}).Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatalf("issuer key thumbprint: %v", err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatalf("encode issuer public key: %v", err)
	}
	return &tokenForge{
		key:       key,
		kid:       base64.RawURLEncoding.EncodeToString(sum),
		publicPEM: pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}),
	}
}

// signES256 signs c with the issuer key.
func (f *tokenForge) signES256(t *testing.T, c claims) string {
	t.Helper()
	return signJWS(t, jose.ES256, f.key, f.kid, c)
}

// signOtherKey signs c with a fresh ECDSA key under the issuer's kid.
func (f *tokenForge) signOtherKey(t *testing.T, c claims) string {
	t.Helper()
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("generate key: %v", err)
	}
	return signJWS(t, jose.ES256, other, f.kid, c)
}

// signHS256WithPublicKey signs c with HMAC-SHA256 keyed by the issuer's
// public key PEM.
func (f *tokenForge) signHS256WithPublicKey(t *testing.T, c claims) string {
	t.Helper()
	return signJWS(t, jose.HS256, f.publicPEM, f.kid, c)
}

// unsigned builds an `alg: none` token: header and payload, empty
// signature.
func (f *tokenForge) unsigned(t *testing.T, c claims) string {
	t.Helper()
	header, err := json.Marshal(map[string]string{"alg": "none", "typ": "JWT", "kid": f.kid})
	if err != nil {
		t.Fatalf("encode header: %v", err)
	}
	payload, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("encode claims: %v", err)
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(header) + "." + enc.EncodeToString(payload) + "."
}

func signJWS(t *testing.T, alg jose.SignatureAlgorithm, key any, kid string, c claims) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatalf("new %s signer: %v", alg, err)
	}
	payload, err := json.Marshal(c)
	if err != nil {
		t.Fatalf("encode claims: %v", err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatalf("sign %s: %v", alg, err)
	}
	token, err := jws.CompactSerialize()
	if err != nil {
		t.Fatalf("serialize %s token: %v", alg, err)
	}
	return token
}

// tokenHeader decodes a compact token's protected header.
func tokenHeader(t *testing.T, token string) map[string]any {
	t.Helper()
	part, _, _ := strings.Cut(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		t.Fatalf("decode token header: %v", err)
	}
	var h map[string]any
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatalf("parse token header: %v", err)
	}
	return h
}
