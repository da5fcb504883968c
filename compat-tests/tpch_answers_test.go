package compattests

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

const (
	// tpchTestSF keeps the differential test small: lineitem has about
	// 60,000 rows.
	tpchTestSF = 0.01
	// tpchTestSchema is the namespace (SQE) and schema (PostgreSQL) the
	// tables are loaded into.
	tpchTestSchema = "tpch"
	// tpchTestUser owns the SQE tables and runs the queries.
	tpchTestUser = "tpch_loader"
	// tpchRelTolerance is how far apart two numbers may be, relative to
	// the larger, and still count as the same answer: engines may round
	// numeric division and float sums differently in the last digits.
	tpchRelTolerance = 1e-9
)

// TestTPCHAnswersMatchPostgres loads the same TPC-H data into SQE (through
// the storage API, before its server starts) and into a PostgreSQL 15,
// runs all 22 TPC-H queries on both and compares the answers row by row
// in the order the queries' ORDER BY gives. A query on
// tpchKnownFailures must fail, and every other must match.
func TestTPCHAnswersMatchPostgres(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	queries, err := datagen.Queries()
	if err != nil {
		t.Fatal(err)
	}
	if len(queries) != 22 {
		t.Fatalf("%d TPC-H queries shipped, want 22", len(queries))
	}
	known := tpchKnownFailures()
	checkKnownFailuresListed(t, known, queries)
	queries = append(queries, lowQuantityQ18(t, queries))

	pair := startTPCHPair(t, ctx)
	pair.setSearchPath(t, ctx, tpchTestSchema)

	for _, q := range queries {
		t.Run(q.Name, func(t *testing.T) {
			want, err := textRowsOf(ctx, pair.ref, q.SQL)
			if err != nil {
				t.Fatalf("PostgreSQL: %v", err)
			}
			if len(want) == 0 && q.Name != "Q18" {
				t.Fatalf("PostgreSQL returned no rows: the data cannot tell answers apart")
			}
			failure := pair.sqeDiff(t, ctx, q.SQL, want)
			reason, isKnown := known[q.Name]
			switch {
			case isKnown && failure == "":
				t.Errorf("%s is listed in tpchKnownFailures (%s) but now matches PostgreSQL: take it off the list", q.Name, reason)
			case isKnown:
				t.Logf("known failure (%s): %s", reason, failure)
			case failure != "":
				t.Errorf("%s\n%s", q.SQL, failure)
			}
		})
	}
}

// tpchKnownFailures are the TPC-H queries SQE does not yet answer as
// PostgreSQL does, each with the reason (a missing feature). The test
// requires each of them to fail, so a query that starts passing must be
// taken off. Today SQE answers all 22.
func tpchKnownFailures() map[string]string {
	return map[string]string{}
}

// checkKnownFailuresListed fails when the known failures name a query
// that is not shipped, or give no reason.
func checkKnownFailuresListed(t *testing.T, known map[string]string, queries []datagen.Query) {
	t.Helper()
	for name, reason := range known {
		if !slices.ContainsFunc(queries, func(q datagen.Query) bool { return q.Name == name }) {
			t.Errorf("tpchKnownFailures names %s, which is not a shipped TPC-H query", name)
		}
		if strings.TrimSpace(reason) == "" {
			t.Errorf("tpchKnownFailures gives %s no reason", name)
		}
	}
}

// sqeDiff runs sql on SQE and describes how its answer differs from want:
// its error, or the first difference; "" when it is the same answer. A
// connection the error broke is opened again for the next query.
func (p *referencePair) sqeDiff(t *testing.T, ctx context.Context, sql string, want [][]*string) string {
	t.Helper()
	got, err := textRowsOf(ctx, p.sqe, sql)
	if err != nil {
		if p.sqe.IsClosed() {
			p.reconnect(t, ctx, p.sqe)
		}
		return "SQE: " + err.Error()
	}
	if diff := diffTPCHAnswers(got, want); diff != "" {
		return "SQE and PostgreSQL differ: " + diff
	}
	return ""
}

// lowQuantityQ18 is Q18 with QUANTITY 250 instead of 300: at this scale
// factor no order passes 300, and an empty answer proves little.
func lowQuantityQ18(t *testing.T, queries []datagen.Query) datagen.Query {
	t.Helper()
	for _, q := range queries {
		if q.Name == "Q18" && strings.Contains(q.SQL, "> 300") {
			return datagen.Query{Name: "Q18_quantity_250", SQL: strings.Replace(q.SQL, "> 300", "> 250", 1)}
		}
	}
	t.Fatal("Q18 with its QUANTITY parameter not found among the TPC-H queries")
	return datagen.Query{}
}

// diffTPCHAnswers describes the first difference between got and want,
// or returns "" when they are the same answer: the same rows in the same
// order, numbers equal within tpchRelTolerance, other values equal as
// text.
func diffTPCHAnswers(got, want [][]*string) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, want %d (first rows: got %s, want %s)", len(got), len(want), showRow(got), showRow(want))
	}
	for r := range want {
		if len(got[r]) != len(want[r]) {
			return fmt.Sprintf("row %d has %d columns, want %d", r+1, len(got[r]), len(want[r]))
		}
		for c := range want[r] {
			if !sameTPCHValue(got[r][c], want[r][c]) {
				return fmt.Sprintf("row %d column %d: got %s, want %s", r+1, c+1, show(got[r][c]), show(want[r][c]))
			}
		}
	}
	return ""
}

func sameTPCHValue(got, want *string) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	if *got == *want {
		return true
	}
	g, err1 := strconv.ParseFloat(*got, 64)
	w, err2 := strconv.ParseFloat(*want, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	scale := math.Max(math.Abs(g), math.Abs(w))
	return math.Abs(g-w) <= tpchRelTolerance*scale
}

func show(v *string) string {
	if v == nil {
		return "NULL"
	}
	return strconv.Quote(*v)
}

func showRow(rows [][]*string) string {
	if len(rows) == 0 {
		return "(none)"
	}
	parts := make([]string, len(rows[0]))
	for i, v := range rows[0] {
		parts[i] = show(v)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
