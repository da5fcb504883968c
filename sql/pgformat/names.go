package pgformat

// English names PostgreSQL prints and accepts; with lc_time = C the TM
// (translation mode) variants use the same words.

var monthsFull = [12]string{"January", "February", "March", "April", "May", "June",
	"July", "August", "September", "October", "November", "December"}

var monthsShort = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

var daysFull = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

var daysShort = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}

// Roman month numerals, December first, as PostgreSQL's tables hold them:
// parsing takes the first (longest) match, so "xii" must precede "xi" and "x".
var romanMonthsUpper = [12]string{"XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"}
var romanMonthsLower = [12]string{"xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i"}

// Markers searched by to_timestamp; the index parity gives the value
// (even = AM/AD, odd = PM/BC).
var ampmShort = [4]string{"am", "pm", "AM", "PM"}
var ampmLong = [4]string{"a.m.", "p.m.", "A.M.", "P.M."}
var adbcShort = [4]string{"ad", "bc", "AD", "BC"}
var adbcLong = [4]string{"a.d.", "b.c.", "A.D.", "B.C."}

// Roman numerals for to_char(number, 'RN').
var romanOnes = [9]string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"}
var romanTens = [9]string{"X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"}
var romanHundreds = [9]string{"C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"}

// appendUpper appends s in ASCII upper case.
func appendUpper[S ~string | ~[]byte](dst []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendLower appends s in ASCII lower case.
func appendLower[S ~string | ~[]byte](dst []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendOrdinal appends the English ordinal suffix for the number whose
// text is digits (st, nd, rd, th; 11-13 take th), as str_numth does.
func appendOrdinal(dst []byte, digits []byte, upper bool) []byte {
	n := len(digits)
	if n == 0 {
		return dst
	}
	last := digits[n-1]
	suffix := "th"
	if !(n > 1 && digits[n-2] == '1') {
		switch last {
		case '1':
			suffix = "st"
		case '2':
			suffix = "nd"
		case '3':
			suffix = "rd"
		}
	}
	if upper {
		return appendUpper(dst, suffix)
	}
	return append(dst, suffix...)
}

// appendRoman appends n as a Roman numeral, or 15 '#' when n is outside
// 1..3999 as PostgreSQL does.
func appendRoman(dst []byte, n int64, lower bool) []byte {
	start := len(dst)
	if n < 1 || n > 3999 {
		for i := 0; i < 15; i++ {
			dst = append(dst, '#')
		}
		return dst
	}
	for ; n >= 1000; n -= 1000 {
		dst = append(dst, 'M')
	}
	if h := n / 100; h > 0 {
		dst = append(dst, romanHundreds[h-1]...)
	}
	if t := n / 10 % 10; t > 0 {
		dst = append(dst, romanTens[t-1]...)
	}
	if o := n % 10; o > 0 {
		dst = append(dst, romanOnes[o-1]...)
	}
	if lower {
		for i := start; i < len(dst); i++ {
			dst[i] += 'a' - 'A'
		}
	}
	return dst
}

// appendInt appends v like C's "%0*d": zero padded to width, where the
// width includes a leading '-'.
func appendInt(dst []byte, v int64, width int) []byte {
	var buf [24]byte
	i := len(buf)
	neg := v < 0
	u := uint64(v)
	if neg {
		u = uint64(-v)
	}
	for {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	digits := len(buf) - i
	if neg {
		dst = append(dst, '-')
		width--
	}
	for ; digits < width; digits++ {
		dst = append(dst, '0')
	}
	return append(dst, buf[i:]...)
}

// padTo pads dst with spaces until the text written since start is width
// bytes long, like C's "%-*s".
func padTo(dst []byte, start, width int) []byte {
	for len(dst)-start < width {
		dst = append(dst, ' ')
	}
	return dst
}
