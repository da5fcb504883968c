package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// newTestIssuer opens an embedded issuer in a fresh data directory.
func newTestIssuer(t *testing.T) *EmbeddedIssuer {
	t.Helper()
	iss, err := OpenEmbeddedIssuer(t.TempDir())
	if err != nil {
		t.Fatalf("OpenEmbeddedIssuer: %v", err)
	}
	return iss
}

// newEmbeddedVerifier builds a Verifier trusting iss with cfg.
func newEmbeddedVerifier(t *testing.T, cfg Config, iss *EmbeddedIssuer) *Verifier {
	t.Helper()
	v, err := NewVerifier(t.Context(), cfg, iss, nil)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	return v
}

// signJWT signs claims with key under alg, setting kid when non-empty.
// Tests use it to craft tokens the embedded issuer would never mint.
func signJWT(t *testing.T, alg jose.SignatureAlgorithm, key any, kid string, claims map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatalf("marshal claims: %v", err)
	}
	signingKey := jose.SigningKey{Algorithm: alg, Key: key}
	if kid != "" {
		signingKey.Key = jose.JSONWebKey{Key: key, KeyID: kid}
	}
	signer, err := jose.NewSigner(signingKey, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatalf("new signer: %v", err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	token, err := jws.CompactSerialize()
	if err != nil {
		t.Fatalf("serialize: %v", err)
	}
	return token
}

// unsignedJWT builds an "alg: none" token by hand; go-jose refuses to.
func unsignedJWT(t *testing.T, claims map[string]any) string {
	t.Helper()
	header, _ := json.Marshal(map[string]string{"alg": "none", "typ": "JWT"})
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatalf("marshal claims: %v", err)
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(header) + "." + enc.EncodeToString(payload) + "."
}

// validClaims are claims the embedded verifier accepts for user, relative
// to now.
func validClaims(user string, now time.Time) map[string]any {
	return map[string]any{
		"iss":                EmbeddedIssuerURL,
		"sub":                user,
		"preferred_username": user,
		"aud":                DefaultAudience,
		"iat":                now.Unix(),
		"nbf":                now.Unix(),
		"exp":                now.Add(time.Hour).Unix(),
	}
}

// with returns a copy of claims with the given changes; a nil value
// deletes the claim.
func with(claims map[string]any, changes map[string]any) map[string]any {
	out := make(map[string]any, len(claims)+len(changes))
	for k, v := range claims {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

func newECKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("generate key: %v", err)
	}
	return key
}

// decodeSegment decodes one base64url part of a compact JWT.
func decodeSegment(t *testing.T, seg string) map[string]any {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		t.Fatalf("decode segment: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("unmarshal segment: %v", err)
	}
	return m
}

// thumbprint is the RFC 7638 key id of pub, computed independently of keyID.
func thumbprint(t *testing.T, pub crypto.PublicKey) string {
	t.Helper()
	sum, err := (&jose.JSONWebKey{Key: pub}).Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatalf("thumbprint: %v", err)
	}
	return base64.RawURLEncoding.EncodeToString(sum)
}

func newP384Key(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatalf("generate key: %v", err)
	}
	return key
}
