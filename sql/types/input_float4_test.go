package types

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestFloat4Input: real input rounds to float4 as PostgreSQL 15's float4in
// does, so its largest value is accepted and widening shows its digits.
func TestFloat4Input(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		code string
	}{
		{in: "3.4028235e+38", want: 3.4028234663852886e+38},
		{in: "0.1", want: 0.10000000149011612},
		{in: "1.5e-45", want: 1.401298464324817e-45},
		{in: "3.5e38", code: pgerror.NumericValueOutOfRange},
		{in: "1e-50", code: pgerror.NumericValueOutOfRange},
		{in: "x", code: pgerror.InvalidTextRepresentation},
	}
	for _, tt := range tests {
		v, err := ParseText(tt.in, Float4)
		if tt.code != "" {
			if pgerror.Code(err) != tt.code {
				t.Errorf("%s: err %v, want %s", tt.in, err, tt.code)
			}
			continue
		}
		if err != nil || v != tt.want {
			t.Errorf("%s = %v, %v; want %v", tt.in, v, err, tt.want)
		}
	}
	if _, err := Float4FromFloat8(1e-46); pgerror.Code(err) != pgerror.NumericValueOutOfRange {
		t.Errorf("1e-46 to real: %v, want underflow", err)
	}
	if _, err := Float4FromFloat8(1e39); pgerror.Code(err) != pgerror.NumericValueOutOfRange {
		t.Errorf("1e39 to real: %v, want overflow", err)
	}
	n := decimal128.FromI64(34028235)
	f, err := Float4FromNumeric(n.Mul(decimal128.FromI64(1)), 0)
	if err != nil || f != float64(float32(34028235)) {
		t.Errorf("numeric 34028235 to real = %v, %v", f, err)
	}
}
