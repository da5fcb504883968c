package compattests

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/compat-tests/sqllogictest"
	"github.com/sqe-db/sqe/storage"
)

var updateSLTBaseline = flag.Bool("update-slt-baseline", false,
	"rewrite testdata/sqllogictest/baseline.txt with the records SQE passes")

const (
	// sltSuiteDir holds DataFusion's Postgres-compatibility files.
	sltSuiteDir = "testdata/sqllogictest/datafusion_pg_compat"
	// sltBaselineFile lists the records SQE passes; none may regress.
	sltBaselineFile = "testdata/sqllogictest/baseline.txt"
	// sltPostgresMissesFile lists the records PostgreSQL 15 itself fails.
	sltPostgresMissesFile = "testdata/sqllogictest/postgres_known_failures.txt"
	// sltUser creates the shimmed tables and runs the records.
	sltUser = "slt_runner"
	// sltEngine selects the files' Postgres variant (onlyif postgres).
	sltEngine = "postgres"
)

// TestSQLLogicTest runs the DataFusion Postgres-compatibility files
// against SQE and against PostgreSQL 15, prints per-file counts for both,
// and fails when a record of the baseline stops passing on SQE or when
// PostgreSQL misses a record other than its known ones (the expectations
// are PostgreSQL's, so that would be a runner bug).
func TestSQLLogicTest(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	suite, err := sqllogictest.LoadSuite(sltSuiteDir)
	if err != nil {
		t.Fatal(err)
	}

	plan := planSLTShim(t, ctx, suite)
	for _, n := range plan.NotShimmed {
		t.Logf("setup SQE refused that the shim cannot replay: %s", n)
	}
	dataDir := filepath.Join(t.TempDir(), "data")
	if err := applySLTPlan(ctx, dataDir, plan); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, dataDir, false)
	sqeRep, err := sqllogictest.Run(ctx, suite, sqeConnector(t, srv), sqllogictest.RunOptions{Engine: sltEngine, Shim: plan})
	if err != nil {
		t.Fatalf("SQE: %v", err)
	}

	pg := startRefPostgres(t, ctx)
	pgRep, err := sqllogictest.Run(ctx, suite, postgresConnector(pg), sqllogictest.RunOptions{Engine: sltEngine, CreateSchemas: true})
	if err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}

	t.Logf("\n%s", sqeRep.Format("SQE", 5))
	t.Logf("\n%s", pgRep.Format("PostgreSQL 15", 12))
	t.Logf("README table:\n%s", sqllogictest.MarkdownTable(sqeRep, pgRep))

	checkPostgresMisses(t, pgRep)
	checkSLTBaseline(t, sqeRep)
}

// planSLTShim probes SQE on a scratch data directory with the files'
// setup records and returns the tables to write through storage.
func planSLTShim(t *testing.T, ctx context.Context, suite *sqllogictest.Suite) *sqllogictest.ShimPlan {
	t.Helper()
	scratch := filepath.Join(t.TempDir(), "probe")
	if err := applySLTPlan(ctx, scratch, &sqllogictest.ShimPlan{Namespaces: suite.Namespaces()}); err != nil {
		t.Fatal(err)
	}
	probe := startTestServerIn(t, scratch, false)
	plan, err := sqllogictest.PlanShim(ctx, suite, sqeConnector(t, probe), sltEngine)
	if err != nil {
		t.Fatalf("probe SQE: %v", err)
	}
	if err := probe.stop(); err != nil {
		t.Fatalf("stop probe server: %v\n%s", err, probe.log())
	}
	return plan
}

// applySLTPlan writes plan into dataDir before a server serves it.
func applySLTPlan(ctx context.Context, dataDir string, plan *sqllogictest.ShimPlan) error {
	cat, err := storage.OpenEmbedded(ctx, demoDatabase, dataDir, storage.AllowAll{})
	if err != nil {
		return fmt.Errorf("open SQE data dir: %w", err)
	}
	applyErr := plan.Apply(storage.WithPrincipal(ctx, storage.Principal{User: sltUser}), cat)
	if err := errors.Join(applyErr, cat.Close()); err != nil {
		return fmt.Errorf("prepare SQE data dir: %w", err)
	}
	return nil
}

func sqeConnector(t *testing.T, srv *server) sqllogictest.Connector {
	t.Helper()
	token, err := srv.mintAdmin(sltUser)
	if err != nil {
		t.Fatal(err)
	}
	cfg := pgxConfig(t, srv, sltUser, demoDatabase, "disable", token)
	return func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, cfg.Copy()) }
}

func postgresConnector(pg *refPostgres) sqllogictest.Connector {
	connStr := fmt.Sprintf("host=127.0.0.1 port=%s user=alice dbname=%s sslmode=disable", pg.port, demoDatabase)
	return func(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, connStr) }
}

// checkPostgresMisses fails unless PostgreSQL fails exactly the records
// listed as its known misses.
func checkPostgresMisses(t *testing.T, rep *sqllogictest.Report) {
	t.Helper()
	known, err := sqllogictest.ReadBaseline(sltPostgresMissesFile)
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, f := range rep.Failures() {
		failed = append(failed, f.Record.ID())
	}
	c := rep.Counts()
	t.Logf("PostgreSQL 15 passes %d of %d records; its %d known misses: %s", c.Passed, c.Records, len(known), strings.Join(known, ", "))
	unexpected, fixed := sqllogictest.DiffBaseline(failed, known)
	if len(unexpected) > 0 || len(fixed) > 0 {
		t.Errorf("PostgreSQL 15 misses differ from %s: unexpected failures %v, listed but passing %v",
			sltPostgresMissesFile, unexpected, fixed)
	}
}

// checkSLTBaseline fails when a baseline record stops passing on SQE,
// and rewrites the baseline under -update-slt-baseline.
func checkSLTBaseline(t *testing.T, rep *sqllogictest.Report) {
	t.Helper()
	passing := rep.Passing()
	if *updateSLTBaseline {
		if err := os.WriteFile(sltBaselineFile, []byte(sqllogictest.FormatBaseline(passing)), 0o644); err != nil {
			t.Fatalf("write baseline: %v", err)
		}
		t.Logf("wrote %s with %d records", sltBaselineFile, len(passing))
		return
	}
	baseline, err := sqllogictest.ReadBaseline(sltBaselineFile)
	if err != nil {
		t.Fatal(err)
	}
	regressed, newlyPassing := sqllogictest.DiffBaseline(baseline, passing)
	for _, id := range regressed {
		reason := "not run"
		for _, f := range rep.Failures() {
			if f.Record.ID() == id {
				reason = f.Reason
			}
		}
		t.Errorf("%s passed before and fails now: %s", id, reason)
	}
	if len(newlyPassing) > 0 {
		slices.Sort(newlyPassing)
		t.Logf("%d records pass that %s does not list yet (%s); update it with -update-slt-baseline",
			len(newlyPassing), sltBaselineFile, strings.Join(newlyPassing, ", "))
	}
}
