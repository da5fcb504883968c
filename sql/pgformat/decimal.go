package pgformat

// decimalText is a parsed exact decimal: sign, integer digits without
// leading zeros, and fraction digits, all slices of the caller's text.
type decimalText struct {
	neg     bool
	intPart string
	frac    string
	special string // "NaN" or "Infinity" for non-finite values
}

// splitDecimal parses text of the form [-|+]digits[.digits], or NaN,
// Infinity and -Infinity.
func splitDecimal(s string) decimalText {
	var d decimalText
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		d.neg = s[0] == '-'
		s = s[1:]
	}
	switch s {
	case "NaN":
		d.special = "NaN"
		d.neg = false
		return d
	case "Infinity":
		d.special = "Infinity"
		return d
	}
	i := 0
	for i < len(s) && s[i] != '.' {
		i++
	}
	d.intPart = s[:i]
	if i < len(s) {
		d.frac = s[i+1:]
	}
	for len(d.intPart) > 0 && d.intPart[0] == '0' {
		d.intPart = d.intPart[1:]
	}
	return d
}

// appendShifted appends the digits of the value times 10^n (the V
// pattern) and returns them with the length of the integer part.
func (d decimalText) appendShifted(dst []byte, n int) ([]byte, int) {
	dst = append(dst, d.intPart...)
	for i := 0; i < n; i++ {
		if i < len(d.frac) {
			dst = append(dst, d.frac[i])
		} else {
			dst = append(dst, '0')
		}
	}
	intLen := len(dst)
	if n < len(d.frac) {
		dst = append(dst, d.frac[n:]...)
	}
	return dst, intLen
}

// appendRounded appends intPart.frac rounded half away from zero to
// exactly scale fraction digits, with at least one integer digit, as
// numeric_out prints numeric_round's result. It reports whether the
// rounded value is non-zero.
func appendRounded[S ~string | ~[]byte](dst []byte, intPart, frac S, scale int) ([]byte, bool) {
	start := len(dst)
	dst = append(dst, '0') // room for a carry
	dst = append(dst, intPart...)
	intEnd := len(dst)
	for i := 0; i < scale; i++ {
		if i < len(frac) {
			dst = append(dst, frac[i])
		} else {
			dst = append(dst, '0')
		}
	}
	if scale < len(frac) && frac[scale] >= '5' {
		for k := len(dst) - 1; k >= start; k-- {
			if dst[k] == '9' {
				dst[k] = '0'
				continue
			}
			dst[k]++
			break
		}
	}
	nonZero := false
	for _, c := range dst[start:] {
		if c != '0' {
			nonZero = true
			break
		}
	}
	// Drop leading zeros of the integer part but keep one digit.
	lead := start
	for lead < intEnd-1 && dst[lead] == '0' {
		lead++
	}
	if lead > start {
		n := copy(dst[start:], dst[lead:])
		dst = dst[:start+n]
		intEnd -= lead - start
	}
	if scale > 0 {
		dst = append(dst, 0)
		copy(dst[intEnd+1:], dst[intEnd:len(dst)-1])
		dst[intEnd] = '.'
	}
	return dst, nonZero
}

// roundedInt is the value rounded half away from zero to an integer, or 0
// when it is too large to matter (Roman numerals only print 1..3999).
func (d decimalText) roundedInt() int64 {
	if len(d.intPart) > 9 {
		return 0
	}
	var v int64
	for i := 0; i < len(d.intPart); i++ {
		v = v*10 + int64(d.intPart[i]-'0')
	}
	if len(d.frac) > 0 && d.frac[0] >= '5' {
		v++
	}
	if d.neg {
		v = -v
	}
	return v
}

// appendScientific renders the value as numeric_out_sci does, preceded by
// the sign to_char shows (blank when positive): the significand rounded
// half away from zero to scale digits (not renormalised, so 9.99 at one
// digit is 10.0) and a signed exponent of at least two digits.
func (d decimalText) appendScientific(dst []byte, scale int) []byte {
	var tmp [scratchSize]byte
	digits := append(tmp[:0], d.intPart...)
	digits = append(digits, d.frac...)
	first := 0
	for first < len(digits) && digits[first] == '0' {
		first++
	}
	exp := 0
	var intPart, frac []byte
	if first < len(digits) {
		exp = len(d.intPart) - 1 - first
		intPart, frac = digits[first:first+1], digits[first+1:]
	}
	start := len(dst)
	dst = append(dst, ' ')
	dst, nonZero := appendRounded(dst, intPart, frac, scale)
	if d.neg && nonZero {
		dst[start] = '-'
	}
	dst = append(dst, 'e')
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	} else {
		dst = append(dst, '+')
	}
	return appendInt(dst, int64(exp), 2)
}
