package exec_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// memTable is an in-memory planner.Table for tests.
type memTable struct {
	name    string
	regions *memTable // the second test table, u
	cols    []planner.TableColumn
	batches []arrow.RecordBatch
	// scans records the filters pushed into each scan; mu guards it and
	// scanColumns, as a Gather's shared builds scan at once.
	mu    sync.Mutex
	scans []iceberg.BooleanExpression
	// batchMorsels makes each batch a morsel (see ScanMorsels).
	batchMorsels bool
	// scanColumns records the columns each scan read.
	scanColumns [][]int
	// admitsEveryRow is AdmitsEveryRow's answer.
	admitsEveryRow bool
	// rowEstimate is RowEstimate's answer when positive (else unknown).
	rowEstimate int64
}

func (m *memTable) QualifiedName() planner.TableName {
	return planner.TableName{Catalog: "cat", Schema: "s", Name: m.name}
}
func (m *memTable) OID() uint32                    { return 20000 + uint32(len(m.name)) }
func (m *memTable) Columns() []planner.TableColumn { return m.cols }
func (m *memTable) RowEstimate() int64 {
	if m.rowEstimate > 0 {
		return m.rowEstimate
	}
	return -1
}

func (m *memTable) Scan(_ context.Context, columns []int, filter iceberg.BooleanExpression) (planner.RecordStream, error) {
	m.mu.Lock()
	m.scans = append(m.scans, filter)
	m.scanColumns = append(m.scanColumns, columns)
	m.mu.Unlock()
	var out []arrow.RecordBatch
	for _, b := range m.batches {
		arrs := make([]arrow.Array, len(columns))
		fields := make([]arrow.Field, len(columns))
		for i, c := range columns {
			arrs[i] = b.Column(c)
			fields[i] = b.Schema().Field(c)
		}
		out = append(out, array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, b.NumRows()))
	}
	return &memStream{batches: out}, nil
}

type memStream struct{ batches []arrow.RecordBatch }

func (s *memStream) Next() (arrow.RecordBatch, error) {
	if len(s.batches) == 0 {
		return nil, io.EOF
	}
	b := s.batches[0]
	s.batches = s.batches[1:]
	return b, nil
}
func (s *memStream) Close() error { return nil }

type memCatalog struct{ t *memTable }

func (c memCatalog) ResolveTable(_ context.Context, n planner.TableName) (planner.Table, error) {
	if n.Name == "t" && (n.Schema == "" || n.Schema == "s") {
		return c.t, nil
	}
	if n.Name == "u" && (n.Schema == "" || n.Schema == "s") {
		return c.t.regions, nil
	}
	return nil, pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", n.Name)
}

// newTestTable holds 5 rows in two batches, with NULLs:
//
//	id | region | amount | qty  | price
//	 1 | EU     | 120.50 |    3 | 1.5
//	 2 | US     |  75.00 | NULL | 2.25
//	 3 | EU     | 310.25 |    7 | NULL
//	 4 | NULL   |   0.05 |    1 | -4
//	 5 | APAC   |  NULL  |   10 | 0.5
func newTestTable(t *testing.T) *memTable {
	cols := []planner.TableColumn{
		{Name: "id", Type: types.Int8},
		{Name: "region", Type: types.Text, Nullable: true},
		{Name: "amount", Type: types.Numeric(12, 2), Nullable: true},
		{Name: "qty", Type: types.Int4, Nullable: true},
		{Name: "price", Type: types.Float8, Nullable: true},
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: c.Nullable}
	}
	schema := arrow.NewSchema(fields, nil)
	type row struct {
		id     int64
		region *string
		amount *int64 // cents
		qty    *int32
		price  *float64
	}
	s := func(v string) *string { return &v }
	c := func(v int64) *int64 { return &v }
	q := func(v int32) *int32 { return &v }
	f := func(v float64) *float64 { return &v }
	rows := [][]row{
		{{1, s("EU"), c(12050), q(3), f(1.5)}, {2, s("US"), c(7500), nil, f(2.25)}},
		{{3, s("EU"), c(31025), q(7), nil}, {4, nil, c(5), q(1), f(-4)}, {5, s("APAC"), nil, q(10), f(0.5)}},
	}
	m := &memTable{name: "t", cols: cols, regions: newRegionTable(t)}
	for _, batch := range rows {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for _, r := range batch {
			b.Field(0).(*array.Int64Builder).Append(r.id)
			if r.region != nil {
				b.Field(1).(*array.StringBuilder).Append(*r.region)
			} else {
				b.Field(1).AppendNull()
			}
			if r.amount != nil {
				b.Field(2).(*array.Decimal64Builder).Append(decimal.Decimal64(*r.amount))
			} else {
				b.Field(2).AppendNull()
			}
			if r.qty != nil {
				b.Field(3).(*array.Int32Builder).Append(*r.qty)
			} else {
				b.Field(3).AppendNull()
			}
			if r.price != nil {
				b.Field(4).(*array.Float64Builder).Append(*r.price)
			} else {
				b.Field(4).AppendNull()
			}
		}
		m.batches = append(m.batches, b.NewRecordBatch())
		b.Release()
	}
	t.Cleanup(func() {
		for _, b := range m.batches {
			b.Release()
		}
	})
	return m
}

