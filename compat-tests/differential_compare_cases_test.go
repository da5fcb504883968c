package compattests

import (
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestCompareOutcomes pins the differential suite's comparison rules:
// order only for ordered records, tolerance only in float columns, errors
// by SQLSTATE alone.
func TestCompareOutcomes(t *testing.T) {
	t.Parallel()
	rows := func(cells ...string) [][]*string {
		var out [][]*string
		for _, c := range cells {
			var row []*string
			for _, v := range strings.Split(c, "|") {
				if v == "NULL" {
					row = append(row, nil)
				} else {
					row = append(row, lit(v))
				}
			}
			out = append(out, row)
		}
		return out
	}
	answer := func(float bool, cells ...string) outcome {
		r := rows(cells...)
		return outcome{columns: len(r[0]), floatCols: make([]bool, len(r[0])), rows: r}.withFloat(float)
	}
	fail := func(code string) outcome {
		return failed(&pgconn.PgError{Code: code, Message: "boom"})
	}
	tests := []struct {
		name     string
		mode     diffMode
		sqe, ref outcome
		same     bool
	}{
		{"same rows same order", modeOrdered, answer(false, "1|a", "2|b"), answer(false, "1|a", "2|b"), true},
		{"order matters when ordered", modeOrdered, answer(false, "2|b", "1|a"), answer(false, "1|a", "2|b"), false},
		{"order ignored when unordered", modeUnordered, answer(false, "2|b", "1|a", "1|a"), answer(false, "1|a", "2|b", "1|a"), true},
		{"multiset counts duplicates", modeUnordered, answer(false, "1|a", "1|a"), answer(false, "1|a", "2|b"), false},
		{"NULL is not empty text", modeOrdered, answer(false, "NULL"), answer(false, ""), false},
		{"float within tolerance", modeOrdered, answer(true, "0.30000000000000004"), answer(true, "0.3"), true},
		{"float beyond tolerance", modeOrdered, answer(true, "0.3000001"), answer(true, "0.3"), false},
		{"numeric text compared exactly", modeOrdered, answer(false, "1.50"), answer(false, "1.5"), false},
		{"NaN equals NaN as text", modeOrdered, answer(true, "NaN"), answer(true, "NaN"), true},
		{"same SQLSTATE", modeError, fail("22012"), fail("22012"), true},
		{"other SQLSTATE", modeError, fail("22003"), fail("22012"), false},
		{"answer where PostgreSQL fails", modeError, answer(false, "1"), fail("22012"), false},
		{"failure where PostgreSQL answers", modeOrdered, fail("0A000"), answer(false, "1"), false},
		{"non-server failure", modeOrdered, failed(errors.New("conn closed")), answer(false, "1"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff := compareOutcomes(tt.mode, tt.sqe, tt.ref)
			if (diff == "") != tt.same {
				t.Errorf("compareOutcomes = %q, want same=%v", diff, tt.same)
			}
		})
	}
}

// withFloat marks every column of o as a float column when float is set.
func (o outcome) withFloat(float bool) outcome {
	for i := range o.floatCols {
		o.floatCols[i] = float
	}
	return o
}

// TestParseDiffHeader checks the record header format.
func TestParseDiffHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		header string
		name   string
		mode   diffMode
		ok     bool
	}{
		{" q1 ordered", "q1", modeOrdered, true},
		{" q2 unordered", "q2", modeUnordered, true},
		{" q3 error", "q3", modeError, true},
		{" q4", "", "", false},
		{" q5 sorted", "", "", false},
		{" q6 ordered extra", "", "", false},
	}
	for _, tt := range tests {
		rec, err := parseDiffHeader(tt.header)
		if (err == nil) != tt.ok {
			t.Errorf("parseDiffHeader(%q) error = %v, want ok=%v", tt.header, err, tt.ok)
			continue
		}
		if tt.ok && (rec.name != tt.name || rec.mode != tt.mode) {
			t.Errorf("parseDiffHeader(%q) = %s %s, want %s %s", tt.header, rec.name, rec.mode, tt.name, tt.mode)
		}
	}
}

// TestAllTypesRowsParse checks that every all_types literal becomes an
// Arrow value, so SQE and PostgreSQL load the same rows.
func TestAllTypesRowsParse(t *testing.T) {
	t.Parallel()
	rows := allTypesLiterals()
	if len(rows) != allTypesRows {
		t.Fatalf("%d rows, want %d", len(rows), allTypesRows)
	}
	for i, r := range rows {
		if len(r) != len(allTypesColumns) {
			t.Fatalf("row %d has %d values, want %d", i+1, len(r), len(allTypesColumns))
		}
	}
	rec, err := allTypesBatch(allTypesArrowSchema())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if rec.NumRows() != allTypesRows {
		t.Errorf("batch has %d rows, want %d", rec.NumRows(), allTypesRows)
	}
}
