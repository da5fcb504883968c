package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

const (
	// discoveryTimeout bounds one discovery or JWKS request, so a hung
	// provider cannot hold a login open forever.
	discoveryTimeout = 10 * time.Second
	// discoveryRetryInterval is the least time between two discovery
	// attempts while the provider is unreachable. Logins in between fail at
	// once instead of piling up on a provider that is down.
	discoveryRetryInterval = 2 * time.Second
)

// discovery finds an external provider's JWKS through OIDC discovery and
// keeps the resulting token verifier. Until discovery has succeeded, each
// login that needs the verifier tries again (at most one attempt at a time,
// and not more often than retryInterval); those logins fail closed.
//
// go-oidc's key set fetches the JWKS again only when a token names a key
// it does not hold, so a key the provider removed would verify tokens for
// as long as no token named a new one. A verifier older than maxAge is
// therefore discovered again, keys and all, by the next login; while that
// fails (the provider is down) the last verifier is kept, and tried again
// after retryInterval.
type discovery struct {
	issuer        string
	oidcConfig    *oidc.Config
	client        *http.Client
	logger        *slog.Logger
	retryInterval time.Duration
	maxAge        time.Duration
	now           func() time.Time

	// attempt is a one-slot semaphore: one discovery in flight at a time,
	// waited for with the login's context.
	attempt chan struct{}

	mu           sync.Mutex
	verifier     *oidc.IDTokenVerifier
	discoveredAt time.Time
	lastErr      error
	lastAttempt  time.Time
}

func newDiscovery(issuer string, oidcConfig *oidc.Config, logger *slog.Logger) *discovery {
	return &discovery{
		issuer:        issuer,
		oidcConfig:    oidcConfig,
		client:        &http.Client{Timeout: discoveryTimeout},
		logger:        logger,
		retryInterval: discoveryRetryInterval,
		maxAge:        DefaultKeysMaxAge,
		now:           time.Now,
		attempt:       make(chan struct{}, 1),
	}
}

// tokenVerifier returns the provider's verifier, discovering it first if
// that has not succeeded yet or it is older than maxAge.
func (d *discovery) tokenVerifier(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	v, fresh := d.current()
	if fresh {
		return v, nil
	}
	if v != nil {
		// Stale: one login refreshes it; the others go on with it.
		select {
		case d.attempt <- struct{}{}:
		default:
			return v, nil
		}
	} else {
		select {
		case d.attempt <- struct{}{}:
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for discovery of issuer %s: %w", d.issuer, ctx.Err())
		}
	}
	defer func() { <-d.attempt }()

	d.mu.Lock()
	v, lastErr, last := d.verifier, d.lastErr, d.lastAttempt
	fresh = v != nil && d.now().Sub(d.discoveredAt) < d.maxAge
	d.mu.Unlock()
	if fresh { // another login finished discovery while this one waited
		return v, nil
	}
	if lastErr != nil && d.now().Sub(last) < d.retryInterval {
		if v != nil {
			return v, nil
		}
		return nil, fmt.Errorf("issuer %s unavailable (last discovery %s ago): %w",
			d.issuer, d.now().Sub(last).Round(time.Millisecond), lastErr)
	}
	nv, err := d.discover(ctx)
	if err != nil && v != nil {
		return v, nil // keep the last keys while the provider is unreachable
	}
	return nv, err
}

// current is the verifier, and whether it is younger than maxAge.
func (d *discovery) current() (*oidc.IDTokenVerifier, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.verifier, d.verifier != nil && d.now().Sub(d.discoveredAt) < d.maxAge
}

// discover runs OIDC discovery once and records the outcome. The HTTP
// client travels in the context so the provider's key set, which refetches
// the JWKS when it meets an unknown key id, uses the same timeout.
func (d *discovery) discover(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	provider, err := oidc.NewProvider(oidc.ClientContext(ctx, d.client), d.issuer)
	if err != nil {
		err = fmt.Errorf("discover issuer %s: %w", d.issuer, err)
		if ctx.Err() == nil { // a cancelled login says nothing about the provider
			d.mu.Lock()
			d.lastErr, d.lastAttempt = err, d.now()
			d.mu.Unlock()
		}
		d.logger.Warn("OIDC discovery failed; logins fail until it succeeds, or keep the last keys it found",
			"issuer", d.issuer, "err", err)
		return nil, err
	}
	v := provider.Verifier(d.oidcConfig)
	d.mu.Lock()
	d.verifier, d.discoveredAt, d.lastErr = v, d.now(), nil
	d.mu.Unlock()
	d.logger.Info("OIDC issuer discovered", "issuer", d.issuer)
	return v, nil
}
