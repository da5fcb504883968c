package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/sqe-db/sqe/auth"
)

type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// runToken prints a JWT from the embedded issuer of a data directory.
func runToken(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "./sqe-data", "data directory holding the embedded issuer's key")
	user := fs.String("user", "", "user name (preferred_username claim)")
	ttl := fs.Duration("ttl", time.Hour, "token lifetime")
	audience := fs.String("audience", "", "audience (default sqe)")
	var roles, groups multiFlag
	fs.Var(&roles, "role", "role claim (repeatable)")
	fs.Var(&groups, "group", "group claim (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *user == "" {
		return fmt.Errorf("--user is required")
	}
	if *ttl <= 0 {
		return fmt.Errorf("--ttl must be positive")
	}
	iss, err := auth.OpenEmbeddedIssuer(*dataDir)
	if err != nil {
		return err
	}
	tok, err := iss.Mint(auth.TokenRequest{User: *user, Roles: roles, Groups: groups, TTL: *ttl, Audience: *audience})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, tok)
	return err
}
