package sql

import (
	"fmt"
	"testing"
)

// BenchmarkWriteOneRow times the small autocommit writes of pgbench's
// write mix: a one-row UPDATE by id of a 1,000-row table, and a one-row
// INSERT. Each iteration is one commit, so later iterations run on a
// table with a longer history, as a busy table has.
func BenchmarkWriteOneRow(b *testing.B) {
	b.Run("update", func(b *testing.B) {
		s, _ := newWriteSession(b)
		mustRun(b, s, "CREATE TABLE w.counters (id integer NOT NULL, hits bigint NOT NULL)")
		mustRun(b, s, "INSERT INTO w.counters SELECT g, 0 FROM generate_series(1, 1000) g")
		i := 0
		for b.Loop() {
			mustRun(b, s, fmt.Sprintf("UPDATE w.counters SET hits = hits + 1 WHERE id = %d", i%1000+1))
			i++
		}
		b.StopTimer()
		rows, _, err := run(b, s, "SELECT sum(hits)::bigint FROM w.counters")
		if err != nil || len(rows) != 1 || rows[0] != fmt.Sprint(i) {
			b.Fatalf("sum(hits) = %v (%v), want %d", rows, err, i)
		}
	})
	b.Run("insert", func(b *testing.B) {
		s, _ := newWriteSession(b)
		mustRun(b, s, "CREATE TABLE w.events (client integer NOT NULL, seq bigint NOT NULL, note text, at timestamp)")
		i := 0
		for b.Loop() {
			mustRun(b, s, fmt.Sprintf("INSERT INTO w.events (client, seq, note, at) VALUES (1, %d, 'load', now())", i))
			i++
		}
		b.StopTimer()
		rows, _, err := run(b, s, "SELECT count(*) FROM w.events")
		if err != nil || len(rows) != 1 || rows[0] != fmt.Sprint(i) {
			b.Fatalf("count(*) = %v (%v), want %d", rows, err, i)
		}
	})
}

func mustRun(b *testing.B, s *Session, query string) {
	b.Helper()
	if _, _, err := run(b, s, query); err != nil {
		b.Fatalf("%s: %v", query, err)
	}
}
