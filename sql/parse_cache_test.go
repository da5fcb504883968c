package sql

import (
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

// TestParseCache checks that a remembered parse gives the parser's own
// tree, a new copy each time, that failures are not remembered, and that
// the cache stays within its bound.
func TestParseCache(t *testing.T) {
	c := newParseCache()
	const q = "SELECT a, b FROM t WHERE a = 1"
	want, err := pg_query.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.parse(q)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.parse(q)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(first, want) || !proto.Equal(second, want) {
		t.Fatal("the cached parse differs from the parser's")
	}
	first.Stmts[0].StmtLocation = 99
	if third, _ := c.parse(q); !proto.Equal(third, want) {
		t.Error("changing one statement's tree changed the next one's")
	}
	if _, err := c.parse("SELEC 1"); err == nil {
		t.Fatal("a syntax error parsed")
	}
	if _, ok := c.get("SELEC 1"); ok {
		t.Error("a failed parse was remembered")
	}
	filler := "SELECT '" + strings.Repeat("x", 30_000) + "'"
	for i := range 600 {
		if _, err := c.parse(filler + strings.Repeat(" ", i)); err != nil {
			t.Fatal(err)
		}
	}
	if c.bytes > parseCacheBytes {
		t.Errorf("the cache holds %d bytes, more than %d", c.bytes, parseCacheBytes)
	}
}
