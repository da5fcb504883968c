package sqllogictest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		sql   string
		kind  SetupKind
		table string
	}{
		{"CREATE TABLE t (a int)", CreateTable, "t"},
		{"CREATE TABLE Big (a int)", CreateTable, "big"},
		{"CREATE TABLE t2 AS SELECT 1", CreateTableAs, "t2"},
		{"COPY t FROM '../x.csv' DELIMITER ',' CSV HEADER;", CopyFrom, "t"},
		{"COPY t TO STDOUT", NotSetup, ""},
		{"INSERT INTO t VALUES (1), (2)", InsertValues, "t"},
		{"INSERT INTO t SELECT 1", NotSetup, ""},
		{"DROP TABLE s.t", DropTable, "t"},
		{"DROP VIEW v", NotSetup, ""},
		{"SELECT 1", NotSetup, ""},
		{"CREATE EXTERNAL TABLE t STORED AS CSV", NotSetup, ""},
	}
	for _, tt := range tests {
		kind, table := Classify(tt.sql)
		if kind != tt.kind || table != tt.table {
			t.Errorf("Classify(%q) = %d %q, want %d %q", tt.sql, kind, table, tt.kind, tt.table)
		}
	}
}

func TestCopyFromStdin(t *testing.T) {
	st, err := classify("COPY t FROM '../../testing/data/csv/x.csv' DELIMITER ',' CSV HEADER")
	if err != nil {
		t.Fatal(err)
	}
	got, err := copyFromStdin(st.copy)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "FROM STDIN") || strings.Contains(got, "x.csv") {
		t.Errorf("rewritten COPY = %q, want FROM STDIN without the file", got)
	}
}

// planFrom classifies statements and builds their table plan.
func planFrom(t *testing.T, read readFunc, sqls ...string) (*TablePlan, error) {
	t.Helper()
	var stmts []setupStmt
	var ids []string
	for i, sql := range sqls {
		st, err := classify(sql)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, st)
		ids = append(ids, fmt.Sprintf("f.slt:%d", i+1))
	}
	return buildTablePlan("slt_f", stmts, ids, read)
}

func TestBuildTablePlan(t *testing.T) {
	read := func(name string) ([]byte, error) {
		if name != "data.csv" {
			return nil, fmt.Errorf("no file %s", name)
		}
		return []byte("a,b,c\n1,x,1.5\n2,,2.25\n"), nil
	}
	p, err := planFrom(t, read,
		"CREATE TABLE t (a smallint NOT NULL, b character varying, c double precision)",
		"COPY t FROM '../../data.csv' DELIMITER ',' CSV HEADER",
		"INSERT INTO t (c, a) VALUES (-3.5, -3), (NULL, 4)",
		"DROP TABLE t")
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []Column{{"a", types.Int2, true}, {"b", types.Varchar, false}, {"c", types.Float8, false}}
	if fmt.Sprint(p.Columns) != fmt.Sprint(wantCols) {
		t.Errorf("columns = %v, want %v", p.Columns, wantCols)
	}
	var rows []string
	for _, r := range p.Rows {
		var vals []string
		for _, v := range r {
			vals = append(vals, Render(types.OIDText, v))
		}
		rows = append(rows, strings.Join(vals, " "))
	}
	want := "1 x 1.5|2 NULL 2.25|-3 NULL -3.5|4 NULL NULL"
	if got := strings.Join(rows, "|"); got != want {
		t.Errorf("rows = %s, want %s", got, want)
	}
	if len(p.Records) != 4 {
		t.Errorf("records = %v, want all four", p.Records)
	}
}

func TestBuildTablePlanRefuses(t *testing.T) {
	none := func(string) ([]byte, error) { return nil, fmt.Errorf("no files") }
	tests := []struct {
		name string
		sqls []string
		want string
	}{
		{"CTAS", []string{"CREATE TABLE t AS SELECT 1"}, "CREATE TABLE AS"},
		{"no create", []string{"INSERT INTO t VALUES (1)"}, "not a CREATE TABLE"},
		{"used after drop", []string{"CREATE TABLE t (a int)", "DROP TABLE t", "INSERT INTO t VALUES (1)"}, "after DROP"},
		{"expression in VALUES", []string{"CREATE TABLE t (a int)", "INSERT INTO t VALUES (1 + 1)"}, "only constants"},
		{"unknown type", []string{"CREATE TABLE t (a point)"}, "not supported by the shim"},
		{"missing file", []string{"CREATE TABLE t (a int)", "COPY t FROM 'x.csv' CSV"}, "no files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := planFrom(t, none, tt.sqls...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// Apply writes the planned tables so that the storage layer reads them
// back with the planned schema and rows.
func TestApplyWritesTables(t *testing.T) {
	p, err := planFrom(t, nil,
		"CREATE TABLE tstz (id int, ts timestamptz, n numeric(5,2), d date, ok boolean, r real)",
		"INSERT INTO tstz VALUES (1, '2024-07-01T00:00:00Z', 1.25, '2024-01-02', true, 0.5), (2, NULL, NULL, NULL, NULL, NULL)")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	plan := &ShimPlan{Namespaces: []string{"slt_f", "slt_empty"}, Tables: []*TablePlan{p}}
	loader := storage.WithPrincipal(ctx, storage.Principal{User: "loader"})
	if err := plan.Apply(loader, cat); err != nil {
		t.Fatal(err)
	}
	if ok, err := cat.NamespaceExists(loader, "slt_empty"); err != nil || !ok {
		t.Errorf("namespace slt_empty exists = %v, %v; want true", ok, err)
	}
	tbl, err := cat.LoadTable(loader, "slt_f", "tstz")
	if err != nil {
		t.Fatal(err)
	}
	stream, err := tbl.Scan(loader, storage.ScanRequest{})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var got []string
	for {
		rec, err := stream.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			var vals []string
			for c := 0; c < int(rec.NumCols()); c++ {
				vals = append(vals, rec.Column(c).ValueStr(r))
			}
			got = append(got, strings.Join(vals, " "))
		}
		rec.Release()
	}
	want := []string{
		"1 2024-07-01T00:00:00Z 1.25 2024-01-02 true 0.5",
		"2 (null) (null) (null) (null) (null)",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rows read back = %q, want %q", got, want)
	}
	if ts := tbl.Schema().Field(1).Type; !arrow.TypeEqual(ts, types.TimestampTZ.Arrow()) {
		t.Errorf("ts column type = %s, want %s", ts, types.TimestampTZ.Arrow())
	}
}
