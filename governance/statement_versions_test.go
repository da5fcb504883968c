package governance

import (
	"context"
	"testing"
)

// TestStatementVersionsPinFirstRead checks that under a pin the first
// read of a version is kept for the statement, that the next statement
// (a new pin) reads again, and that without a pin every read does.
func TestStatementVersionsPinFirstRead(t *testing.T) {
	ctx := context.Background()
	s, err := OpenStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	write := func() {
		t.Helper()
		if _, err := s.PutFinePolicy(ctx, StoredFinePolicy{Name: "p", Service: FinePolicyHive, Body: "{}"}, true); err != nil {
			t.Fatal(err)
		}
		base, err := s.AccessPoliciesVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := s.WriteAccessPolicies(ctx, base, nil); err != nil || !ok {
			t.Fatalf("WriteAccessPolicies = %v, %v", ok, err)
		}
	}
	versions := func(ctx context.Context) [2]int64 {
		t.Helper()
		a, err := s.AccessPoliciesVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		f, err := s.FinePoliciesVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return [2]int64{a, f}
	}
	statement := WithStatementVersions(ctx, &StatementVersions{})
	first := versions(statement)
	write()
	if got := versions(statement); got != first {
		t.Errorf("within a statement the versions moved from %v to %v", first, got)
	}
	now := versions(ctx)
	if now[0] == first[0] || now[1] == first[1] {
		t.Errorf("without a pin the versions stayed at %v after writes", now)
	}
	if got := versions(WithStatementVersions(ctx, &StatementVersions{})); got != now {
		t.Errorf("the next statement read %v, want %v", got, now)
	}
}

// TestRolesVersionMovesWithEveryRoleChange: creating or dropping a role
// and granting or revoking a membership each move the roles version.
func TestRolesVersionMovesWithEveryRoleChange(t *testing.T) {
	ctx := context.Background()
	s, err := OpenStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	last, err := s.RolesVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, change := range []struct {
		what string
		do   func() error
	}{
		{"create role", func() error { return s.CreateRole(ctx, "engineer", false) }},
		{"grant to a user", func() error { return s.GrantRole(ctx, "engineer", MemberUser, "alice") }},
		{"grant to a role", func() error { return s.GrantRole(ctx, "engineer", MemberRole, "analyst") }},
		{"revoke from a user", func() error { _, err := s.RevokeRole(ctx, "engineer", MemberUser, "alice"); return err }},
		{"drop role", func() error { _, err := s.DropRole(ctx, "engineer"); return err }},
	} {
		if err := change.do(); err != nil {
			t.Fatalf("%s: %v", change.what, err)
		}
		v, err := s.RolesVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v <= last {
			t.Errorf("%s: roles version %d, was %d", change.what, v, last)
		}
		last = v
	}
}
