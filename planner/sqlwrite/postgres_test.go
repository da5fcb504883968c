package sqlwrite_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/jackc/pgx/v5"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	sqeexec "github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/planner/sqlwrite"
)

// postgresBin is where Debian installs PostgreSQL 15's programs.
const postgresBin = "/usr/lib/postgresql/15/bin"

// rowsTable is an in-memory table of int8, int4 and text columns.
type rowsTable struct {
	peopleTable
	rows [][]any // nil is NULL
}

func (t *rowsTable) Scan(_ context.Context, columns []int, _ iceberg.BooleanExpression) (planner.RecordStream, error) {
	fields := make([]arrow.Field, len(columns))
	for i, c := range columns {
		fields[i] = arrow.Field{Name: t.cols[c].Name, Type: t.cols[c].Type.Arrow(), Nullable: true}
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for _, r := range t.rows {
		for i, c := range columns {
			switch v := r[c].(type) {
			case nil:
				b.Field(i).AppendNull()
			case int64:
				b.Field(i).(*array.Int64Builder).Append(v)
			case int32:
				b.Field(i).(*array.Int32Builder).Append(v)
			case string:
				b.Field(i).(*array.StringBuilder).Append(v)
			}
		}
	}
	return &rowStream{batches: []arrow.RecordBatch{b.NewRecordBatch()}}, nil
}

type rowStream struct{ batches []arrow.RecordBatch }

func (s *rowStream) Next() (arrow.RecordBatch, error) {
	if len(s.batches) == 0 {
		return nil, io.EOF
	}
	b := s.batches[0]
	s.batches = s.batches[1:]
	return b, nil
}
func (s *rowStream) Close() error { return nil }

// rowsCatalog holds people and dept with the rows of peopleRows and
// deptRows: person 2 is hidden (region US), so 1/(id-2) fails only if
// the row filter does not come first.
type rowsCatalog struct{}

var (
	peopleRows = [][]any{
		{int64(1), "ann", "EU", "111-11-1111", int32(10)},
		{int64(2), "bob", "US", "222-22-2222", int32(10)},
		{int64(3), "O'Hara", "EU", nil, int32(20)},
		{int64(4), nil, "EU", "444-44-4444", nil},
		{int64(5), "eve", nil, "555-55-5555", int32(30)},
		{int64(6), "Zed", "EU", "666-66-6666", int32(30)},
		// Letters and digits beyond ASCII, for the masks.
		{int64(7), "Ærøñ ΣΩ-ǅ 42٣", "EU", "ＡＢ-７７７", int32(10)},
	}
	deptRows = [][]any{
		{int32(10), "sales"},
		{int32(20), "ops"},
		{int32(40), "legal"},
	}
)

func (rowsCatalog) ResolveTable(ctx context.Context, n planner.TableName) (planner.Table, error) {
	t, err := hrCatalog{}.ResolveTable(ctx, n)
	if err != nil {
		return nil, err
	}
	pt := t.(*peopleTable)
	rows := peopleRows
	if n.Name == "dept" {
		rows = deptRows
	}
	return &rowsTable{peopleTable: *pt, rows: rows}, nil
}

// TestPostgresAnswersMatchLocal runs the PostgreSQL statements written
// from secured plans on PostgreSQL 15 holding the same rows, and compares
// their answers with the plans run by SQE.
func TestPostgresAnswersMatchLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	if _, err := os.Stat(filepath.Join(postgresBin, "initdb")); err != nil {
		t.Fatalf("PostgreSQL 15 is not installed (%v): install the postgresql-15 package (make test does this)", err)
	}
	ctx := context.Background()
	conn := startPostgres(t, ctx)
	loadRows(t, ctx, conn)
	queries := []string{
		"SELECT id, ssn FROM people",
		"SELECT id FROM people WHERE 1/(id-2) > 0",
		"SELECT id, 12 / (id - 2) FROM people",
		"SELECT id, ssn FROM people WHERE id > 1 ORDER BY name DESC LIMIT 3 OFFSET 1",
		"SELECT p.name, d.title FROM people p JOIN dept d ON p.dept = d.dept",
		"SELECT d.title, 10 / p.dept FROM dept d LEFT JOIN people p ON p.dept = d.dept",
		"SELECT d.title, p.id FROM people p FULL JOIN dept d ON p.dept = d.dept",
		"SELECT region, count(*), count(DISTINCT ssn), max(name), min(dept) FROM people GROUP BY region HAVING count(*) > 1",
		"SELECT count(*) FROM people",
		"SELECT id FROM people WHERE dept IN (SELECT dept FROM dept WHERE title <> 'ops')",
		"SELECT id FROM people p WHERE NOT EXISTS (SELECT 1 FROM dept d WHERE d.dept = p.dept)",
		"SELECT name FROM people WHERE name = 'O''Hara' OR name < 'a'",
		"SELECT id - -5, -dept, coalesce(name, 'none') FROM people WHERE dept > -1",
		`SELECT id FROM people WHERE name LIKE '%e%' OR name LIKE 'O''%' OR ssn LIKE '___-__-_1%' OR name LIKE 'Z\%d' ORDER BY id`,
		"SELECT id, CASE WHEN name NOT LIKE '_e_' THEN 1 ELSE 0 END, strpos(name, 'e'), strpos(name, ''), replace(name, 'e', 'E'), replace(name, '', 'x') FROM people",
		"SELECT id, substr(name, 2), substr(name, -1, 3), substr(name, 0, 2), substr(name, 2, 0), left(name, -1), right(name, 2) FROM people",
		"SELECT id, concat(name, '/', region), btrim(concat(' ', name, ' ')), ltrim(name), rtrim(name) FROM people",
		"SELECT id FROM people WHERE substr(ssn, 1, 3) = '444' OR length(name) > 3",
		"SELECT region, sum(id * 1.5), avg(dept), sum(dept::numeric(6,1) * 2.25), max(id / 3.0) FROM people GROUP BY region",
		"SELECT id, DATE '2024-02-28' + dept, DATE '2024-03-01' - DATE '2024-02-01', DATE '2024-03-01' - (dept % 7) FROM people",
		"SELECT 1 + 2, 'x' || 'y'",
		"SELECT p.id, (SELECT max(d.title) FROM dept d WHERE d.dept = p.dept) FROM people p",
		"SELECT id FROM people p WHERE EXISTS (SELECT 1 FROM dept d WHERE d.dept = p.dept AND 10 / (p.id - 2) > -100) OR p.dept IS NULL",
		"SELECT p.region, (SELECT count(*) FROM people q WHERE q.region = p.region AND q.ssn <> '') FROM people p GROUP BY p.region",
		"WITH RECURSIVE r(n, id) AS (SELECT 1, id FROM people WHERE 10 / (id - 2) > -100 UNION SELECT n + 1, id FROM r WHERE n < 3) SELECT n, id FROM r",
		"WITH RECURSIVE r(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT r.n, p.id FROM r JOIN people p ON p.id = r.n",
		"SELECT region, dept, count(*), GROUPING(region, dept) FROM people GROUP BY ROLLUP (region, dept)",
		"SELECT region, dept, max(id) FROM people GROUP BY CUBE (region, dept) HAVING 10 / (max(id) - 2) > -100",
		"SELECT id, generate_series(1, dept / 10), generate_series(1, 2) FROM people",
		"WITH e AS MATERIALIZED (SELECT id, dept, ssn FROM people WHERE 10 / (id - 2) > -100) SELECT a.id, b.dept, a.ssn FROM e a JOIN e b ON a.id = b.id WHERE 5 / (a.id - 2) > -100",
		"WITH e AS (SELECT dept, count(*) AS n FROM people GROUP BY dept) SELECT d.title, e.n FROM dept d LEFT JOIN e ON e.dept = d.dept",
		"SELECT p.id, v.w FROM people p JOIN (VALUES (10, 'ten'), (20, NULL), (30, 'thirty')) v(d, w) ON p.dept = v.d",
		"SELECT id FROM people WHERE id::float8 / 2 > 1.5 OR dept::float8 = 'NaN'::float8",
		"SELECT id::text, dept::numeric(6,1), dept::numeric(6,1)::int4, '2024-02-29'::date::text, id::float8, (id > 2)::text FROM people",
		"SELECT id, mask(name), mask_show_first_n(name, 2), mask_last_n(name, 1, 'U', 'l', '#'), mask_first_n(name, 100, 'U', -1, 'd') FROM people",
	}
	for _, sec := range []planner.Security{peoplePolicy{mask: ssnMask}, peoplePolicy{}, peoplePolicy{mask: "mask_show_last_n(ssn, 4, 'x', 'x', 'x', -1, '1')"}} {
		for _, q := range queries {
			comparePostgres(t, ctx, conn, sec, q, strings.Contains(q, "ORDER BY"))
		}
	}
	// The plan nodes' queries, also under a row filter PostgreSQL costs
	// above a division (postgres_nodes_test.go).
	for _, sec := range []planner.Security{peoplePolicy{mask: ssnMask}, peoplePolicy{}, costlyFilterPolicy{}} {
		for _, q := range nodeQueries {
			comparePostgres(t, ctx, conn, sec, q.sql, q.ordered)
		}
	}
}

