package pgwire

import (
	"encoding/hex"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/types"
)

// General numerics in numeric_send's format, as PostgreSQL 15 sends them
// (SELECT numeric_send(...)).
func TestGeneralNumericBinary(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"NaN", "00000000c0000000"},
		{"Infinity", "00000000d0000020"},
		{"-Infinity", "00000000f0000020"},
		{"1.50", "000200000000000200011388"},
		{"-0.0001230", "0002ffff40000007000108fc"},
		{"123456789012345678901234567890123456789012.5", "000c000a00000001000c0d801ed204d2162e23340d801ed204d2162e23341388"},
		{"0.000000000000000000000000000000000000000000001", "0001fff40000002d03e8"},
	} {
		enc, err := types.AppendNumericParsed(nil, tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(appendGeneralNumericBinary(nil, enc)); got != tc.want {
			t.Errorf("%s: sent %s, want %s", tc.in, got, tc.want)
		}
	}
}

// What a client sends back reads as the same value, scale included.
func TestGeneralNumericBinaryRoundTrip(t *testing.T) {
	for _, in := range []string{"NaN", "-Infinity", "0.00", "1.50", "-123456789012345678901234567890123456789012.5", "0.000000000000000000000000000000000000000000001"} {
		enc, _ := types.AppendNumericParsed(nil, in)
		v, err := types.DecodeBinary(appendGeneralNumericBinary(nil, enc), types.NumericGeneral(0))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := types.NumericString(v.(*apd.Decimal)); got != in {
			t.Errorf("%s read back as %s", in, got)
		}
	}
}
