package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/pgwire"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
	"github.com/sqe-db/sqe/storage/hugepages"
)

// demoSalesRows is the size of the demo's generated table.
const demoSalesRows = 1_000_000

func runServe(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	configPath := fs.String("config", "sqe.toml", "configuration file (TOML)")
	dataDir := fs.String("data-dir", "", "data directory (default ./sqe-data)")
	listen := fs.String("listen", "", "listen address (default 127.0.0.1:5433)")
	demoFlag := fs.Bool("demo", false, "load the demo tables and roles")
	if err := fs.Parse(args); err != nil {
		return err
	}
	explicit := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "config" {
			explicit = true
		}
	})
	cfg, err := loadConfig(*configPath, explicit, os.Environ())
	if err != nil {
		return err
	}
	if *dataDir != "" {
		cfg.DataDir = *dataDir
	}
	if *listen != "" {
		cfg.PGWire.Listen = *listen
	}
	cfg.Demo = cfg.Demo || *demoFlag
	logger, err := newLogger(cfg)
	if err != nil {
		return err
	}
	// Libraries that log through the standard loggers follow [log] too.
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, cfg, logger)
}

func newLogger(cfg Config) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.Log.Level)); err != nil {
		return nil, fmt.Errorf("config: log.level: %w", err)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch cfg.Log.Format {
	case "text":
		return slog.New(slog.NewTextHandler(os.Stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(os.Stderr, opts)), nil
	}
	return nil, fmt.Errorf("config: log.format must be text or json, not %q", cfg.Log.Format)
}

// serve runs the server until ctx is cancelled (SIGINT / SIGTERM), then
// stops accepting, cancels running statements and closes the stores.
func serve(ctx context.Context, cfg Config, logger *slog.Logger) error {
	logger.Info("configuration", "config", effectiveConfig(cfg))
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	chunks := storage.NewChunkCache(int64(cfg.Cache.DataBytes))
	spill := openSpillDir(cfg.Query.SpillDir, logger)
	var maintenance *maintenanceMetrics
	if cfg.Maintenance.Enabled {
		maintenance = newMaintenanceMetrics()
	}
	m, ops, err := openObservability(cfg, logger, chunks, spill, maintenance.collectors()...)
	if err != nil {
		return err
	}
	if ops != nil {
		defer closeOpsServer(ops, logger)
	}
	issuer, err := auth.OpenEmbeddedIssuer(cfg.DataDir)
	if err != nil {
		return err
	}
	skew, err := time.ParseDuration(cfg.Auth.ClockSkew)
	if err != nil {
		return fmt.Errorf("config: auth.clock_skew: %w", err)
	}
	verifier, err := auth.NewVerifier(ctx, auth.Config{
		Issuer: cfg.Auth.Issuer, Audience: cfg.Auth.Audience, UserClaim: cfg.Auth.UserClaim,
		RolesClaim: cfg.Auth.RolesClaim, GroupsClaim: cfg.Auth.GroupsClaim, ClockSkew: skew,
		KeysMaxAge: seconds(cfg.Auth.KeysMaxAgeSecs),
	}, issuer, logger)
	if err != nil {
		return err
	}
	gov, err := governance.OpenStore(ctx, cfg.DataDir)
	if err != nil {
		return err
	}
	defer gov.Close()

	limiter := auth.NewLoginLimiter(cfg.Auth.FailedLoginsPerMinute, max(cfg.Auth.FailedLoginsPerMinute, 1))
	if ops != nil {
		ops.setAdminGate(&adminGate{verifier: verifier, roles: gov, adminRoles: cfg.Auth.AdminRoles,
			limiter: limiter, logger: logger})
	}

	var catalogs []storage.Catalog
	defer func() {
		for _, c := range catalogs {
			if err := c.Close(); err != nil {
				logger.Error("close catalog", "catalog", c.Name(), "error", err)
			}
		}
	}()
	gate, accessControl, err := openGateOne(gov, cfg, logger)
	if err != nil {
		return err
	}
	gateTwo, policyStore, err := openGateTwo(gov, cfg, logger, m)
	if err != nil {
		return err
	}
	for _, cc := range cfg.Catalogs {
		cat, err := openCatalog(ctx, cc, cfg.DataDir, cfg.Storage.CommitRetries, !cfg.Storage.Fsync, gate, chunks)
		if err != nil {
			return fmt.Errorf("catalog %s: %w", cc.Name, err)
		}
		catalogs = append(catalogs, cat)
		logger.Info("catalog", "catalog", cc)
	}
	engineCfg := sql.EngineConfig{
		ServerVersion: serverVersion, AdminRoles: cfg.Auth.AdminRoles, MemoryLimit: int64(cfg.Query.MemoryLimit), Spill: spill,
		ParallelWorkers: cfg.Query.ParallelWorkers, Access: accessControl, Policies: policyStore, Roles: gov,
		MaskKey: []byte(cfg.Policy.MaskKey), QueryTimeouts: cfg.queryTimeouts(),
	}
	remoteExec, closeEngines, err := cfg.remoteExecution(m)
	if err != nil {
		return err
	}
	defer closeEngines()
	engineCfg.Remote = remoteExec
	auditLog, err := openAuditLog(cfg, logger)
	if err != nil {
		return err
	}
	if auditLog != nil {
		engineCfg.Auditor = auditLog
		defer func() {
			if err := auditLog.Close(); err != nil {
				logger.Error("close audit log", "error", err)
			}
		}()
	}
	engineCfg.Auditor = withStatementMetrics(engineCfg.Auditor, m)
	if cfg.Demo {
		if err := loadDemo(ctx, gov, catalogs[0], cfg.Auth.AdminRoles, logger); err != nil {
			return err
		}
		if err := loadDemoGrants(ctx, accessControl, catalogs[0].Name(), cfg.Auth.AdminRoles, engineCfg.Auditor); err != nil {
			return err
		}
		if err := loadDemoPolicies(ctx, policyStore, catalogs[0].Name(), demo.Namespace, cfg.Auth.AdminRoles, engineCfg.Auditor); err != nil {
			return err
		}
	}
	engine := sql.NewEngine(engineCfg, timedCatalogs(catalogs, m), gateTwo)
	if ops != nil {
		report := &accessReport{engine: engine, logger: logger}
		if cfg.Demo {
			report.demoUsers = governance.DemoUsers()
		}
		ops.setAccessReport(report)
	}
	// Stopped before the catalogs close (deferred earlier, run later).
	stopMaintenance := startMaintenance(ctx, cfg, catalogs, engine.RowSorter(), maintenance, logger)
	defer stopMaintenance()
	logger.Info("query memory limit", "bytes", int64(cfg.Query.MemoryLimit))
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		if limit := gcMemoryLimit(procMeminfo, cgroupMemoryMax, int64(cfg.Cache.DataBytes)); limit > 0 {
			debug.SetMemoryLimit(limit)
			logger.Info("garbage collector memory limit", "bytes", limit)
		}
	}
	// The heap grows into memory advised for huge pages: a query's first
	// run touches hundreds of MiB it never touched before, and a fault
	// per 4 KiB was most of a cold TPC-H Q18's time. As much as the
	// collector lets the heap grow to (its memory limit): at SF 10, Q9's
	// heap grew past one query's memory_limit into 155,000 faults.
	if advised := hugepages.AdviseHeap(debug.SetMemoryLimit(-1)); advised > 0 {
		logger.Info("heap advised for huge pages", "bytes", advised)
	}
	proxies, err := cfg.proxyProtocolFrom()
	if err != nil {
		return err
	}
	srv, err := pgwire.NewServer(pgwire.Config{
		Listen: cfg.PGWire.Listen, DataDir: cfg.DataDir, TLSCertFile: cfg.PGWire.TLSCert, TLSKeyFile: cfg.PGWire.TLSKey,
		RequireTLS: cfg.PGWire.RequireTLS, MaxConnections: cfg.PGWire.MaxConnections, ServerVersion: serverVersion,
		MaxMessageSize: int(cfg.PGWire.MaxMessageSize), StartupTimeout: seconds(cfg.PGWire.StartupTimeoutSecs),
		TLSClientCAFile: cfg.PGWire.TLSClientCA, RequireClientCert: cfg.PGWire.RequireClientCert, ClientCertUserMatch: cfg.PGWire.ClientCertUserMatch,
		Observer:              wireObserver(m),
		MaxConnectionsPerUser: cfg.PGWire.MaxConnectionsPerUser, QueryLimiter: cfg.RateLimit.queryLimiter(), Debug: cfg.Debug,
		IdleTimeout: seconds(cfg.Session.IdleTimeoutSecs), SessionLifetime: seconds(cfg.Session.AbsoluteTimeoutSecs),
		TokenExpiryGrace: seconds(cfg.Session.TokenExpiryGraceSecs), ProxyProtocolFrom: proxies,
	}, &authenticator{
		verifier: verifier, roles: gov, logger: logger, limiter: limiter,
	}, sessionFactory{engine: engine}, logger)
	if err != nil {
		return err
	}
	if err := srv.Listen(); err != nil {
		return err
	}
	if ops != nil {
		// Stores and catalogs are open and the listener accepts. Ready is
		// set before the connect help is printed: whoever waits for that
		// line (a supervisor, the tests) may probe /readyz at once.
		ops.setReady(true)
	}
	printConnectHelp(cfg, srv.Addr().String(), catalogs[0].Name())

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ctx) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if ops != nil {
		ops.setReady(false)
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		logger.Error("shutdown", "error", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// loadDemo loads the demo tables and roles (idempotent), as an admin.
func loadDemo(ctx context.Context, gov *governance.Store, cat storage.Catalog, adminRoles []string, logger *slog.Logger) error {
	start := time.Now()
	if err := gov.LoadDemoRoles(ctx); err != nil {
		return fmt.Errorf("demo roles: %w", err)
	}
	admin := storage.WithPrincipal(ctx, storage.Principal{User: demoLoader, Roles: adminRoles})
	if err := demo.Load(admin, cat, demoSalesRows); err != nil {
		return fmt.Errorf("demo tables: %w", err)
	}
	logger.Info("demo state ready", "catalog", cat.Name(), "took", time.Since(start).Round(time.Millisecond))
	return nil
}

func printConnectHelp(cfg Config, addr, database string) {
	host, port := addr, "5433"
	if i := strings.LastIndex(addr, ":"); i >= 0 {
		host, port = addr[:i], addr[i+1:]
	}
	host = strings.Trim(host, "[]")
	clientCert := ""
	if cfg.PGWire.RequireClientCert {
		clientCert = " sslcert=alice.crt sslkey=alice.key"
	}
	fmt.Printf(`SQE is listening on %s (database %q).
Connect with psql, using a token from the embedded issuer as the password:

  PGPASSWORD=$(./bin/sqe token --data-dir %s --user alice) psql "host=%s port=%s user=alice dbname=%s sslmode=require%s"

`, addr, database, cfg.DataDir, host, port, database, clientCert)
}