// comparePostgres writes query, bound under sec, for PostgreSQL, runs it
// on conn and compares its rows with SQE's (in order when ordered).
func comparePostgres(t *testing.T, ctx context.Context, conn *pgx.Conn, sec planner.Security, query string, ordered bool) {
	t.Helper()
	name := fmt.Sprintf("%T%v: %s", sec, sec, query)
	root := bindIn(t, rowsCatalog{}, query, sec)
	sql, err := sqlwrite.Write(root, sqlwrite.PostgreSQL, sqlwrite.Catalogs{"lake": ""})
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	want := runLocal(t, ctx, root)
	got, err := runPostgres(ctx, conn, sql)
	if err != nil {
		t.Errorf("%s: PostgreSQL: %v\n%s", name, err, sql)
		return
	}
	if !ordered {
		slices.Sort(got)
		slices.Sort(want)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s:\nPostgreSQL %v\nSQE        %v\n%s", name, got, want, sql)
	}
}

// bindIn binds and optimizes one SELECT against catalog under sec.
func bindIn(t *testing.T, catalog planner.Catalog, sql string, sec planner.Security) planner.Node {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.NewBinder(context.Background(), catalog, sec, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatalf("bind %q: %v", sql, err)
	}
	return planner.Optimize(p, planner.ParallelOptions{}).Root
}

