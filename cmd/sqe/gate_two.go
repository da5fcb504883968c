package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/governance/policy/rangerstore"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/pgwire/metrics"
	"github.com/sqe-db/sqe/sql"
)

// openGateTwo builds gate two as [policy] configures it: the hook the
// binder asks for each caller's view of a table, and the store policy
// statements write to (nil for passthrough).
func openGateTwo(gov *governance.Store, cfg Config, logger *slog.Logger, m *metrics.Metrics) (sql.SecurityProvider, policy.Store, error) {
	var store policy.Store
	switch cfg.Policy.Engine {
	case "passthrough":
		return governance.Passthrough{}, nil, nil
	case "ranger":
		r := cfg.Policy.Ranger
		rc := rangerstore.Config{URL: r.URL, ServiceName: r.ServiceName, AdminUser: r.AdminUser,
			AdminPassword: r.AdminPassword, CacheTTL: time.Duration(r.CacheTTLSecs) * time.Second, ProjectTags: r.ProjectTags,
			OnCache: policyCacheObserver(m, "ranger")}
		rs, err := rangerstore.New(rc)
		if err != nil {
			return nil, nil, fmt.Errorf("policy store: %w", err)
		}
		logger.Info("policy store", "engine", "ranger", "ranger", rc.String())
		store = rs
	default:
		emb, err := policy.NewEmbedded(gov)
		if err != nil {
			return nil, nil, fmt.Errorf("policy store: %w", err)
		}
		emb.ObserveCache(policyCacheObserver(m, "embedded"))
		store = emb
	}
	if cfg.Policy.MaskKey == "" {
		logger.Warn("[policy] mask_key is not set: MASK_HASH hashes without a key, which is brute-forceable on low-entropy columns; set SQE_POLICY__MASK_KEY")
	}
	enf := policy.NewEnforcer(policy.Config{Store: store, MaskPrecedence: cfg.Policy.MaskPrecedence, Logger: logger,
		OnRefused: policiesRefusedObserver(m, cfg.Policy.Engine)})
	return enf, store, nil
}

// loadDemoPolicies writes the demo's gate-two state (DESIGN "Embedded
// default"), idempotently: engineers see acdemo.orders' ssn through
// MASK_SHOW_LAST_4 and only its EU rows. Each write is audited as the
// demo loader's.
func loadDemoPolicies(ctx context.Context, store policy.Store, catalog, namespace string, adminRoles []string, auditor sql.Auditor) error {
	if store == nil {
		return nil
	}
	engineer := []policy.Grantee{{Kind: grants.GranteeRole, Name: "engineer"}}
	mask, err := policy.ColumnMask("acdemo_mask_ssn", policy.Target{Database: namespace, Table: "orders", Column: "ssn"}, engineer, "MASK_SHOW_LAST_4", "")
	if err != nil {
		return err
	}
	filter, err := policy.RowFilter("acdemo_rowfilter_eu", policy.Target{Database: namespace, Table: "orders"}, engineer, "region = 'EU'")
	if err != nil {
		return err
	}
	for _, p := range []ranger.Policy{mask, filter} {
		err := store.PutPolicy(ctx, p, true)
		auditDemoChange(auditor, catalog, adminRoles, "CREATE POLICY", nil, "table "+catalog+"."+namespace+".orders", engineer, err)
		if err != nil {
			return fmt.Errorf("demo policy %s: %w", p.Name, err)
		}
	}
	return nil
}
