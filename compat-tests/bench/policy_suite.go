package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The policy suite measures gate two's overhead: the same queries over
// policybench.orders, as a user no policy applies to and as a user with
// one row filter and two column masks. Both users are ordinary (gate one
// lets them read the table through a grant), connect to the same server,
// and take turns run by run, so drift on the machine touches both alike.

// The two users and the role the policies are written for; the policed
// user holds the role through its token.
const (
	plainUser   = "bench_plain"
	policedUser = "bench_policed"
	policedRole = "bench_masked"
)

// policyTarget is the table as the policy statements name it.
const policyTarget = sqeDatabase + "." + policyNamespace + "." + policyTable

// policyFilterMissing is the region the row filter excludes; no generated
// row has it.
const policyFilterMissing = "XX"

// policySetup grants the table to both users (gate one) and writes the
// row filter and the two masks for the role (gate two).
var policySetup = []string{
	"GRANT SELECT ON " + policyTarget + " TO USER " + plainUser,
	"GRANT SELECT ON " + policyTarget + " TO ROLE " + policedRole,
	"CREATE POLICY pb_region_filter ON TABLE " + policyTarget + " ROW FILTER TO ROLE " + policedRole +
		" USING (region <> '" + policyFilterMissing + "')",
	"CREATE POLICY pb_mask_ssn ON TABLE " + policyTarget + " COLUMN MASK MASK_SHOW_LAST_4 TO ROLE " + policedRole + " ON COLUMN ssn",
	"CREATE POLICY pb_hash_email ON TABLE " + policyTarget + " COLUMN MASK MASK_HASH TO ROLE " + policedRole + " ON COLUMN email",
}

// policyQuery is one query both users run. Aggregates keep their answer,
// which must be the same for both users: the filter keeps every row and
// no mask touches the columns they read.
type policyQuery struct {
	label string
	sql   string
	// aggregate marks a query whose answer is compared.
	aggregate bool
	// planOnly marks EXPLAIN: it binds and plans without scanning, so the
	// difference between the users is resolving and applying the policies.
	planOnly bool
}

var policyQueries = []policyQuery{
	{label: "count(*)", sql: "SELECT count(*) FROM " + policyNamespace + "." + policyTable, aggregate: true},
	{label: "sum(amount) WHERE region = 'EU'",
		sql: "SELECT sum(amount) FROM " + policyNamespace + "." + policyTable + " WHERE region = 'EU'", aggregate: true},
	{label: "GROUP BY region: count, sum",
		sql: "SELECT region, count(*), sum(amount) FROM " + policyNamespace + "." + policyTable + " GROUP BY region", aggregate: true},
	{label: "stream id, region, ssn", sql: "SELECT id, region, ssn FROM " + policyNamespace + "." + policyTable},
	{label: "stream id, region, ssn, email", sql: "SELECT id, region, ssn, email FROM " + policyNamespace + "." + policyTable},
	{label: "EXPLAIN (bind and plan only)", sql: "EXPLAIN SELECT id, region, ssn, email FROM " + policyNamespace + "." + policyTable, planOnly: true},
}

// policyPair is one query's timings for both users.
type policyPair struct {
	plain, policed timing
}

// runPolicySuite loads the table, writes the policies, measures and
// prints the report.
func runPolicySuite(ctx context.Context, opts options, bin, work string) (err error) {
	dataDir := filepath.Join(work, "sqe-policy")
	progress("preparing policybench.orders at %s rows (storage API)", sizeLabel(opts.policyRows))
	if err := preparePolicyDir(ctx, dataDir, opts.policyRows); err != nil {
		return err
	}
	// MASK_HASH is keyed, as a deployment configures it; the key is new
	// for every run.
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return err
	}
	srv, err := startSQEWith(ctx, bin, work, dataDir, false, "sqe-policy", []string{"SQE_POLICY__MASK_KEY=" + hex.EncodeToString(key[:])})
	if err != nil {
		return err
	}
	defer func() {
		if serr := srv.Stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	if err := writePolicies(ctx, srv); err != nil {
		return err
	}
	plain, err := srv.connectAs(ctx, plainUser, nil)
	if err != nil {
		return err
	}
	defer plain.Close(context.WithoutCancel(ctx))
	policed, err := srv.connectAs(ctx, policedUser, []string{policedRole})
	if err != nil {
		return err
	}
	defer policed.Close(context.WithoutCancel(ctx))
	if err := checkPoliciesApply(ctx, plain, policed); err != nil {
		return err
	}

	rep := policyReport{rows: opts.policyRows, runs: opts.runs}
	for _, q := range policyQueries {
		progress("  %s", q.label)
		p, err := timePair(ctx, plain, policed, q, opts.runs)
		if err != nil {
			return fmt.Errorf("policy suite: %s: %w", q.label, err)
		}
		rep.pairs = append(rep.pairs, p)
	}
	if err := rep.write(os.Stdout); err != nil {
		return err
	}
	return rep.check()
}