// runLocal runs root in SQE and returns its rows, each value as text.
func runLocal(t *testing.T, ctx context.Context, root planner.Node) []string {
	t.Helper()
	op, err := sqeexec.Build(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return rows
		}
		for r := 0; r < int(b.NumRows()); r++ {
			vals := make([]string, b.NumCols())
			for c := range vals {
				col := b.Column(c)
				switch d := col.(type) {
				case *array.Decimal128:
					if !d.IsNull(r) {
						vals[c] = d.Value(r).ToString(d.DataType().(*arrow.Decimal128Type).Scale)
						continue
					}
				case *array.Decimal64:
					if !d.IsNull(r) {
						vals[c] = decimal128.FromI64(int64(d.Value(r))).ToString(d.DataType().(*arrow.Decimal64Type).Scale)
						continue
					}
				}
				if col.IsNull(r) {
					vals[c] = "NULL"
				} else if vals[c] == "" {
					vals[c] = col.ValueStr(r)
				}
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		b.Release()
	}
}

// runPostgres runs sql and returns its rows, each value as PostgreSQL's
// text.
func runPostgres(ctx context.Context, conn *pgx.Conn, sql string) ([]string, error) {
	rs, err := conn.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var rows []string
	for rs.Next() {
		raw := rs.RawValues()
		vals := make([]string, len(raw))
		for i, v := range raw {
			if v == nil {
				vals[i] = "NULL"
			} else {
				vals[i] = string(v)
			}
		}
		rows = append(rows, strings.Join(vals, "|"))
	}
	return rows, rs.Err()
}

// startPostgres starts a PostgreSQL 15 cluster in a temporary directory
// on a loopback port, stopped when the test ends, and connects to it. As
// root, the server runs as the postgres user, since PostgreSQL refuses
// root.
func startPostgres(t *testing.T, ctx context.Context) *pgx.Conn {
	t.Helper()
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root without a postgres user, which PostgreSQL needs (the postgresql-15 package creates it): %v", err)
		}
		uid, _ := strconv.ParseUint(u.Uid, 10, 32)
		gid, _ := strconv.ParseUint(u.Gid, 10, 32)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "sqlwrite-pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	run := func(cmd *exec.Cmd) {
		if cred != nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(postgresBin, "initdb"), "-D", data, "-U", "sqe",
		"--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")
	run(initdb)
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	server := exec.Command(filepath.Join(postgresBin, "postgres"), "-D", data, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-k", dir, "-c", "fsync=off")
	run(server)
	var log strings.Builder
	server.Stdout, server.Stderr = &log, &log
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- server.Wait() }()
	t.Cleanup(func() {
		_ = server.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = server.Process.Kill()
			<-done
		}
	})
	dsn := fmt.Sprintf("host=127.0.0.1 port=%d user=sqe dbname=postgres sslmode=disable", port)
	for range 300 {
		conn, err := pgx.Connect(ctx, dsn)
		if err == nil {
			t.Cleanup(func() { conn.Close(context.Background()) })
			return conn
		}
		select {
		case err := <-done:
			t.Fatalf("postgres exited: %v\n%s", errors.Join(err), log.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("postgres did not accept connections\n%s", log.String())
	return nil
}
