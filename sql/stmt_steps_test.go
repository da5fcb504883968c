package sql

import (
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// step is one statement of a session script and what it must answer.
type step struct {
	query  string
	rows   string // rows joined by ";", checked when tag is set
	tag    string // the last command tag, "" when an error is expected
	code   string // the SQLSTATE expected, "" for success
	status byte   // the transaction status after it, 0 = not checked
}

// runSteps runs a script on one session, each step against what
// PostgreSQL 15 answers to it.
func runSteps(t *testing.T, s *Session, steps []step) {
	t.Helper()
	for i, st := range steps {
		rows, tags, err := run(t, s, st.query)
		if st.code != "" {
			if got := pgerror.Code(err); got != st.code {
				t.Fatalf("step %d %q: error %v, want SQLSTATE %s", i, st.query, err, st.code)
			}
		} else {
			if err != nil {
				t.Fatalf("step %d %q: %v", i, st.query, err)
			}
			if got := tags[len(tags)-1]; got != st.tag {
				t.Fatalf("step %d %q: tag %q, want %q", i, st.query, got, st.tag)
			}
			if got := strings.Join(rows, ";"); got != st.rows {
				t.Fatalf("step %d %q: rows %q, want %q", i, st.query, got, st.rows)
			}
		}
		if st.status != 0 && s.TxStatus() != st.status {
			t.Fatalf("step %d %q: status %c, want %c", i, st.query, s.TxStatus(), st.status)
		}
	}
}
