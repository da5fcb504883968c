package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/audit"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/polarisadmin"
	"github.com/sqe-db/sqe/governance/rangeradmin"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/storage"
)

// openGateOne builds gate one as [access_control] configures it: the
// authorizer the embedded catalogs ask, and what carries out GRANT and its
// kin (nil when the statements are refused).
func openGateOne(gov *governance.Store, cfg Config, logger *slog.Logger) (storage.Authorizer, sql.AccessControl, error) {
	switch cfg.AccessControl.Backend {
	case "none":
		return storage.AllowAll{}, nil, nil
	case "ranger":
		// Polaris enforces, with each caller's own token, through the
		// REST catalog: the embedded catalogs are not gated by SQE.
		r := cfg.AccessControl.Ranger
		rc := rangeradmin.Config{URL: cfg.AccessControl.URL, ServiceName: r.ServiceName, Realm: r.Realm,
			AdminUser: r.AdminUser, AdminPassword: r.AdminPassword, AdminRoles: cfg.Auth.AdminRoles,
			Authority: grants.AuthorityMode(cfg.AccessControl.GrantAuthority)}
		svc, err := rangeradmin.New(rc)
		if err != nil {
			return nil, nil, fmt.Errorf("access control: %w", err)
		}
		logger.Info("access control", "backend", "ranger", "ranger", rc.String())
		return storage.AllowAll{}, svc, nil
	case "polaris":
		// Polaris enforces its grants on every request of the rest
		// catalogs, made with each caller's own token; the configuration
		// admits no other kind of catalog (validatePolarisAccess).
		pc := cfg.polarisConfig()
		svc, err := polarisadmin.New(pc)
		if err != nil {
			return nil, nil, fmt.Errorf("access control: %w", err)
		}
		logger.Info("access control", "backend", "polaris", "polaris", pc.String())
		return storage.AllowAll{}, svc, nil
	}
	svc, err := access.New(gov, access.Config{
		AdminRoles: cfg.Auth.AdminRoles,
		Authority:  grants.AuthorityMode(cfg.AccessControl.GrantAuthority),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("access control: %w", err)
	}
	return svc, svc, nil
}

// auditDemoChange records one of the demo's privilege changes, made as
// the demo loader, when auditing is on.
func auditDemoChange(auditor sql.Auditor, catalog string, adminRoles []string, action string, privileges []string, object string, grantees []grants.Grantee, err error) {
	names := make([]string, len(grantees))
	for i, g := range grantees {
		names[i] = g.String()
	}
	sql.RecordPrivilegeChange(auditor, audit.Caller{User: demoLoader, Roles: adminRoles, Database: catalog}, action, privileges, object, names, err)
}

// demoLoader is who the demo's changes are made as.
const demoLoader = "sqe-demo-loader"

// loadDemoGrants writes the demo's gate-one state (DESIGN "Embedded
// default"), idempotently: discovery of the demo schema for analyst and
// engineer, SELECT on acdemo.orders for analyst, and SELECT on the
// generated acdemo.sales for analyst too, so that the demo user alice can
// try the engine on it. Without gate one there is nothing to write. Each
// statement is a privilege change like any other: the audit log (when
// auditor is not nil) records it as the demo loader's.
func loadDemoGrants(ctx context.Context, ac sql.AccessControl, catalog string, adminRoles []string, auditor sql.Auditor) error {
	if ac == nil {
		return nil
	}
	loader := access.Caller{User: demoLoader, Roles: adminRoles}
	role := func(names ...string) []grants.Grantee {
		out := make([]grants.Grantee, len(names))
		for i, n := range names {
			out[i] = grants.Grantee{Kind: grants.GranteeRole, Name: n}
		}
		return out
	}
	for _, st := range []grants.Statement{
		{Privileges: []string{"USAGE"}, Object: grants.Object{Kind: grants.ObjectSchema, Catalog: catalog, Namespace: "acdemo"},
			Grantees: role("analyst", "engineer")},
		{Privileges: []string{"SELECT"}, Object: grants.Object{Kind: grants.ObjectTable, Catalog: catalog, Namespace: "acdemo", Name: "orders"},
			Grantees: role("analyst")},
		{Privileges: []string{"SELECT"}, Object: grants.Object{Kind: grants.ObjectTable, Catalog: catalog, Namespace: "acdemo", Name: "sales"},
			Grantees: role("analyst")},
	} {
		_, err := ac.Change(ctx, loader, grants.ActionGrant, st)
		auditDemoChange(auditor, catalog, adminRoles, string(grants.ActionGrant), st.Privileges, st.Object.String(), st.Grantees, err)
		if err != nil {
			return fmt.Errorf("demo grants: %w", err)
		}
	}
	return nil
}
