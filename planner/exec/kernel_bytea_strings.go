package exec

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// withByteaForm runs bytea when the first argument is bytea and text
// otherwise.
func withByteaForm(bytea, text scalarKernel) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		if len(args) > 0 && isBytea(args[0]) {
			return bytea(args, res)
		}
		return text(args, res)
	}
}

func byteaTrimKernel(left, right bool) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		in, set := args[0].(*array.Binary), args[1].(*array.Binary)
		return binaryResult(args, func(i int, buf []byte) ([]byte, error) {
			b, cut := in.Value(i), set.Value(i)
			if left {
				for len(b) > 0 && bytes.IndexByte(cut, b[0]) >= 0 {
					b = b[1:]
				}
			}
			if right {
				for len(b) > 0 && bytes.IndexByte(cut, b[len(b)-1]) >= 0 {
					b = b[:len(b)-1]
				}
			}
			return append(buf, b...), nil
		})
	}
}

// byteaPositionKernel is position(sub IN bytes): 1-based, 1 for an empty
// sub, 0 when absent.
func byteaPositionKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in, sub := args[0].(*array.Binary), args[1].(*array.Binary)
	return int32Result(args, func(i int) (int32, error) {
		return int32(bytes.Index(in.Value(i), sub.Value(i)) + 1), nil
	})
}

// byteaMD5Kernel is md5(bytea): the digest in hexadecimal text.
func byteaMD5Kernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in := args[0].(*array.Binary)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(in.Len())
	var hexSum [2 * md5.Size]byte
	for i := range in.Len() {
		if in.IsNull(i) {
			b.AppendNull()
			continue
		}
		sum := md5.Sum(in.Value(i))
		hex.Encode(hexSum[:], sum[:])
		b.BinaryBuilder.Append(hexSum[:])
	}
	return b.NewArray(), nil
}

// byteaOverlayKernel is overlay(bytes PLACING sub FROM start [FOR
// count]), as PostgreSQL's bytea_overlay (overlaySpan).
func byteaOverlayKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in, sub, starts := args[0].(*array.Binary), args[1].(*array.Binary), values[int32](args[2])
	var counts []int32
	if len(args) == 4 {
		counts = values[int32](args[3])
	}
	return binaryResult(args, func(i int, buf []byte) ([]byte, error) {
		b, r := in.Value(i), sub.Value(i)
		count := int64(len(r))
		if counts != nil {
			count = int64(counts[i])
		}
		from, rest, err := overlaySpan(int64(starts[i]), count, int64(len(b)))
		if err != nil {
			return buf, err
		}
		buf = append(buf, b[:from]...)
		buf = append(buf, r...)
		return append(buf, b[rest:]...), nil
	})
}

// byteaLikeKernel is bytes LIKE pattern (negated: NOT LIKE), byte by
// byte.
func byteaLikeKernel(negated bool) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		in, pat := args[0].(*array.Binary), args[1].(*array.Binary)
		n := in.Len()
		out := make([]byte, bitutil.BytesForBits(int64(n)))
		validity, nulls := nullsOf(args)
		for i := 0; i < n; i++ {
			if !validAt(validity, i) {
				continue
			}
			m, err := likeBytes(in.Value(i), pat.Value(i))
			if err != nil {
				return nil, err
			}
			if (m == likeTrue) != negated {
				bitutil.SetBit(out, i)
			}
		}
		return newBool(n, out, validity, nulls), nil
	}
}

// notLikeKernel is notlike(text, text).
func notLikeKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	out, err := matchKernel("like")(args, res)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	return not(out), nil
}

type likeResult int

const (
	likeFalse likeResult = iota
	likeTrue
	// likeAbort: no later start in the text can match either.
	likeAbort
)

func errLikeEndsInEscape() error {
	return pgerror.New(pgerror.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
}

// likeBytes matches t against the LIKE pattern p byte by byte, as
// PostgreSQL's MatchText does for bytea: % any run, _ one byte, a
// backslash escapes the next byte; a pattern ending in a lone backslash
// fails once the match reaches it.
func likeBytes(t, p []byte) (likeResult, error) {
	if len(p) == 1 && p[0] == '%' {
		return likeTrue, nil
	}
	for len(t) > 0 && len(p) > 0 {
		switch p[0] {
		case '\\':
			p = p[1:]
			if len(p) == 0 {
				return likeFalse, errLikeEndsInEscape()
			}
			if p[0] != t[0] {
				return likeFalse, nil
			}
		case '%':
			p = p[1:]
			for len(p) > 0 {
				if p[0] == '%' {
					p = p[1:]
				} else if p[0] == '_' {
					if len(t) == 0 {
						return likeAbort, nil
					}
					t, p = t[1:], p[1:]
				} else {
					break
				}
			}
			if len(p) == 0 {
				return likeTrue, nil
			}
			first := p[0]
			if first == '\\' {
				if len(p) < 2 {
					return likeFalse, errLikeEndsInEscape()
				}
				first = p[1]
			}
			for ; len(t) > 0; t = t[1:] {
				if t[0] == first {
					m, err := likeBytes(t, p)
					if err != nil || m != likeFalse {
						return m, err
					}
				}
			}
			return likeAbort, nil
		case '_':
		default:
			if p[0] != t[0] {
				return likeFalse, nil
			}
		}
		t, p = t[1:], p[1:]
	}
	if len(t) > 0 {
		return likeFalse, nil
	}
	for len(p) > 0 && p[0] == '%' {
		p = p[1:]
	}
	if len(p) == 0 {
		return likeTrue, nil
	}
	return likeAbort, nil
}

// byteaLikeEscapeKernel is like_escape(pattern, escape) over bytea: the
// pattern rewritten with backslash as its escape byte; an empty escape
// turns escaping off, one of more than one byte is an error.
func byteaLikeEscapeKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	pats, escs := args[0].(*array.Binary), args[1].(*array.Binary)
	return binaryResult(args, func(i int, buf []byte) ([]byte, error) {
		pat, esc := pats.Value(i), escs.Value(i)
		switch {
		case len(esc) > 1:
			return buf, pgerror.New(pgerror.InvalidEscapeSequence, "invalid escape string").
				WithHint("Escape string must be empty or one character.")
		case len(esc) == 0:
			for _, c := range pat {
				if c == '\\' {
					buf = append(buf, '\\')
				}
				buf = append(buf, c)
			}
			return buf, nil
		case esc[0] == '\\':
			return append(buf, pat...), nil
		}
		afterEscape := false
		for _, c := range pat {
			switch {
			case c == esc[0] && !afterEscape:
				buf = append(buf, '\\')
				afterEscape = true
				continue
			case c == '\\':
				buf = append(buf, '\\')
				if !afterEscape {
					buf = append(buf, '\\')
				}
			default:
				buf = append(buf, c)
			}
			afterEscape = false
		}
		return buf, nil
	})
}
