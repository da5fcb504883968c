package exec

import (
	"errors"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestParseIdent(t *testing.T) {
	long := strings.Repeat("x", 70)
	tests := []struct {
		in         string
		strict     bool
		want       []string
		wantDetail string // "" with wantErr: the error has no detail
		wantErr    bool
	}{
		{in: "Schemax.Tabley", strict: true, want: []string{"schemax", "tabley"}},
		{in: `"SchemaX"."TableY"`, strict: true, want: []string{"SchemaX", "TableY"}},
		{in: `  a  .  "b c"  `, strict: true, want: []string{"a", "b c"}},
		{in: `"a""b".c$1`, strict: true, want: []string{`a"b`, "c$1"}},
		{in: "ä.b", strict: true, want: []string{"ä", "b"}},
		{in: long, strict: true, want: []string{long[:63]}},
		{in: `"` + long + `"`, strict: true, want: []string{long}},
		{in: "foo.boo[]", strict: false, want: []string{"foo", "boo"}},
		{in: "foo.boo[]", strict: true, wantErr: true},
		{in: "a b", strict: true, wantErr: true},
		{in: "", strict: true, wantErr: true},
		{in: "1a", strict: true, wantErr: true},
		{in: `""`, strict: true, wantErr: true, wantDetail: "Quoted identifier must not be empty."},
		{in: `"a`, strict: true, wantErr: true, wantDetail: "String has unclosed double quotes."},
		{in: ".a", strict: true, wantErr: true, wantDetail: `No valid identifier before ".".`},
		{in: "a..b", strict: true, wantErr: true, wantDetail: `No valid identifier before ".".`},
		{in: "a.", strict: false, wantErr: true, wantDetail: `No valid identifier after ".".`},
	}
	for _, tc := range tests {
		got, err := ParseIdent(tc.in, tc.strict)
		if tc.wantErr {
			var pe *pgerror.Error
			if !errors.As(err, &pe) {
				t.Errorf("ParseIdent(%q, %v) = %q, %v; want a 22023 error", tc.in, tc.strict, got, err)
				continue
			}
			wantMsg := `string is not a valid identifier: "` + tc.in + `"`
			if pe.Code != pgerror.InvalidParameterValue || pe.Message != wantMsg || pe.Detail != tc.wantDetail {
				t.Errorf("ParseIdent(%q, %v) error %s %q (detail %q), want 22023 %q (detail %q)",
					tc.in, tc.strict, pe.Code, pe.Message, pe.Detail, wantMsg, tc.wantDetail)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("ParseIdent(%q, %v) = %q, %v; want %q", tc.in, tc.strict, got, err, tc.want)
		}
	}
}
