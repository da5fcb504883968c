package pgwire_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestPgxCopyFromBinary loads rows with pgx's CopyFrom, which sends COPY
// BINARY, and checks what a query reads back; a NULL in a NOT NULL column
// and a client that gives up midway commit nothing.
func TestPgxCopyFromBinary(t *testing.T) {
	target := startSQE(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := connectPgx(t, ctx, target)

	day := time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)
	var amount pgtype.Numeric
	if err := amount.Scan("12.34"); err != nil {
		t.Fatal(err)
	}
	rows := [][]any{{int64(1), "one", amount, day}, {int64(2), nil, nil, nil}}
	for i := 3; i <= 20000; i++ {
		rows = append(rows, []any{int64(i), fmt.Sprintf("row %d", i), amount, day})
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"acdemo", "inbox"}, []string{"id", "note", "amount", "day"}, pgx.CopyFromRows(rows))
	if err != nil || n != int64(len(rows)) {
		t.Fatalf("CopyFrom: %d rows, %v", n, err)
	}
	var got []string
	r, err := conn.Query(ctx, "select id, note, amount::text, day::text from acdemo.inbox where id <= 3 order by id")
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var id int64
		var note, amt, d *string
		if err := r.Scan(&id, &note, &amt, &d); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d|%s|%s|%s", id, deref(note), deref(amt), deref(d)))
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	want := "1|one|12.34|2024-05-06 2|NULL|NULL|NULL 3|row 3|12.34|2024-05-06"
	if strings.Join(got, " ") != want {
		t.Errorf("rows %v, want %s", got, want)
	}

	// A NULL id fails the COPY at that row; nothing of it is committed.
	bad := [][]any{{int64(100), "x", nil, nil}, {nil, "y", nil, nil}}
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"acdemo", "inbox"}, []string{"id", "note", "amount", "day"}, pgx.CopyFromRows(bad))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23502" || pe.Where != "COPY inbox, line 2" {
		t.Errorf("NULL id: %v (%+v)", err, pe)
	}
	// A source that fails makes pgx send CopyFail.
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"acdemo", "inbox"}, []string{"id"}, &failingSource{n: 5000})
	if err == nil || !strings.Contains(err.Error(), "source gave up") {
		t.Errorf("failing source: %v", err)
	}
	var count int64
	if err := conn.QueryRow(ctx, "select count(*) from acdemo.inbox").Scan(&count); err != nil || count != int64(len(rows)) {
		t.Errorf("count %d (%v), want %d", count, err, len(rows))
	}
}

func deref(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}

// failingSource yields n rows, then an error.
type failingSource struct{ i, n int }

func (s *failingSource) Next() bool             { s.i++; return s.i <= s.n }
func (s *failingSource) Values() ([]any, error) { return []any{int64(1000 + s.i)}, nil }
func (s *failingSource) Err() error {
	if s.i > s.n {
		return errors.New("source gave up")
	}
	return nil
}
