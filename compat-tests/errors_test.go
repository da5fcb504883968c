package compattests

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// errorCase is a statement the server must refuse with a SQLSTATE and,
// where PostgreSQL reports one, a 1-based character position.
type errorCase struct {
	name     string
	sql      string
	code     string
	position int32 // 0: no position expected
	// message is a fragment the primary message must contain.
	message string
}

var errorCases = []errorCase{
	{"syntax error", "SELEC 1", "42601", 1, `syntax error at or near "SELEC"`},
	{"unknown table", "SELECT * FROM acdemo.nope", "42P01", 15, `relation "acdemo.nope" does not exist`},
	{"unknown column", "SELECT nope FROM acdemo.orders", "42703", 8, `column "nope" does not exist`},
	{"division by zero", "SELECT 1/0", "22012", 0, "division by zero"},
	{"unsupported record value", "SELECT ROW(id, amount) FROM acdemo.orders", "0A000", 0, ""},
}

func TestErrorsViaPgx(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	// One connection for every case: each error must leave it usable.
	conn := connect(t, ctx, shared.server, shared.token)
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := conn.Exec(ctx, tt.sql)
			if err == nil {
				t.Fatalf("%s succeeded", tt.sql)
			}
			pe := asPgError(t, err)
			if pe.Code != tt.code {
				t.Errorf("code = %s (%s), want %s", pe.Code, pe.Message, tt.code)
			}
			if pe.Severity != "ERROR" {
				t.Errorf("severity = %s, want ERROR", pe.Severity)
			}
			if tt.position != 0 && pe.Position != tt.position {
				t.Errorf("position = %d, want %d", pe.Position, tt.position)
			}
			if !strings.Contains(pe.Message, tt.message) {
				t.Errorf("message = %q, want it to contain %q", pe.Message, tt.message)
			}
			if pe.Message == "" {
				t.Error("empty message")
			}
			assertSelectOne(t, ctx, conn)
		})
	}
}

func TestErrorsViaPsql(t *testing.T) {
	t.Parallel()
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := runPsql(t, shared.server, psqlRun{password: shared.token,
				args: []string{"-v", "VERBOSITY=verbose", "-A", "-t", "-c", tt.sql}})
			if res.exitCode != 1 {
				t.Fatalf("psql exited %d, want 1 (SQL error with ON_ERROR_STOP)\nstdout:\n%s\nstderr:\n%s", res.exitCode, res.stdout, res.stderr)
			}
			if want := "ERROR:  " + tt.code + ": " + tt.message; !strings.Contains(res.stderr, want) {
				t.Errorf("stderr = %q, want it to contain %q", res.stderr, want)
			}
			if tt.position != 0 {
				if got := caretPosition(res.stderr); got != int(tt.position) {
					t.Errorf("psql caret at character %d, want %d:\n%s", got, tt.position, res.stderr)
				}
			}
		})
	}

	// Without ON_ERROR_STOP psql goes on with the same connection: every
	// failed statement is followed by a working one.
	var script strings.Builder
	for _, tt := range errorCases {
		script.WriteString(tt.sql + ";\nSELECT 1;\n")
	}
	res := runPsql(t, shared.server, psqlRun{password: shared.token, continueOnError: true, stdin: script.String(),
		args: []string{"-v", "VERBOSITY=verbose", "-A", "-t"}})
	want := slices.Repeat([]string{"1"}, len(errorCases))
	if got := lines(res.stdout); !slices.Equal(got, want) {
		t.Errorf("SELECT 1 after each error printed %q, want %q", got, want)
	}
	for _, tt := range errorCases {
		if !strings.Contains(res.stderr, "ERROR:  "+tt.code+":") {
			t.Errorf("script stderr lacks the %s error:\n%s", tt.code, res.stderr)
		}
	}
}

// caretPosition reads psql's error cursor:
//
//	LINE 1: SELECT nope FROM acdemo.orders
//	               ^
//
// and returns the 1-based character the caret points at, or 0.
func caretPosition(stderr string) int {
	const prefix = "LINE 1: "
	ls := strings.Split(stderr, "\n")
	for i, l := range ls {
		if !strings.Contains(l, prefix) || i+1 >= len(ls) {
			continue
		}
		start := strings.Index(l, prefix) + len(prefix)
		caret := strings.Index(ls[i+1], "^")
		if caret < start {
			return 0
		}
		return caret - start + 1
	}
	return 0
}
