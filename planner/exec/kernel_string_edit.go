package exec

import (
	"math"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Kernels that rearrange a string's characters: reverse, translate,
// overlay and split_part.

// reverseKernel reverses the characters of a string.
func reverseKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		r := []rune(v[0].(string))
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r), nil
	})
}

func translateKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return translate(v[0].(string), v[1].(string), v[2].(string)), nil })
}

// translate replaces each character of s found in from by the character
// at the same position in to, deleting it when to is shorter.
func translate(s, from, to string) string {
	f, t := []rune(from), []rune(to)
	var b strings.Builder
	for _, r := range s {
		idx := -1
		for i, c := range f {
			if c == r {
				idx = i
				break
			}
		}
		switch {
		case idx < 0:
			b.WriteRune(r)
		case idx < len(t):
			b.WriteRune(t[idx])
		}
	}
	return b.String()
}

// overlay is overlay(s PLACING r FROM start [FOR count]), as PostgreSQL's
// text_overlay: the first start-1 characters, r, then s from character
// start+count on (from its start when that is before 1, so a negative
// count repeats a part of s). start+count must fit an integer.
func overlay(v []any) (any, error) {
	s, r := []rune(v[0].(string)), []rune(v[1].(string))
	start := v[2].(int64)
	count := int64(len(r))
	if len(v) == 4 {
		count = v[3].(int64)
	}
	from, rest, err := overlaySpan(start, count, int64(len(s)))
	if err != nil {
		return nil, err
	}
	return string(s[:from]) + string(r) + string(s[rest:]), nil
}

// overlaySpan gives the prefix length and where the kept suffix starts
// for overlay over a value of n characters or bytes.
func overlaySpan(start, count, n int64) (int64, int64, error) {
	if start <= 0 {
		return 0, 0, pgerror.New(pgerror.SubstringError, "negative substring length not allowed")
	}
	end := start + count
	if end > math.MaxInt32 || end < math.MinInt32 {
		return 0, 0, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	return min(start-1, n), min(max(end, 1)-1, n), nil
}

// splitPart is split_part(s, delimiter, n); a negative n counts from the
// end (PostgreSQL 14 and later).
func splitPart(v []any) (any, error) {
	s, delim, n := v[0].(string), v[1].(string), v[2].(int64)
	if n == 0 {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "field position must not be zero")
	}
	var parts []string
	if delim == "" {
		parts = []string{s}
	} else {
		parts = strings.Split(s, delim)
	}
	if n < 0 {
		n = int64(len(parts)) + n + 1
	}
	if n < 1 || n > int64(len(parts)) {
		return "", nil
	}
	return parts[n-1], nil
}
