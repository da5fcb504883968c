package main

import (
	"fmt"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/storage"
)

// openGateOne builds gate one as [access_control] configures it: the
// authorizer the embedded catalogs ask, and what carries out GRANT and its
// kin (nil when the statements are refused).
func openGateOne(gov *governance.Store, cfg Config) (storage.Authorizer, sql.AccessControl, error) {
	if cfg.AccessControl.Backend == "none" {
		return storage.AllowAll{}, nil, nil
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
