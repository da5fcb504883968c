package pgcatalog

import (
	"context"
	"time"
)

// Activity is one live session as pg_stat_activity shows it.
type Activity struct {
	PID             int32
	Database        string
	User            string
	ApplicationName string
	// ClientAddr and ClientPort are the client's address; empty and 0 for
	// a connection not over TCP.
	ClientAddr   string
	ClientPort   int32
	BackendStart time.Time
	// XactStart is when the open transaction block began, zero when idle.
	XactStart time.Time
	// QueryStart is when the current (active) or last statement began,
	// zero before the first.
	QueryStart  time.Time
	StateChange time.Time
	// State is PostgreSQL's: active, idle, idle in transaction, idle in
	// transaction (aborted).
	State string
	// Query is the running statement, or the last one when idle.
	Query string
}

// activityRows lists live sessions: every one to a superuser, the
// caller's own to anyone else (as PostgreSQL hides other roles' query
// text, SQE hides their sessions). Without a server's registry (a
// session opened outside one) it is the caller's own session alone.
func activityRows(_ context.Context, src Source) ([]row, error) {
	live, ok := src.Activity()
	if !ok {
		return []row{ownActivityRow(src)}, nil
	}
	var out []row
	for _, a := range live {
		if !src.Superuser() && a.User != src.User() {
			continue
		}
		out = append(out, activityRow(a))
	}
	return out, nil
}

func activityRow(a Activity) row {
	r := row{
		"datid": DatabaseOID(a.Database), "datname": a.Database, "pid": a.PID,
		"usesysid": RoleOID(a.User), "usename": a.User, "application_name": a.ApplicationName,
		"backend_start": a.BackendStart, "state": a.State, "query": a.Query, "backend_type": "client backend",
	}
	if a.ClientAddr != "" {
		r["client_addr"], r["client_port"] = a.ClientAddr, a.ClientPort
	}
	for col, t := range map[string]time.Time{"xact_start": a.XactStart, "query_start": a.QueryStart, "state_change": a.StateChange} {
		if !t.IsZero() {
			r[col] = t
		}
	}
	return r
}

// ownActivityRow is the caller's session as its own settings describe it.
func ownActivityRow(src Source) row {
	app := ""
	for _, s := range src.Settings() {
		if s[0] == "application_name" {
			app = s[1]
		}
	}
	r := row{
		"datid": DatabaseOID(src.Database()), "datname": src.Database(),
		"usesysid": RoleOID(src.User()), "usename": src.User(), "application_name": app,
		"state": "active", "backend_type": "client backend",
	}
	if pid := src.BackendPID(); pid > 0 {
		// The pid pg_backend_pid() returns and pg_terminate_backend takes.
		r["pid"] = pid
	}
	return r
}
