package extgrammar

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// FuzzParse checks that no text makes Parse panic, that every error
// carries a SQLSTATE and a cursor inside the text, and that every
// statement parsed renders SQL that parses back to it.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		f.Fatalf("no testdata: %v", err)
	}
	for _, path := range files {
		for _, c := range readCases(f, path) {
			if c.input != "" {
				f.Add(c.input)
			}
		}
	}
	f.Fuzz(func(t *testing.T, query string) {
		stmt, ok, err := Parse(query)
		switch {
		case !ok:
			if stmt != nil || err != nil {
				t.Fatalf("ok=false with statement %v, error %v", stmt, err)
			}
		case err != nil:
			var pe *pgerror.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %T without SQLSTATE: %v", err, err)
			}
			if len(pe.Code) != 5 || pe.Position < 1 || int(pe.Position) > utf8.RuneCountInString(query)+1 {
				t.Fatalf("error %q with code %q at %d of %q", pe.Message, pe.Code, pe.Position, query)
			}
		default:
			sql := stmt.String()
			again, ok, err := Parse(sql)
			if !ok || err != nil || !reflect.DeepEqual(again, stmt) {
				t.Fatalf("%q parses to %q, which parses to %v (ok=%v, err=%v)", query, sql, again, ok, err)
			}
		}
	})
}
