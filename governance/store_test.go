package governance

import (
	"context"
	"slices"
	"testing"
)

func TestEffectiveRolesFollowsNestedRoles(t *testing.T) {
	ctx := context.Background()
	s, err := OpenStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, r := range []string{"analyst", "engineer", "reader", "cycle_a", "cycle_b"} {
		if err := s.CreateRole(ctx, r, true); err != nil {
			t.Fatal(err)
		}
	}
	grants := []struct {
		role   string
		kind   MemberKind
		member string
	}{
		{"analyst", MemberUser, "alice"},
		{"engineer", MemberUser, "bob"},
		{"analyst", MemberRole, "engineer"}, // engineers are analysts
		{"reader", MemberRole, "analyst"},   // analysts are readers
		{"cycle_a", MemberRole, "cycle_b"},
		{"cycle_b", MemberRole, "cycle_a"},
		{"cycle_a", MemberUser, "erin"},
	}
	for _, g := range grants {
		if err := s.GrantRole(ctx, g.role, g.kind, g.member); err != nil {
			t.Fatal(err)
		}
	}
	// Granting twice is harmless.
	if err := s.GrantRole(ctx, "analyst", MemberUser, "alice"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		user       string
		tokenRoles []string
		want       []string
	}{
		{"alice", nil, []string{"analyst", "reader"}},
		{"bob", nil, []string{"analyst", "engineer", "reader"}},
		{"dave", nil, []string{}},
		{"dave", []string{"from_token"}, []string{"from_token"}},
		{"erin", nil, []string{"cycle_a", "cycle_b"}},
	}
	for _, tt := range tests {
		got, err := s.EffectiveRoles(ctx, tt.user, tt.tokenRoles)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("EffectiveRoles(%s, %v) = %v, want %v", tt.user, tt.tokenRoles, got, tt.want)
		}
	}
}

func TestCreateRoleTwiceFailsWithoutIfNotExists(t *testing.T) {
	ctx := context.Background()
	s, err := OpenStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateRole(ctx, "analyst", false); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateRole(ctx, "analyst", false); err == nil {
		t.Fatal("second CREATE ROLE succeeded")
	}
}

func TestLoadDemoRolesIsIdempotent(t *testing.T) {
	ctx := context.Background()
	s, err := OpenStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 2; i++ {
		if err := s.LoadDemoRoles(ctx); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]string{
		"alice": {"analyst"},
		"bob":   {"analyst", "engineer"},
		"carol": {"analyst", "engineer", "sqe_admin"},
		"dave":  {},
	}
	for user, roles := range want {
		got, err := s.EffectiveRoles(ctx, user, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, roles) {
			t.Errorf("%s: roles %v, want %v", user, got, roles)
		}
	}
}
