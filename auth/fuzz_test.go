package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// fuzzIssuer opens an embedded issuer in a temporary data directory whose
// key is derived from a fixed seed. Fuzzing runs the target in several
// processes that each open their own issuer; with a random key a token
// minted as a seed by one process would not verify in another, and the
// fuzzer would never reach the code after the signature check.
func fuzzIssuer(f *testing.F) *EmbeddedIssuer {
	f.Helper()
	seed := sha256.Sum256([]byte("sqe auth fuzz test key"))
	key, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), seed[:])
	if err != nil {
		f.Fatalf("derive key: %v", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		f.Fatalf("encode key: %v", err)
	}
	dataDir := f.TempDir()
	path := signingKeyPath(dataDir)
	if err := os.MkdirAll(filepath.Dir(path), issuerDirMode); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: pemBlockType, Bytes: der}), signingKeyMode); err != nil {
		f.Fatal(err)
	}
	iss, err := OpenEmbeddedIssuer(dataDir)
	if err != nil {
		f.Fatalf("OpenEmbeddedIssuer: %v", err)
	}
	return iss
}

// FuzzVerify feeds mutated tokens and startup users to an embedded-issuer
// Verifier. Verify must never panic, and it may succeed only for a compact
// JWS whose ES256 signature verifies with the issuer's public key, whose
// claims are the issuer's and current, and whose user is the startup user.
func FuzzVerify(f *testing.F) {
	iss := fuzzIssuer(f)
	v, err := NewVerifier(f.Context(), Config{GroupsClaim: "groups"}, iss, nil)
	if err != nil {
		f.Fatalf("NewVerifier: %v", err)
	}
	pub := iss.PublicKey().(*ecdsa.PublicKey)

	seeds := verifySeeds(f, iss)
	// The first seed is a freshly minted token: unless it passes, the
	// fuzzer never explores what lies behind the signature check.
	if _, err := v.Verify(f.Context(), seeds[0].token, seeds[0].user); err != nil {
		f.Fatalf("minted seed token does not verify: %v", err)
	}
	// Tokens over the size limit are refused before any parsing; as seeds
	// they would only make the fuzzer shuffle megabytes around.
	huge := seeds[0].token + "." + strings.Repeat("A", maxTokenBytes)
	if _, err := v.Verify(f.Context(), huge, seeds[0].user); err == nil || !strings.Contains(err.Error(), "exceeds") {
		f.Fatalf("token of %d bytes: err = %v, want the size limit", len(huge), err)
	}
	for _, s := range seeds {
		f.Add(s.token, s.user)
	}

	f.Fuzz(func(t *testing.T, token, user string) {
		started := time.Now()
		id, err := v.Verify(t.Context(), token, user)
		if err != nil {
			if !errors.Is(err, ErrAuthenticationFailed) {
				t.Fatalf("refusal does not wrap ErrAuthenticationFailed: %v", err)
			}
			// The reason is redacted; a segment with brackets could be
			// formed anew by the "[token]" replacements themselves.
			reason := strings.TrimPrefix(err.Error(), ErrAuthenticationFailed.Error())
			for _, seg := range strings.Split(token, ".") {
				if len(seg) >= minRedactLen && !strings.ContainsAny(seg, "[]") && strings.Contains(reason, seg) {
					t.Fatalf("refusal quotes part of the token: %v", err)
				}
			}
			return
		}
		if id.User != user {
			t.Fatalf("Verify accepted a token for user %q at startup user %q", id.User, user)
		}
		if id.Token != token {
			t.Fatal("identity does not carry the verified token")
		}
		if err := checkSignedByIssuer(token, pub, user, started); err != nil {
			t.Fatalf("Verify accepted a token that is not validly signed for %q: %v\ntoken: %q", user, err, token)
		}
	})
}