// newRegionTable is u(region text, name text):
//
//	EU    | Europe
//	US    | United States
//	LATAM | Latin America
//	NULL  | Nowhere
func newRegionTable(t *testing.T) *memTable {
	cols := []planner.TableColumn{{Name: "region", Type: types.Text, Nullable: true}, {Name: "name", Type: types.Text}}
	schema := arrow.NewSchema([]arrow.Field{{Name: "region", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range [][2]string{{"EU", "Europe"}, {"US", "United States"}, {"LATAM", "Latin America"}, {"", "Nowhere"}} {
		if r[0] == "" {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.StringBuilder).Append(r[0])
		}
		b.Field(1).(*array.StringBuilder).Append(r[1])
	}
	m := &memTable{name: "u", cols: cols, batches: []arrow.RecordBatch{b.NewRecordBatch()}}
	t.Cleanup(func() { m.batches[0].Release() })
	return m
}

// runQuery binds, optimizes and executes sql, returning the column names
// and rows rendered as "a|b|c" (NULL as "NULL").
func runQuery(t *testing.T, tbl *memTable, sql string) ([]string, []string, error) {
	t.Helper()
	return runQueryIn(context.Background(), t, tbl, sql, 1)
}

// runQueryWorkers is runQuery with the plan's pipelines run by workers
// goroutines (1: the serial plan).
func runQueryWorkers(t *testing.T, tbl *memTable, sql string, workers int) ([]string, []string, error) {
	t.Helper()
	return runQueryIn(context.Background(), t, tbl, sql, workers)
}

// runQueryIn is runQueryWorkers with the evaluation context ctx (a session
// time zone).
func runQueryIn(ctx context.Context, t *testing.T, tbl *memTable, sql string, workers int) ([]string, []string, error) {
	t.Helper()
	return runQueryPlanned(ctx, t, tbl, sql, workers, nil)
}

// runQueryPlanned is runQueryIn with the optimized plan passed through
// adjust (when not nil) before it runs.
func runQueryPlanned(ctx context.Context, t *testing.T, tbl *memTable, sql string, workers int, adjust func(planner.Node)) ([]string, []string, error) {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		return nil, nil, pgerror.New(pgerror.SyntaxError, "%v", err)
	}
	if len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		return nil, nil, pgerror.Unsupported("only one SELECT is run here")
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	p, err := planner.NewBinder(ctx, memCatalog{tbl}, planner.OpenRelation{}, sql).BindSelect(sel)
	if err != nil {
		return nil, nil, err
	}
	p = planner.Optimize(p, exec.ParallelOptions(workers, 0, 0))
	if adjust != nil {
		adjust(p.Root)
	}
	op, err := exec.Build(ctx, p.Root)
	if err != nil {
		return nil, nil, err
	}
	defer op.Close()
	var names []string
	for _, c := range p.Root.Columns() {
		names = append(names, c.Name)
	}
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			return nil, nil, err
		}
		if b == nil {
			break
		}
		for r := 0; r < int(b.NumRows()); r++ {
			vals := make([]string, b.NumCols())
			for c := 0; c < int(b.NumCols()); c++ {
				col := b.Column(c)
				switch d := col.(type) {
				case *array.List:
					if d.IsNull(r) {
						vals[c] = "NULL"
						break
					}
					start, end := d.ValueOffsets(r)
					var elems []string
					for k := start; k < end; k++ {
						switch v := d.ListValues().ValueStr(int(k)); {
						case d.ListValues().IsNull(int(k)):
							elems = append(elems, "NULL")
						case v == "":
							// PostgreSQL quotes an empty element.
							elems = append(elems, `""`)
						default:
							elems = append(elems, v)
						}
					}
					vals[c] = "{" + strings.Join(elems, ",") + "}"
				case *array.Decimal128:
					if d.IsNull(r) {
						vals[c] = "NULL"
					} else {
						vals[c] = d.Value(r).ToString(d.DataType().(*arrow.Decimal128Type).Scale)
					}
				case *array.Decimal64:
					if d.IsNull(r) {
						vals[c] = "NULL"
					} else {
						vals[c] = decimal128.FromI64(int64(d.Value(r))).ToString(d.DataType().(*arrow.Decimal64Type).Scale)
					}
				default:
					switch {
					case col.IsNull(r):
						vals[c] = "NULL"
					case postgresText(col, r) != "":
						vals[c] = postgresText(col, r)
					default:
						vals[c] = col.ValueStr(r)
					}
				}
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		b.Release()
	}
	return names, rows, nil
}

// queryCase is one case of testdata/queries.txt:
//
//	query <name>
//	<sql, one or more lines>
//	----
//	<header: column names joined by |>
//	<rows>
//
// or, for an expected error:
//
//	error <SQLSTATE> <name>
//	<sql>
type queryCase struct {
	name, sql string
	wantCode  string
	want      []string
	line      int
}

func readCases(t *testing.T, path string) []queryCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []queryCase
	var cur *queryCase
	inResult := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "query ") || strings.HasPrefix(line, "error "):
			if cur != nil {
				cases = append(cases, *cur)
			}
			fields := strings.Fields(line)
			cur = &queryCase{line: n}
			if fields[0] == "error" {
				cur.wantCode, cur.name = fields[1], strings.Join(fields[2:], " ")
			} else {
				cur.name = strings.Join(fields[1:], " ")
			}
			inResult = false
		case line == "----":
			inResult = true
		case strings.TrimSpace(line) == "":
		case cur != nil && inResult:
			cur.want = append(cur.want, line)
		case cur != nil:
			cur.sql = strings.TrimSpace(cur.sql + "\n" + line)
		}
	}
	if cur != nil {
		cases = append(cases, *cur)
	}
	return cases
}

