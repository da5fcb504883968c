package auth

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// maxTokenBytes bounds the work done on a password. Real tokens with large
// group lists run to tens of kilobytes; nothing legitimate comes near this.
const maxTokenBytes = 1 << 20

// externalSigningAlgs lists the asymmetric algorithms accepted from an
// external issuer. Symmetric (HS*) and "none" are never accepted: the
// verifier holds only public keys, and a token "signed" with one of those
// could be forged by anyone who has them.
func externalSigningAlgs() []string {
	return []string{
		oidc.RS256, oidc.RS384, oidc.RS512,
		oidc.ES256, oidc.ES384, oidc.ES512,
		oidc.PS256, oidc.PS384, oidc.PS512,
		oidc.EdDSA,
	}
}

// tokenVerifierSource yields the go-oidc verifier for the configured issuer.
type tokenVerifierSource interface {
	tokenVerifier(ctx context.Context) (*oidc.IDTokenVerifier, error)
}

// staticSource is the embedded issuer's verifier, which needs no discovery.
type staticSource struct{ verifier *oidc.IDTokenVerifier }

func (s staticSource) tokenVerifier(context.Context) (*oidc.IDTokenVerifier, error) {
	return s.verifier, nil
}

// Verifier checks login tokens and maps them to identities. It is safe for
// concurrent use.
type Verifier struct {
	cfg    Config
	logger *slog.Logger
	now    func() time.Time
	source tokenVerifierSource
}

// NewVerifier builds a Verifier for cfg. With cfg.Issuer empty it trusts
// embedded, which must then be non-nil. With an issuer URL it runs OIDC
// discovery; if the provider is unreachable the Verifier is still returned
// and discovery is retried by later logins, which fail until it succeeds.
func NewVerifier(ctx context.Context, cfg Config, embedded *EmbeddedIssuer, logger *slog.Logger) (*Verifier, error) {
	cfg = cfg.withDefaults()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	v := &Verifier{cfg: cfg, logger: logger, now: time.Now}
	oidcConfig := &oidc.Config{
		ClientID: cfg.Audience,
		// go-oidc checks exp against this clock; shifting it back by the skew
		// tolerates an expiry that is up to ClockSkew in the past.
		Now: func() time.Time { return v.now().Add(-v.cfg.ClockSkew) },
	}

	if cfg.embedded() {
		if embedded == nil {
			return nil, errors.New("new verifier: no issuer configured and no embedded issuer given")
		}
		oidcConfig.SupportedSigningAlgs = []string{oidc.ES256}
		keys := &oidc.StaticKeySet{PublicKeys: []crypto.PublicKey{embedded.PublicKey()}}
		v.source = staticSource{verifier: oidc.NewVerifier(embedded.IssuerURL(), keys, oidcConfig)}
		return v, nil
	}

	if err := checkIssuerURL(cfg.Issuer); err != nil {
		return nil, fmt.Errorf("new verifier: %w", err)
	}
	oidcConfig.SupportedSigningAlgs = externalSigningAlgs()
	d := newDiscovery(cfg.Issuer, oidcConfig, logger)
	d.maxAge = cfg.KeysMaxAge
	v.source = d
	// A failure here is logged by discover and retried on the next login.
	_, _ = d.discover(ctx)
	return v, nil
}

func checkIssuerURL(issuer string) error {
	u, err := url.Parse(issuer)
	if err != nil {
		return fmt.Errorf("issuer URL %q: %w", issuer, err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("issuer URL %q: want an absolute http or https URL", issuer)
	}
	return nil
}

// Verify checks rawToken and returns the identity it carries. The token's
// user must equal startupUser exactly. Every refusal wraps
// ErrAuthenticationFailed; its message is for the server log and never
// contains the token. Send FailedLogin to the client instead.
func (v *Verifier) Verify(ctx context.Context, rawToken, startupUser string) (Identity, error) {
	if rawToken == "" {
		return Identity{}, refuse(rawToken, "empty token for user %q", startupUser)
	}
	id, err := v.VerifyBearer(ctx, rawToken)
	if err != nil {
		return Identity{}, err
	}
	if id.User != startupUser {
		return Identity{}, refuse(rawToken, "token is for user %q, not startup user %q", id.User, startupUser)
	}
	return id, nil
}

// VerifyBearer is Verify for a request that names no user besides the
// token's own (an HTTP bearer token): every check but the startup user's.
func (v *Verifier) VerifyBearer(ctx context.Context, rawToken string) (Identity, error) {
	if rawToken == "" {
		return Identity{}, refuse(rawToken, "empty token")
	}
	if len(rawToken) > maxTokenBytes {
		return Identity{}, refuse(rawToken, "token of %d bytes exceeds the %d byte limit", len(rawToken), maxTokenBytes)
	}
	if !isCompactJWS(rawToken) {
		return Identity{}, refuse(rawToken, "malformed token: not a JWS compact serialization")
	}
	tv, err := v.source.tokenVerifier(ctx)
	if err != nil {
		return Identity{}, refuse(rawToken, "%v", err)
	}
	tok, err := tv.Verify(ctx, rawToken)
	if err != nil {
		var expired *oidc.TokenExpiredError
		if errors.As(err, &expired) && expired.Expiry.IsZero() {
			return Identity{}, refuse(rawToken, "token has no exp claim")
		}
		if errors.As(err, &expired) {
			return Identity{}, refuse(rawToken, "token expired at %s", expired.Expiry.UTC().Format(time.RFC3339))
		}
		return Identity{}, refuse(rawToken, "%v", err)
	}

	// go-oidc allows nbf five minutes into the future; hold it to ClockSkew.
	var window struct {
		NotBefore *float64 `json:"nbf"`
	}
	if err := tok.Claims(&window); err != nil {
		return Identity{}, refuse(rawToken, "decode nbf claim: %v", err)
	}
	if window.NotBefore != nil {
		nbf := time.Unix(int64(math.Ceil(*window.NotBefore)), 0)
		if nbf.After(v.now().Add(v.cfg.ClockSkew)) {
			return Identity{}, refuse(rawToken, "token not valid before %s", nbf.UTC().Format(time.RFC3339))
		}
	}

	var claims claimSet
	if err := tok.Claims(&claims); err != nil {
		return Identity{}, refuse(rawToken, "decode claims: %v", err)
	}
	user, err := claims.user(v.cfg.UserClaim)
	if err != nil {
		return Identity{}, refuse(rawToken, "map user: %v", err)
	}
	if user == "" {
		return Identity{}, refuse(rawToken, "token names no user (claims %q, %q)", v.cfg.UserClaim, fallbackUserClaim)
	}
	roles, err := claims.stringList(v.cfg.RolesClaim)
	if err != nil {
		return Identity{}, refuse(rawToken, "map roles: %v", err)
	}
	groups, err := claims.stringList(v.cfg.GroupsClaim)
	if err != nil {
		return Identity{}, refuse(rawToken, "map groups: %v", err)
	}
	return Identity{
		User:   user,
		Roles:  roles,
		Groups: groups,
		Token:  rawToken,
		Expiry: tok.Expiry,
	}, nil
}

// isCompactJWS reports whether s has the shape of a JWT: three base64url
// segments joined by dots and nothing else. go-jose also accepts the JWS
// JSON serialization and strips whitespace before verifying, so without
// this check one signed token would log in under many spellings and
// Identity.Token, which is passed on to catalogs, need not be a JWT at all.
func isCompactJWS(s string) bool {
	dots := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			dots++
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return dots == 2
}
