package auth

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// trickTarget is a verifier under attack and what an attacker knows of it:
// the id and public half of its signing key, and a valid token it accepts
// for alice.
type trickTarget struct {
	v      *Verifier
	kid    string
	pubDER []byte
	pubJWK []byte
	valid  string
	claims map[string]any // valid claims for alice
	// sign signs with the issuer's own key (for tricks in the payload,
	// not the signature).
	sign func(headers map[jose.HeaderKey]any, payload []byte) string
}

// TestHostileTokens tries each trick of the trade against an embedded and
// an external (OIDC discovery + JWKS) verifier: every one is refused with
// ErrAuthenticationFailed, none panics, and none makes the verifier fetch
// anything from a URL the token names.
func TestHostileTokens(t *testing.T) {
	var attackerHits atomic.Int32
	attacker := newECKey(t)
	attackerJWKS := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &attacker.PublicKey, KeyID: "attacker", Algorithm: "ES256", Use: "sig"}}}
	attackerCert := selfSignedCert(t, attacker)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attackerHits.Add(1)
		if strings.HasSuffix(r.URL.Path, ".pem") {
			_ = pem.Encode(w, &pem.Block{Type: "CERTIFICATE", Bytes: attackerCert})
			return
		}
		writeJSON(w, attackerJWKS)
	}))
	t.Cleanup(evil.Close)

	for _, target := range []struct {
		name string
		make func(t *testing.T) trickTarget
	}{{"embedded", embeddedTarget}, {"external", externalTarget}} {
		t.Run(target.name, func(t *testing.T) {
			tt := target.make(t)
			if _, err := tt.v.Verify(t.Context(), tt.valid, "alice"); err != nil {
				t.Fatalf("the valid token is refused: %v", err)
			}
			claims := func(changes map[string]any) []byte {
				b, err := json.Marshal(with(tt.claims, changes))
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			good := claims(nil)
			// The tricks below signed with the issuer's key fail for the
			// trick, not the signing.
			if _, err := tt.v.Verify(t.Context(), tt.sign(nil, good), "alice"); err != nil {
				t.Fatalf("a token signed by the issuer's key is refused: %v", err)
			}
			byAttacker := func(headers map[jose.HeaderKey]any, payload []byte) string {
				return signWithHeaders(t, jose.ES256, attacker, headers, payload)
			}
			validParts := strings.Split(tt.valid, ".")
			huge := byAttacker(nil, claims(map[string]any{"groups": strings.Split(strings.Repeat("g,", 150000), ",")}))
			if len(huge) > maxTokenBytes {
				t.Fatal("the huge-claims token is over the size limit: it would not reach the signature check")
			}
			deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)

			tricks := []struct {
				name  string
				token string
			}{
				{"alg none", rawJWT(map[string]any{"alg": "none", "typ": "JWT"}, good, "")},
				{"alg None", rawJWT(map[string]any{"alg": "None"}, good, "")},
				{"alg NONE with the valid signature", rawJWT(map[string]any{"alg": "NONE", "kid": tt.kid}, good, validParts[2])},
				{"valid header and claims, signature dropped", validParts[0] + "." + validParts[1] + "."},
				{"HS256 with the public key as DER", signWithHeaders(t, jose.HS256, tt.pubDER, map[jose.HeaderKey]any{"kid": tt.kid}, good)},
				{"HS256 with the public key as PEM", signWithHeaders(t, jose.HS256,
					pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: tt.pubDER}), map[jose.HeaderKey]any{"kid": tt.kid}, good)},
				{"HS256 with the public key as JWK", signWithHeaders(t, jose.HS256, tt.pubJWK, map[jose.HeaderKey]any{"kid": tt.kid}, good)},
				{"HS512 with the public key as DER", signWithHeaders(t, jose.HS512, tt.pubDER, nil, good)},
				{"kid of the issuer's key, signed by another", byAttacker(map[jose.HeaderKey]any{"kid": tt.kid}, good)},
				{"kid pointing at a URL", byAttacker(map[jose.HeaderKey]any{"kid": evil.URL + "/jwks"}, good)},
				{"kid pointing at a file", byAttacker(map[jose.HeaderKey]any{"kid": "../../../../../../dev/null"}, good)},
				{"kid with SQL in it", byAttacker(map[jose.HeaderKey]any{"kid": "x' UNION SELECT 'key"}, good)},
				{"jku naming the attacker's JWKS", byAttacker(map[jose.HeaderKey]any{"jku": evil.URL + "/jwks.json", "kid": "attacker"}, good)},
				{"x5u naming the attacker's certificate", byAttacker(map[jose.HeaderKey]any{"x5u": evil.URL + "/cert.pem", "kid": tt.kid}, good)},
				{"jwk embedding the attacker's key", byAttacker(map[jose.HeaderKey]any{"jwk": attackerJWKS.Keys[0]}, good)},
				{"x5c embedding the attacker's certificate", byAttacker(map[jose.HeaderKey]any{"x5c": []string{base64.StdEncoding.EncodeToString(attackerCert)}}, good)},
				{"nested: the valid token signed again by another key", byAttacker(map[jose.HeaderKey]any{"cty": "JWT", "kid": tt.kid}, []byte(tt.valid))},
				{"nested: the valid token inside an unsigned one", rawJWT(map[string]any{"alg": "none", "cty": "JWT"}, []byte(tt.valid), "")},
				{"nested: a forged token signed by the issuer's key", tt.sign(map[jose.HeaderKey]any{"cty": "JWT"},
					[]byte(byAttacker(nil, good)))},
				{"unknown critical header", tt.sign(map[jose.HeaderKey]any{"crit": []string{"exp-policy"}, "exp-policy": "ignore"}, good)},
				{"JWE compact form", validParts[0] + "." + validParts[1] + ".." + validParts[2] + "."},
				{"JWS JSON serialisation", `{"protected":"` + validParts[0] + `","payload":"` + validParts[1] + `","signature":"` + validParts[2] + `"}`},
				{"huge claims by another key", huge},
				{"claims over the size limit", byAttacker(nil, claims(map[string]any{"pad": strings.Repeat("x", maxTokenBytes)}))},
				{"deeply nested roles by another key", byAttacker(nil, []byte(strings.Replace(string(good), "{", `{"roles":`+deep+`,`, 1)))},
				{"deeply nested roles by the issuer's key", tt.sign(nil, []byte(strings.Replace(string(good), "{", `{"roles":`+deep+`,`, 1)))},
				{"claims that are not an object", tt.sign(nil, []byte(`["alice"]`))},
				{"claims that are not JSON", tt.sign(nil, []byte("preferred_username=alice"))},
			}
			for _, tr := range tricks {
				t.Run(tr.name, func(t *testing.T) {
					id, err := tt.v.Verify(t.Context(), tr.token, "alice")
					if err == nil {
						t.Fatalf("accepted: %+v", id)
					}
					if !errors.Is(err, ErrAuthenticationFailed) {
						t.Fatalf("refusal %v does not wrap ErrAuthenticationFailed", err)
					}
					if id.User != "" || id.Token != "" {
						t.Fatalf("refusal returned an identity %v", id)
					}
					assertNoTokenIn(t, err.Error(), tr.token)
				})
			}
			if n := attackerHits.Load(); n != 0 {
				t.Fatalf("the verifier fetched %d times from a URL a token named", n)
			}
		})
	}
}

