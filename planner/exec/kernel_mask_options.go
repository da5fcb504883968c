package exec

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// keep is the option value that leaves a character, or a date field, as
// it is.
const keep = -1

// maskSettings are the options of one mask call, in Hive's order after
// the value: count (the _n forms only), the replacements of upper-case
// letters, lower-case letters, digits and other characters, the digit
// that replaces an integer's digits, and the day (1-31), month (0-11,
// January is 0) and year a date takes.
type maskSettings struct {
	count                      int
	upper, lower, digit, other rune
	number                     int
	day, month, year           int
}

// defaultMaskSettings are Hive's defaults, but for the year: Hive writes
// year 0, which PostgreSQL's calendar lacks (the year before 1 is 1 BC),
// so SQE writes year 1.
func defaultMaskSettings() maskSettings {
	return maskSettings{count: 4, upper: 'X', lower: 'x', digit: 'n', other: keep, number: 1, day: 1, month: 0, year: 1}
}

// maskOptions reads the option arguments of a mask call, which are text
// or int8 arrays (the binder casts them so). Options are constants in
// practice, so when every row of a batch holds the same ones they are
// read once.
type maskOptions struct {
	args    []arrow.Array
	counted bool // the first option is the count
	uniform bool
	first   maskSettings
}

func newMaskOptions(f maskFunc, args []arrow.Array) *maskOptions {
	o := &maskOptions{args: args, counted: f != maskAll, uniform: true}
	for _, a := range args {
		if !sameInEveryRow(a) {
			o.uniform = false
			break
		}
	}
	if o.uniform && len(args) > 0 && args[0].Len() > 0 {
		o.first = o.read(0)
	} else {
		o.first = defaultMaskSettings()
	}
	return o
}

// at gives the settings of row i.
func (o *maskOptions) at(i int) maskSettings {
	if o.uniform {
		return o.first
	}
	return o.read(i)
}

// read parses row i's options. A NULL, empty or unreadable option takes
// its default, and so does one out of range, as in Hive's
// MaskTransformer (a negative count is 0); so does a year outside
// 1-9999, which Hive does not check.
func (o *maskOptions) read(i int) maskSettings {
	s := defaultMaskSettings()
	opts := o.args
	if o.counted && len(opts) > 0 {
		s.count = max(0, intOption(opts[0], i, s.count))
		opts = opts[1:]
	}
	arg := func(k int) arrow.Array {
		if k < len(opts) {
			return opts[k]
		}
		return nil
	}
	s.upper = charOption(arg(0), i, s.upper)
	s.lower = charOption(arg(1), i, s.lower)
	s.digit = charOption(arg(2), i, s.digit)
	s.other = charOption(arg(3), i, s.other)
	if s.number = intOption(arg(4), i, s.number); s.number < 0 || s.number > 9 {
		s.number = 1
	}
	if s.day = intOption(arg(5), i, s.day); s.day != keep && (s.day < 1 || s.day > 31) {
		s.day = 1
	}
	if s.month = intOption(arg(6), i, s.month); s.month != keep && (s.month < 0 || s.month > 11) {
		s.month = 0
	}
	if s.year = intOption(arg(7), i, s.year); s.year != keep && (s.year < 1 || s.year > 9999) {
		s.year = 1
	}
	return s
}

// charOption reads a replacement character: text gives its first
// character, an integer a code point, -1 keep.
func charOption(a arrow.Array, i int, def rune) rune {
	if a == nil || a.IsNull(i) {
		return def
	}
	switch x := a.(type) {
	case *array.String:
		if r, w := utf8.DecodeRuneInString(x.Value(i)); w > 0 && r != utf8.RuneError {
			return r
		}
	case *array.Int64:
		v := x.Value(i)
		if v == keep {
			return keep
		}
		// PostgreSQL text holds no NUL.
		if v > 0 && v <= utf8.MaxRune && utf8.ValidRune(rune(v)) {
			return rune(v)
		}
	}
	return def
}

// intOption reads a number: an integer, or text holding one.
func intOption(a arrow.Array, i int, def int) int {
	if a == nil || a.IsNull(i) {
		return def
	}
	switch x := a.(type) {
	case *array.String:
		if v, err := strconv.Atoi(x.Value(i)); err == nil {
			return v
		}
	case *array.Int64:
		return int(x.Value(i))
	}
	return def
}

// sameInEveryRow reports whether every row of a (text or int8) holds
// the same value, or every row is NULL.
func sameInEveryRow(a arrow.Array) bool {
	n := a.Len()
	switch a.NullN() {
	case n:
		return true
	case 0:
	default:
		return false
	}
	switch x := a.(type) {
	case *array.String:
		// Every value is as long as the first, and the values' bytes
		// repeat with that period: the first value n times.
		offsets, data := x.ValueOffsets(), x.ValueBytes()
		width := offsets[1] - offsets[0]
		for i := 1; i < n; i++ {
			if offsets[i+1]-offsets[i] != width {
				return false
			}
		}
		return bytes.Equal(data[width:], data[:len(data)-int(width)])
	case *array.Int64:
		first := x.Value(0)
		for i := 1; i < n; i++ {
			if x.Value(i) != first {
				return false
			}
		}
	}
	return true
}
