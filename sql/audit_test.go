package sql

import (
	"context"
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
