package trino_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/remote"
	"github.com/sqe-db/sqe/sql/remote/trino"
	"github.com/sqe-db/sqe/sql/remote/trinotest"
	"github.com/sqe-db/sqe/sql/types"
)

const statement = `SELECT "c1" FROM "remote_lake"."s"."t"`

func newEngine(t *testing.T, uri string) *trino.Engine {
	t.Helper()
	e, err := trino.New(trino.Config{Name: "trino", URI: uri, User: "sqe-service", Catalogs: sqlwrite.Catalogs{"lake": "remote_lake"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.CloseIdleConnections)
	return e
}

func columns(ts ...types.T) []planner.Column {
	cols := make([]planner.Column, len(ts))
	for i, t := range ts {
		cols[i] = planner.Column{Name: fmt.Sprintf("c%d", i+1), Type: t}
	}
	return cols
}

// readAll reads a stream to its end: each batch's row count, and every
// value as Arrow prints it, row by row.
func readAll(t *testing.T, s remote.Stream) (sizes []int, rows [][]string) {
	t.Helper()
	for {
		b, err := s.Next()
		if errors.Is(err, planner.EOF) {
			return sizes, rows
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		sizes = append(sizes, int(b.NumRows()))
		rows = append(rows, batchRows(b)...)
		b.Release()
	}
}

func batchRows(b arrow.RecordBatch) [][]string {
	rows := make([][]string, b.NumRows())
	for r := range rows {
		for c := 0; c < int(b.NumCols()); c++ {
			col := b.Column(c)
			switch d, isDecimal := col.(*array.Decimal128); {
			case col.IsNull(r):
				rows[r] = append(rows[r], "NULL")
			case isDecimal:
				// With the column's scale, which ValueStr drops.
				rows[r] = append(rows[r], d.Value(r).ToString(d.DataType().(*arrow.Decimal128Type).Scale))
			default:
				rows[r] = append(rows[r], col.ValueStr(r))
			}
		}
	}
	return rows
}

func TestNewRefusesUnsafeConfigurations(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  trino.Config
		want string
	}{
		{"basic auth over http", trino.Config{Name: "t", URI: "http://trino:8080", User: "u", Password: "pw"}, "only over https"},
		{"credentials in the URI", trino.Config{Name: "t", URI: "https://u:pw@trino:8443", User: "u"}, "credentials"},
		{"no user", trino.Config{Name: "t", URI: "https://trino:8443"}, "service user"},
		{"not http", trino.Config{Name: "t", URI: "ftp://trino", User: "u"}, "http or https"},
		{"no host", trino.Config{Name: "t", URI: "http:///v1", User: "u"}, "http or https"},
		{"no name", trino.Config{URI: "https://trino:8443", User: "u"}, "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := trino.New(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New: got %v, want an error saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "pw") {
				t.Errorf("the error quotes the password: %v", err)
			}
		})
	}
	e, err := trino.New(trino.Config{Name: "t", URI: "https://trino:8443/", User: "u", Password: "pw"})
	if err != nil {
		t.Fatalf("basic auth over https: %v", err)
	}
	if e.Dialect() != sqlwrite.Trino || e.Name() != "t" {
		t.Errorf("got dialect %v name %q", e.Dialect(), e.Name())
	}
}