// writePolicies runs policySetup as the administrator.
func writePolicies(ctx context.Context, srv *sqeServer) error {
	admin, err := srv.connect(ctx)
	if err != nil {
		return err
	}
	defer admin.Close(context.WithoutCancel(ctx))
	for _, stmt := range policySetup {
		if _, err := admin.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("policy suite: %s: %w", stmt, err)
		}
	}
	return nil
}

// hashText is what MASK_HASH gives: 64 hex digits.
var hashText = regexp.MustCompile(`^[0-9a-f]{64}$`)

// checkPoliciesApply makes sure the policed user reads one row masked and
// the plain user raw, so the suite never compares two unpoliced runs.
func checkPoliciesApply(ctx context.Context, plain, policed *pgx.Conn) error {
	const sql = "SELECT ssn, email FROM " + policyNamespace + "." + policyTable + " WHERE id = 1"
	var rawSSN, rawEmail, maskedSSN, maskedEmail string
	if err := plain.QueryRow(ctx, sql).Scan(&rawSSN, &rawEmail); err != nil {
		return fmt.Errorf("policy suite: read row 1 as %s: %w", plainUser, err)
	}
	if err := policed.QueryRow(ctx, sql).Scan(&maskedSSN, &maskedEmail); err != nil {
		return fmt.Errorf("policy suite: read row 1 as %s: %w", policedUser, err)
	}
	if len(rawSSN) != len("123-45-6789") {
		return fmt.Errorf("policy suite: %s read ssn %q, want a generated one", plainUser, rawSSN)
	}
	if want := "xxx-xx-" + rawSSN[7:]; maskedSSN != want {
		return fmt.Errorf("policy suite: %s read ssn %q, want %q (raw %q)", policedUser, maskedSSN, want, rawSSN)
	}
	if !hashText.MatchString(maskedEmail) || maskedEmail == rawEmail {
		return fmt.Errorf("policy suite: %s read email %q, want a hash of %q", policedUser, maskedEmail, rawEmail)
	}
	return nil
}

// timePair warms q up for both users, then times runs runs each, the
// users taking turns and swapping who goes first every run.
func timePair(ctx context.Context, plain, policed *pgx.Conn, q policyQuery, runs int) (policyPair, error) {
	var p policyPair
	for _, u := range []struct {
		conn *pgx.Conn
		t    *timing
	}{{plain, &p.plain}, {policed, &p.policed}} {
		n, answer, err := readAll(ctx, u.conn, q.sql, q.aggregate)
		if err != nil {
			return p, err
		}
		u.t.rows, u.t.answer = n, answer
	}
	for i := range runs {
		first, second := plain, policed
		ft, st := &p.plain, &p.policed
		if i%2 == 1 {
			first, second, ft, st = policed, plain, &p.policed, &p.plain
		}
		if err := ft.timeRun(ctx, first, q.sql); err != nil {
			return p, err
		}
		if err := st.timeRun(ctx, second, q.sql); err != nil {
			return p, err
		}
	}
	return p, nil
}

// check fails when the users' answers differ where they must not: every
// aggregate, the number of streamed rows, and count(*) against the size
// the table was written at.
func (r policyReport) check() error {
	var errs []error
	for i, q := range policyQueries {
		p := r.pairs[i]
		if q.aggregate {
			if err := sameAnswer(p.plain.answer, p.policed.answer); err != nil {
				errs = append(errs, fmt.Errorf("%s: the users' answers differ: %w", q.label, err))
			}
		} else if !q.planOnly && p.plain.rows != p.policed.rows {
			errs = append(errs, fmt.Errorf("%s: %s read %d rows, %s %d", q.label, plainUser, p.plain.rows, policedUser, p.policed.rows))
		}
	}
	if got := r.pairs[0].plain.answer; len(got) != 1 || strings.TrimSpace(got[0]) != strconv.Itoa(r.rows) {
		errs = append(errs, fmt.Errorf("count(*) returned %v, want %d", got, r.rows))
	}
	return errors.Join(errs...)
}
