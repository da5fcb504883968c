package auth

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func parseClaims(t *testing.T, src string) claimSet {
	t.Helper()
	var c claimSet
	if err := json.Unmarshal([]byte(src), &c); err != nil {
		t.Fatalf("parse claims: %v", err)
	}
	return c
}

func TestClaimLookup(t *testing.T) {
	c := parseClaims(t, `{
		"roles": ["a"],
		"realm_access": {"roles": ["r1", "r2"]},
		"resource_access": {"sqe": {"roles": "one"}},
		"https://example.com/roles": ["namespaced"],
		"a.b": {"c": "literal-prefix"},
		"nulled": null,
		"scalar": "x"
	}`)
	tests := []struct {
		path   string
		want   any
		wantOK bool
	}{
		{"roles", []any{"a"}, true},
		{"realm_access.roles", []any{"r1", "r2"}, true},
		{"resource_access.sqe.roles", "one", true},
		{"https://example.com/roles", []any{"namespaced"}, true},
		{"a.b.c", "literal-prefix", true},
		{"realm_access.missing", nil, false},
		{"scalar.deeper", nil, false},
		{"nulled", nil, false},
		{"absent", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			got, ok := c.lookup(tc.path)
			if ok != tc.wantOK || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("lookup(%q) = %v, %v; want %v, %v", tc.path, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestClaimStringList(t *testing.T) {
	tests := []struct {
		name    string
		claims  string
		path    string
		want    []string
		wantErr string
	}{
		{"array", `{"roles": ["a", "b"]}`, "roles", []string{"a", "b"}, ""},
		{"single string", `{"roles": "a"}`, "roles", []string{"a"}, ""},
		{"duplicates and empties dropped", `{"roles": ["a", "", "a", "b"]}`, "roles", []string{"a", "b"}, ""},
		{"empty array", `{"roles": []}`, "roles", nil, ""},
		{"absent", `{}`, "roles", nil, ""},
		{"no path configured", `{"groups": ["g"]}`, "", nil, ""},
		{"nested", `{"realm_access": {"roles": ["x"]}}`, "realm_access.roles", []string{"x"}, ""},
		{"number", `{"roles": 3}`, "roles", nil, "JSON type number"},
		{"object", `{"roles": {"a": true}}`, "roles", nil, "JSON type object"},
		{"mixed array", `{"roles": ["a", 1]}`, "roles", nil, "element 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseClaims(t, tc.claims).stringList(tc.path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("stringList: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("stringList = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestClaimUser(t *testing.T) {
	tests := []struct {
		name    string
		claims  string
		claim   string
		want    string
		wantErr bool
	}{
		{"preferred_username", `{"preferred_username": "alice", "sub": "u1"}`, "preferred_username", "alice", false},
		{"fallback to sub", `{"sub": "u1"}`, "preferred_username", "u1", false},
		{"null falls back to sub", `{"preferred_username": null, "sub": "u1"}`, "preferred_username", "u1", false},
		{"empty does not fall back", `{"preferred_username": "", "sub": "u1"}`, "preferred_username", "", false},
		{"nested claim", `{"ext": {"login": "bob"}}`, "ext.login", "bob", false},
		{"neither", `{}`, "preferred_username", "", false},
		{"non-string", `{"preferred_username": ["alice"]}`, "preferred_username", "", true},
		{"non-string sub", `{"sub": 7}`, "preferred_username", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseClaims(t, tc.claims).user(tc.claim)
			if (err != nil) != tc.wantErr {
				t.Fatalf("user error = %v, wantErr %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Fatalf("user = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   Config
		want Config
	}{
		{
			name: "empty",
			in:   Config{},
			want: Config{Audience: "sqe", UserClaim: "preferred_username", RolesClaim: "roles", KeysMaxAge: DefaultKeysMaxAge},
		},
		{
			name: "explicit values kept",
			in:   Config{Issuer: "https://idp", Audience: "a", UserClaim: "email", RolesClaim: "realm_access.roles", GroupsClaim: "groups", ClockSkew: 5, KeysMaxAge: 7},
			want: Config{Issuer: "https://idp", Audience: "a", UserClaim: "email", RolesClaim: "realm_access.roles", GroupsClaim: "groups", ClockSkew: 5, KeysMaxAge: 7},
		},
		{
			name: "negative skew and age",
			in:   Config{ClockSkew: -1, KeysMaxAge: -1},
			want: Config{Audience: "sqe", UserClaim: "preferred_username", RolesClaim: "roles", KeysMaxAge: DefaultKeysMaxAge},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.withDefaults(); got != tc.want {
				t.Fatalf("withDefaults = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	token := "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLWJ5dGVz"
	tests := []struct {
		name, in string
	}{
		{"whole token", "bad token " + token},
		{"payload only", "cannot parse eyJzdWIiOiJhbGljZSJ9 here"},
		{"signature only", "sig c2lnbmF0dXJlLWJ5dGVz mismatch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := redact(tc.in, token)
			assertNoTokenIn(t, out, token)
			if !strings.Contains(out, "[token]") {
				t.Fatalf("redact(%q) = %q, want a [token] marker", tc.in, out)
			}
		})
	}
}
