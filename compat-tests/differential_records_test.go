package compattests

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// diffMode says how a record's answers are compared.
type diffMode string

const (
	// modeOrdered compares rows in the order they arrive (the query has
	// an ORDER BY that fixes it).
	modeOrdered diffMode = "ordered"
	// modeUnordered compares rows as multisets.
	modeUnordered diffMode = "unordered"
	// modeError expects PostgreSQL to fail; SQE must fail with the same
	// SQLSTATE.
	modeError diffMode = "error"
)

// diffRecord is one query of the differential suite.
type diffRecord struct {
	name string
	mode diffMode
	sql  string
	// file and line locate the header, for messages.
	file string
	line int
}

// diffHeaderPrefix starts a record's header line:
// "-- name: <id> [ordered|unordered|error]".
const diffHeaderPrefix = "-- name:"

// loadDiffRecords reads every *.sql file of dir in name order. Lines before
// a file's first header are the file's own comments. A record's SQL runs
// to the next header; a trailing semicolon is dropped.
func loadDiffRecords(dir string) ([]diffRecord, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	sort.Strings(files)
	var out []diffRecord
	seen := map[string]string{}
	for _, f := range files {
		recs, err := parseDiffFile(f)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if prev, dup := seen[r.name]; dup {
				return nil, fmt.Errorf("%s:%d: record %s already defined in %s", r.file, r.line, r.name, prev)
			}
			seen[r.name] = r.file
		}
		out = append(out, recs...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no records in %s: %w", dir, fs.ErrNotExist)
	}
	return out, nil
}

func parseDiffFile(path string) ([]diffRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read queries: %w", err)
	}
	defer f.Close()
	var (
		out  []diffRecord
		cur  *diffRecord
		body []string
	)
	flush := func() error {
		if cur == nil {
			return nil
		}
		sql := strings.TrimSpace(strings.Join(body, "\n"))
		sql = strings.TrimSpace(strings.TrimSuffix(sql, ";"))
		if sql == "" {
			return fmt.Errorf("%s:%d: record %s has no SQL", cur.file, cur.line, cur.name)
		}
		cur.sql = sql
		out = append(out, *cur)
		return nil
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if !strings.HasPrefix(line, diffHeaderPrefix) {
			if cur != nil {
				body = append(body, line)
			}
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		rec, err := parseDiffHeader(strings.TrimPrefix(line, diffHeaderPrefix))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		rec.file, rec.line = filepath.Base(path), n
		cur, body = &rec, nil
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

func parseDiffHeader(rest string) (diffRecord, error) {
	fields := strings.Fields(rest)
	if len(fields) != 2 {
		return diffRecord{}, fmt.Errorf("want %q, got %q", diffHeaderPrefix+" <id> ordered|unordered|error", diffHeaderPrefix+rest)
	}
	mode := diffMode(fields[1])
	switch mode {
	case modeOrdered, modeUnordered, modeError:
	default:
		return diffRecord{}, fmt.Errorf("record %s: mode %q is not ordered, unordered or error", fields[0], fields[1])
	}
	return diffRecord{name: fields[0], mode: mode}, nil
}

// knownDifference is one line of known_differences.txt.
type knownDifference struct {
	sqeDoes string
	reason  string
}

// loadKnownDifferences reads "<id> | <what SQE does> | <reason>" lines;
// blank lines and lines starting with # are skipped.
func loadKnownDifferences(path string) (map[string]knownDifference, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read known differences: %w", err)
	}
	defer f.Close()
	out := map[string]knownDifference{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, " | ")
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: want \"<id> | <what SQE does> | <reason>\", got %q", filepath.Base(path), n, line)
		}
		id := strings.TrimSpace(fields[0])
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s:%d: %s listed twice", filepath.Base(path), n, id)
		}
		out[id] = knownDifference{sqeDoes: strings.TrimSpace(fields[1]), reason: strings.TrimSpace(fields[2])}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read known differences: %w", err)
	}
	return out, nil
}