func queryFiles(t *testing.T) []string {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no query files: %v", err)
	}
	return files
}

func TestQueries(t *testing.T) {
	for _, tc := range allCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			tbl := newTestTable(t)
			names, rows, err := runQuery(t, tbl, tc.sql)
			if tc.wantCode != "" {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != tc.wantCode {
					t.Fatalf("line %d: %s\nwant error %s, got %v (rows %v)", tc.line, tc.sql, tc.wantCode, err, rows)
				}
				return
			}
			if err != nil {
				t.Fatalf("line %d: %s\nunexpected error: %v", tc.line, tc.sql, err)
			}
			got := append([]string{strings.Join(names, "|")}, rows...)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("line %d: %s\ngot:\n%s\nwant:\n%s", tc.line, tc.sql, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestLeakproofFiltersArePushedIntoScan(t *testing.T) {
	tests := []struct {
		sql    string
		pushed string // "" = nothing pushed
	}{
		{"SELECT id FROM t WHERE id = 3", "Equal"},
		{"SELECT id FROM t WHERE region = 'EU' AND id > 1", "And"},
		{"SELECT id FROM t WHERE id / 0 = 1", ""},
		{"SELECT id FROM t WHERE region IS NULL", "IsNull"},
	}
	for _, tt := range tests {
		tbl := newTestTable(t)
		_, _, err := runQuery(t, tbl, tt.sql)
		if tt.pushed == "" && err == nil {
			t.Errorf("%s: expected the division by zero to be evaluated", tt.sql)
		}
		if len(tbl.scans) != 1 {
			t.Fatalf("%s: %d scans", tt.sql, len(tbl.scans))
		}
		got := ""
		if tbl.scans[0] != nil {
			got = tbl.scans[0].String()
		}
		if tt.pushed == "" && got != "" || tt.pushed != "" && !strings.Contains(got, tt.pushed) {
			t.Errorf("%s: pushed %q, want %q", tt.sql, got, tt.pushed)
		}
	}
}

// postgresText prints the types whose Arrow rendering differs from
// PostgreSQL's text output as PostgreSQL does; "" for the others.
func postgresText(col arrow.Array, r int) string {
	switch d := col.(type) {
	case *array.Boolean:
		if d.Value(r) {
			return "t"
		}
		return "f"
	case *array.Timestamp:
		zone := ""
		if d.DataType().(*arrow.TimestampType).TimeZone != "" {
			zone = "+00"
		}
		return string(types.AppendTimestamp(nil, int64(d.Value(r)), zone))
	case *array.Time64:
		return string(types.AppendTime(nil, int64(d.Value(r))))
	case *array.Float64:
		if v := d.Value(r); math.IsInf(v, 0) || math.IsNaN(v) {
			return string(types.AppendFloat(nil, v, 64))
		}
	case *array.Date32:
		out, bc := types.AppendDate(nil, int64(d.Value(r)))
		if bc {
			out = append(out, " BC"...)
		}
		return string(out)
	case *array.Binary:
		return string(types.AppendByteaHex(nil, d.Value(r)))
	case *array.MonthDayNanoInterval:
		return string(types.AppendInterval(nil, types.IntervalFromArrow(d.Value(r))))
	}
	return ""
}
