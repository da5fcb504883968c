package pgformat

import (
	"math"
	"strconv"
)

// scratchSize covers the digit strings of ordinary values without a heap
// allocation; longer numbers still work, through append growing.
const scratchSize = 96

// AppendDecimal formats an exact decimal given as text (optional '-',
// digits, optional '.' and digits; also NaN, Infinity, -Infinity) as
// to_char(numeric|int, fmt) does: the value is rounded half away from zero
// to the template's fractional digits and a value too wide for the
// template prints as '#'. Roman numerals of values outside 1..3999 print as
// 15 '#' (PostgreSQL raises "integer out of range" beyond int4).
func (t *NumberTemplate) AppendDecimal(dst []byte, decimalText string) []byte {
	if len(t.nodes) == 0 {
		return dst
	}
	d := t.desc
	var scratch [scratchSize]byte
	dec := splitDecimal(decimalText)
	switch {
	case d.has(fRoman):
		var roman []byte
		if dec.special == "" {
			roman = appendRoman(scratch[:0], dec.roundedInt(), false)
		} else {
			roman = appendRoman(scratch[:0], 0, false)
		}
		return t.render(dst, d, roman, 0, 0)
	case d.has(fEEEE):
		var num []byte
		if dec.special != "" {
			num = appendSciOverflow(scratch[:0], &d)
		} else {
			num = dec.appendScientific(scratch[:0], d.post)
		}
		return t.render(dst, d, num, 0, 0)
	}
	var num []byte
	sign := byte('+')
	if d.has(fMulti) {
		d.pre += d.multi
	}
	switch {
	case dec.special != "":
		num = append(scratch[:0], dec.special...)
		if dec.neg {
			sign = '-'
		}
	case d.has(fMulti):
		var shift [scratchSize]byte
		digits, intLen := dec.appendShifted(shift[:0], d.multi)
		intPart := digits[:intLen]
		for len(intPart) > 0 && intPart[0] == '0' {
			intPart = intPart[1:]
		}
		var nonZero bool
		num, nonZero = appendRounded(scratch[:0], intPart, digits[intLen:], d.post)
		if dec.neg && nonZero {
			sign = '-'
		}
	default:
		var nonZero bool
		num, nonZero = appendRounded(scratch[:0], dec.intPart, dec.frac, d.post)
		if dec.neg && nonZero {
			sign = '-'
		}
	}
	return t.renderFixed(dst, d, num, sign)
}

// renderFixed pads or '#'-fills a fixed-point digit string to the
// template's integer digits and renders it.
func (t *NumberTemplate) renderFixed(dst []byte, d numDesc, num []byte, sign byte) []byte {
	preLen := len(num)
	for i, c := range num {
		if c == '.' {
			preLen = i
			break
		}
	}
	outPreSpaces := 0
	switch {
	case preLen < d.pre:
		outPreSpaces = d.pre - preLen
	case preLen > d.pre:
		num = num[:0]
		for i := 0; i < d.pre+d.post+1; i++ {
			num = append(num, '#')
		}
		num[d.pre] = '.'
	}
	return t.render(dst, d, num, outPreSpaces, sign)
}

// appendSciOverflow is the '#' form scientific notation prints for NaN
// and infinities: sign blank, '#' digits, point, and room for "e+00".
func appendSciOverflow(dst []byte, d *numDesc) []byte {
	start := len(dst)
	for i := 0; i < d.pre+d.post+6; i++ {
		dst = append(dst, '#')
	}
	dst[start] = ' '
	dst[start+d.pre+1] = '.'
	return dst
}

// AppendFloat formats v as to_char(float8, fmt), or as to_char(float4, fmt)
// when bits is 32. As in PostgreSQL the digits come from C-style %f/%e
// formatting limited to 15 (float8) or 6 (float4) significant digits, and
// NaN/Infinity print as text or '#'.
func (t *NumberTemplate) AppendFloat(dst []byte, v float64, bits int) []byte {
	if len(t.nodes) == 0 {
		return dst
	}
	d := t.desc
	maxDigits := 15
	if bits == 32 {
		v = float64(float32(v))
		maxDigits = 6
	}
	var scratch [scratchSize]byte
	switch {
	case d.has(fRoman):
		r := math.RoundToEven(v)
		n := int64(0)
		if r >= 1 && r <= 3999 {
			n = int64(r)
		}
		return t.render(dst, d, appendRoman(scratch[:0], n, false), 0, 0)
	case d.has(fEEEE):
		var num []byte
		if math.IsNaN(v) || math.IsInf(v, 0) {
			num = appendSciOverflow(scratch[:0], &d)
		} else {
			if math.Signbit(v) {
				num = append(scratch[:0], '-')
			} else {
				num = append(scratch[:0], ' ')
			}
			num = strconv.AppendFloat(num, math.Abs(v), 'e', d.post, 64)
		}
		return t.render(dst, d, num, 0, 0)
	}
	val := v
	if d.has(fMulti) {
		val = v * math.Pow(10, float64(d.multi))
		if bits == 32 {
			val = float64(float32(val))
		}
		d.pre += d.multi
	}
	whole := appendCFloat(scratch[:0], math.Abs(val), 0)
	preLen := len(whole)
	if preLen >= maxDigits {
		d.post = 0
	} else if preLen+d.post > maxDigits {
		d.post = maxDigits - preLen
	}
	num := appendCFloat(scratch[:0], val, d.post)
	sign := byte('+')
	if len(num) > 0 && num[0] == '-' {
		sign = '-'
		num = num[1:]
	}
	return t.renderFixed(dst, d, num, sign)
}

// appendCFloat is PostgreSQL's snprintf("%.*f"): exact decimal expansion,
// with NaN and infinities spelled NaN, Infinity and -Infinity.
func appendCFloat(dst []byte, v float64, prec int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(v, -1):
		return append(dst, "-Infinity"...)
	}
	return strconv.AppendFloat(dst, v, 'f', prec, 64)
}
