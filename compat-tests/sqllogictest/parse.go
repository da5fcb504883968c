package sqllogictest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ParseFile reads and parses the file at path.
func ParseFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	defer f.Close()
	return Parse(filepath.Base(path), f)
}

// Parse reads sqllogictest records from src. Records are separated by
// blank lines; '#' lines are comments; onlyif/skipif lines attach to the
// next record; "halt" ends the file. Other directives fail the parse, so a
// file the runner does not understand is never silently half-run.
func Parse(name string, src io.Reader) (*File, error) {
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	var lines []string
	for sc.Scan() {
		lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	p := parser{file: &File{Name: name}, lines: lines}
	if err := p.run(); err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	return p.file, nil
}

type parser struct {
	file          *File
	lines         []string
	pos           int // index of the next line
	conditions    []Condition
	hashThreshold int
}

func (p *parser) run() error {
	for p.pos < len(p.lines) {
		line := p.lines[p.pos]
		lineNo := p.pos + 1
		p.pos++
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		fields := strings.Fields(trimmed)
		switch fields[0] {
		case "onlyif", "skipif":
			if len(fields) < 2 {
				return fmt.Errorf("line %d: %s without an engine", lineNo, fields[0])
			}
			p.conditions = append(p.conditions, Condition{Only: fields[0] == "onlyif", Engine: fields[1]})
		case "hash-threshold":
			if len(fields) != 2 {
				return fmt.Errorf("line %d: want \"hash-threshold N\"", lineNo)
			}
			n, err := strconv.Atoi(fields[1])
			if err != nil {
				return fmt.Errorf("line %d: hash-threshold: %w", lineNo, err)
			}
			p.hashThreshold = n
		case "halt":
			return nil
		case "statement":
			if err := p.statement(fields, lineNo); err != nil {
				return err
			}
		case "query":
			if err := p.query(fields, lineNo); err != nil {
				return err
			}
		default:
			return fmt.Errorf("line %d: unknown directive %q", lineNo, fields[0])
		}
	}
	if len(p.conditions) > 0 {
		return fmt.Errorf("onlyif/skipif at the end of the file")
	}
	return nil
}

func (p *parser) newRecord(kind Kind, lineNo int) Record {
	r := Record{File: p.file.Name, Line: lineNo, Kind: kind, Conditions: p.conditions, HashThreshold: p.hashThreshold}
	p.conditions = nil
	return r
}

func (p *parser) statement(fields []string, lineNo int) error {
	r := p.newRecord(Statement, lineNo)
	if len(fields) < 2 {
		return fmt.Errorf("line %d: statement without ok, error or count", lineNo)
	}
	switch fields[1] {
	case "ok", "count":
	case "error":
		r.ExpectError = true
		r.ErrorPattern = strings.Join(fields[2:], " ")
	default:
		return fmt.Errorf("line %d: unknown statement mode %q", lineNo, fields[1])
	}
	r.SQL = p.sql()
	if r.SQL == "" {
		return fmt.Errorf("line %d: statement without SQL", lineNo)
	}
	// A "----" block after a statement holds an expected error message;
	// it is read and ignored like the pattern.
	if p.pos < len(p.lines) && strings.TrimSpace(p.lines[p.pos]) == "----" {
		p.pos++
		p.block()
	}
	p.file.Records = append(p.file.Records, r)
	return nil
}

func (p *parser) query(fields []string, lineNo int) error {
	r := p.newRecord(Query, lineNo)
	rest := fields[1:]
	if len(rest) > 0 && rest[0] == "error" {
		r.ExpectError = true
		r.ErrorPattern = strings.Join(rest[1:], " ")
		rest = nil
	}
	if len(rest) > 0 {
		r.Types = rest[0]
		rest = rest[1:]
	}
	if len(rest) > 0 {
		switch rest[0] {
		case "rowsort":
			r.Sort = RowSort
		case "valuesort":
			r.Sort = ValueSort
		case "nosort":
		default:
			return fmt.Errorf("line %d: unknown sort mode %q", lineNo, rest[0])
		}
	}
	r.SQL = p.sql()
	if r.SQL == "" {
		return fmt.Errorf("line %d: query without SQL", lineNo)
	}
	if p.pos < len(p.lines) && strings.TrimSpace(p.lines[p.pos]) == "----" {
		p.pos++
		r.HasExpected = true
		r.Expected = p.block()
	}
	p.file.Records = append(p.file.Records, r)
	return nil
}

// sql reads lines up to a blank line, a "----" line or the end.
func (p *parser) sql() string {
	var out []string
	for p.pos < len(p.lines) {
		line := p.lines[p.pos]
		t := strings.TrimSpace(line)
		if t == "" || t == "----" {
			break
		}
		out = append(out, line)
		p.pos++
	}
	return strings.Join(out, "\n")
}

// block reads result lines up to a blank line or the end.
func (p *parser) block() []string {
	var out []string
	for p.pos < len(p.lines) && strings.TrimSpace(p.lines[p.pos]) != "" {
		out = append(out, p.lines[p.pos])
		p.pos++
	}
	return out
}
