package pgwire

import (
	"net"
	"sort"
	"sync"
	"time"

	"github.com/sqe-db/sqe/sql/pgcatalog"
)

// activity is what pg_stat_activity shows of one connection. The handler
// goroutine writes it as statements start and end; sessions on other
// connections read it, hence the lock.
type activity struct {
	mu sync.Mutex
	a  pgcatalog.Activity
}

// pg_stat_activity.state values, as PostgreSQL names them.
const (
	stateActive        = "active"
	stateIdle          = "idle"
	stateIdleInTx      = "idle in transaction"
	stateIdleInAborted = "idle in transaction (aborted)"
)

// begin records the session that just logged in, idle, with the
// application_name it reported (the startup packet's, or its options').
func (c *conn) beginActivity(st Startup, user string) {
	now := time.Now()
	a := pgcatalog.Activity{
		PID: int32(c.pid), Database: st.Database, User: user, ApplicationName: c.reported["application_name"],
		BackendStart: now, StateChange: now, State: stateIdle,
	}
	if tcp, ok := st.RemoteAddr.(*net.TCPAddr); ok {
		a.ClientAddr, a.ClientPort = tcp.IP.String(), int32(tcp.Port)
	}
	c.activity.mu.Lock()
	c.activity.a = a
	c.activity.mu.Unlock()
}

// activityRunning records that query has started.
func (c *conn) activityRunning(query string) {
	now := time.Now()
	c.activity.mu.Lock()
	defer c.activity.mu.Unlock()
	a := &c.activity.a
	a.Query, a.QueryStart, a.State, a.StateChange = query, now, stateActive, now
	if a.XactStart.IsZero() {
		a.XactStart = now
	}
}

// activityIdle records that the connection waits for the client, in the
// transaction state txStatus ('I', 'T' or 'E'), with the session's
// current application_name.
func (c *conn) activityIdle(txStatus byte) {
	state := stateIdle
	switch txStatus {
	case 'T':
		state = stateIdleInTx
	case 'E':
		state = stateIdleInAborted
	}
	now := time.Now()
	app := c.reported["application_name"]
	c.activity.mu.Lock()
	defer c.activity.mu.Unlock()
	a := &c.activity.a
	if a.State != state {
		a.State, a.StateChange = state, now
	}
	if state == stateIdle {
		a.XactStart = time.Time{}
	}
	a.ApplicationName = app
}

func (c *conn) activitySnapshot() pgcatalog.Activity {
	c.activity.mu.Lock()
	defer c.activity.mu.Unlock()
	return c.activity.a
}

// Activity describes every session that has logged in, by process id.
func (r backendRegistry) Activity() []pgcatalog.Activity {
	r.srv.mu.Lock()
	conns := make([]*conn, 0, len(r.srv.byPID))
	for _, c := range r.srv.byPID {
		conns = append(conns, c)
	}
	r.srv.mu.Unlock()
	out := make([]pgcatalog.Activity, len(conns))
	for i, c := range conns {
		out[i] = c.activitySnapshot()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}
