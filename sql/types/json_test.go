package types

import (
	"errors"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Expected outputs and SQLSTATEs are PostgreSQL 15's json_in, jsonb_in and
// jsonb_out answers for the same input.
func TestJSONInput(t *testing.T) {
	tests := []struct {
		in       string
		typ      T
		want     string
		wantCode string
	}{
		{` {"b":1,  "a":2} `, JSON, ` {"b":1,  "a":2} `, ""},
		{`"\u0000"`, JSON, `"\u0000"`, ""},
		{`{"b": 1, "a": [1, 2.50, 1e3, -0, 1E-2], "a": "x\u00e9\/\n", "aa": null, "c": {}}`, JSONB,
			`{"a": "xé/\n", "b": 1, "c": {}, "aa": null}`, ""},
		{`[1e3, 1.50e1, -0.0, 0.00E5, 1e-3, 123456789012345678901234567890.123e2]`, JSONB,
			`[1000, 15.0, 0.0, 0, 0.001, 12345678901234567890123456789012.3]`, ""},
		{`"\ud83d\ude00 \u001f \"q\" \\"`, JSONB, `"😀 \u001f \"q\" \\"`, ""},
		{`  [ ]  `, JSONB, `[]`, ""},
		{`{"a":{"c":1,"b":[true,false,null]}}`, JSONB, `{"a": {"b": [true, false, null], "c": 1}}`, ""},
		{`01`, JSON, "", "22P02"},
		{`{"a":1,}`, JSON, "", "22P02"},
		{`[1,2`, JSONB, "", "22P02"},
		{`nul`, JSON, "", "22P02"},
		{"\"a\tb\"", JSON, "", "22P02"},
		{`1 2`, JSON, "", "22P02"},
		{`-`, JSON, "", "22P02"},
		{`1.`, JSON, "", "22P02"},
		{`"\x"`, JSON, "", "22P02"},
		{`"\u12"`, JSON, "", "22P02"},
		{``, JSON, "", "22P02"},
		{`"\u0000"`, JSONB, "", "22P05"},
		{`"\ud83d"`, JSONB, "", "22P02"},
		{`"\ude00"`, JSONB, "", "22P02"},
	}
	for _, tt := range tests {
		t.Run(tt.typ.Name()+" "+tt.in, func(t *testing.T) {
			v, err := ParseText(tt.in, tt.typ)
			if tt.wantCode != "" {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != tt.wantCode {
					t.Fatalf("got %v, %v; want error %s", v, err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.(string) != tt.want {
				t.Errorf("got %s, want %s", v, tt.want)
			}
		})
	}
}

func TestJSONDepthIsBounded(t *testing.T) {
	deep := make([]byte, 0, 2*maxJSONDepth+2)
	for i := 0; i <= maxJSONDepth; i++ {
		deep = append(deep, '[')
	}
	if _, err := ParseText(string(deep), JSONB); err == nil {
		t.Fatal("no error for nesting past the limit")
	}
}

func TestCompareJSONB(t *testing.T) {
	// Each pair is ordered as PostgreSQL 15's jsonb_cmp orders it.
	tests := []struct {
		a, b string
		want int
	}{
		{`[]`, `null`, -1},
		{`null`, `"a"`, -1},
		{`"a"`, `"b"`, -1},
		{`"z"`, `1`, -1},
		{`9`, `10`, -1},
		{`1.0`, `1`, 0},
		{`2`, `false`, -1},
		{`false`, `true`, -1},
		{`true`, `[3]`, -1},
		{`[3]`, `[1, 2]`, -1},
		{`[1, 2]`, `[1, 3]`, -1},
		{`[1, 2]`, `{"a": 1}`, -1},
		{`{"a": 1}`, `{"a": 2}`, -1},
		{`{"a": 2}`, `{"b": 1}`, -1},
		{`{"b": 1}`, `{"a": 1, "b": 2}`, -1},
		{`[1, [2]]`, `[1, {"a": 1}]`, -1},
		{`["a"]`, `[null]`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.a+" vs "+tt.b, func(t *testing.T) {
			a, err := NormalizeJSONB(tt.a)
			if err != nil {
				t.Fatal(err)
			}
			b, err := NormalizeJSONB(tt.b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := CompareJSONB(a, b)
			if err != nil || got != tt.want {
				t.Errorf("CompareJSONB = %d, %v; want %d", got, err, tt.want)
			}
			back, _ := CompareJSONB(b, a)
			if back != -tt.want {
				t.Errorf("reversed = %d, want %d", back, -tt.want)
			}
		})
	}
}

func TestDecodeBinaryJSON(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		typ     T
		want    string
		wantErr bool
	}{
		{"json keeps text", `{"b":1, "a":2}`, JSON, `{"b":1, "a":2}`, false},
		{"jsonb with version", "\x01" + `{"b":1, "a":2}`, JSONB, `{"a": 2, "b": 1}`, false},
		{"jsonb without version", `{"a":1}`, JSONB, "", true},
		{"json invalid", `{`, JSON, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := DecodeBinary([]byte(tt.data), tt.typ)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("got %v, want an error", v)
				}
				return
			}
			if err != nil || v.(string) != tt.want {
				t.Errorf("got %v, %v; want %s", v, err, tt.want)
			}
		})
	}
}

func TestJSONBElement(t *testing.T) {
	cases := []struct {
		doc  string
		idx  int
		want string
		ok   bool
	}{
		{`"str"`, 0, `"str"`, true},
		{`"str"`, -1, `"str"`, true},
		{`"str"`, 1, "", false},
		{`null`, 0, `null`, true},
		{`[1, 2]`, -1, `2`, true},
		{`[]`, 0, "", false},
		{`{"a": 1}`, 0, "", false},
	}
	for _, c := range cases {
		got, ok := JSONBElement(c.doc, c.idx)
		if got != c.want || ok != c.ok {
			t.Errorf("JSONBElement(%s, %d) = %q, %v; want %q, %v", c.doc, c.idx, got, ok, c.want, c.ok)
		}
	}
}
