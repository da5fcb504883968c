package compattests

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// propagationDeadline bounds the wait for a change made on one node to
// show on the other. The embedded governance store is read again at each
// statement whose pinned version moved, so the next statement already
// sees it; the bound only keeps a regression from hanging the test.
const propagationDeadline = 30 * time.Second

// Two `sqe serve` processes on one data directory are two nodes behind a
// load balancer: they share the embedded catalog (catalog.db and the
// warehouse), the governance store (governance.db) and the embedded
// issuer's key, so one token logs in to either. The demo is loaded by the
// first node only. A user gets the same answer from both; a grant or
// policy made on one node is enforced on the other; a write on one is
// read on the other; writes racing on both lose nothing.
func TestTwoNodesAnswerTheSameUsers(t *testing.T) {
	dir := t.TempDir()
	dataDir := filepath.Join(dir, "data")
	// The nodes run in dir and read sqe.toml from there. Writers racing
	// flat out on two processes lose commit races in a row on a loaded
	// machine; more retries than the default keep the test about
	// correctness, not luck.
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[storage]\ncommit_retries = 100\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// One after the other: the first creates the issuer key, the catalog
	// and the governance store and loads the demo; the second opens them.
	nodeA := startTestServerIn(t, dataDir, true)
	nodeB := startTestServerIn(t, dataDir, false)
	nodes := []*server{nodeA, nodeB}
	ctx := testContext(t, 3*time.Minute)

	tokens := map[string]string{}
	for _, user := range []string{"alice", "bob", "carol", "dave"} {
		tok, err := nodeA.mintCLI(user)
		if err != nil {
			t.Fatal(err)
		}
		tokens[user] = tok
	}
	as := func(s *server, user string) *pgx.Conn {
		t.Helper()
		return connectConfig(t, ctx, pgxConfig(t, s, user, demoDatabase, "disable", tokens[user]))
	}

	t.Run("same user, same answer", func(t *testing.T) {
		const q = "SELECT id, region, ssn FROM acdemo.orders ORDER BY id"
		var answers [][]string
		for i, n := range nodes {
			rows, err := rowTexts(ctx, as(n, "bob"), q)
			if err != nil {
				t.Fatalf("node %d: bob: %v", i, err)
			}
			answers = append(answers, rows)
		}
		if !slices.Equal(answers[0], answers[1]) {
			t.Fatalf("bob reads different rows from the two nodes:\nA: %q\nB: %q", answers[0], answers[1])
		}
		// bob is an engineer: the demo's policies leave him the EU rows
		// with the ssn masked but its last four characters.
		if want := []string{"1|EU|xxx-xx-1111", "3|EU|xxx-xx-3333"}; !slices.Equal(answers[0], want) {
			t.Errorf("bob reads %q, want %q", answers[0], want)
		}
		// alice, an analyst in no policy, reads every row raw on the node
		// that did not load the demo: the policies are bob's, not the
		// node's.
		all, err := rowTexts(ctx, as(nodeB, "alice"), q)
		if err != nil {
			t.Fatalf("node B: alice: %v", err)
		}
		if len(all) != 3 || all[0] != "1|EU|111-11-1111" {
			t.Errorf("alice reads %q on node B, want the three rows raw", all)
		}
	})

	carolA := as(nodeA, "carol")
	execAll(t, ctx, carolA,
		"CREATE SCHEMA tn",
		"CREATE TABLE tn.t (id bigint NOT NULL, region text, secret text)",
		"INSERT INTO tn.t VALUES (1, 'EU', 'alpha'), (2, 'US', 'bravo'), (3, 'EU', 'charlie')")

	t.Run("governance made on one node is enforced on the other", func(t *testing.T) {
		daveB := as(nodeB, "dave")
		const q = "SELECT id, region, secret FROM tn.t ORDER BY id"
		steps := []struct {
			name string
			on   []string // statements carol runs on node A
			want []string // what dave then reads on node B; nil: refused
		}{
			{name: "no grant", want: nil},
			{name: "GRANT", on: []string{
				"GRANT USAGE ON SCHEMA sales_wh.tn TO USER dave",
				"GRANT SELECT ON TABLE sales_wh.tn.t TO USER dave",
			}, want: []string{"1|EU|alpha", "2|US|bravo", "3|EU|charlie"}},
			{name: "CREATE POLICY", on: []string{
				"CREATE POLICY tn_eu ON TABLE sales_wh.tn.t ROW FILTER TO USER dave USING (region = 'EU')",
				"CREATE POLICY tn_secret ON TABLE sales_wh.tn.t COLUMN MASK MASK_NULL TO USER dave ON COLUMN secret",
			}, want: []string{"1|EU|<nil>", "3|EU|<nil>"}},
			{name: "DROP POLICY", on: []string{"DROP POLICY tn_eu", "DROP POLICY tn_secret"},
				want: []string{"1|EU|alpha", "2|US|bravo", "3|EU|charlie"}},
			{name: "REVOKE", on: []string{"REVOKE SELECT ON TABLE sales_wh.tn.t FROM USER dave"}, want: nil},
		}
		for _, st := range steps {
			execAll(t, ctx, carolA, st.on...)
			var last string
			polls, ok := pollUntil(ctx, propagationDeadline, func() bool {
				rows, err := rowTexts(ctx, daveB, q)
				if st.want == nil {
					last = fmt.Sprintf("rows %q, error %v", rows, err)
					return err != nil
				}
				last = fmt.Sprintf("rows %q, error %v", rows, err)
				return err == nil && slices.Equal(rows, st.want)
			})
			if !ok {
				t.Fatalf("%s on node A: dave on node B still reads %s after %s; want %q (nil: refused)",
					st.name, last, propagationDeadline, st.want)
			}
			t.Logf("%s on node A: enforced on node B at poll %d", st.name, polls)
		}
	})

	// Role memberships are versioned: a GRANT or REVOKE of a role made on
	// one node applies to the sessions already open on the other from
	// their next statement.
	t.Run("role membership granted on one node applies to open sessions on the other", func(t *testing.T) {
		const q = "SELECT id, region, ssn FROM acdemo.orders ORDER BY id"
		alice := as(nodeB, "alice")
		if _, err := rowTexts(ctx, alice, q); err != nil {
			t.Fatal(err)
		}
		steps := []struct {
			stmt string
			want []string
		}{
			{"GRANT engineer TO USER alice", []string{"1|EU|xxx-xx-1111", "3|EU|xxx-xx-3333"}},
			{"REVOKE engineer FROM USER alice", []string{"1|EU|111-11-1111", "2|US|222-22-2222", "3|EU|333-33-3333"}},
		}
		for _, st := range steps {
			execAll(t, ctx, carolA, st.stmt)
			rows, err := rowTexts(ctx, alice, q)
			if err != nil || !slices.Equal(rows, st.want) {
				t.Fatalf("%s on node A: alice's open session on node B reads %q (%v), want %q", st.stmt, rows, err, st.want)
			}
		}
	})

	t.Run("a write on one node is read on the other", func(t *testing.T) {
		execAll(t, ctx, carolA, "INSERT INTO tn.t VALUES (4, 'EU', 'delta')")
		// The commit was acknowledged: the other node's next statement
		// reads the table's current metadata from the shared catalog.
		var n int64
		if err := as(nodeB, "carol").QueryRow(ctx, "SELECT count(*) FROM tn.t WHERE id = 4").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("node B reads %d rows of the INSERT acknowledged by node A, want 1", n)
		}
	})

	t.Run("writes racing on both nodes lose nothing", func(t *testing.T) {
		const writersPerNode, insertsPerWriter = 2, 20
		execAll(t, ctx, carolA, "CREATE TABLE tn.c (id bigint NOT NULL, node int NOT NULL)")
		var wg sync.WaitGroup
		errs := make(chan error, len(nodes)*writersPerNode)
		for i, n := range nodes {
			for w := range writersPerNode {
				conn := as(n, "carol")
				wg.Go(func() {
					for k := range insertsPerWriter {
						id := (i*writersPerNode+w)*insertsPerWriter + k
						q := fmt.Sprintf("INSERT INTO tn.c VALUES (%d, %d)", id, i)
						if _, err := conn.Exec(ctx, q); err != nil {
							errs <- fmt.Errorf("node %d: %s: %w", i, q, err)
							return
						}
					}
				})
			}
		}
		if waitReporting(t, &wg, errs) {
			t.FailNow()
		}
		total := int64(len(nodes) * writersPerNode * insertsPerWriter)
		for i, n := range nodes {
			var count, distinct, fromA int64
			err := as(n, "carol").QueryRow(ctx,
				"SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE node = 0) FROM tn.c").Scan(&count, &distinct, &fromA)
			if err != nil {
				t.Fatalf("node %d: %v", i, err)
			}
			if count != total || distinct != total || fromA != total/2 {
				t.Errorf("node %d reads %d rows, %d distinct ids, %d from node A; want %d, %d, %d",
					i, count, distinct, fromA, total, total, total/2)
			}
		}
	})

	// A CancelRequest names its connection by process id and secret key,
	// which only the node holding the connection knows: sent to the
	// other node, as a load balancer may, it is ignored.
	t.Run("a cancel request is served only by the node holding the connection", func(t *testing.T) {
		conn := as(nodeA, "carol")
		pid, key := conn.PgConn().PID(), conn.PgConn().SecretKey()
		for _, c := range []struct {
			to       *server
			canceled bool
		}{{nodeB, false}, {nodeA, true}} {
			done := make(chan error, 1)
			go func() {
				_, err := conn.Exec(ctx, "SELECT pg_sleep(2)")
				done <- err
			}()
			// Give the statement a moment to start, so the request finds
			// it running; arriving early would only weaken the check.
			time.Sleep(300 * time.Millisecond)
			if err := sendCancelRequest(ctx, c.to, pid, key); err != nil {
				t.Fatal(err)
			}
			err := <-done
			if c.canceled {
				if err == nil || asPgError(t, err).Code != "57014" {
					t.Errorf("cancel request to the node holding the connection: statement ended with %v, want 57014", err)
				}
			} else if err != nil {
				t.Errorf("cancel request to the other node: statement ended with %v, want it to run on", err)
			}
		}
	})
}

