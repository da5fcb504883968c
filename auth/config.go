package auth

import "time"

// Defaults applied by Config.withDefaults.
const (
	DefaultAudience   = "sqe"
	DefaultUserClaim  = "preferred_username"
	DefaultRolesClaim = "roles"

	// fallbackUserClaim is used when the user claim is absent from a token.
	fallbackUserClaim = "sub"
)

// Config says which issuer to trust and where its tokens keep the user,
// roles and groups.
type Config struct {
	// Issuer is the OIDC issuer URL; empty selects the embedded issuer.
	Issuer string
	// Audience must appear in the token's aud claim (default "sqe").
	Audience string
	// UserClaim names the claim holding the user name (default
	// preferred_username); when a token lacks it, sub is used.
	UserClaim string
	// RolesClaim is a dotted path to the roles (default "roles";
	// "realm_access.roles" for Keycloak).
	RolesClaim string
	// GroupsClaim is a dotted path to the groups; empty means no groups.
	GroupsClaim string
	// ClockSkew is how far exp and nbf may be off the server clock. Zero
	// means none; negative values count as zero.
	ClockSkew time.Duration
	// KeysMaxAge is how long an external provider's discovered keys are
	// trusted before the next login fetches them again (default
	// DefaultKeysMaxAge), so that a key the provider removed stops
	// verifying tokens even when no token names a new key.
	KeysMaxAge time.Duration
}

// DefaultKeysMaxAge is Config.KeysMaxAge's default.
const DefaultKeysMaxAge = 5 * time.Minute

// withDefaults fills the unset fields.
func (c Config) withDefaults() Config {
	if c.Audience == "" {
		c.Audience = DefaultAudience
	}
	if c.UserClaim == "" {
		c.UserClaim = DefaultUserClaim
	}
	if c.RolesClaim == "" {
		c.RolesClaim = DefaultRolesClaim
	}
	if c.KeysMaxAge <= 0 {
		c.KeysMaxAge = DefaultKeysMaxAge
	}
	if c.ClockSkew < 0 {
		c.ClockSkew = 0
	}
	return c
}

// embedded reports whether tokens come from the embedded issuer.
func (c Config) embedded() bool { return c.Issuer == "" }