// TestTypesRoundTrip reads every type the SQL writer writes for Trino,
// from the JSON Trino sends for it, into the column's Arrow type.
func TestTypesRoundTrip(t *testing.T) {
	srv := trinotest.New(t)
	srv.Answer(statement, trinotest.Result{
		Columns: []trinotest.Column{
			{Name: "b", Type: "boolean"}, {Name: "s", Type: "smallint"}, {Name: "i", Type: "integer"},
			{Name: "l", Type: "bigint"}, {Name: "r", Type: "real"}, {Name: "d", Type: "double"},
			{Name: "n", Type: "decimal(10,2)"}, {Name: "w", Type: "decimal(38,10)"}, {Name: "v", Type: "varchar"},
			{Name: "vn", Type: "varchar(5)"}, {Name: "dt", Type: "date"}, {Name: "ts", Type: "timestamp(6)"},
		},
		Rows: [][]any{
			{true, json.Number("-32768"), json.Number("2147483647"), json.Number("9007199254740993"), json.Number("1.5"),
				json.Number("1.0E10"), "123.45", "-1234567890123456789012345678.0123456789", "héllo \"quoted\"\n",
				"abcde", "2024-01-02", "2024-01-02 03:04:05.123456"},
			{false, json.Number("32767"), json.Number("-2147483648"), json.Number("-9223372036854775808"), "NaN",
				"Infinity", "-0.05", "0.0000000001", "", "", "1969-12-31", "1969-12-31 23:59:59.999999"},
			{true, json.Number("0"), json.Number("-1"), json.Number("9223372036854775807"), "-Infinity",
				"-Infinity", "-99999999.99", "1.0000000000", "NaN", "x", "1900-02-28", "1900-01-01 00:00:00.000001"},
			{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		},
	})
	cols := columns(types.Bool, types.Int2, types.Int4, types.Int8, types.Float4, types.Float8,
		types.Numeric(10, 2), types.Numeric(38, 10), types.Text, types.VarcharN(5), types.Date, types.Timestamp)
	s, err := newEngine(t, srv.URL).Query(context.Background(), statement, cols)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, rows := readAll(t, s)
	want := [][]string{
		{"true", "-32768", "2147483647", "9007199254740993", "1.5", "1e+10", "123.45",
			"-1234567890123456789012345678.0123456789", "héllo \"quoted\"\n", "abcde", "2024-01-02", "2024-01-02T03:04:05.123456"},
		{"false", "32767", "-2147483648", "-9223372036854775808", "NaN", "+Inf", "-0.05", "0.0000000001", "", "",
			"1969-12-31", "1969-12-31T23:59:59.999999"},
		{"true", "0", "-1", "9223372036854775807", "-Inf", "-Inf", "-99999999.99", "1.0000000000", "NaN", "x",
			"1900-02-28", "1900-01-01T00:00:00.000001"},
		{"NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("rows:\n got %q\nwant %q", rows, want)
	}
	if s.BytesRead() <= 0 {
		t.Errorf("BytesRead = %d after reading the answer", s.BytesRead())
	}

	q := srv.Queries()
	if len(q) != 1 || q[0].SQL != statement {
		t.Fatalf("statements received: %+v", q)
	}
	for h, v := range map[string]string{
		"X-Trino-User": "sqe-service", "X-Trino-Source": "sqe", "X-Trino-Time-Zone": "UTC",
		"X-Trino-Client-Capabilities": "PARAMETRIC_DATETIME",
	} {
		if got := q[0].Header.Get(h); got != v {
			t.Errorf("header %s = %q, want %q", h, got, v)
		}
	}
	if q[0].Header.Get("Authorization") != "" {
		t.Errorf("credentials sent over http")
	}
	if q[0].Cancelled {
		t.Errorf("a query read to its end was cancelled")
	}
}

// TestPagingStreams reads 10,000 rows sent 100 to a page: each batch is
// one page, and a batch is returned before the pages after it are asked
// for.
func TestPagingStreams(t *testing.T) {
	srv := trinotest.New(t)
	srv.SetPageRows(100)
	const n = 10000
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{json.Number(fmt.Sprint(i)), fmt.Sprintf("row %d", i)}
	}
	srv.Answer(statement, trinotest.Result{Columns: []trinotest.Column{{Name: "id", Type: "bigint"}, {Name: "v", Type: "varchar"}}, Rows: rows})
	s, err := newEngine(t, srv.URL).Query(context.Background(), statement, columns(types.Int8, types.Text))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	first, err := s.Next()
	if err != nil {
		t.Fatal(err)
	}
	q := srv.Queries()[0]
	if first.NumRows() != 100 {
		t.Errorf("first batch has %d rows, want one page's 100", first.NumRows())
	}
	// The columns page and the first rows page: nothing more was needed.
	if q.PagesServed != 2 || q.Pages != n/100+3 {
		t.Errorf("pages served when the first batch was returned: %d of %d", q.PagesServed, q.Pages)
	}
	first.Release()

	sizes, got := readAll(t, s)
	if len(got) != n-100 {
		t.Fatalf("read %d rows after the first batch, want %d", len(got), n-100)
	}
	for _, size := range sizes {
		if size != 100 {
			t.Fatalf("batch sizes %v: want one page (100 rows) each", sizes)
		}
	}
	for i, row := range got {
		if row[0] != fmt.Sprint(i+100) || row[1] != fmt.Sprintf("row %d", i+100) {
			t.Fatalf("row %d is %v", i+100, row)
		}
	}
	if q := srv.Queries()[0]; q.PagesServed != q.Pages-1 || q.Cancelled {
		t.Errorf("after the end: %d of %d pages served, cancelled %v", q.PagesServed, q.Pages, q.Cancelled)
	}
}

// TestLargePagesAreBatched splits a page larger than a batch.
func TestLargePagesAreBatched(t *testing.T) {
	srv := trinotest.New(t)
	srv.SetPageRows(5000)
	rows := make([][]any, 10000)
	for i := range rows {
		rows[i] = []any{json.Number(fmt.Sprint(i))}
	}
	srv.Answer(statement, trinotest.Result{Columns: []trinotest.Column{{Name: "id", Type: "integer"}}, Rows: rows})
	s, err := newEngine(t, srv.URL).Query(context.Background(), statement, columns(types.Int4))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sizes, got := readAll(t, s)
	if fmt.Sprint(sizes) != "[4096 904 4096 904]" || len(got) != 10000 || got[9999][0] != "9999" {
		t.Errorf("batch sizes %v, %d rows", sizes, len(got))
	}
}

func TestRetriesWhenUnavailable(t *testing.T) {
	srv := trinotest.New(t)
	srv.Answer(statement, trinotest.Result{Columns: []trinotest.Column{{Name: "id", Type: "bigint"}},
		Rows: [][]any{{json.Number("1")}, {json.Number("2")}, {json.Number("3")}, {json.Number("4")}}})
	srv.Unavailable(2)
	s, err := newEngine(t, srv.URL).Query(context.Background(), statement, columns(types.Int8))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, rows := readAll(t, s); fmt.Sprint(rows) != "[[1] [2] [3] [4]]" {
		t.Errorf("rows %v", rows)
	}
}

// manyRows is an answer long enough to be stopped in the middle.
func manyRows(srv *trinotest.Server) {
	rows := make([][]any, 30)
	for i := range rows {
		rows[i] = []any{json.Number(fmt.Sprint(i))}
	}
	srv.Answer(statement, trinotest.Result{Columns: []trinotest.Column{{Name: "id", Type: "bigint"}}, Rows: rows})
}

// A context ended mid-stream, by a cancel request or by the statement
// timeout (a deadline cause), cancels the query on Trino and reports why.
func TestCancelMidStream(t *testing.T) {
	for _, tt := range []struct {
		name, message string
		cause         error
	}{
		{"cancel request", "user request", nil},
		{"statement timeout", "statement timeout", fmt.Errorf("statement_timeout: %w", context.DeadlineExceeded)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := trinotest.New(t)
			manyRows(srv)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			s, err := newEngine(t, srv.URL).Query(ctx, statement, columns(types.Int8))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			b, err := s.Next()
			if err != nil {
				t.Fatal(err)
			}
			b.Release()
			cancel(tt.cause)
			_, err = s.Next()
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.QueryCanceled || !strings.Contains(pe.Message, tt.message) {
				t.Fatalf("Next after the context ended: %v, want 57014 (%s)", err, tt.message)
			}
			if _, again := s.Next(); pgerror.Code(again) != pgerror.QueryCanceled {
				t.Errorf("Next once more: %v", again)
			}
			if q := srv.Queries()[0]; !q.Cancelled {
				t.Errorf("the query was not cancelled on Trino")
			}
		})
	}
}

