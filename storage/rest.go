package storage

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
)

// RESTConfig configures a catalog reached over the Iceberg REST protocol,
// such as Apache Polaris.
type RESTConfig struct {
	// Name is the catalog's name in SQE: the Postgres database.
	Name string
	// URI is the REST service's base URI, without /v1
	// (Polaris: http://host:8181/api/catalog).
	URI string
	// Warehouse is sent to GET /v1/config; Polaris takes the name of its
	// catalog here.
	Warehouse string
	// Prefix is the path prefix after /v1; normally the server supplies it
	// in its configuration response.
	Prefix string
	// Properties are extra catalog properties: object storage settings
	// (s3.endpoint, s3.region, ...) used when reading and writing table
	// files, and header.<name> for extra request headers.
	Properties map[string]string

	// ServiceToken, when set, is a bearer token sent on every request
	// instead of the caller's own. Credential, when set, is an OAuth
	// client id and secret ("id:secret") exchanged for such a token. Both
	// make the catalog server see one identity for all users, which
	// bypasses its per-user authorization; leave both empty to forward
	// each user's own login token.
	ServiceToken string
	Credential   string

	// CommitRetries is how many times a commit that lost a race with
	// another writer is replayed on the reloaded table before 40001
	// (0: DefaultCommitRetries).
	CommitRetries int

	// ReadAttempts is how often an idempotent read (GET of the
	// configuration, a listing or table metadata) is tried in all when the
	// catalog is unreachable or answers a transient 5xx
	// (0: DefaultRESTReadAttempts); RetryBackoff is the first pause
	// between attempts, doubled for each further one
	// (0: DefaultRESTRetryBackoff).
	ReadAttempts int
	RetryBackoff time.Duration

	// Transport, when set, carries the catalog's HTTP requests (tests).
	Transport http.RoundTripper

	// ChunkCache, when set, holds the column chunks the catalog's scans
	// decode (NewChunkCache); several catalogs may share one.
	ChunkCache *ChunkCache
}

// commitAttempts is how many times a conflicting commit is tried in all.
func (c *restCatalog) commitAttempts() int {
	if c.cfg.CommitRetries <= 0 {
		return DefaultCommitRetries + 1
	}
	return c.cfg.CommitRetries + 1
}

// perUser reports whether requests carry the caller's own token.
func (c RESTConfig) perUser() bool { return c.ServiceToken == "" && c.Credential == "" }

// restCatalog is an Iceberg REST catalog. Gate one is the catalog server:
// every request carries the caller's token (or the configured service
// credential), and the server's refusals are mapped to Postgres errors.
type restCatalog struct {
	cfg   RESTConfig
	locks *tableLocks
	lines *commitLines
	plans *planCache
	// rowGroups holds data files' row-group statistics (row_group_stats.go).
	rowGroups *rowGroupCache
	// transport carries every request, retrying idempotent reads.
	transport *retryTransport

	// mu guards cat, which is built on the first request that succeeds in
	// fetching the server's configuration. With per-user tokens that
	// first GET /v1/config goes out with the first caller's token: the
	// server sees no request that is not made for a user.
	mu  sync.Mutex
	cat *rest.Catalog
}

// OpenREST opens the REST catalog cfg describes. With a service
// credential the server's configuration is fetched now, so that a wrong
// URI or credential fails at start; with per-user tokens it is fetched on
// the first request, as the user who makes it.
func OpenREST(ctx context.Context, cfg RESTConfig) (Catalog, error) {
	if cfg.Name == "" {
		return nil, errors.New("open REST catalog: empty catalog name")
	}
	if cfg.URI == "" {
		return nil, fmt.Errorf("open REST catalog %s: no uri", cfg.Name)
	}
	if cfg.ServiceToken != "" && cfg.Credential != "" {
		return nil, fmt.Errorf("open REST catalog %s: set a service token or a credential, not both", cfg.Name)
	}
	base := cfg.Transport
	if base == nil {
		base = http.DefaultTransport.(*http.Transport).Clone()
	}
	c := &restCatalog{cfg: cfg, locks: newTableLocks(), lines: newCommitLines(), plans: newPlanCache(planCacheEntries, planCacheTasks),
		rowGroups: newRowGroupCache(rowGroupCacheFiles, rowGroupCacheGroups),
		transport: newRetryTransport(base, cfg.ReadAttempts, cfg.RetryBackoff)}
	if !cfg.perUser() {
		if _, err := c.client(ctx); err != nil {
			return nil, fmt.Errorf("open REST catalog %s: %w", cfg.Name, err)
		}
	}
	return c, nil
}

