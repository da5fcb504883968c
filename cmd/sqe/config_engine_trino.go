package main

import (
	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/remote"
	"github.com/sqe-db/sqe/sql/remote/trino"
)

// openTrino opens a Trino engine; it connects when first asked to run a
// statement.
func (e RemoteEngineConfig) openTrino() (remote.Engine, func(), error) {
	tlsCfg, err := e.tlsConfig()
	if err != nil {
		return nil, nil, err
	}
	t, err := trino.New(trino.Config{Name: e.Name, URI: e.URI, User: e.User, Password: e.Password, TLS: tlsCfg, Catalogs: sqlwrite.Catalogs(e.Catalogs)})
	if err != nil {
		return nil, nil, err
	}
	return t, func() {}, nil
}