// sendCancelRequest sends a CancelRequest for (pid, key) to s on a new
// connection, as libpq does, and waits for the server to close it.
func sendCancelRequest(ctx context.Context, s *server, pid uint32, key []byte) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(s.host, s.port))
	if err != nil {
		return fmt.Errorf("dial for cancel request: %w", err)
	}
	defer c.Close()
	msg := binary.BigEndian.AppendUint32(nil, uint32(12+len(key)))
	msg = binary.BigEndian.AppendUint32(msg, 80877102)
	msg = binary.BigEndian.AppendUint32(msg, pid)
	msg = append(msg, key...)
	if _, err := c.Write(msg); err != nil {
		return fmt.Errorf("send cancel request: %w", err)
	}
	// The server answers nothing and closes the connection once it has
	// acted on the request.
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _ = io.Copy(io.Discard, c)
	return nil
}

// rowTexts runs q on conn and returns each row as its values' text joined
// by "|" (NULL as <nil>).
func rowTexts(ctx context.Context, conn *pgx.Conn, q string) ([]string, error) {
	rows, err := conn.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		f := make([]string, len(vals))
		for i, v := range vals {
			f[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(f, "|"))
	}
	return out, rows.Err()
}

// pollUntil calls done until it reports true or d has passed, and returns
// how many calls it took and whether done reported true.
func pollUntil(ctx context.Context, d time.Duration, done func() bool) (int, bool) {
	deadline := time.Now().Add(d)
	for polls := 1; ; polls++ {
		if done() {
			return polls, true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return polls, false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Two nodes with automatic maintenance on share one table that both write
// to: each sees the commits, so each queues the table for a pass, and the
// table's maintenance lease lets one pass run at a time (the storage
// package's lease tests assert the exclusion itself; a log-timing check
// here would be a timed assertion). What two processes must not break:
// the passes compact, no row is lost or doubled, no step fails, and the
// lease is released afterwards.
func TestTwoNodesMaintainOneTable(t *testing.T) {
	dir := t.TempDir()
	dataDir := filepath.Join(dir, "data")
	const config = `[storage]
commit_retries = 100

[maintenance]
interval = "0s"
commit_trigger = 5
file_trigger = 0
debounce = "200ms"
min_input_files = 2
lease_duration = "1m"
`
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	nodeA := startTestServerIn(t, dataDir, false, "SQE_MAINTENANCE__ENABLED=true", "SQE_MAINTENANCE__NODE_ID=node-a")
	nodeB := startTestServerIn(t, dataDir, false, "SQE_MAINTENANCE__ENABLED=true", "SQE_MAINTENANCE__NODE_ID=node-b")
	nodes := []*server{nodeA, nodeB}
	token, err := nodeA.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 3*time.Minute)
	execAll(t, ctx, connect(t, ctx, nodeA, token),
		"CREATE SCHEMA m", "CREATE TABLE m.t (id bigint NOT NULL, node int NOT NULL)")

	const insertsPerNode = 20
	var wg sync.WaitGroup
	errs := make(chan error, len(nodes))
	for i, n := range nodes {
		conn := connect(t, ctx, n, token)
		wg.Go(func() {
			for k := range insertsPerNode {
				q := fmt.Sprintf("INSERT INTO m.t VALUES (%d, %d)", i*insertsPerNode+k, i)
				if _, err := conn.Exec(ctx, q); err != nil {
					errs <- fmt.Errorf("node %d: %s: %w", i, q, err)
					return
				}
			}
		})
	}
	if waitReporting(t, &wg, errs) {
		t.FailNow()
	}

	const compacted = `sqe_maintenance_runs_total{outcome="done",step="rewrite_data_files"}`
	const leaseConflicts = "sqe_maintenance_lease_conflicts_total"
	// A pass compacts the small files one of the nodes queued it for, and
	// afterwards no pass holds the lease.
	var refs []string
	_, ok := pollUntil(ctx, propagationDeadline, func() bool {
		done := false
		for _, n := range nodes {
			done = done || scrape(t, n.httpAddr(t))[compacted] > 0
		}
		if !done {
			return false
		}
		refs, err = rowTexts(ctx, connect(t, ctx, nodeB, token), `SELECT name FROM m."t$refs" ORDER BY name`)
		return err == nil && !slices.Contains(refs, "sqe-maintenance-lease")
	})
	if !ok {
		t.Fatalf("no compaction with the lease released within %s (refs %q, %v); logs:\nA:\n%s\nB:\n%s",
			propagationDeadline, refs, err, nodeA.log(), nodeB.log())
	}
	for i, n := range nodes {
		m := scrape(t, n.httpAddr(t))
		for key, v := range m {
			if strings.HasPrefix(key, "sqe_maintenance_runs_total{") && strings.Contains(key, `outcome="failed"`) && v > 0 {
				t.Errorf("node %d: %s = %v; log:\n%s", i, key, v, n.log())
			}
		}
		t.Logf("node %d: compactions %v, lease conflicts %v", i, m[compacted], m[leaseConflicts])
		var count, distinct, fromA int64
		err := connect(t, ctx, n, token).QueryRow(ctx,
			"SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE node = 0) FROM m.t").Scan(&count, &distinct, &fromA)
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		if total := int64(len(nodes) * insertsPerNode); count != total || distinct != total || fromA != insertsPerNode {
			t.Errorf("node %d reads %d rows, %d distinct ids, %d from node A; want %d, %d, %d",
				i, count, distinct, fromA, total, total, insertsPerNode)
		}
	}
}
