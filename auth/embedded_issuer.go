package auth

import (
	"crypto"
	"crypto/ecdsa"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// EmbeddedIssuerURL is the iss claim of tokens from the embedded issuer.
// It is not a URL anyone can fetch: the verifier holds the key directly.
const EmbeddedIssuerURL = "sqe-embedded-issuer"

// DefaultTokenTTL is the lifetime of a minted token when none is asked for.
const DefaultTokenTTL = time.Hour

// EmbeddedIssuer is the development token issuer: a key pair in the data
// directory that signs ES256 JWTs for `sqe token`.
type EmbeddedIssuer struct {
	key    *ecdsa.PrivateKey
	keyID  string
	signer jose.Signer
	now    func() time.Time
}

// TokenRequest describes a token to mint.
type TokenRequest struct {
	User     string
	Roles    []string
	Groups   []string
	TTL      time.Duration // DefaultTokenTTL when zero
	Audience string        // DefaultAudience when empty
}

// OpenEmbeddedIssuer loads the signing key from
// <dataDir>/issuer/signing-key.pem, creating it on first use.
func OpenEmbeddedIssuer(dataDir string) (*EmbeddedIssuer, error) {
	if dataDir == "" {
		return nil, errors.New("open embedded issuer: data directory is not set")
	}
	key, err := loadOrCreateSigningKey(signingKeyPath(dataDir))
	if err != nil {
		return nil, fmt.Errorf("open embedded issuer: %w", err)
	}
	return newEmbeddedIssuer(key)
}

func newEmbeddedIssuer(key *ecdsa.PrivateKey) (*EmbeddedIssuer, error) {
	kid, err := keyID(&key.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("open embedded issuer: %w", err)
	}
	signer, err := jose.NewSigner(
		jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"),
	)
	if err != nil {
		return nil, fmt.Errorf("open embedded issuer: create signer: %w", err)
	}
	return &EmbeddedIssuer{key: key, keyID: kid, signer: signer, now: time.Now}, nil
}

// keyID is the RFC 7638 thumbprint of the public key, so the id is stable
// across restarts and changes exactly when the key does.
func keyID(pub crypto.PublicKey) (string, error) {
	jwk := jose.JSONWebKey{Key: pub}
	sum, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("key thumbprint: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(sum), nil
}

// IssuerURL returns the iss value of minted tokens.
func (i *EmbeddedIssuer) IssuerURL() string { return EmbeddedIssuerURL }

// KeyID returns the kid header of minted tokens.
func (i *EmbeddedIssuer) KeyID() string { return i.keyID }

// PublicKey returns the key that verifies minted tokens.
func (i *EmbeddedIssuer) PublicKey() crypto.PublicKey { return &i.key.PublicKey }

// mintedClaims are the claims beyond the registered ones; empty lists are
// left out of the token.
type mintedClaims struct {
	PreferredUsername string   `json:"preferred_username"`
	Roles             []string `json:"roles,omitempty"`
	Groups            []string `json:"groups,omitempty"`
}

// Mint signs a token for req.User.
func (i *EmbeddedIssuer) Mint(req TokenRequest) (string, error) {
	if req.User == "" {
		return "", errors.New("mint token: user is empty")
	}
	if req.TTL < 0 {
		return "", fmt.Errorf("mint token for %s: negative lifetime %s", req.User, req.TTL)
	}
	ttl := req.TTL
	if ttl == 0 {
		ttl = DefaultTokenTTL
	}
	aud := req.Audience
	if aud == "" {
		aud = DefaultAudience
	}
	now := i.now().Truncate(time.Second)
	registered := jwt.Claims{
		Issuer:    EmbeddedIssuerURL,
		Subject:   req.User,
		Audience:  jwt.Audience{aud},
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now),
		Expiry:    jwt.NewNumericDate(now.Add(ttl)),
	}
	extra := mintedClaims{PreferredUsername: req.User, Roles: req.Roles, Groups: req.Groups}
	token, err := jwt.Signed(i.signer).Claims(registered).Claims(extra).Serialize()
	if err != nil {
		return "", fmt.Errorf("mint token for %s: %w", req.User, err)
	}
	return token, nil
}
