package exec

import (
	"errors"
	"slices"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestCompileARERejectsWhatGoCannotMatchAlike(t *testing.T) {
	tests := []struct {
		pattern, flags, code string
	}{
		{`(a)\1`, "", pgerror.FeatureNotSupported},
		{`a(?=b)`, "", pgerror.FeatureNotSupported},
		{`a(?!b)`, "", pgerror.FeatureNotSupported},
		{`a+?`, "", pgerror.FeatureNotSupported},
		{`a{2,3}?`, "", pgerror.FeatureNotSupported},
		{`\ma`, "", pgerror.FeatureNotSupported},
		{`[[.a.]]`, "", pgerror.FeatureNotSupported},
		{`[[=a=]]`, "", pgerror.FeatureNotSupported},
		{`a`, "b", pgerror.FeatureNotSupported},
		{`a`, "e", pgerror.FeatureNotSupported},
		{`a`, "p", pgerror.FeatureNotSupported},
		{`a**`, "", pgerror.InvalidRegularExpression},
		{`a{256}`, "", pgerror.InvalidRegularExpression},
		{`a{3,2}`, "", pgerror.InvalidRegularExpression},
		{`a{2`, "", pgerror.InvalidRegularExpression},
		{`\q`, "", pgerror.InvalidRegularExpression},
		{`\`, "", pgerror.InvalidRegularExpression},
		{`[a`, "", pgerror.InvalidRegularExpression},
		{`[[:nope:]]`, "", pgerror.InvalidRegularExpression},
		{`\u12`, "", pgerror.InvalidRegularExpression},
		{`(`, "", pgerror.InvalidRegularExpression},
	}
	for _, tt := range tests {
		flags, err := parseAREFlags(tt.flags)
		if err == nil {
			_, err = compileARE(tt.pattern, flags)
		}
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != tt.code {
			t.Errorf("compileARE(%q, %q) = %v, want SQLSTATE %s", tt.pattern, tt.flags, err, tt.code)
		}
	}
}

func TestAREFindAtMatchesAsPostgreSQL(t *testing.T) {
	tests := []struct {
		pattern, flags, s string
		pos               int
		want              []int // the whole match, nil for none
	}{
		{`a|ab|abc`, "", "abcd", 0, []int{0, 3}},
		{`x*|xyz`, "", "xyz", 0, []int{0, 3}},
		{`^a`, "", "aaa", 1, nil},
		{`\Aa`, "", "aaa", 1, nil},
		{`^a`, "n", "a\na", 1, []int{2, 3}},
		{`^a`, "n", "ba", 1, nil},
		{`\ya`, "", "xa a", 1, []int{3, 4}},
		{`\Ya`, "", "xa a", 1, []int{1, 2}},
		{`\s`, "", "a\vb", 0, []int{1, 2}},
		{`\S`, "", "\v\tb", 0, []int{2, 3}},
		{`.`, "", "\n", 0, []int{0, 1}},
		{`.`, "n", "\n", 0, nil},
		{`[^a]`, "n", "\nb", 0, []int{1, 2}},
		{`\D`, "n", "\n1b", 0, []int{0, 1}},
		{`K`, "i", "\u212a", 0, nil},
		{`k`, "i", "K", 0, []int{0, 1}},
		{`ü`, "i", "Ü", 0, nil},
		{`[[:alpha:]]`, "", "ü", 0, nil},
		{`\w`, "", "é_", 0, []int{2, 3}},
		{`a b # comment`, "x", "ab", 0, []int{0, 2}},
		{`\e`, "", "a\x1b", 0, []int{1, 2}},
		{`[\e]`, "i", "E\x1b", 0, []int{1, 2}},
		{`a.`, "q", "ab a.", 0, []int{3, 5}},
		{`\B`, "", `a\`, 0, []int{1, 2}},
		{`\Z`, "", "a\n", 0, []int{2, 2}},
	}
	for _, tt := range tests {
		flags, err := parseAREFlags(tt.flags)
		if err != nil {
			t.Fatal(err)
		}
		re, err := compileARE(tt.pattern, flags)
		if err != nil {
			t.Errorf("compileARE(%q, %q): %v", tt.pattern, tt.flags, err)
			continue
		}
		got := re.findAt(tt.s, tt.pos)
		if got != nil {
			got = got[:2]
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q (flags %q) in %q from %d: got %v, want %v", tt.pattern, tt.flags, tt.s, tt.pos, got, tt.want)
		}
	}
}
