package sql

import (
	"context"
	"errors"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// openAs opens a session of e on sales_wh as user with the given roles.
func openAs(t *testing.T, e *Engine, user string, roles ...string) *Session {
	t.Helper()
	s, err := e.NewSession(context.Background(), auth.Identity{User: user, Roles: roles}, "sales_wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// showAccessSetup gives bob and alice their roles in the governance store
// and writes the demo's grants and policies, plus a tag mask for alice.
func showAccessSetup(carol *Session) []gateTwoStep {
	var steps []gateTwoStep
	for _, q := range []string{
		"CREATE ROLE analyst", "CREATE ROLE engineer",
		"GRANT analyst TO USER alice", "GRANT analyst TO USER bob", "GRANT engineer TO USER bob",
		"GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst",
		"CREATE POLICY acdemo_mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn",
		"CREATE POLICY acdemo_rowfilter_eu ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')",
		"ALTER TABLE acdemo.orders SET TAGS (region = ('GEO'))",
		"CREATE POLICY geo_mask ON TAG GEO COLUMN MASK MASK TO USER alice",
		"CREATE POLICY geo_rows ON TAG GEO ROW FILTER TO USER alice USING (current_user() = 'alice')",
	} {
		steps = append(steps, gateTwoStep{s: carol, sql: q, anyRows: true})
	}
	return steps
}

const showLastFour = `mask_show_last_n("ssn", 4, 'x', 'x', 'x', -1, '1')`

// TestShowAccess: an administrator asks what bob and alice see of
// acdemo.orders and why; users ask about themselves with their session's
// roles; nobody else may ask about another user.
func TestShowAccess(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob, dave := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst", "engineer"), openAs(t, e, "dave")
	erin := openAs(t, e, "erin", "analyst") // analyst by her token only
	const roleNoteOfOther = "groups: unknown for another user, as only a login token carries them: policies naming groups are not applied"
	steps := showAccessSetup(carol)
	steps = append(steps, []gateTwoStep{
		{s: carol, sql: "SHOW ACCESS ON sales_wh.acdemo.orders FOR USER bob", rows: []string{
			"id|raw||||||",
			"region|raw||||||",
			"ssn|masked|MASK_SHOW_LAST_4|" + showLastFour + "|acdemo_mask_ssn|resource|embedded|",
			"amount|raw||||||",
			"order_date|raw||||||",
			"(rows)|filtered||region = 'EU'|acdemo_rowfilter_eu|resource|embedded|",
			"(table)|allowed|||sales_wh.acdemo.orders|resource|embedded|Allowed via ROLE 'analyst'",
			"(note)|note||||||roles: analyst, engineer (from the governance store; a login token may add more)",
			"(note)|note||||||" + roleNoteOfOther,
		}},
		// A tag policy names its tag; session functions are folded for
		// the user asked about, not the one asking.
		{s: carol, sql: "SHOW ACCESS ON TABLE acdemo.orders FOR USER alice", rows: []string{
			"id|raw||||||",
			`region|masked|MASK|mask("region")|geo_mask|tag GEO|embedded|`,
			"ssn|raw||||||",
			"amount|raw||||||",
			"order_date|raw||||||",
			"(rows)|filtered||'alice' = 'alice'|geo_rows|tag GEO|embedded|",
			"(table)|allowed|||sales_wh.acdemo.orders|resource|embedded|Allowed via ROLE 'analyst'",
			"(note)|note||||||roles: analyst (from the governance store; a login token may add more)",
			"(note)|note||||||" + roleNoteOfOther,
		}},
		// Gate one refuses dave, in no role; gate two has nothing for him.
		{s: carol, sql: "SHOW ACCESS ON acdemo.orders FOR USER dave", rows: []string{
			"id|raw||||||", "region|raw||||||", "ssn|raw||||||", "amount|raw||||||", "order_date|raw||||||",
			"(table)|denied|||||embedded|No matching grant for dave table-data-read, table-list, table-properties-read on sales_wh.acdemo.orders",
			"(note)|note||||||roles: none (from the governance store; a login token may add more)",
			"(note)|note||||||" + roleNoteOfOther,
		}},
		// Users ask about themselves, with their session's roles, inside a
		// transaction block too.
		{s: bob, sql: "BEGIN"},
		{s: bob, sql: "SHOW ACCESS ON acdemo.orders FOR USER bob", rows: []string{
			"id|raw||||||",
			"region|raw||||||",
			"ssn|masked|MASK_SHOW_LAST_4|" + showLastFour + "|acdemo_mask_ssn|resource|embedded|",
			"amount|raw||||||",
			"order_date|raw||||||",
			"(rows)|filtered||region = 'EU'|acdemo_rowfilter_eu|resource|embedded|",
			"(table)|allowed|||sales_wh.acdemo.orders|resource|embedded|Allowed via ROLE 'analyst'",
			"(note)|note||||||roles: analyst, engineer (this session's)",
			"(note)|note||||||groups: none (this session's)",
		}},
		{s: bob, sql: "COMMIT"},
		// A token's roles count when users ask about themselves, at both
		// gates, as enforcement counts them.
		{s: erin, sql: "SHOW ACCESS ON acdemo.orders FOR USER erin", rows: []string{
			"id|raw||||||", "region|raw||||||", "ssn|raw||||||", "amount|raw||||||", "order_date|raw||||||",
			"(table)|allowed|||sales_wh.acdemo.orders|resource|embedded|Allowed via ROLE 'analyst'",
			"(note)|note||||||roles: analyst (this session's)",
			"(note)|note||||||groups: none (this session's)",
		}},
		{s: erin, sql: "CHECK ACCESS SELECT ON acdemo.orders FOR USER erin", rows: []string{"true|Allowed via ROLE 'analyst'"}},
		{s: carol, sql: "CHECK ACCESS SELECT ON acdemo.orders FOR USER erin", rows: []string{
			"false|No matching grant for erin table-data-read, table-list, table-properties-read on sales_wh.acdemo.orders"}},
		// Only an administrator asks about another user, and the refusal
		// comes before the table is looked up.
		{s: bob, sql: "SHOW ACCESS ON acdemo.orders FOR USER alice", code: pgerror.InsufficientPrivilege, msg: "permission denied to inspect the access of another user"},
		{s: bob, sql: "SHOW ACCESS ON acdemo.nowhere FOR USER alice", code: pgerror.InsufficientPrivilege},
		// A table the asker cannot see does not exist for it.
		{s: dave, sql: "SHOW ACCESS ON acdemo.orders FOR USER dave", code: pgerror.UndefinedTable},
		{s: carol, sql: "SHOW ACCESS ON acdemo.nowhere FOR USER bob", code: pgerror.UndefinedTable},
		// A view's policies are its base tables'.
		{s: carol, sql: "CREATE VIEW acdemo.orders_ids AS SELECT id FROM acdemo.orders"},
		{s: carol, sql: "SHOW ACCESS ON acdemo.orders_ids FOR USER bob", code: pgerror.WrongObjectType, msg: `"orders_ids" is a view`},
	}...)
	runGateTwoSteps(t, steps)
}

// unreachableStore is a policy store that cannot be reached.
type unreachableStore struct{}

var errUnreachable = errors.New("dial tcp 127.0.0.1:6080: connect: connection refused")

func (unreachableStore) Snapshot(context.Context) (*policy.Snapshot, error) {
	return nil, errUnreachable
}
func (unreachableStore) PutPolicy(context.Context, ranger.Policy, bool) error {
	return errUnreachable
}
func (unreachableStore) DropPolicy(context.Context, string) (bool, error) {
	return false, errUnreachable
}
func (unreachableStore) EditPolicy(context.Context, string, policy.PolicyEdit) error {
	return errUnreachable
}
func (unreachableStore) Engine() string { return policy.EngineRanger }

// TestShowAccessReportsFailClosed: a store that cannot be reached admits
// no row, and SHOW ACCESS says so; without gate two or gate one, it says
// that instead.
func TestShowAccessReportsFailClosed(t *testing.T) {
	t.Run("policy store unreachable", func(t *testing.T) {
		e, _ := newGatedEngine(t)
		e.security = policy.NewEnforcer(policy.Config{Store: unreachableStore{}})
		carol := openAs(t, e, "carol", "sqe_admin")
		runGateTwoSteps(t, []gateTwoStep{
			{s: carol, sql: "SHOW ACCESS ON acdemo.orders FOR USER carol", rows: []string{
				"id|raw||||||", "region|raw||||||", "ssn|raw||||||", "amount|raw||||||", "order_date|raw||||||",
				"(rows)|no rows||false|||ranger|fail closed: policy store unreachable: " + errUnreachable.Error(),
				"(table)|allowed|||||embedded|Allowed: carol holds an administrator role",
				"(note)|note||||||roles: sqe_admin (this session's)",
				"(note)|note||||||groups: none (this session's)",
			}},
			{s: carol, sql: "SELECT count(*) FROM acdemo.orders", rows: []string{"0"}},
		})
	})
	t.Run("no gate two, no gate one", func(t *testing.T) {
		e, _ := newGatedEngine(t)
		e.security, e.cfg.Access = governance.Passthrough{}, nil
		carol := openAs(t, e, "carol", "sqe_admin")
		runGateTwoSteps(t, []gateTwoStep{
			{s: carol, sql: "SHOW ACCESS ON acdemo.orders FOR USER erin", rows: []string{
				"id|raw||||||", "region|raw||||||", "ssn|raw||||||", "amount|raw||||||", "order_date|raw||||||",
				`(table)|allowed||||||[access_control] backend is "none": every authenticated user opens every table`,
				`(note)|note||||||[policy] engine is "passthrough": SQE enforces no row filters or column masks`,
				"(note)|note||||||roles: none (from the governance store; a login token may add more)",
				"(note)|note||||||groups: unknown for another user, as only a login token carries them: policies naming groups are not applied",
			}},
		})
	})
}

// TestRoleChangesReachOpenSessions: a role granted or revoked in the
// store applies to a session already open from its next statement: a new
// role's row filter and mask bind it, a revoked role's access is gone.
func TestRoleChangesReachOpenSessions(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol := openAs(t, e, "carol", "sqe_admin")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "CREATE ROLE analyst", anyRows: true},
		{s: carol, sql: "CREATE ROLE engineer", anyRows: true},
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst", anyRows: true},
		{s: carol, sql: "CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn", anyRows: true},
		{s: carol, sql: "CREATE POLICY eu ON TABLE sales_wh.acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')", anyRows: true},
		{s: carol, sql: "GRANT analyst TO USER erin", anyRows: true},
	})
	erin := openAs(t, e, "erin") // no role in her token
	runGateTwoSteps(t, []gateTwoStep{
		{s: erin, sql: "SELECT id, ssn FROM acdemo.orders ORDER BY id", rows: []string{"1|111-11-1111", "2|222-22-2222", "3|333-33-3333"}},
		{s: carol, sql: "GRANT engineer TO USER erin", anyRows: true},
		{s: erin, sql: "SELECT id, ssn FROM acdemo.orders ORDER BY id", rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{s: carol, sql: "REVOKE analyst FROM USER erin", anyRows: true},
		{s: erin, sql: "SELECT id FROM acdemo.orders", code: "42P01"},
		{s: carol, sql: "GRANT analyst TO USER erin", anyRows: true},
		{s: carol, sql: "REVOKE engineer FROM USER erin", anyRows: true},
		{s: erin, sql: "SELECT count(*) FROM acdemo.orders", rows: []string{"3"}},
	})
	// The prepared statement of an open session is bound with the roles
	// of the moment it runs.
	ps, err := erin.Prepare(context.Background(), "SELECT ssn FROM acdemo.orders WHERE id = 1", nil)
	if err != nil {
		t.Fatal(err)
	}
	runGateTwoSteps(t, []gateTwoStep{{s: carol, sql: "GRANT engineer TO USER erin", anyRows: true}})
	res, err := erin.Bind(context.Background(), ps, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	b, err := res.Next(context.Background())
	if err != nil || b == nil || b.NumRows() != 1 || b.Column(0).ValueStr(0) != "xxx-xx-1111" {
		t.Fatalf("prepared read after the grant: %v, %v", b, err)
	}
	b.Release()
}
