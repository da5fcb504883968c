// Package bicorpus reads the BI tools' reference queries in
// compat-tests/testdata/bi: the statements Grafana, Metabase and Superset
// send to a PostgreSQL server, how each tool sends them, and the ones SQE
// is known not to answer like PostgreSQL (known_failures.txt). The
// compatibility test (compat-tests/bi_test.go) runs them against SQE and
// PostgreSQL and compares the answers; the benchmark's latency suite
// (compat-tests/bench) times them on both.
package bicorpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Tools are the tools whose files the corpus holds, in the order they
// are read.
var Tools = []string{"grafana", "metabase", "superset"}

// Entry is one entry of a tool's file, <tool>.json.
type Entry struct {
	ID            string   `json:"id"`
	Client        string   `json:"client"`
	Protocol      string   `json:"protocol"`
	SQL           string   `json:"sql"`
	ParamsExample []string `json:"params_example"`
	Validated     string   `json:"validated"`
}

// ReadEntries reads the entries of tool's file in dir.
func ReadEntries(dir, tool string) ([]Entry, error) {
	data, err := os.ReadFile(filepath.Join(dir, tool+".json"))
	if err != nil {
		return nil, fmt.Errorf("read %s queries: %w", tool, err)
	}
	var entries []Entry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("decode %s queries: %w", tool, err)
	}
	return entries, nil
}

// Protocol is how a tool sends a query.
type Protocol int

const (
	// Ping is pgx's Ping: the comment-only simple Query "-- ping".
	Ping Protocol = iota
	// Simple is one simple Query, text results (pgconn.Exec: Grafana's
	// panel and metadata path, psycopg2 under Superset, which inlines
	// parameters).
	Simple
	// Pgx is pgx's default extended protocol: a named statement
	// described first, then bound with binary parameters and results
	// for every OID pgx knows (Grafana's pool.Query).
	Pgx
	// JDBC is what pgjdbc sends for a PreparedStatement: the unnamed
	// statement with parameters typed varchar in Parse, Bind in text,
	// Describe(portal), Execute, Sync (Metabase).
	JDBC
)

func (p Protocol) String() string {
	return [...]string{"pgx ping", "simple query", "pgx extended", "jdbc-style extended"}[p]
}

// ProtocolOf is how tool sends entry e.
func ProtocolOf(tool string, e Entry) Protocol {
	switch {
	case e.SQL == "-- ping":
		return Ping
	case tool == "metabase":
		return JDBC
	case tool == "grafana" && strings.HasPrefix(e.Protocol, "pgx pool.Query"):
		return Pgx
	default:
		return Simple
	}
}

// KnownFailure is one line of known_failures.txt: what SQE gives (a
// SQLSTATE or "mismatch") and the feature it lacks.
type KnownFailure struct {
	Gives, Feature string
}

// ReadKnownFailures reads a known-failures file: "id | what SQE gives |
// missing feature" a line, '#' starting a comment line. A malformed line
// or an id listed twice is an error.
func ReadKnownFailures(path string) (map[string]KnownFailure, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open known failures: %w", err)
	}
	defer f.Close()
	out := map[string]KnownFailure{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, " | ")
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: want \"id | what SQE gives | missing feature\", got %q", path, n, line)
		}
		id := strings.TrimSpace(fields[0])
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s:%d: %s listed twice", path, n, id)
		}
		out[id] = KnownFailure{Gives: strings.TrimSpace(fields[1]), Feature: strings.TrimSpace(fields[2])}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read known failures: %w", err)
	}
	return out, nil
}

// NumberPlaceholders turns JDBC's '?' placeholders into $1..$n, leaving
// those inside string literals and quoted identifiers ("pk?") alone, as
// pgjdbc does.
func NumberPlaceholders(sql string) string {
	var b strings.Builder
	n := 0
	var quote rune // the quote character of the literal being read, or 0
	for _, r := range sql {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '?':
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
