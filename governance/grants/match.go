package grants

import (
	"strings"
	"unicode/utf8"
)

// Covers reports whether a policy on resource policy applies to a request
// for resource request, under the same matching rules as covers: what an
// object's access privileges are listed from.
func Covers(policy, request Resource) bool { return covers(policy, request) }

// covers reports whether a policy on resource pr applies to a request for
// resource r under Ranger's matching rules, with the polaris service
// definition's defaults (wildcards on, case ignored): each level's value
// is a pattern where * and ? are wildcards; a policy naming fewer levels
// than the request is an ancestor and never applies; a policy naming more
// applies only when every extra level is *.
func covers(pr, r Resource) bool {
	pv, rv := pr.values(), r.values()
	for i := range rv {
		switch {
		case rv[i] == "":
			if pv[i] != "" && pv[i] != Wildcard {
				return false
			}
		case pv[i] == "":
			return false
		case !globMatch(strings.ToLower(pv[i]), strings.ToLower(rv[i])):
			return false
		}
	}
	return true
}

// globMatch matches s against a pattern where * is any run of characters
// and ? any one character.
func globMatch(pattern, s string) bool {
	// Classic two-pointer match: on a mismatch, go back to the last * and
	// let it swallow one more character.
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == '?':
			_, n := utf8.DecodeRuneInString(s[i:])
			p++
			i += n
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			_, n := utf8.DecodeRuneInString(s[mark:])
			mark += n
			p, i = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