func TestStatementTimeoutBeforeQuery(t *testing.T) {
	srv := trinotest.New(t)
	manyRows(srv)
	ctx, cancel := context.WithDeadline(context.Background(), time0)
	defer cancel()
	_, err := newEngine(t, srv.URL).Query(ctx, statement, columns(types.Int8))
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.QueryCanceled || !strings.Contains(pe.Message, "statement timeout") {
		t.Fatalf("Query past its deadline: %v", err)
	}
	if len(srv.Queries()) != 0 {
		t.Errorf("a statement past its deadline was sent")
	}
}

func TestCloseBeforeEndCancels(t *testing.T) {
	srv := trinotest.New(t)
	manyRows(srv)
	e := newEngine(t, srv.URL)
	s, err := e.Query(context.Background(), statement, columns(types.Int8))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Next()
	if err != nil {
		t.Fatal(err)
	}
	b.Release()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if q := srv.Queries()[0]; !q.Cancelled || q.PagesServed == q.Pages-1 {
		t.Errorf("Close before the end: cancelled %v, %d of %d pages served", q.Cancelled, q.PagesServed, q.Pages)
	}

	// Closing a stream read to its end sends nothing.
	s, err = e.Query(context.Background(), statement, columns(types.Int8))
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if q := srv.Queries()[1]; q.Cancelled {
		t.Errorf("a query read to its end was cancelled")
	}
}

