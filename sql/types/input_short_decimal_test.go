package types

import "testing"

// The short path must give exactly what the general path gives.
func TestParseShortDecimalAgreesWithGeneralPath(t *testing.T) {
	for _, s := range []string{"0", "-0", "+7", "1.5", "-0.05", ".5", "5.", "123456789012345678", "-99999999999999.9999",
		"0.000000000000000001", "00012.3400", "1234567890123456789", "1e3", "1.2.3", "", "-", ".", "12a", "1 2"} {
		n, scale, ok := parseShortDecimal(s)
		if !ok {
			continue
		}
		general, gscale, err := parseDecimalLiteral(s)
		if err != nil || n != general || scale != gscale {
			t.Errorf("%q: short path %v scale %d, general %v scale %d (%v)", s, n, scale, general, gscale, err)
		}
	}
	for _, s := range []string{"1234567890123456789", "1e3", "1.2.3", "", "-", ".", "12a", "1 2"} {
		if _, _, ok := parseShortDecimal(s); ok {
			t.Errorf("%q took the short path", s)
		}
	}
}
