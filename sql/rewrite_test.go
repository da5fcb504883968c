package sql

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// dmlStep is one statement of a DELETE / UPDATE / MERGE scenario, with
// its rows, command tag or error as PostgreSQL 15 gives them.
type dmlStep struct {
	sql  string
	rows []string // of the last statement
	tag  string   // of the last statement
	code string   // SQLSTATE of the error, "" for none
	msg  string   // error message, when code is set
	// unordered compares rows as a set: without ORDER BY, PostgreSQL's
	// order is its heap's, which a copy-on-write table does not mimic.
	unordered bool
}

func runDMLSteps(t *testing.T, s *Session, steps []dmlStep) {
	t.Helper()
	for _, st := range steps {
		rows, tags, err := run(t, s, st.sql)
		if st.code != "" {
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != st.code || pe.Message != st.msg {
				t.Errorf("%s: error %v, want %s %q", st.sql, err, st.code, st.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", st.sql, err)
			continue
		}
		if st.unordered {
			rows = slices.Sorted(slices.Values(rows))
		}
		if got, want := strings.Join(rows, "\n"), strings.Join(st.rows, "\n"); got != want {
			t.Errorf("%s: rows\n%s\nwant\n%s", st.sql, got, want)
		}
		if tag := tags[len(tags)-1]; tag != st.tag {
			t.Errorf("%s: tag %q, want %q", st.sql, tag, st.tag)
		}
	}
}

// rowPolicy is a gate two that admits the rows filter accepts and masks
// the columns in masks, for every table.
type rowPolicy struct {
	filter string
	masks  map[int]string
}

func (p rowPolicy) SecurityFor(auth.Identity) planner.Security { return p }

func (p rowPolicy) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := planner.OpenRelation{}.Secure(ctx, t)
	if err != nil {
		return nil, err
	}
	if p.filter != "" {
		rel.RowFilters = []string{p.filter}
	}
	rel.Masks = p.masks
	return rel, nil
}

// policySession opens a session on cat whose caller p governs.
func policySession(t *testing.T, cat storage.Catalog, p rowPolicy) *Session {
	t.Helper()
	ctx := storage.WithPrincipal(context.Background(), storage.Principal{User: "loader"})
	e := NewEngine(EngineConfig{}, []storage.Catalog{cat}, p)
	s, err := e.NewSession(ctx, auth.Identity{User: "bob"}, "sales_wh", []StartupSetting{{Name: "search_path", Value: "w"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