// TestErrorsMapped maps Trino's errors to SQLSTATEs, with a message that
// names the engine and the error only: Trino's message, which quotes a
// value here, reaches neither the message nor the error's chain.
func TestErrorsMapped(t *testing.T) {
	for _, tc := range []struct {
		name, typ string
		rows      bool
		want      string
	}{
		{"DIVISION_BY_ZERO", "USER_ERROR", true, "22012"},
		{"NUMERIC_VALUE_OUT_OF_RANGE", "USER_ERROR", true, "22003"},
		{"INVALID_CAST_ARGUMENT", "USER_ERROR", true, "22P02"},
		{"SYNTAX_ERROR", "USER_ERROR", false, "42601"},
		{"TABLE_NOT_FOUND", "USER_ERROR", false, "42P01"},
		{"CATALOG_NOT_FOUND", "USER_ERROR", false, "3D000"},
		{"SCHEMA_NOT_FOUND", "USER_ERROR", false, "3F000"},
		{"COLUMN_NOT_FOUND", "USER_ERROR", false, "42703"},
		{"PERMISSION_DENIED", "USER_ERROR", false, "42501"},
		{"NOT_SUPPORTED", "USER_ERROR", false, "0A000"},
		{"SUBQUERY_MULTIPLE_ROWS", "USER_ERROR", true, "21000"},
		{"INVALID_VIEW", "USER_ERROR", false, "42000"},
		{"EXCEEDED_TIME_LIMIT", "INSUFFICIENT_RESOURCES", true, "57014"},
		{"EXCEEDED_GLOBAL_MEMORY_LIMIT", "INSUFFICIENT_RESOURCES", true, "53200"},
		{"EXCEEDED_LOCAL_MEMORY_LIMIT", "INSUFFICIENT_RESOURCES", true, "53200"},
		{"EXCEEDED_CPU_LIMIT", "INSUFFICIENT_RESOURCES", true, "53000"},
		{"GENERIC_INTERNAL_ERROR", "INTERNAL_ERROR", true, "XX000"},
		{"PAGE_TRANSPORT_ERROR", "INTERNAL_ERROR", true, "XX000"},
		{"SERVER_STARTING_UP", "INTERNAL_ERROR", false, "08006"},
		{"HIVE_METASTORE_ERROR", "EXTERNAL", false, "58000"},
		{"ICEBERG_BAD_DATA", "EXTERNAL", true, "58000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := trinotest.New(t)
			res := trinotest.Result{Error: &trinotest.Error{
				Name: tc.name, Type: tc.typ, Code: 8,
				Message: "failed for value 'secret-123' in SELECT ssn FROM people",
			}}
			if tc.rows {
				res.Columns = []trinotest.Column{{Name: "id", Type: "bigint"}}
				res.Rows = [][]any{{json.Number("1")}}
			}
			srv.Answer(statement, res)
			s, err := newEngine(t, srv.URL).Query(context.Background(), statement, columns(types.Int8))
			if tc.rows {
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				b, nerr := s.Next()
				if nerr != nil {
					t.Fatalf("first batch: %v", nerr)
				}
				b.Release()
				_, err = s.Next()
			}
			var pe *pgerror.Error
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a pgerror", err)
			}
			if pe.Code != tc.want || pe.Message != `remote engine "trino": `+tc.name {
				t.Errorf("got %q (SQLSTATE %s), want SQLSTATE %s", pe.Message, pe.Code, tc.want)
			}
			for e := error(pe); e != nil; e = errors.Unwrap(e) {
				if strings.Contains(e.Error(), "secret-123") || strings.Contains(e.Error(), "ssn") {
					t.Fatalf("Trino's message reached the error: %v", e)
				}
			}
			if q := srv.Queries()[0]; q.Cancelled {
				t.Errorf("a failed query was cancelled")
			}
		})
	}
}