func embeddedTarget(t *testing.T) trickTarget {
	iss := newTestIssuer(t)
	valid, err := iss.Mint(TokenRequest{User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(iss.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	pubJWK, err := json.Marshal(jose.JSONWebKey{Key: iss.PublicKey(), KeyID: iss.KeyID()})
	if err != nil {
		t.Fatal(err)
	}
	return trickTarget{
		v:      newEmbeddedVerifier(t, Config{}, iss),
		kid:    iss.KeyID(),
		pubDER: pubDER,
		pubJWK: pubJWK,
		valid:  valid,
		claims: validClaims("alice", time.Now()),
		sign: func(headers map[jose.HeaderKey]any, payload []byte) string {
			return signWithHeaders(t, jose.ES256, jose.JSONWebKey{Key: iss.key, KeyID: iss.KeyID()}, headers, payload)
		},
	}
}

func externalTarget(t *testing.T) trickTarget {
	l := listenLoopback(t, "127.0.0.1:0")
	p := newFakeProvider(t, "http://"+l.Addr().String())
	signer := newRSASigner(t, "key-1")
	p.publish(signer)
	startProvider(t, l, p)
	v, err := NewVerifier(t.Context(), Config{Issuer: p.issuer}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&signer.key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pubJWK, err := json.Marshal(jose.JSONWebKey{Key: &signer.key.PublicKey, KeyID: signer.kid})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claims := map[string]any{
		"iss": p.issuer, "sub": "id-alice", "preferred_username": "alice", "aud": "sqe",
		"iat": now.Unix(), "exp": now.Add(10 * time.Minute).Unix(),
	}
	return trickTarget{
		v:      v,
		kid:    signer.kid,
		pubDER: pubDER,
		pubJWK: pubJWK,
		valid:  p.token(signer, "alice", nil),
		claims: claims,
		sign: func(headers map[jose.HeaderKey]any, payload []byte) string {
			return signWithHeaders(t, jose.RS256, jose.JSONWebKey{Key: signer.key, KeyID: signer.kid}, headers, payload)
		},
	}
}

// signWithHeaders signs payload as a compact JWS with extra protected
// headers.
func signWithHeaders(t *testing.T, alg jose.SignatureAlgorithm, key any, headers map[jose.HeaderKey]any, payload []byte) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("JWT")
	for k, v := range headers {
		opts = opts.WithHeader(k, v)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatalf("new signer: %v", err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	out, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rawJWT assembles a compact token from a header, a payload and a
// signature segment, for headers no signer would write.
func rawJWT(header map[string]any, payload []byte, sig string) string {
	h, _ := json.Marshal(header)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(h) + "." + enc.EncodeToString(payload) + "." + sig
}

// selfSignedCert is a DER certificate for key, as an attacker would make.
func selfSignedCert(t *testing.T, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "issuer"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return der
}
