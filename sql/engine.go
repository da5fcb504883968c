package sql

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// SecurityProvider gives the gate-two hook for one caller. Package
// governance implements it.
type SecurityProvider interface {
	SecurityFor(id auth.Identity) planner.Security
}

// EngineConfig configures an Engine.
type EngineConfig struct {
	// ServerVersion is the PostgreSQL version SQE presents (version()).
	ServerVersion string
	// AdminRoles are the roles that make a session a superuser.
	AdminRoles []string
	// MemoryLimit is the most memory, in bytes, one query's operators may
	// hold (hash tables, sort buffers...); past it the query fails with
	// 53200. 0 means no limit.
	MemoryLimit int64
	// Spill is where a query's sorts and aggregates past MemoryLimit
	// write their spill files instead of failing; nil: they fail with
	// 53200.
	Spill *exec.SpillDir
	// QueryTimeouts bound how long a statement runs, by the user's roles.
	QueryTimeouts QueryTimeouts
	// ParallelWorkers is the default degree of parallelism of a query
	// (max_parallel_workers_per_gather): 0 means GOMAXPROCS, 1 runs every
	// query serially.
	ParallelWorkers int
	// Access carries out GRANT, REVOKE, DENY, the role statements, SHOW
	// GRANTS and CHECK ACCESS; nil refuses them ([access_control] backend
	// = "none").
	Access AccessControl
	// Policies is gate two's policy store, which CREATE / DROP / SHOW
	// POLICIES write and read; nil refuses them ([policy] engine =
	// "passthrough").
	Policies policy.Store
	// Roles gives another user's roles to SHOW ACCESS, as a session of
	// theirs gets them at login; nil leaves them unknown.
	Roles RoleSource
	// Auditor receives a record of every statement and privilege change;
	// nil audits nothing.
	Auditor Auditor
	// MaskKey keys mask_hash (policy.mask_key): the HMAC-SHA256 key of the
	// MASK_HASH column mask. It reaches queries through their evaluation
	// context only, never their text or plan. Empty: mask_hash is plain
	// SHA-256, which a dictionary of likely values reverses.
	MaskKey []byte
	// Remote is where SELECTs may run besides here (sqe.execution); nil
	// runs every statement here.
	Remote *RemoteExecution
}

// Engine is what all sessions share.
type Engine struct {
	cfg      EngineConfig
	catalogs map[string]storage.Catalog
	security SecurityProvider
	started  time.Time
	// procedures are the system procedures CALL runs.
	procedures procedures
	// catalogViews are the callers' remembered catalog views.
	catalogViews *catalogViews
	// parses are the parser's outputs for recent query texts.
	parses *parseCache
	// aclRules reads the grant profile once, for the access privileges
	// pg_catalog shows (catalog_grants.go).
	aclRules func() (*aclRules, error)
}

// NewEngine returns an Engine over the given catalogs (by name).
func NewEngine(cfg EngineConfig, catalogs []storage.Catalog, security SecurityProvider) *Engine {
	m := make(map[string]storage.Catalog, len(catalogs))
	for _, c := range catalogs {
		m[c.Name()] = c
	}
	return &Engine{cfg: cfg, catalogs: m, security: security, started: startTime(), procedures: newProcedures(),
		catalogViews: newCatalogViews(), parses: newParseCache(), aclRules: sync.OnceValues(loadACLRules)}
}

// CatalogNames lists the catalogs (PostgreSQL databases) sorted.
func (e *Engine) CatalogNames() []string {
	names := make([]string, 0, len(e.catalogs))
	for n := range e.catalogs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewSession opens a session for an authenticated identity on a database
// (an Iceberg catalog). settings are the run-time parameters the client
// set in its startup packet, in the order they apply; a refused one fails
// the session with PostgreSQL's error, as FATAL.
func (e *Engine) NewSession(ctx context.Context, id auth.Identity, database string, settings []StartupSetting) (*Session, error) {
	if _, ok := e.catalogs[database]; !ok {
		return nil, pgerror.New(pgerror.InvalidCatalogName, "database \"%s\" does not exist", database).Fatal()
	}
	tokenRoles := id.TokenRoles
	if tokenRoles == nil {
		tokenRoles = id.Roles
	}
	s := &Session{
		engine:       e,
		identity:     id,
		tokenRoles:   tokenRoles,
		rolesVersion: -1,
		database:     database,
		settings:     newSettings(id.User, e.cfg.ServerVersion),
		txStatus:     'I',

		serverTimeout: e.cfg.QueryTimeouts.For(id.Roles),
	}
	s.settings.setDefault(parallelWorkersSetting, strconv.Itoa(e.parallelWorkers()))
	s.settings.setDefault(executionSetting, e.cfg.Remote.executionFor(id.Roles))
	s.takeRoles(id.Roles)
	s.catalog = &sessionCatalog{s: s}
	if err := s.applyStartupSettings(settings); err != nil {
		return nil, pgerror.From(err).Fatal()
	}
	return s, nil
}

func (e *Engine) catalog(name string) (storage.Catalog, error) {
	c, ok := e.catalogs[name]
	if !ok {
		return nil, fmt.Errorf("catalog %q: %w", name, storage.ErrNoSuchNamespace)
	}
	return c, nil
}