func TestConnectionRefusedIsClass08(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	_, err = newEngine(t, "http://"+addr).Query(context.Background(), statement, columns(types.Int8))
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != "08001" || pe.Message != `could not reach remote engine "trino"` {
		t.Fatalf("got %v, want 08001 could not reach", err)
	}
}

func TestHTTPFailures(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   string
	}{
		{http.StatusUnauthorized, pgerror.InsufficientPrivilege},
		{http.StatusForbidden, pgerror.InsufficientPrivilege},
		{http.StatusInternalServerError, "08006"},
		{http.StatusServiceUnavailable, "08006"},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			srv := trinotest.New(t)
			srv.Refuse(tc.status)
			_, err := newEngine(t, srv.URL).Query(context.Background(), statement, columns(types.Int8))
			if code := pgerror.Code(err); code != tc.want {
				t.Fatalf("HTTP %d: %v (SQLSTATE %s), want %s", tc.status, err, code, tc.want)
			}
		})
	}

	notTrino := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html>a proxy's page</html>"))
	}))
	defer notTrino.Close()
	_, err := newEngine(t, notTrino.URL).Query(context.Background(), statement, columns(types.Int8))
	if code := pgerror.Code(err); code[:2] != "08" {
		t.Fatalf("a page that is not JSON: %v (SQLSTATE %s), want class 08", err, code)
	}
}

func TestBasicAuthOverTLS(t *testing.T) {
	srv := trinotest.NewTLS(t, "sqe-service", "s3cret")
	manyRows(srv)
	for _, tc := range []struct {
		password string
		want     string
	}{
		{"s3cret", ""},
		{"wrong", pgerror.InsufficientPrivilege},
	} {
		e, err := trino.New(trino.Config{Name: "trino", URI: srv.URL, User: "sqe-service", Password: tc.password, TLS: srv.ClientTLS()})
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.Query(context.Background(), statement, columns(types.Int8))
		if tc.want != "" {
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != tc.want || pe.Message != `remote engine "trino" refused the service user` {
				t.Errorf("password %q: %v", tc.password, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, rows := readAll(t, s); len(rows) != 30 {
			t.Errorf("read %d rows over https", len(rows))
		}
		_ = s.Close()
		e.CloseIdleConnections()
	}
}

func TestResultColumnsChecked(t *testing.T) {
	for _, tc := range []struct {
		name    string
		columns []trinotest.Column
		want    string
	}{
		{"count", []trinotest.Column{{Name: "a", Type: "bigint"}, {Name: "b", Type: "bigint"}}, `returned 2 columns where the statement has 1`},
		{"type", []trinotest.Column{{Name: "a", Type: "double"}}, `returned result column 1 as Trino type double where bigint was expected`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := trinotest.New(t)
			srv.Answer(statement, trinotest.Result{Columns: tc.columns, Rows: [][]any{{json.Number("1"), json.Number("2")}}})
			_, err := newEngine(t, srv.URL).Query(context.Background(), statement, columns(types.Int8))
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.InternalError || !strings.Contains(pe.Message, tc.want) {
				t.Fatalf("got %v, want XX000 saying %q", err, tc.want)
			}
			if q := srv.Queries()[0]; !q.Cancelled {
				t.Errorf("the query whose columns were refused was not cancelled")
			}
		})
	}
}

func TestValueNotOfTheColumnsType(t *testing.T) {
	srv := trinotest.New(t)
	srv.Answer(statement, trinotest.Result{Columns: []trinotest.Column{{Name: "d", Type: "date"}}, Rows: [][]any{{"secret-123"}}})
	s, err := newEngine(t, srv.URL).Query(context.Background(), statement, columns(types.Date))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Next()
	if code := pgerror.Code(err); code != pgerror.InvalidTextRepresentation || strings.Contains(err.Error(), "secret-123") {
		t.Fatalf("got %v", err)
	}
}

// time0 is a deadline long past.
var time0 = time.Unix(0, 0)