// checkSignedByIssuer verifies token independently of go-jose and go-oidc:
// three base64url segments and nothing else, an ES256 header, a signature
// over the first two segments that verifies with pub, and claims from the
// embedded issuer for the default audience, current at now, naming user.
func checkSignedByIssuer(token string, pub *ecdsa.PublicKey, user string, now time.Time) error {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return fmt.Errorf("%d segments, want 3", len(parts))
	}
	for i, p := range parts {
		if p == "" || strings.Trim(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return fmt.Errorf("segment %d is not base64url", i)
		}
	}
	enc := base64.RawURLEncoding
	rawHeader, err := enc.DecodeString(parts[0])
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	var header struct {
		Alg  string `json:"alg"`
		Crit []any  `json:"crit"`
	}
	if err := json.Unmarshal(rawHeader, &header); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if header.Alg != "ES256" || header.Crit != nil {
		return fmt.Errorf("header alg %q crit %v", header.Alg, header.Crit)
	}
	sig, err := enc.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return fmt.Errorf("signature of %d bytes: %v", len(sig), err)
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(pub, digest[:], r, s) {
		return errors.New("signature does not verify with the issuer key")
	}
	rawClaims, err := enc.DecodeString(parts[1])
	if err != nil {
		return fmt.Errorf("claims: %w", err)
	}
	var claims struct {
		Iss  string   `json:"iss"`
		Aud  audience `json:"aud"`
		Exp  *float64 `json:"exp"`
		Nbf  *float64 `json:"nbf"`
		User *string  `json:"preferred_username"`
		Sub  string   `json:"sub"`
	}
	if err := json.Unmarshal(rawClaims, &claims); err != nil {
		return fmt.Errorf("claims: %w", err)
	}
	switch {
	case claims.Iss != EmbeddedIssuerURL:
		return fmt.Errorf("iss %q", claims.Iss)
	case !slices.Contains(claims.Aud, DefaultAudience):
		return fmt.Errorf("aud %q", claims.Aud)
	case claims.Exp == nil || time.Unix(int64(*claims.Exp), 0).Before(now.Add(-time.Second)):
		return errors.New("expired or no exp")
	case claims.Nbf != nil && time.Unix(int64(*claims.Nbf), 0).After(time.Now().Add(time.Second)):
		return errors.New("not yet valid")
	case claims.User != nil && *claims.User != user, claims.User == nil && claims.Sub != user:
		return errors.New("claims name another user")
	}
	return nil
}

// audience decodes aud, which is a string or an array of strings.
type audience []string

func (a *audience) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*a = audience{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*a = many
	return nil
}

// noneAlg builds an "alg": "none" token by hand; go-jose refuses to.
func noneAlg(f *testing.F, claims map[string]any) string {
	f.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		f.Fatal(err)
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc.EncodeToString(payload) + "."
}

type verifySeed struct{ token, user string }

