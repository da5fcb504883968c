package exec

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// formatRow renders one row of format(f, args...) as PostgreSQL's
// text_format does. A specifier is %[argpos$][-...][width|*[widthpos$]]
// followed by s, I or L: the width pads to that many characters, on the
// left unless the - flag is given or the width (from an argument) is
// negative. The arguments arrive as text, so a width argument is read
// back as an integer, as PostgreSQL does for non-integer types.
func formatRow(f string, args []arrow.Array, r int) (string, error) {
	var b strings.Builder
	next := 0 // the next argument, 0 being the first after the format
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		i++
		if i >= len(f) {
			return "", errUnterminatedFormat()
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		spec, end, err := parseFormatSpec(f, i)
		if err != nil {
			return "", err
		}
		i = end
		conv := f[i]
		if conv != 's' && conv != 'I' && conv != 'L' {
			c, _ := utf8.DecodeRuneInString(f[i:])
			return "", pgerror.New(pgerror.InvalidParameterValue, "unrecognized format() type specifier \"%c\"", c).
				WithHint("For a single \"%%\" use \"%%%%\".")
		}
		width := spec.width
		if spec.widthPos >= 0 {
			if spec.widthPos > 0 {
				next = spec.widthPos - 1
			}
			if next >= len(args) {
				return "", errTooFewFormatArgs()
			}
			if width, err = formatWidthArg(args[next], r); err != nil {
				return "", err
			}
			next++
		}
		if spec.argPos > 0 {
			next = spec.argPos - 1
		}
		if next >= len(args) {
			return "", errTooFewFormatArgs()
		}
		a := args[next]
		next++
		var text string
		switch {
		case a.IsNull(r) && conv == 'I':
			return "", pgerror.New(pgerror.NullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
		case a.IsNull(r) && conv == 'L':
			text = "NULL"
		case a.IsNull(r):
		case conv == 'I':
			text = QuoteIdent(strArg(a).Value(r))
		case conv == 'L':
			text = quoteLiteral(strArg(a).Value(r))
		default:
			text = strArg(a).Value(r)
		}
		if err := appendPadded(&b, text, spec.minus, width); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// formatSpec is the optional part of a format() specifier; positions
// count from 1, -1 when absent (widthPos 0: * without a position).
type formatSpec struct {
	argPos, widthPos int
	minus            bool
	width            int
}

// parseFormatSpec parses the optional part of a specifier starting at
// f[i]; end is the index of the conversion character.
func parseFormatSpec(f string, i int) (formatSpec, int, error) {
	spec := formatSpec{argPos: -1, widthPos: -1}
	n, i, found, err := formatDigits(f, i)
	if err != nil {
		return spec, 0, err
	}
	if found {
		if f[i] != '$' {
			spec.width = n
			return spec, i, nil
		}
		if n == 0 {
			return spec, 0, errFormatArgZero()
		}
		spec.argPos = n
		if i++; i >= len(f) {
			return spec, 0, errUnterminatedFormat()
		}
	}
	for f[i] == '-' {
		spec.minus = true
		if i++; i >= len(f) {
			return spec, 0, errUnterminatedFormat()
		}
	}
	if f[i] == '*' {
		if i++; i >= len(f) {
			return spec, 0, errUnterminatedFormat()
		}
		spec.widthPos = 0
		if n, i, found, err = formatDigits(f, i); err != nil {
			return spec, 0, err
		}
		if found {
			if f[i] != '$' {
				return spec, 0, pgerror.New(pgerror.InvalidParameterValue, "width argument position must be ended by \"$\"")
			}
			if n == 0 {
				return spec, 0, errFormatArgZero()
			}
			spec.widthPos = n
			if i++; i >= len(f) {
				return spec, 0, errUnterminatedFormat()
			}
		}
		return spec, i, nil
	}
	if n, i, found, err = formatDigits(f, i); err != nil {
		return spec, 0, err
	}
	if found {
		spec.width = n
	}
	return spec, i, nil
}

// formatDigits reads a decimal number at f[i:]; the string may not end
// within or right after it (a conversion character must follow).
func formatDigits(f string, i int) (n, end int, found bool, err error) {
	for i < len(f) && f[i] >= '0' && f[i] <= '9' {
		n = n*10 + int(f[i]-'0')
		if n > math.MaxInt32 {
			return 0, 0, false, pgerror.New(pgerror.NumericValueOutOfRange, "number is out of range")
		}
		found = true
		i++
	}
	if i >= len(f) {
		return 0, 0, false, errUnterminatedFormat()
	}
	return n, i, found, nil
}

// formatWidthArg reads a width argument: NULL is no width, other values
// are read as an integer.
func formatWidthArg(a arrow.Array, r int) (int, error) {
	if a.IsNull(r) {
		return 0, nil
	}
	s := strArg(a).Value(r)
	t := strings.TrimSpace(s)
	v, err := strconv.ParseInt(t, 10, 32)
	if errors.Is(err, strconv.ErrRange) {
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "value \"%s\" is out of range for type integer", s)
	}
	if err != nil {
		return 0, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type integer: \"%s\"", s)
	}
	return int(v), nil
}

// appendPadded writes s padded with spaces to width characters.
func appendPadded(b *strings.Builder, s string, left bool, width int) error {
	if width < 0 {
		if width == math.MinInt32 {
			return pgerror.New(pgerror.NumericValueOutOfRange, "number is out of range")
		}
		left, width = true, -width
	}
	pad := width - utf8.RuneCountInString(s)
	if !left && pad > 0 {
		b.WriteString(strings.Repeat(" ", pad))
	}
	b.WriteString(s)
	if left && pad > 0 {
		b.WriteString(strings.Repeat(" ", pad))
	}
	return nil
}

func errUnterminatedFormat() error {
	return pgerror.New(pgerror.InvalidParameterValue, "unterminated format() type specifier").
		WithHint("For a single \"%%\" use \"%%%%\".")
}

func errTooFewFormatArgs() error {
	return pgerror.New(pgerror.InvalidParameterValue, "too few arguments for format()")
}

func errFormatArgZero() error {
	return pgerror.New(pgerror.InvalidParameterValue, "format specifies argument 0, but arguments are numbered from 1")
}