// client returns the REST client, building it (and fetching the server's
// configuration) on first use. A failed attempt is not kept: the next
// request tries again, perhaps for a user the server accepts.
func (c *restCatalog) client(ctx context.Context) (*rest.Catalog, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cat != nil {
		return c.cat, nil
	}
	props := iceberg.Properties{}
	maps.Copy(props, c.cfg.Properties)
	opts := []rest.Option{rest.WithAdditionalProps(props)}
	if c.cfg.Warehouse != "" {
		opts = append(opts, rest.WithWarehouseLocation(c.cfg.Warehouse))
	}
	if c.cfg.Prefix != "" {
		opts = append(opts, rest.WithPrefix(c.cfg.Prefix))
	}
	switch {
	case c.cfg.ServiceToken != "":
		opts = append(opts, rest.WithAuthManager(serviceTokenAuth{token: c.cfg.ServiceToken}))
	case c.cfg.Credential != "":
		opts = append(opts, rest.WithCredential(c.cfg.Credential))
	default:
		opts = append(opts, rest.WithAuthManager(callerTokenAuth{}))
	}
	opts = append(opts, rest.WithCustomTransport(c.transport))
	cat, err := rest.NewCatalog(ctx, c.cfg.Name, c.cfg.URI, opts...)
	if err != nil {
		return nil, c.restError(ctx, "fetch the configuration of", Ident{Catalog: c.cfg.Name}, err)
	}
	c.cat = cat
	return cat, nil
}

func (c *restCatalog) Name() string { return c.cfg.Name }

func (c *restCatalog) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	// The catalog leaves a transport it was given alone.
	defer c.transport.CloseIdleConnections()
	if c.cat == nil {
		return nil
	}
	err := c.cat.Close()
	c.cat = nil
	return err
}

// authorize is gate one's local part: the request must be made for a
// principal, and with per-user tokens that principal must carry one. The
// decision itself is the catalog server's, on the request.
func (c *restCatalog) authorize(ctx context.Context, a Action, target Ident) error {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return forbidden(target, fmt.Errorf("%w: no principal in context", ErrForbidden))
	}
	if c.cfg.perUser() && p.Token == "" {
		return c.restError(ctx, string(a), target, errNoCallerToken)
	}
	return nil
}

// begin authorizes a and returns the client to make the request with.
func (c *restCatalog) begin(ctx context.Context, a Action, target Ident) (*rest.Catalog, error) {
	if err := c.authorize(ctx, a, target); err != nil {
		return nil, err
	}
	return c.client(ctx)
}

func (c *restCatalog) lockTable(ctx context.Context, id Ident) (func(), error) {
	return c.locks.lock(ctx, id.Namespace+"\x00"+id.Table)
}

func (c *restCatalog) reloadTable(ctx context.Context, id Ident) (*table.Table, error) {
	cat, err := c.client(ctx)
	if err != nil {
		return nil, err
	}
	tbl, err := cat.LoadTable(ctx, table.Identifier{id.Namespace, id.Table})
	if err != nil {
		return nil, c.restError(ctx, "load table", id, err)
	}
	return guardReplay(tbl, cat), nil
}

func (c *restCatalog) catalogIO(ctx context.Context) (table.CatalogIO, error) {
	cat, err := c.client(ctx)
	if err != nil {
		return nil, err
	}
	return replayGuard{inner: cat}, nil
}

func (c *restCatalog) commitError(ctx context.Context, id Ident, err error) error {
	return c.restError(ctx, "commit to", id, err)
}
