package exec

import (
	"regexp"
	"testing"
)

// TestLikeSegmentsMatchAsRegexp: every pattern of up to four characters
// over a, é, %, _ and backslash, against every text of up to four
// characters over a, é, b and %, matches by literal runs exactly as by
// the regular expression LIKE otherwise compiles to.
func TestLikeSegmentsMatchAsRegexp(t *testing.T) {
	patterns := strings4([]string{"a", "é", "%", "_", `\`})
	texts := strings4([]string{"a", "é", "b", "%"})
	checked := 0
	for _, pat := range patterns {
		segs, wild, ok := likeSegments(pat)
		if !ok {
			continue
		}
		expr, dangling := likeToRegexp(pat, false)
		if dangling {
			t.Fatalf("%q: segments for a pattern ending with a lone escape", pat)
		}
		re := regexp.MustCompile(expr + "$")
		m := &likeMatcher{segments: segs, wild: wild}
		for _, s := range texts {
			got, _ := m.match(s)
			if want := re.MatchString(s); got != want {
				t.Fatalf("%q LIKE %q: segments %v, regexp %v", s, pat, got, want)
			}
			checked++
		}
	}
	if checked < 100000 {
		t.Fatalf("only %d pairs checked", checked)
	}
}

// strings4 lists the strings of up to four of the given pieces.
func strings4(pieces []string) []string {
	out := []string{""}
	prev := []string{""}
	for n := 0; n < 4; n++ {
		var next []string
		for _, p := range prev {
			for _, c := range pieces {
				next = append(next, p+c)
			}
		}
		out = append(out, next...)
		prev = next
	}
	return out
}