// verifySeeds are the starting points of FuzzVerify: valid tokens and the
// forgeries and malformations an attacker would try first.
func verifySeeds(f *testing.F, iss *EmbeddedIssuer) []verifySeed {
	f.Helper()
	now := time.Now()
	good := validClaims("alice", now)
	attacker, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		f.Fatal(err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(iss.PublicKey())
	if err != nil {
		f.Fatal(err)
	}
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})

	sign := func(alg jose.SignatureAlgorithm, key any, headers map[jose.HeaderKey]any, claims any) string {
		opts := (&jose.SignerOptions{}).WithType("JWT")
		for k, v := range headers {
			opts = opts.WithHeader(k, v)
		}
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
		if err != nil {
			f.Fatalf("new signer: %v", err)
		}
		var payload []byte
		if s, ok := claims.(string); ok {
			payload = []byte(s)
		} else if payload, err = json.Marshal(claims); err != nil {
			f.Fatal(err)
		}
		jws, err := signer.Sign(payload)
		if err != nil {
			f.Fatalf("sign: %v", err)
		}
		out, err := jws.CompactSerialize()
		if err != nil {
			f.Fatal(err)
		}
		return out
	}
	ownKey := iss.key
	minted, err := iss.Mint(TokenRequest{User: "alice", Roles: []string{"analyst"}, Groups: []string{"sales"}})
	if err != nil {
		f.Fatalf("Mint: %v", err)
	}
	parts := strings.Split(minted, ".")
	foreignJWK := jose.JSONWebKey{Key: &attacker.PublicKey, KeyID: "attacker"}
	inner := sign(jose.ES256, attacker, nil, good)
	jsonForm := fmt.Sprintf(`{"protected":%q,"payload":%q,"signature":%q}`, parts[0], parts[1], parts[2])

	return []verifySeed{
		{minted, "alice"},
		{minted, "bob"},
		{minted, ""},
		{sign(jose.ES256, ownKey, nil, good), "alice"},
		{sign(jose.ES256, ownKey, nil, with(good, map[string]any{"preferred_username": nil})), "alice"},
		{sign(jose.ES256, ownKey, nil, with(good, map[string]any{"preferred_username": 7})), "alice"},
		{sign(jose.ES256, ownKey, nil, with(good, map[string]any{"roles": map[string]any{"x": 1}})), "alice"},
		{sign(jose.ES256, ownKey, nil, with(good, map[string]any{"exp": now.Add(-time.Hour).Unix()})), "alice"},
		{sign(jose.ES256, ownKey, nil, with(good, map[string]any{"iss": "https://evil.example"})), "alice"},
		{sign(jose.ES256, ownKey, nil, with(good, map[string]any{"aud": []string{"other", "sqe"}})), "alice"},
		{sign(jose.ES256, ownKey, map[jose.HeaderKey]any{"kid": "elsewhere"}, good), "alice"},
		// Forgeries: no signature, symmetric keys, foreign keys advertised
		// through headers the verifier must ignore.
		{noneAlg(f, good), "alice"},
		{parts[0] + "." + parts[1] + ".", "alice"},
		{sign(jose.HS256, pubPEM, nil, good), "alice"},
		{sign(jose.HS256, pubDER, nil, good), "alice"},
		{sign(jose.HS256, []byte("a shared secret of thirty-two by"), map[jose.HeaderKey]any{"kid": iss.KeyID()}, good), "alice"},
		{sign(jose.ES256, attacker, map[jose.HeaderKey]any{"jku": "http://127.0.0.1:1/jwks.json", "kid": "attacker"}, good), "alice"},
		{sign(jose.ES256, attacker, map[jose.HeaderKey]any{"x5u": "http://127.0.0.1:1/cert.pem", "kid": iss.KeyID()}, good), "alice"},
		{sign(jose.ES256, attacker, map[jose.HeaderKey]any{"jwk": foreignJWK}, good), "alice"},
		{sign(jose.RS256, rsaKey, nil, good), "alice"},
		{parts[0] + "." + parts[1] + "." + strings.Split(inner, ".")[2], "alice"},
		// Nested JWT: a signed token whose payload is another token.
		{sign(jose.ES256, ownKey, map[jose.HeaderKey]any{"cty": "JWT"}, inner), "alice"},
		{sign(jose.ES256, attacker, map[jose.HeaderKey]any{"cty": "JWT"}, minted), "alice"},
		// Malformed: truncated, reshaped, huge.
		{minted[:len(minted)/2], "alice"},
		{minted[:len(minted)-1], "alice"},
		{parts[0] + "." + parts[1], "alice"},
		{minted + "." + parts[2], "alice"},
		{" " + minted + "\n", "alice"},
		{jsonForm, "alice"},
		{"not-a-jwt", "alice"},
		{"..", "alice"},
		{sign(jose.ES256, ownKey, nil, with(good, map[string]any{"groups": strings.Split(strings.Repeat("g,", 4096), ",")})), "alice"},
	}
}
