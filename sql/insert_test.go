package sql

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// newWriteSession opens a session on a fresh catalog holding w.items(id
// bigint NOT NULL, n numeric(10,2), t text, d date, f double precision,
// k integer DEFAULT 7), created through the storage API.
func newWriteSession(t testing.TB) (*Session, storage.Catalog) {
	t.Helper()
	ctx := storage.WithPrincipal(context.Background(), storage.Principal{User: "loader"})
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if err := cat.CreateNamespace(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "n", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "t", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	tbl, err := cat.CreateTable(ctx, "w", "items", schema, storage.CreateTableOptions{
		Properties: map[string]string{storage.ColumnProperty(storage.DefaultKey, 6): "3 + 4"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := tbl.Schema().Field(5).Metadata.GetValue("PARQUET:field_id"); id != "6" {
		t.Fatalf("field id of k = %q, want 6", id)
	}
	e := NewEngine(EngineConfig{}, []storage.Catalog{cat}, governance.Passthrough{})
	s, err := e.NewSession(ctx, auth.Identity{User: "alice"}, "sales_wh", []StartupSetting{{Name: "search_path", Value: "w"}})
	if err != nil {
		t.Fatal(err)
	}
	return s, cat
}

func TestInsert(t *testing.T) {
	s, _ := newWriteSession(t)
	steps := []struct {
		sql  string
		rows []string // of the last statement
		tag  string   // of the last statement
		code string   // SQLSTATE of the error, "" for none
		msg  string   // error message, when code is set
	}{
		{sql: "INSERT INTO w.items VALUES (1, 2.345, 'a', '2024-01-02', 1.5, 3)", tag: "INSERT 0 1"},
		{sql: "INSERT INTO w.items (id, t) VALUES (2, 'b'), (3, NULL)", tag: "INSERT 0 2"},
		{sql: "INSERT INTO w.items (t, id) VALUES ('c', 4) RETURNING id, n, k, upper(t) AS u", rows: []string{"4|NULL|7|C"}, tag: "INSERT 0 1"},
		{sql: "INSERT INTO w.items VALUES (5, 10) RETURNING *", rows: []string{"5|10.00|NULL|NULL|NULL|7"}, tag: "INSERT 0 1"},
		{sql: "INSERT INTO w.items (id, n, k) VALUES (6, DEFAULT, DEFAULT) RETURNING k", rows: []string{"7"}, tag: "INSERT 0 1"},
		{sql: "INSERT INTO w.items (id, n, f) VALUES (7, 7, 7) RETURNING n, f", rows: []string{"7.00|7"}, tag: "INSERT 0 1"},
		{sql: "INSERT INTO w.items (id, k) VALUES (8, 2.5), (9, '11') RETURNING k", rows: []string{"3", "11"}, tag: "INSERT 0 2"},
		{sql: "INSERT INTO w.items (id, t) SELECT id + 100, 'copy ' || t FROM w.items WHERE id <= 2 RETURNING id, t",
			rows: []string{"101|copy a", "102|copy b"}, tag: "INSERT 0 2"},
		{sql: "INSERT INTO w.items (id, t) SELECT 200, 'x' WHERE false", tag: "INSERT 0 0"},
		{sql: "INSERT INTO w.items (id, d) SELECT 201, '2020-02-29' RETURNING d", rows: []string{"2020-02-29"}, tag: "INSERT 0 1"},
		{sql: "INSERT INTO w.items (id, t) VALUES (202, 42) RETURNING t", rows: []string{"42"}, tag: "INSERT 0 1"},
		{sql: "SELECT count(*) FROM w.items", rows: []string{"13"}, tag: "SELECT 1"},

		// Errors commit nothing.
		{sql: "INSERT INTO w.items (id) VALUES (300), (NULL)", code: pgerror.NotNullViolation,
			msg: `null value in column "id" of relation "items" violates not-null constraint`},
		{sql: "INSERT INTO w.items (t) VALUES ('x')", code: pgerror.NotNullViolation,
			msg: `null value in column "id" of relation "items" violates not-null constraint`},
		{sql: "INSERT INTO w.items (id, n) VALUES (301, 123456789)", code: pgerror.NumericValueOutOfRange,
			msg: "numeric field overflow"},
		{sql: "INSERT INTO w.items (id, nope) VALUES (1, 2)", code: pgerror.UndefinedColumn,
			msg: `column "nope" of relation "items" does not exist`},
		{sql: "INSERT INTO w.items (id, id) VALUES (1, 2)", code: pgerror.DuplicateColumn,
			msg: `column "id" specified more than once`},
		{sql: "INSERT INTO w.items (id) VALUES (1, 2)", code: pgerror.SyntaxError,
			msg: "INSERT has more expressions than target columns"},
		{sql: "INSERT INTO w.items (id, t) VALUES (1)", code: pgerror.SyntaxError,
			msg: "INSERT has more target columns than expressions"},
		{sql: "INSERT INTO w.items VALUES (1, 2, 'a', '2024-01-01', 1, 2, 3)", code: pgerror.SyntaxError,
			msg: "INSERT has more expressions than target columns"},
		{sql: "INSERT INTO w.items (id, k) VALUES (1, true)", code: pgerror.DatatypeMismatch,
			msg: `column "k" is of type integer but expression is of type boolean`},
		{sql: "INSERT INTO w.items (id, k) VALUES (1, 'x'::text)", code: pgerror.DatatypeMismatch,
			msg: `column "k" is of type integer but expression is of type text`},
		{sql: "INSERT INTO w.items (id, n) VALUES (1, true)", code: pgerror.DatatypeMismatch,
			msg: `column "n" is of type numeric but expression is of type boolean`},
		{sql: "INSERT INTO w.items (id, k) VALUES (1, 'x')", code: pgerror.InvalidTextRepresentation,
			msg: `invalid input syntax for type integer: "x"`},
		{sql: "INSERT INTO w.items (id, k) VALUES (1, 3000000000)", code: pgerror.NumericValueOutOfRange,
			msg: "integer out of range"},
		{sql: "INSERT INTO w.nothere VALUES (1)", code: pgerror.UndefinedTable,
			msg: `relation "w.nothere" does not exist`},
		{sql: "INSERT INTO w.items (id) VALUES (1) ON CONFLICT DO NOTHING", code: pgerror.FeatureNotSupported,
			msg: "ON CONFLICT is not supported yet"},
		{sql: "SELECT count(*) FROM w.items", rows: []string{"13"}, tag: "SELECT 1"},
	}
	for _, st := range steps {
		rows, tags, err := run(t, s, st.sql)
		if st.code != "" {
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != st.code || pe.Message != st.msg {
				t.Errorf("%s: error %v, want %s %q", st.sql, err, st.code, st.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", st.sql, err)
			continue
		}
		if got, want := strings.Join(rows, "\n"), strings.Join(st.rows, "\n"); got != want {
			t.Errorf("%s: rows\n%s\nwant\n%s", st.sql, got, want)
		}
		if tag := tags[len(tags)-1]; tag != st.tag {
			t.Errorf("%s: tag %q, want %q", st.sql, tag, st.tag)
		}
	}
}

func TestInsertDefaultValues(t *testing.T) {
	s, _ := newWriteSession(t)
	_, _, err := run(t, s, "INSERT INTO w.items DEFAULT VALUES")
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.NotNullViolation {
		t.Fatalf("DEFAULT VALUES into a NOT NULL column: %v", err)
	}
}

func TestInsertPrepared(t *testing.T) {
	s, _ := newWriteSession(t)
	ctx := context.Background()
	ps, err := s.Prepare(ctx, "INSERT INTO w.items (id, t, n) VALUES ($1, $2, $3) RETURNING id + 1, n", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps.ParamTypes {
		got = append(got, p.Name())
	}
	if strings.Join(got, ",") != "bigint,text,numeric(10,2)" {
		t.Errorf("parameter types %v", got)
	}
	if len(ps.Columns) != 2 || ps.Columns[0].Name != "?column?" || ps.Columns[1].Name != "n" {
		t.Errorf("columns %+v", ps.Columns)
	}
	for i, args := range [][][]byte{{[]byte("1"), []byte("a"), []byte("1.005")}, {[]byte("2"), nil, nil}} {
		res, err := s.Bind(ctx, ps, args, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := res.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b.NumRows() != 1 || b.Column(0).ValueStr(0) != []string{"2", "3"}[i] {
			t.Errorf("row %d: %v", i, b)
		}
		b.Release()
		if b, _ := res.Next(ctx); b != nil {
			t.Errorf("extra batch")
		}
		if tag := res.CommandTag(); tag != "INSERT 0 1" {
			t.Errorf("tag %q", tag)
		}
		res.Close()
	}
	rows, _, err := run(t, s, "SELECT id, t, n FROM w.items ORDER BY id")
	if err != nil || strings.Join(rows, ";") != "1|a|1.01;2|NULL|NULL" {
		t.Errorf("rows %v, %v", rows, err)
	}
}
