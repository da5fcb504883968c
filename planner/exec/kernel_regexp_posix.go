package exec

import (
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// The POSIX regular expression functions that match with Go's regexp
// package: regexp_replace (without a start position), regexp_match,
// regexp_split_to_array and substring(s FROM pattern).

// substringKernel is substring of bytea, of text by position, or of text
// by a POSIX pattern (a string second argument).
func substringKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	if isBytea(args[0]) {
		return byteaSubstr(args, res)
	}
	if _, pattern := args[1].(*array.String); !pattern {
		return substr(args, res)
	}
	return regexSubstring(args, res)
}

// regexpKernel is regexp_replace(s, pattern, replacement [, flags]) and
// regexp_match(s, pattern [, flags]), with PostgreSQL's flags i (case
// insensitive) and g (every match, regexp_replace only).
func regexpKernel(match bool) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		cache := map[string]*regexp.Regexp{}
		return rowKernel(func(v []any) (any, error) {
			s, pattern := v[0].(string), v[1].(string)
			flags := ""
			if match && len(v) == 3 {
				flags = v[2].(string)
			}
			if !match && len(v) == 4 {
				flags = v[3].(string)
			}
			global, fold := false, false
			for _, f := range flags {
				switch f {
				case 'g':
					if match {
						return nil, pgerror.New(pgerror.InvalidParameterValue, "regexp_match() does not support the \"global\" option").
							WithHint("Use the regexp_matches function instead.")
					}
					global = true
				case 'i':
					fold = true
				case 'c':
					fold = false
				default:
					return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid regular expression option: \"%c\"", f)
				}
			}
			re, err := compileRegexpCached(cache, pattern, fold)
			if err != nil {
				return nil, err
			}
			if match {
				m := re.FindStringSubmatch(s)
				if m == nil {
					return nil, nil
				}
				out := make([]any, 0, len(m))
				if len(m) == 1 {
					return []any{m[0]}, nil
				}
				idx := re.FindStringSubmatchIndex(s)
				for g := 1; g < len(m); g++ {
					if idx[2*g] < 0 {
						out = append(out, nil)
					} else {
						out = append(out, m[g])
					}
				}
				return out, nil
			}
			repl := postgresReplacement(v[2].(string))
			if global {
				return re.ReplaceAllString(s, repl), nil
			}
			loc := re.FindStringSubmatchIndex(s)
			if loc == nil {
				return s, nil
			}
			var dst []byte
			dst = re.ExpandString(dst, repl, s, loc)
			return s[:loc[0]] + string(dst) + s[loc[1]:], nil
		})(args, res)
	}
}

// postgresReplacement turns PostgreSQL's replacement syntax (\1..\9 for
// groups, \& for the whole match, \\ for a backslash) into Go's.
func postgresReplacement(r string) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '$':
			b.WriteString("$$")
		case c == '\\' && i+1 < len(r) && r[i+1] >= '1' && r[i+1] <= '9':
			b.WriteString("${" + string(r[i+1]) + "}")
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '&':
			b.WriteString("${0}")
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '\\':
			b.WriteByte('\\')
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// regexSubstring is substring(s FROM pattern): the first match of the
// POSIX pattern, or of its first parenthesised group when it has one;
// NULL when nothing matches.
func regexSubstring(args []arrow.Array, res types.T) (arrow.Array, error) {
	cache := map[string]*regexp.Regexp{}
	return rowKernel(func(v []any) (any, error) {
		s, pattern := v[0].(string), v[1].(string)
		re, ok := cache[pattern]
		if !ok {
			var err error
			if re, err = regexp.Compile(pattern); err != nil {
				return nil, pgerror.New(pgerror.InvalidRegularExpression, "invalid regular expression: %v", err)
			}
			cache[pattern] = re
		}
		m := re.FindStringSubmatchIndex(s)
		switch {
		case m == nil:
			return nil, nil
		case len(m) > 2:
			if m[2] < 0 {
				return nil, nil
			}
			return s[m[2]:m[3]], nil
		}
		return s[m[0]:m[1]], nil
	})(args, res)
}

// regexpSplit is regexp_split_to_array(s, pattern [, flags]).
func regexpSplit(args []arrow.Array, res types.T) (arrow.Array, error) {
	cache := map[string]*regexp.Regexp{}
	return rowKernel(func(v []any) (any, error) {
		s, pattern := v[0].(string), v[1].(string)
		fold := len(v) == 3 && strings.ContainsRune(v[2].(string), 'i')
		re, err := compileRegexpCached(cache, pattern, fold)
		if err != nil {
			return nil, err
		}
		var out []any
		start := 0
		for _, m := range re.FindAllStringIndex(s, -1) {
			if m[1] == m[0] && (m[0] == 0 || m[0] == len(s)) {
				// An empty match at either end splits nothing off.
				continue
			}
			if m[1] == m[0] {
				out = append(out, s[start:m[0]])
				start = m[0]
				continue
			}
			out = append(out, s[start:m[0]])
			start = m[1]
		}
		return append(out, s[start:]), nil
	})(args, res)
}
