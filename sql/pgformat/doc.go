// Package pgformat implements PostgreSQL's template-driven formatting
// functions: to_char for timestamps, intervals and numbers, and their
// inverses to_timestamp, to_date and to_number.
//
// A template string is compiled once per query into a small slice of nodes
// (pattern keywords with their FM/TM/TH modifiers, and literal characters).
// The compiled template is immutable and safe to share between goroutines;
// applying it to a row walks the nodes and appends the rendered text to a
// caller-owned buffer, so the per-row path does not allocate. Parsing input
// with a template walks the same nodes over the input text, collects the
// fields PostgreSQL collects (year, month, day, hour, ISO week, Julian day,
// ...), and then resolves them into a date with PostgreSQL's precedence and
// defaulting rules.
//
// The behaviour, including odd corners such as '#' overflow fill, the
// non-FX whitespace skipping of to_timestamp, and the error messages with
// their SQLSTATEs, follows PostgreSQL 15. Only the C locale is supported:
// TM names are the English ones, D is '.', G is ',', S is '+'/'-' and L is a
// blank, as on a server running with lc_numeric, lc_monetary and lc_time C.
package pgformat
