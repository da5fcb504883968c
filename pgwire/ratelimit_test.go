package pgwire

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// budgetLimiter admits a fixed number of queries per user and records
// every query it is asked about.
type budgetLimiter struct {
	mu     sync.Mutex
	budget int
	asked  []string
}

func (l *budgetLimiter) AllowQuery(user string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.asked = append(l.asked, user)
	n := 0
	for _, u := range l.asked {
		if u == user {
			n++
		}
	}
	if n > l.budget {
		return pgerror.New(pgerror.ConfigurationLimitExceeded, "per-user rate limit exceeded: user \"%s\" may run %d queries per minute", user, l.budget)
	}
	return nil
}

func (l *budgetLimiter) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.asked)
}

func (l *budgetLimiter) setBudget(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.budget = n
	l.asked = nil
}

// What counts as one query: each statement of a simple Query and each
// Execute that starts a portal; nothing else.
func TestQueryLimiterCountsQueries(t *testing.T) {
	tests := []struct {
		name string
		msgs []pgproto3.FrontendMessage
		want int
	}{
		{"one statement", []pgproto3.FrontendMessage{&pgproto3.Query{String: "select ints"}}, 1},
		{"three statements in one message", []pgproto3.FrontendMessage{&pgproto3.Query{String: "select 1; select 2; select 3"}}, 3},
		{"empty query", []pgproto3.FrontendMessage{&pgproto3.Query{String: " ; -- nothing"}}, 0},
		{"parse bind describe execute", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "select ints"}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'},
			&pgproto3.Execute{}, &pgproto3.Sync{}}, 1},
		{"parse and describe only", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "select ints"}, &pgproto3.Describe{ObjectType: 'S'}, &pgproto3.Sync{}}, 0},
		{"portal fetched in parts", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "select many 10"}, &pgproto3.Bind{},
			&pgproto3.Execute{MaxRows: 4}, &pgproto3.Execute{MaxRows: 4}, &pgproto3.Execute{}, &pgproto3.Sync{}}, 1},
		{"two portals", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Name: "s", Query: "select ints"},
			&pgproto3.Bind{PreparedStatement: "s"}, &pgproto3.Execute{},
			&pgproto3.Bind{PreparedStatement: "s"}, &pgproto3.Execute{}, &pgproto3.Sync{}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := &budgetLimiter{budget: 100}
			ts := startServer(t, func(cfg *Config) { cfg.QueryLimiter = lim })
			c := ts.dialRaw(t)
			c.startup("alice", goodToken)
			c.send(tt.msgs...)
			for _, m := range c.receiveUntilReady() {
				if strings.HasPrefix(m, "ErrorResponse") {
					t.Fatalf("error: %s", m)
				}
			}
			if got := lim.count(); got != tt.want {
				t.Errorf("counted %d queries, want %d", got, tt.want)
			}
		})
	}
}

// A refused query is answered with the limiter's 53400 error; the rest of
// its Query message is skipped and the session carries on.
func TestQueryLimiterRefusalKeepsSession(t *testing.T) {
	lim := &budgetLimiter{budget: 2}
	ts := startServer(t, func(cfg *Config) { cfg.QueryLimiter = lim })
	c := ts.dialRaw(t)
	c.startup("alice", goodToken)
	refused := `ErrorResponse[ERROR 53400 per-user rate limit exceeded: user "alice" may run 2 queries per minute]`

	c.send(&pgproto3.Query{String: "select 1; select 2; select 3; select 4"})
	want := []string{"CommandComplete[SELECT]", "CommandComplete[SELECT]", refused, "ReadyForQuery[I]"}
	if got := c.receiveUntilReady(); !slices.Equal(got, want) {
		t.Fatalf("simple query: got %v, want %v", got, want)
	}
	c.send(&pgproto3.Parse{Query: "select ints"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
	want = []string{"*pgproto3.ParseComplete", "*pgproto3.BindComplete", refused, "ReadyForQuery[I]"}
	if got := c.receiveUntilReady(); !slices.Equal(got, want) {
		t.Fatalf("extended: got %v, want %v", got, want)
	}
	if sess, _ := ts.factory.last(t); !slices.Equal(sess.statements(), []string{"select 1", "select 2"}) {
		t.Errorf("the session ran %v, want only the admitted statements", sess.statements())
	}

	// Another user has a budget of their own.
	other := ts.dialRaw(t)
	other.startup("bob", goodToken)
	other.send(&pgproto3.Query{String: "select 1"})
	if got := other.receiveUntilReady(); got[0] != "CommandComplete[SELECT]" {
		t.Errorf("bob: %v", got)
	}

	lim.setBudget(1)
	c.send(&pgproto3.Query{String: "select 5"})
	if got := c.receiveUntilReady(); !slices.Equal(got, []string{"CommandComplete[SELECT]", "ReadyForQuery[I]"}) {
		t.Errorf("after the limit was lifted: %v", got)
	}
}

func TestMaxConnectionsPerUser(t *testing.T) {
	ts := startServer(t, func(cfg *Config) { cfg.MaxConnectionsPerUser = 2 })
	var alices []*rawClient
	for range 2 {
		c := ts.dialRaw(t)
		if got := c.startup("alice", goodToken); !strings.HasPrefix(got[len(got)-1], "ReadyForQuery") {
			t.Fatalf("alice's connection %d refused: %v", len(alices)+1, got)
		}
		alices = append(alices, c)
	}
	third := ts.dialRaw(t)
	got := third.startup("alice", goodToken)
	if want := `ErrorResponse[FATAL 53300 too many connections for role "alice"]`; got[len(got)-1] != want {
		t.Fatalf("third connection: got %v, want %s", got, want)
	}
	third.expectClosed()

	// A refused login does not take a slot, others have their own.
	bad := ts.dialRaw(t)
	if got := bad.startup("bob", "wrong"); !strings.Contains(got[0], "28P01") {
		t.Fatalf("bad password: %v", got)
	}
	for i := range 2 {
		c := ts.dialRaw(t)
		if got := c.startup("bob", goodToken); !strings.HasPrefix(got[len(got)-1], "ReadyForQuery") {
			t.Fatalf("bob's connection %d refused: %v", i+1, got)
		}
	}

	// A closed connection gives its slot back.
	alices[0].send(&pgproto3.Terminate{})
	alices[0].expectClosed()
	waitFor(t, "alice's slot to be released", func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return ts.srv.userConns["alice"] == 1
	})
	again := ts.dialRaw(t)
	if got := again.startup("alice", goodToken); !strings.HasPrefix(got[len(got)-1], "ReadyForQuery") {
		t.Fatalf("alice after closing one: %v", got)
	}
}

func TestMaxConnectionsPerUserReleasesEveryEntry(t *testing.T) {
	ts := startServer(t, func(cfg *Config) { cfg.MaxConnectionsPerUser = 1 })
	for i := range 5 {
		c := ts.dialRaw(t)
		c.startup(fmt.Sprintf("user%d", i), goodToken)
		c.send(&pgproto3.Terminate{})
		c.expectClosed()
	}
	waitFor(t, "every per-user count to go", func() bool {
		ts.srv.mu.Lock()
		defer ts.srv.mu.Unlock()
		return len(ts.srv.userConns) == 0
	})
}
