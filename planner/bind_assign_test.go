package planner

import (
	"testing"

	"github.com/sqe-db/sqe/sql/types"
)

func typeFor(n int32, bpchar bool) types.T {
	if bpchar {
		return types.BpcharN(n)
	}
	return types.VarcharN(n)
}

func TestFitString(t *testing.T) {
	cases := []struct {
		in   string
		to   int32
		bp   bool
		want string
		err  bool
	}{
		{in: "abc", to: 5, want: "abc"},
		{in: "abc", to: 5, bp: true, want: "abc  "},
		{in: "abc   ", to: 3, want: "abc"},
		{in: "abcd", to: 3, err: true},
		{in: "héllo", to: 5, want: "héllo"},
		{in: "héllo!", to: 5, err: true},
	}
	for _, c := range cases {
		got, err := fitString(c.in, typeFor(c.to, c.bp))
		if (err != nil) != c.err || got != c.want {
			t.Errorf("fit %q into %d (bpchar %v) = %q, %v", c.in, c.to, c.bp, got, err)
		}
	}
}
