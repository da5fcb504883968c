package policy

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/ranger"
)

// A policy SQE cannot evaluate (here a condition type the service
// definition does not define) is refused when its version is compiled:
// logged with its id and why, counted, and the tables it applies to
// admit no row, whatever its type, while other tables are unaffected.
func TestSecureRefusedPolicy(t *testing.T) {
	cond := []ranger.PolicyItemCondition{{Type: "time-of-day", Values: []string{"9am-5pm"}}}
	mask := maskPolicy(t, "m", ssnCol, engineer, "MASK_SHOW_LAST_4", "")
	mask.DataMaskPolicyItems[0].Conditions = cond
	filter := filterPolicy(t, "f", orders, engineer, "id > 1")
	filter.Conditions = cond
	access := ranger.Policy{Name: "a", Resources: map[string]ranger.PolicyResource{
		"database": {Values: []string{"acdemo"}}, "table": {Values: []string{"orders"}}, "column": {Values: []string{"*"}}},
		DenyPolicyItems: []ranger.PolicyItem{{Accesses: []ranger.PolicyItemAccess{{Type: "select"}}, Users: []string{"mallory"}, Conditions: cond}}}
	for _, p := range []ranger.Policy{mask, filter, access} {
		t.Run(p.Name, func(t *testing.T) {
			m := newMemStore(t, p)
			var logs bytes.Buffer
			refused := 0
			e := NewEnforcer(Config{Store: m, Logger: slog.New(slog.NewTextHandler(&logs, nil)), OnRefused: func(n int) { refused += n }})
			rel, err := e.SecurityFor(bob).Secure(context.Background(), ordersTable())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rel.RowFilters, []string{"false"}) || len(rel.Masks) != 0 {
				t.Errorf("relation %+v, want no rows", rel)
			}
			if refused != 1 {
				t.Errorf("counted %d refused policies, want 1", refused)
			}
			if log := logs.String(); !strings.Contains(log, "policy refused") || !strings.Contains(log, "policy_id=1") || !strings.Contains(log, `time-of-day`) {
				t.Errorf("log does not name the policy and why:\n%s", log)
			}
			other := ordersTable()
			other.name.Name = "customers"
			if rel, _ := e.SecurityFor(bob).Secure(context.Background(), other); len(rel.RowFilters) != 0 {
				t.Errorf("another table: filters %v, want none", rel.RowFilters)
			}
			// The next query of the same version neither logs nor counts again.
			logs.Reset()
			if _, err := e.SecurityFor(alice).Secure(context.Background(), ordersTable()); err != nil || refused != 1 || logs.Len() != 0 && strings.Contains(logs.String(), "policy refused") {
				t.Errorf("second query: refused %d, log %q", refused, logs.String())
			}
		})
	}
}
