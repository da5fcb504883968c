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
type discovery struct {
	issuer        string
	oidcConfig    *oidc.Config
	client        *http.Client
	logger        *slog.Logger
	retryInterval time.Duration

	// attempt is a one-slot semaphore: one discovery in flight at a time,
	// waited for with the login's context.
	attempt chan struct{}

	mu          sync.Mutex
	verifier    *oidc.IDTokenVerifier
	lastErr     error
	lastAttempt time.Time
}

func newDiscovery(issuer string, oidcConfig *oidc.Config, logger *slog.Logger) *discovery {
	return &discovery{
		issuer:        issuer,
		oidcConfig:    oidcConfig,
		client:        &http.Client{Timeout: discoveryTimeout},
		logger:        logger,
		retryInterval: discoveryRetryInterval,
		attempt:       make(chan struct{}, 1),
	}
}

// tokenVerifier returns the provider's verifier, discovering it first if
// that has not succeeded yet.
func (d *discovery) tokenVerifier(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	if v := d.current(); v != nil {
		return v, nil
	}
	select {
	case d.attempt <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for discovery of issuer %s: %w", d.issuer, ctx.Err())
	}
	defer func() { <-d.attempt }()

	d.mu.Lock()
	v, lastErr, last := d.verifier, d.lastErr, d.lastAttempt
	d.mu.Unlock()
	if v != nil { // another login finished discovery while this one waited
		return v, nil
	}
	if lastErr != nil && time.Since(last) < d.retryInterval {
		return nil, fmt.Errorf("issuer %s unavailable (last discovery %s ago): %w",
			d.issuer, time.Since(last).Round(time.Millisecond), lastErr)
	}
	return d.discover(ctx)
}

func (d *discovery) current() *oidc.IDTokenVerifier {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.verifier
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
			d.lastErr, d.lastAttempt = err, time.Now()
			d.mu.Unlock()
		}
		d.logger.Warn("OIDC discovery failed; logins will fail until it succeeds",
			"issuer", d.issuer, "err", err)
		return nil, err
	}
	v := provider.Verifier(d.oidcConfig)
	d.mu.Lock()
	d.verifier, d.lastErr = v, nil
	d.mu.Unlock()
	d.logger.Info("OIDC issuer discovered", "issuer", d.issuer)
	return v, nil
}
