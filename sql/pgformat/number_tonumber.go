package pgformat

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// numReader walks the input of to_number alongside the template
// (PostgreSQL's NUM_processor in input mode), collecting a sign and the
// digits it accepts into number.
type numReader struct {
	desc     *numDesc
	in       string
	p        int
	number   []byte // number[0] is the sign: ' ', '+' or '-'
	readPre  int
	readPost int
	readDec  bool
}

func (r *numReader) exhausted() bool  { return r.p >= len(r.in) }
func (r *numReader) room(n int) bool  { return r.p <= len(r.in)-n }
func (r *numReader) at(s string) bool { return r.room(len(s)) && strings.HasPrefix(r.in[r.p:], s) }

// ToNumber is to_number(input, fmt); it returns the numeric value as
// text in PostgreSQL's numeric output form. An empty template gives ""
// and no error, standing for the SQL NULL PostgreSQL returns.
func (t *NumberTemplate) ToNumber(input string) (string, error) {
	if len(t.nodes) == 0 {
		return "", nil
	}
	d := t.desc
	if d.zeroStart > 0 {
		d.zeroStart--
	}
	if d.has(fEEEE) {
		return "", pgerror.New(pgerror.FeatureNotSupported, "\"EEEE\" not supported for input")
	}
	if d.has(fRoman) {
		return "", pgerror.New(pgerror.FeatureNotSupported, "\"RN\" not supported for input")
	}
	r := numReader{desc: &d, in: input, number: make([]byte, 1, len(input)+2)}
	r.number[0] = ' '
	fill := d.has(fFillMode)
	for i := range t.nodes {
		if r.exhausted() {
			break
		}
		n := &t.nodes[i]
		if n.kind != nodeAction {
			// Each literal skips one input character, matching or not.
			r.p += runeLen(r.in[r.p:])
			continue
		}
		switch n.id {
		case num9, num0, numDec, numD:
			r.digit(n.id)
		case numComma, numG:
			if fill || r.in[r.p] != ',' {
				continue
			}
		case numL:
			r.eatNonData(1)
			continue
		case numTH, numth:
			if d.has(fDecimal) {
				continue
			}
			r.eatNonData(2)
			continue
		case numMI, numPL, numSG:
			c := r.in[r.p]
			switch {
			case c == '-' && n.id != numPL:
				r.number[0] = '-'
			case c == '+' && n.id != numMI:
				r.number[0] = '+'
			default:
				r.eatNonData(1)
				continue
			}
		default:
			continue
		}
		r.p++
	}
	if last := len(r.number) - 1; last > 0 && r.number[last] == '.' {
		r.number = r.number[:last]
	}
	return numericWithTypmod(string(r.number), d.pre+d.multi+r.readPost, r.readPost, d.multi)
}

// eatNonData skips up to n input characters that cannot be part of a
// number.
func (r *numReader) eatNonData(n int) {
	for ; n > 0 && !r.exhausted(); n-- {
		if strings.IndexByte("0123456789.,+-", r.in[r.p]) >= 0 {
			return
		}
		r.p += runeLen(r.in[r.p:])
	}
}

// digit reads for one 9, 0, '.' or D pattern (NUM_numpart_from_char): an
// optional leading sign, then a digit or the decimal point, then a
// trailing sign the pattern may own.
func (r *numReader) digit(id numPattern) {
	d := r.desc
	if r.exhausted() {
		return
	}
	if r.in[r.p] == ' ' {
		r.p++
	}
	if r.exhausted() {
		return
	}
	if r.number[0] == ' ' && (id == num0 || id == num9) && r.readPre+r.readPost == 0 {
		if d.has(fLSign) && d.lsign == lsignPre {
			if r.at("-") {
				r.p++
				r.number[0] = '-'
			} else if r.at("+") {
				r.p++
				r.number[0] = '+'
			}
		} else {
			if c := r.in[r.p]; c == '-' || (d.has(fBracket) && c == '<') {
				r.number[0] = '-'
				r.p++
			} else if c == '+' {
				r.number[0] = '+'
				r.p++
			}
		}
	}
	if r.exhausted() {
		return
	}
	isRead := false
	if c := r.in[r.p]; isDigit(c) {
		if r.readDec && r.readPost == d.post {
			return
		}
		r.number = append(r.number, c)
		if r.readDec {
			r.readPost++
		} else {
			r.readPre++
		}
		isRead = true
	} else if d.has(fDecimal) && !r.readDec && r.at(".") {
		r.number = append(r.number, '.')
		r.readDec = true
		isRead = true
	}
	if r.exhausted() {
		return
	}
	// A sign behind the last digit, as in "123.001-" for FM9999.999S.
	if r.number[0] == ' ' && r.readPre+r.readPost > 0 {
		if d.has(fLSign) && isRead && r.p+1 < len(r.in) && !isDigit(r.in[r.p+1]) {
			saved := r.p
			r.p++
			if r.at("-") {
				r.number[0] = '-'
			} else if r.at("+") {
				r.number[0] = '+'
			}
			if r.number[0] == ' ' {
				r.p = saved
			}
		} else if !isRead && !d.has(fLSign) && (d.has(fPlus) || d.has(fMinus)) {
			if c := r.in[r.p]; c == '-' || c == '+' {
				r.number[0] = c
			}
		}
	}
}

// numericWithTypmod converts the collected text the way numeric_in does
// with a numeric(precision, scale) typmod, then divides by 10^multi for
// the V pattern as numeric multiplication by power(10, -multi) does
// (whose result carries 16 fraction digits).
func numericWithTypmod(text string, precision, scale, multi int) (string, error) {
	s := strings.TrimLeft(text, " ")
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" {
		return "", pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", text)
	}
	intPart = strings.TrimLeft(intPart, "0")
	nonZero := strings.Trim(intPart+frac, "0") != ""
	if maxDigits := precision - scale; nonZero && len(intPart) > maxDigits {
		pow, limit := "10^", maxDigits
		if maxDigits == 0 {
			pow, limit = "", 1
		}
		return "", pgerror.New(pgerror.NumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d must round to an absolute value less than %s%d.", precision, scale, pow, limit)
	}
	var b strings.Builder
	if neg && nonZero {
		b.WriteByte('-')
	}
	if multi == 0 {
		writeFixed(&b, intPart, frac)
		return b.String(), nil
	}
	outScale := scale + 16
	if multi > 16 {
		// power(10, -multi) rounds to zero at 16 digits.
		b.Reset()
		writeFixed(&b, "", strings.Repeat("0", outScale))
		return b.String(), nil
	}
	// Move the decimal point multi places left.
	for len(intPart) < multi {
		intPart = "0" + intPart
	}
	newInt := intPart[:len(intPart)-multi]
	newFrac := intPart[len(intPart)-multi:] + frac
	newFrac += strings.Repeat("0", outScale-len(newFrac))
	writeFixed(&b, strings.TrimLeft(newInt, "0"), newFrac)
	return b.String(), nil
}

func writeFixed(b *strings.Builder, intPart, frac string) {
	if intPart == "" {
		b.WriteByte('0')
	} else {
		b.WriteString(intPart)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
}
