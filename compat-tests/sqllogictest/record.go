package sqllogictest

import (
	"fmt"
	"strings"
)

// Kind says what a record is.
type Kind int

const (
	// Statement is a "statement ok|error|count" record: only success or
	// failure is checked.
	Statement Kind = iota
	// Query is a "query <types> [sort]" record with an expected result.
	Query
)

// SortMode is how a query's result is ordered before comparison.
type SortMode int

const (
	// NoSort compares rows in the order the server returned them.
	NoSort SortMode = iota
	// RowSort sorts the rows (each as a list of values).
	RowSort
	// ValueSort sorts all values, one per line.
	ValueSort
)

// Condition is an "onlyif <engine>" or "skipif <engine>" line before a
// record.
type Condition struct {
	Only   bool // onlyif; false means skipif
	Engine string
}

// Record is one statement or query of a file.
type Record struct {
	File string
	// Line is the line of the "statement" or "query" keyword (1-based).
	Line       int
	Kind       Kind
	Conditions []Condition
	SQL        string
	// ExpectError is set by "statement error" and "query error"; the
	// pattern after it is DataFusion's error text, so only the fact of an
	// error is checked.
	ExpectError  bool
	ErrorPattern string
	// Types are the query's column type letters ("IIT"); empty when the
	// record names none.
	Types string
	Sort  SortMode
	// HasExpected is set when the record has a "----" line; Expected are
	// the lines after it.
	HasExpected bool
	Expected    []string
	// HashThreshold is the file's hash-threshold in effect (0: never
	// hash).
	HashThreshold int
}

// ID names the record as "file:line", the key of the baseline.
func (r Record) ID() string { return fmt.Sprintf("%s:%d", r.File, r.Line) }

// RunsOn reports whether the record's conditions select it for engine.
func (r Record) RunsOn(engine string) bool {
	for _, c := range r.Conditions {
		match := strings.EqualFold(c.Engine, engine)
		if c.Only && !match || !c.Only && match {
			return false
		}
	}
	return true
}

// Summary is the record's first SQL line, for reports.
func (r Record) Summary() string {
	line, _, _ := strings.Cut(strings.TrimSpace(r.SQL), "\n")
	const limit = 70
	if len(line) > limit {
		line = line[:limit] + "..."
	}
	return line
}

// File is a parsed sqllogictest file.
type File struct {
	// Name is the file's base name ("pg_compat_simple.slt").
	Name    string
	Records []Record
}
