package functions

import (
	"fmt"
	"testing"

	"github.com/sqe-db/sqe/sql/types"
)

func TestMaskFunctionsResolve(t *testing.T) {
	// n options of type t.
	opts := func(n int, t types.T) []types.T {
		out := make([]types.T, n)
		for i := range out {
			out[i] = t
		}
		return out
	}
	tests := []struct {
		name     string
		args     []types.T
		wantArgs []types.T // nil: no such function
		want     types.T
	}{
		{"mask", []types.T{types.VarcharN(11)}, []types.T{types.Text}, types.Text},
		{"mask", []types.T{types.BpcharN(2)}, []types.T{types.Text}, types.Text},
		{"mask", []types.T{types.Unknown}, []types.T{types.Text}, types.Text},
		{"mask", []types.T{types.Int2}, []types.T{types.Int2}, types.Int2},
		{"mask", []types.T{types.Int8}, []types.T{types.Int8}, types.Int8},
		{"mask", []types.T{types.Date}, []types.T{types.Date}, types.Date},
		{"mask", []types.T{types.TimestampTZ}, []types.T{types.TimestampTZ}, types.TimestampTZ},
		// Types Hive does not mask keep their type and give NULL.
		{"mask", []types.T{types.Float8}, []types.T{types.Float8}, types.Float8},
		{"mask", []types.T{types.Numeric(12, 2)}, []types.T{types.Numeric(12, 2)}, types.Numeric(12, 2)},
		// Options: integers read as int8, text and untyped literals as text.
		{"mask", []types.T{types.Text, types.Unknown, types.Int4, types.Varchar},
			[]types.T{types.Text, types.Text, types.Int8, types.Text}, types.Text},
		{"mask", append([]types.T{types.Date}, opts(8, types.Unknown)...), append([]types.T{types.Date}, opts(8, types.Text)...), types.Date},
		{"mask", append([]types.T{types.Text}, opts(9, types.Int4)...), nil, types.T{}},
		{"mask", []types.T{types.Text, types.Numeric(2, 1)}, nil, types.T{}},
		{"mask", []types.T{types.Text, types.Bool}, nil, types.T{}},
		{"mask", nil, nil, types.T{}},
		{"mask_show_last_n", []types.T{types.Text, types.Int4}, []types.T{types.Text, types.Int8}, types.Text},
		{"mask_first_n", append([]types.T{types.Text}, opts(9, types.Int2)...), append([]types.T{types.Text}, opts(9, types.Int8)...), types.Text},
		{"mask_last_n", append([]types.T{types.Text}, opts(10, types.Unknown)...), nil, types.T{}},
		{"mask_hash", []types.T{types.VarcharN(11)}, []types.T{types.Text}, types.Text},
		{"mask_hash", []types.T{types.Int4}, []types.T{types.Int4}, types.Int4},
		{"mask_hash", []types.T{types.Text, types.Text}, nil, types.T{}},
	}
	for _, tc := range tests {
		f, ok := LookupScalar(tc.name)
		if !ok {
			t.Fatalf("%s is not registered", tc.name)
		}
		args, res, ok := f.Resolve(tc.args)
		if tc.wantArgs == nil {
			if ok {
				t.Errorf("%s%v resolved to %v → %v, want no such function", tc.name, tc.args, args, res)
			}
			continue
		}
		if !ok || fmt.Sprint(args) != fmt.Sprint(tc.wantArgs) || res != tc.want {
			t.Errorf("%s%v = %v → %v (%v), want %v → %v", tc.name, tc.args, args, res, ok, tc.wantArgs, tc.want)
		}
	}
}

// The mask functions mask what policies hide, below row filters, so they
// must be leakproof.
func TestMaskFunctionsAreLeakproof(t *testing.T) {
	for _, name := range []string{"mask", "mask_first_n", "mask_last_n", "mask_show_first_n", "mask_show_last_n", "mask_hash"} {
		f, ok := LookupScalar(name)
		if !ok || !f.Leakproof || f.Name != name {
			t.Errorf("%s: registered %v, leakproof %v, name %q", name, ok, f.Leakproof, f.Name)
		}
	}
}
