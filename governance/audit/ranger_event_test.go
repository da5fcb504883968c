package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestRangerEvents: the ranger sink writes one Ranger AuthzAuditEvent per
// decision, with Ranger's field names and date format, the statement
// redacted as in SQE's own records, and nothing for a statement that
// needed no decision.
func TestRangerEvents(t *testing.T) {
	var buf bytes.Buffer
	a := New(&buf, nil, Options{RedactLiterals: true, Ranger: true, RangerService: "lakehouse", RangerCluster: "eu1"})
	start := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	caller := Caller{SessionID: 7, User: "bob", Roles: []string{"engineer"}, Database: "sales_wh", ClientAddr: "10.1.2.3"}
	a.Statement(Statement{Caller: caller, Start: start, Text: "SELECT ssn FROM acdemo.orders WHERE ssn = '111-11-1111'",
		Duration: 12 * time.Millisecond, Outcome: OutcomeOK, RequestID: "req-1",
		Decisions: []Decision{
			{Gate: GateOne, Access: "select", Resource: "sales_wh/acdemo/orders", ResourceType: "@table", Allowed: true, PolicyID: 4, Enforcer: "ranger-acl", Count: 2},
			{Gate: GateTwo, Access: "MASK_SHOW_LAST_4", Resource: "sales_wh/acdemo/orders/ssn", ResourceType: "@column", Allowed: true, PolicyID: 9, Enforcer: "ranger-acl", Count: 1},
		}})
	a.Statement(Statement{Caller: caller, Start: start, Text: "SET x = 1", Outcome: OutcomeOK})
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	got := decodeLines(t, buf.Bytes())
	if len(got) != 2 {
		t.Fatalf("got %d events, want 2:\n%s", len(got), buf.String())
	}
	host, _ := os.Hostname()
	want := map[string]any{
		"repoType": 3.0, "repo": "lakehouse", "reqUser": "bob", "evtTime": "2026-01-02 03:04:05.006", "access": "select",
		"resource": "sales_wh/acdemo/orders", "resType": "@table", "action": "select", "result": 1.0, "agent": "sqe",
		"policy": 4.0, "enforcer": "ranger-acl", "sess": "7", "cliType": "pgwire", "cliIP": "10.1.2.3",
		"reqData": "SELECT ssn FROM acdemo.orders WHERE ssn = $1", "agentHost": host, "logType": "RangerAudit",
		"id": "req-1-0", "seq_num": 0.0, "event_count": 2.0, "event_dur_ms": 12.0, "tags": []any{}, "cluster_name": "eu1",
		"additional_info": `{"gate":"gate_one"}`,
	}
	g, _ := json.Marshal(got[0])
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("event:\n got %s\nwant %s", g, w)
	}
	if got[1]["access"] != "MASK_SHOW_LAST_4" || got[1]["resType"] != "@column" || got[1]["policy"] != 9.0 || got[1]["id"] != "req-1-1" {
		t.Errorf("second event %v", got[1])
	}
	if strings.Contains(buf.String(), "111-11-1111") {
		t.Error("a literal of the statement reached the log")
	}
}

// TestDecisionLog: decisions are noted once each, counted, in order; a
// context without a log ignores them.
func TestDecisionLog(t *testing.T) {
	Note(context.Background(), Decision{Gate: GateOne}) // no log: nothing happens
	log := &DecisionLog{}
	ctx := WithDecisionLog(context.Background(), log)
	d := Decision{Gate: GateOne, Access: "select", Resource: "c/s/t", Allowed: true, PolicyID: 1}
	Note(ctx, d)
	Note(ctx, Decision{Gate: GateTwo, Access: "ROW_FILTER", Resource: "c/s/t", Allowed: true, PolicyID: 2})
	Note(ctx, d)
	got := log.Decisions()
	if len(got) != 2 || got[0].Count != 2 || got[1].Count != 1 || got[1].Access != "ROW_FILTER" {
		t.Errorf("decisions %+v", got)
	}
}
