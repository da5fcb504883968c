package sql

import (
	"errors"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func copyStmt(t *testing.T, query string) *pg_query.CopyStmt {
	t.Helper()
	tree, err := pg_query.Parse(query)
	if err != nil {
		t.Fatalf("parse %q: %v", query, err)
	}
	c := tree.Stmts[0].Stmt.GetCopyStmt()
	if c == nil {
		t.Fatalf("%q is not a COPY", query)
	}
	return c
}

// TestCopyOptions checks option handling against what PostgreSQL 15
// answers for the same statements: defaults, old and new syntax, and each
// refusal with its SQLSTATE, message and position.
func TestCopyOptions(t *testing.T) {
	const t0 = "copy t to stdout "
	text := CopyFormat{Mode: CopyText, Delimiter: '\t', Null: `\N`}
	csv := CopyFormat{Mode: CopyCSV, Delimiter: ',', Quote: '"', Escape: '"'}
	with := func(f CopyFormat, change func(*CopyFormat)) CopyFormat { change(&f); return f }
	tests := []struct {
		opts    string
		want    CopyFormat
		code    string
		message string
		pos     int32
	}{
		{opts: "", want: text},
		{opts: "(format text)", want: text},
		{opts: "(format binary)", want: CopyFormat{Mode: CopyBinary, Delimiter: '\t', Null: `\N`}},
		{opts: "binary", want: CopyFormat{Mode: CopyBinary, Delimiter: '\t', Null: `\N`}},
		{opts: "(format csv)", want: csv},
		{opts: "csv header", want: with(csv, func(f *CopyFormat) { f.Header = true })},
		{opts: "with csv header delimiter as ';' null as 'none' quote as '''' escape as '\\'",
			want: CopyFormat{Mode: CopyCSV, Header: true, Delimiter: ';', Null: "none", Quote: '\'', Escape: '\\'}},
		{opts: "(format csv, quote '''')", want: with(csv, func(f *CopyFormat) { f.Quote, f.Escape = '\'', '\'' })},
		{opts: "(header)", want: with(text, func(f *CopyFormat) { f.Header = true })},
		{opts: "(header true)", want: with(text, func(f *CopyFormat) { f.Header = true })},
		{opts: "(header 'off')", want: text},
		{opts: "(header 0)", want: text},
		{opts: "(header 1)", want: with(text, func(f *CopyFormat) { f.Header = true })},
		{opts: "(delimiter '|', null '')", want: with(text, func(f *CopyFormat) { f.Delimiter, f.Null = '|', "" })},
		{opts: "using delimiters ','", want: with(text, func(f *CopyFormat) { f.Delimiter = ',' })},
		{opts: "(freeze)", want: text},
		{opts: "(encoding 'UTF8')", want: text},
		{opts: "(encoding 'utf-8')", want: text},
		{opts: "(convert_selectively (a))", want: text},
		{opts: "(FORMAT csv)", want: csv},

		{opts: "(format bogus)", code: "22023", message: `COPY format "bogus" not recognized`, pos: 19},
		{opts: "(format 'CSV')", code: "22023", message: `COPY format "CSV" not recognized`, pos: 19},
		{opts: "(format)", code: "42601", message: "format requires a parameter"},
		{opts: "(format csv, format text)", code: "42601", message: "conflicting or redundant options", pos: 31},
		{opts: "(header, header false)", code: "42601", message: "conflicting or redundant options", pos: 27},
		{opts: "(header 'yes')", code: "42601", message: `header requires a Boolean value or "match"`},
		{opts: "(header 2)", code: "42601", message: `header requires a Boolean value or "match"`},
		{opts: "(header match)", code: "0A000", message: `cannot use "match" with HEADER in COPY TO`},
		{opts: "(freeze 'maybe')", code: "42601", message: "freeze requires a Boolean value"},
		{opts: "(oids)", code: "42601", message: `option "oids" not recognized`, pos: 19},
		{opts: "(default 'x')", code: "42601", message: `option "default" not recognized`, pos: 19},
		{opts: "(format binary, delimiter ',')", code: "42601", message: "cannot specify DELIMITER in BINARY mode"},
		{opts: "(format binary, null 'x')", code: "42601", message: "cannot specify NULL in BINARY mode"},
		{opts: "(format binary, header)", code: "0A000", message: "cannot specify HEADER in BINARY mode"},
		{opts: "(delimiter ',,')", code: "0A000", message: "COPY delimiter must be a single one-byte character"},
		{opts: "(delimiter '')", code: "0A000", message: "COPY delimiter must be a single one-byte character"},
		{opts: "(delimiter E'\\n')", code: "22023", message: "COPY delimiter cannot be newline or carriage return"},
		{opts: "(null E'\\r')", code: "22023", message: "COPY null representation cannot use newline or carriage return"},
		{opts: "(delimiter '\\')", code: "22023", message: `COPY delimiter cannot be "\"`},
		{opts: "(delimiter 'a')", code: "22023", message: `COPY delimiter cannot be "a"`},
		{opts: "(delimiter 1)", code: "22023", message: `COPY delimiter cannot be "1"`},
		{opts: "(quote 'x')", code: "0A000", message: "COPY quote available only in CSV mode"},
		{opts: "(escape 'x')", code: "0A000", message: "COPY escape available only in CSV mode"},
		{opts: "(format csv, quote 'ab')", code: "0A000", message: "COPY quote must be a single one-byte character"},
		{opts: "(format csv, escape 'ab')", code: "0A000", message: "COPY escape must be a single one-byte character"},
		{opts: "(format csv, delimiter '\"')", code: "22023", message: "COPY delimiter and quote must be different"},
		{opts: "(force_quote *)", code: "0A000", message: "COPY force quote available only in CSV mode"},
		{opts: "(format csv, force_quote 'a')", code: "22023", message: `argument to option "force_quote" must be a list of column names`, pos: 31},
		{opts: "(format csv, force_quote (a), force_quote (a))", code: "42601", message: "conflicting or redundant options", pos: 48},
		{opts: "(force_not_null (a))", code: "0A000", message: "COPY force not null available only in CSV mode"},
		{opts: "(format csv, force_not_null (a))", code: "0A000", message: "COPY force not null only available using COPY FROM"},
		{opts: "(format csv, force_null (a))", code: "0A000", message: "COPY force null only available using COPY FROM"},
		{opts: "(null E'\\t')", code: "0A000", message: "COPY delimiter must not appear in the NULL specification"},
		{opts: "(format csv, null 'a\"')", code: "0A000", message: "CSV quote character must not appear in the NULL specification"},
		{opts: "(encoding 'bogus')", code: "22023", message: `argument to option "encoding" must be a valid encoding name`, pos: 19},
		{opts: "(encoding 'latin1')", code: "0A000", message: "COPY with ENCODING latin1 is not supported yet"},
	}
	for _, tt := range tests {
		t.Run(tt.opts, func(t *testing.T) {
			o, err := parseCopyOptions(copyStmt(t, t0+tt.opts).Options)
			if tt.code != "" {
				var pe *pgerror.Error
				if !errors.As(err, &pe) {
					t.Fatalf("got %v, want %s %s", err, tt.code, tt.message)
				}
				if pe.Code != tt.code || pe.Message != tt.message || pe.Position != tt.pos {
					t.Fatalf("got %s %q at %d, want %s %q at %d", pe.Code, pe.Message, pe.Position, tt.code, tt.message, tt.pos)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := o.format
			if got.Mode != tt.want.Mode || got.Header != tt.want.Header || got.Delimiter != tt.want.Delimiter ||
				got.Null != tt.want.Null || got.Quote != tt.want.Quote || got.Escape != tt.want.Escape {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCopyForceQuoteColumns(t *testing.T) {
	table := []Column{{Name: "id"}, {Name: "region"}, {Name: "ssn"}}
	tests := []struct {
		name    string
		opts    string
		copied  []string
		relname string
		want    []bool
		err     string
	}{
		{"all", "(format csv, force_quote *)", []string{"id", "ssn"}, "orders", []bool{true, true}, ""},
		{"table columns by position in the list", "(format csv, force_quote (ssn))", []string{"ssn", "id"}, "orders", []bool{true, false}, ""},
		{"none", "(format csv)", []string{"id"}, "orders", nil, ""},
		{"not copied", "(format csv, force_quote (region))", []string{"id"}, "orders", nil, `42P10 FORCE_QUOTE column "region" not referenced by COPY`},
		{"not in the table", "(format csv, force_quote (nope))", []string{"id"}, "orders", nil, `42703 column "nope" of relation "orders" does not exist`},
		{"not in the query", "(format csv, force_quote (nope))", []string{"id", "region", "ssn"}, "", nil, `42703 column "nope" does not exist`},
		{"repeated", "(format csv, force_quote (id, id))", []string{"id"}, "orders", nil, `42701 column "id" specified more than once`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseCopyOptions(copyStmt(t, "copy t to stdout "+tt.opts).Options)
			if err != nil {
				t.Fatal(err)
			}
			err = o.resolveForceQuote(table, tt.copied, tt.relname)
			if tt.err != "" {
				pe := pgerror.From(err)
				if err == nil || pe.Code+" "+pe.Message != tt.err {
					t.Fatalf("got %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(o.format.ForceQuote) != len(tt.want) {
				t.Fatalf("got %v, want %v", o.format.ForceQuote, tt.want)
			}
			for i := range tt.want {
				if o.format.ForceQuote[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", o.format.ForceQuote, tt.want)
				}
			}
		})
	}
}
