package sql

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance/audit"
)

// memoryAuditor keeps the records it is given.
type memoryAuditor struct {
	mu         sync.Mutex
	statements []audit.Statement
	changes    []audit.PrivilegeChange
}

func (m *memoryAuditor) Statement(st audit.Statement) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.statements = append(m.statements, st)
}

func (m *memoryAuditor) PrivilegeChange(c audit.PrivilegeChange) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.changes = append(m.changes, c)
}

func TestAuditRecords(t *testing.T) {
	e, m := newGatedEngine(t)
	ctx := context.Background()
	open := func(user string, pid int32, roles ...string) *Session {
		s, err := e.NewSession(ctx, auth.Identity{User: user, Roles: roles, Token: "secret-login-token"}, "sales_wh", nil)
		if err != nil {
			t.Fatal(err)
		}
		s.AttachBackend(pid, nil)
		return s
	}
	carol := open("carol", 41, "sqe_admin")
	alice := open("alice", 42, "analyst")

	steps := []struct {
		s   *Session
		sql string
	}{
		{carol, "SELECT count(*) FROM acdemo.orders WHERE region <> 'nowhere'"},
		{carol, "SELECT * FROM acdemo.absent"},
		{carol, "SET application_name = 'audited'"},
		{carol, "SELEC 1"},
		{alice, "GRANT SELECT ON acdemo.orders TO USER alice"},
		{carol, "GRANT SELECT ON acdemo.orders TO ROLE analyst, USER dave"},
		{alice, "SELECT id FROM acdemo.orders"},
		{carol, "CREATE ROLE auditors"},
		{carol, "GRANT ROLE auditors TO USER erin"},
	}
	for _, st := range steps {
		_, _, _ = run(t, st.s, st.sql)
	}
	// A portal closed before its rows run out is recorded at Close with
	// the rows it returned.
	ps, err := alice.Prepare(ctx, "SELECT id FROM acdemo.orders WHERE id > $1", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := alice.Bind(ctx, ps, [][]byte{[]byte("0")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := res.Next(ctx); err != nil || b == nil {
		t.Fatalf("first batch: %v, %v", b, err)
	} else {
		b.Release()
	}
	res.Close()
	// A Bind that fails never runs the statement; it is still recorded.
	if _, err := alice.Bind(ctx, ps, [][]byte{[]byte("not a number")}, nil); err == nil {
		t.Fatal("Bind of a non-number to an integer parameter succeeded")
	}

	// COPY FROM STDIN loads outside Next; its outcome is the load's.
	copyIn := func(data string) {
		_ = loadCopy(t, carol, "COPY acdemo.audited FROM STDIN", data)
	}
	_, _, _ = run(t, carol, "CREATE TABLE acdemo.audited (id int)")
	copyIn("1\n2\n")
	copyIn("not a number\n")

	type stmtRecord struct {
		user    string
		session int32
		text    string
		outcome string
		rows    int64
		hasRows bool
	}
	wantStatements := []stmtRecord{
		{"carol", 41, "SELECT count(*) FROM acdemo.orders WHERE region <> 'nowhere'", "ok", 1, true},
		{"carol", 41, "SELECT * FROM acdemo.absent", "42P01", 0, false},
		{"carol", 41, "SET application_name = 'audited'", "ok", 0, false},
		{"carol", 41, "SELEC 1", "42601", 0, false},
		{"alice", 42, "GRANT SELECT ON acdemo.orders TO USER alice", "42501", 0, false},
		{"carol", 41, "GRANT SELECT ON acdemo.orders TO ROLE analyst, USER dave", "ok", 0, false},
		{"alice", 42, "SELECT id FROM acdemo.orders", "ok", 3, true},
		{"carol", 41, "CREATE ROLE auditors", "ok", 0, false},
		{"carol", 41, "GRANT ROLE auditors TO USER erin", "ok", 0, false},
		{"alice", 42, "SELECT id FROM acdemo.orders WHERE id > $1", "ok", 3, true},
		{"alice", 42, "SELECT id FROM acdemo.orders WHERE id > $1", "22P02", 0, false},
		{"carol", 41, "CREATE TABLE acdemo.audited (id int)", "ok", 0, false},
		{"carol", 41, "COPY acdemo.audited FROM STDIN", "ok", 2, true},
		{"carol", 41, "COPY acdemo.audited FROM STDIN", "22P02", 0, false},
	}
	var gotStatements []stmtRecord
	for _, st := range m.statements {
		if st.Caller.Database != "sales_wh" || st.Duration < 0 || (st.Outcome == "ok") != (st.Error == "") {
			t.Errorf("record %+v: database, duration or error", st)
		}
		gotStatements = append(gotStatements, stmtRecord{st.Caller.User, st.Caller.SessionID, st.Text, st.Outcome, st.Rows, st.HasRows})
	}
	if !slices.Equal(gotStatements, wantStatements) {
		t.Errorf("statements:\n got %+v\nwant %+v", gotStatements, wantStatements)
	}

	type changeRecord struct {
		user, action string
		privileges   string
		object       string
		grantees     string
		result       string
	}
	wantChanges := []changeRecord{
		// Refused before the object is resolved: the object as written.
		{"alice", "GRANT", "SELECT", "TABLE acdemo.orders", "USER alice", "42501"},
		{"carol", "GRANT", "SELECT", "table sales_wh.acdemo.orders", "ROLE analyst,USER dave", "ok"},
		{"carol", "CREATE ROLE", "", "role auditors", "", "ok"},
		{"carol", "GRANT ROLE", "", "role auditors", "USER erin", "ok"},
	}
	var gotChanges []changeRecord
	for _, c := range m.changes {
		gotChanges = append(gotChanges, changeRecord{c.Caller.User, c.Action, join(c.Privileges), c.Object, join(c.Grantees), c.Result})
	}
	if !slices.Equal(gotChanges, wantChanges) {
		t.Errorf("privilege changes:\n got %+v\nwant %+v", gotChanges, wantChanges)
	}
}

func join(s []string) string { return strings.Join(s, ",") }

// TestAuditDecisions: a statement's record carries the access decisions
// of both gates it needed, with the deciding policies, and no data.
func TestAuditDecisions(t *testing.T) {
	e, m := newGatedEngine(t)
	carol, bob, dave := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst", "engineer"), openAs(t, e, "dave")
	bob.SetClientAddr("10.0.0.7")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst", anyRows: true},
		{s: carol, sql: "CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn", anyRows: true},
		{s: carol, sql: "CREATE POLICY eu ON TABLE sales_wh.acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')", anyRows: true},
		{s: bob, sql: "SELECT id, ssn FROM acdemo.orders WHERE ssn <> '111-11-1111' ORDER BY id", rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{s: dave, sql: "SELECT id FROM acdemo.orders", code: "42P01"},
	})
	m.mu.Lock()
	defer m.mu.Unlock()
	find := func(user, prefix string) audit.Statement {
		for _, st := range m.statements {
			if st.Caller.User == user && strings.HasPrefix(st.Text, prefix) {
				return st
			}
		}
		t.Fatalf("no record of %s: %s", user, prefix)
		return audit.Statement{}
	}
	has := func(st audit.Statement, want audit.Decision) {
		t.Helper()
		for _, d := range st.Decisions {
			if d.Gate == want.Gate && d.Access == want.Access && d.Resource == want.Resource && d.Allowed == want.Allowed &&
				(want.PolicyID == 0 || (d.PolicyID >= 0) == (want.PolicyID > 0)) {
				return
			}
		}
		t.Errorf("%s: %s: no decision like %+v in %+v", st.Caller.User, st.Text, want, st.Decisions)
	}
	read := find("bob", "SELECT id, ssn")
	if read.Caller.ClientAddr != "10.0.0.7" || read.RequestID == "" {
		t.Errorf("client %q, request id %q", read.Caller.ClientAddr, read.RequestID)
	}
	has(read, audit.Decision{Gate: audit.GateOne, Access: "table-data-read", Resource: "sales_wh/acdemo/orders", Allowed: true, PolicyID: 1})
	has(read, audit.Decision{Gate: audit.GateTwo, Access: "ROW_FILTER", Resource: "sales_wh/acdemo/orders", Allowed: true, PolicyID: 1})
	has(read, audit.Decision{Gate: audit.GateTwo, Access: "MASK_SHOW_LAST_4", Resource: "sales_wh/acdemo/orders/ssn", Allowed: true, PolicyID: 1})
	has(find("dave", "SELECT id"), audit.Decision{Gate: audit.GateOne, Access: "namespace-list", Resource: "sales_wh", Allowed: false})
	for _, st := range m.statements {
		for _, d := range st.Decisions {
			if strings.Contains(fmt.Sprint(d), "111-11-1111") || strings.Contains(fmt.Sprint(d), "EU") {
				t.Errorf("a decision names data: %+v", d)
			}
		}
	}
}
