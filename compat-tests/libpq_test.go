package compattests

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"
)

// lib/pq is the other driver Go programs use through database/sql. It
// sends every parameter as text, reads every result as text, uses the
// simple protocol for a query without arguments and the extended one
// (an unnamed statement, or a named one from Prepare) otherwise.

// sslRequest is the first message of a client that wants TLS: length 8,
// then the code 80877103.
var sslRequest = []byte{0, 0, 0, 8, 4, 210, 22, 47}

// recordingDialer dials TCP and remembers whether a connection's first
// message was an SSLRequest, so a test can tell whether lib/pq used TLS.
type recordingDialer struct {
	d net.Dialer

	mu  sync.Mutex
	tls []bool // one per dialed connection, in order
}

func (r *recordingDialer) Dial(network, address string) (net.Conn, error) {
	return r.DialContext(context.Background(), network, address)
}

func (r *recordingDialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return r.DialContext(ctx, network, address)
}

func (r *recordingDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := r.d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tls = append(r.tls, false)
	return &firstWriteConn{Conn: c, record: r, index: len(r.tls) - 1}, nil
}

// usedTLS reports, per dialed connection, whether it began with an
// SSLRequest.
func (r *recordingDialer) usedTLS() []bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.tls)
}

// firstWriteConn looks at the first bytes a client writes.
type firstWriteConn struct {
	net.Conn
	record  *recordingDialer
	index   int
	checked bool
}

func (c *firstWriteConn) Write(p []byte) (int, error) {
	if !c.checked {
		c.checked = true
		c.record.mu.Lock()
		c.record.tls[c.index] = bytes.HasPrefix(p, sslRequest)
		c.record.mu.Unlock()
	}
	return c.Conn.Write(p)
}

// pqDSN is a lib/pq key/value DSN for alice on the shared server; extra
// settings (sslmode=...) are appended. Without an sslmode lib/pq uses its
// default.
func pqDSN(extra string) string {
	s := shared.server
	dsn := fmt.Sprintf("host=%s port=%s user=alice dbname=%s password=%s connect_timeout=10", s.host, s.port, demoDatabase, shared.token)
	if extra != "" {
		dsn += " " + extra
	}
	return dsn
}

// openPQ opens a database/sql pool over lib/pq and closes it when the test
// ends. dialer may be nil.
func openPQ(t *testing.T, dsn string, dialer pq.Dialer) *sql.DB {
	t.Helper()
	connector, err := pq.NewConnector(dsn)
	if err != nil {
		t.Fatalf("lib/pq connector: %v", err)
	}
	if dialer != nil {
		connector.Dialer(dialer)
	}
	db := sql.OpenDB(connector)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// pqConn is one connection out of a fresh pool, for tests whose statements
// must share a session.
func pqConn(t *testing.T, ctx context.Context) *sql.Conn {
	t.Helper()
	db := openPQ(t, pqDSN("sslmode=disable"), nil)
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("lib/pq connect: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// pqCode is the SQLSTATE of a lib/pq error, failing the test if err is not
// a server error.
func pqCode(t *testing.T, err error) string {
	t.Helper()
	pe := pq.As(err)
	if pe == nil {
		t.Fatalf("want a server error (*pq.Error), got %T: %v", err, err)
	}
	return string(pe.Code)
}

func TestLibpqSSLModes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		extra   string
		wantTLS bool
	}{
		// lib/pq's default is require without certificate checks: the
		// server's self-signed certificate must simply work.
		{"default sslmode", "", true},
		{"sslmode=require", "sslmode=require", true},
		{"sslmode=disable on loopback", "sslmode=disable", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.extra == "" && os.Getenv("PGSSLMODE") != "" {
				t.Skip("PGSSLMODE is set, so lib/pq's default sslmode cannot be tested")
			}
			ctx := testContext(t, 30*time.Second)
			dialer := &recordingDialer{}
			db := openPQ(t, pqDSN(tt.extra), dialer)
			if err := db.PingContext(ctx); err != nil {
				t.Fatalf("ping: %v", err)
			}
			var user, database string
			if err := db.QueryRowContext(ctx, "SELECT current_user, current_database()").Scan(&user, &database); err != nil {
				t.Fatalf("current_user: %v", err)
			}
			if user != "alice" || database != demoDatabase {
				t.Errorf("current_user, current_database() = %q, %q; want alice, %s", user, database, demoDatabase)
			}
			var n int64
			if err := db.QueryRowContext(ctx, "SELECT count(*) FROM acdemo.orders WHERE region = $1", "EU").Scan(&n); err != nil || n != 2 {
				t.Errorf("count of EU orders = %d, err %v; want 2", n, err)
			}
			used := dialer.usedTLS()
			if len(used) == 0 {
				t.Fatal("lib/pq did not dial through the test dialer")
			}
			for i, u := range used {
				if u != tt.wantTLS {
					t.Errorf("connection %d: SSLRequest sent = %v, want %v", i, u, tt.wantTLS)
				}
			}
		})
	}
}

func TestLibpqExecAndQuery(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	db := openPQ(t, pqDSN("sslmode=disable"), nil)

	queries := []struct {
		name string
		sql  string
		args []any
		want []int64
	}{
		{"no arguments (simple protocol)", "SELECT id FROM acdemo.orders WHERE region = 'EU' ORDER BY id", nil, []int64{1, 3}},
		{"int argument", "SELECT id FROM acdemo.orders WHERE id = $1", []any{int64(2)}, []int64{2}},
		{"string argument", "SELECT id FROM acdemo.orders WHERE region = $1 ORDER BY id", []any{"EU"}, []int64{1, 3}},
		{"numeric as string argument", "SELECT id FROM acdemo.orders WHERE amount > $1 ORDER BY id", []any{"100.00"}, []int64{1, 3}},
		{"float argument against numeric", "SELECT id FROM acdemo.orders WHERE amount < $1 ORDER BY id", []any{100.5}, []int64{2}},
		{"date as string argument", "SELECT id FROM acdemo.orders WHERE order_date >= $1 ORDER BY id", []any{"2024-02-01"}, []int64{2, 3}},
		{"several arguments", "SELECT id FROM acdemo.orders WHERE region = $1 AND amount BETWEEN $2 AND $3 ORDER BY id", []any{"EU", 100, 200}, []int64{1}},
		{"three-part name", "SELECT id FROM sales_wh.acdemo.orders WHERE ssn LIKE $1", []any{"2%"}, []int64{2}},
		{"no rows", "SELECT id FROM acdemo.orders WHERE region = $1", []any{"APAC"}, nil},
	}
	for _, tt := range queries {
		t.Run("query "+tt.name, func(t *testing.T) {
			rows, err := db.QueryContext(ctx, tt.sql, tt.args...)
			if err != nil {
				t.Fatalf("%s: %v", tt.sql, err)
			}
			defer rows.Close()
			var got []int64
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					t.Fatalf("scan: %v", err)
				}
				got = append(got, id)
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("%s: %v", tt.sql, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s = %v, want %v", tt.sql, got, tt.want)
			}
		})
	}

	// Exec reports the row count of a SELECT's command tag ("SELECT n")
	// as RowsAffected, and 0 for tags without a count.
	execs := []struct {
		name string
		sql  string
		args []any
		want int64
	}{
		{"select without arguments", "SELECT id FROM acdemo.orders", nil, 3},
		{"select with arguments", "SELECT id FROM acdemo.orders WHERE region = $1", []any{"EU"}, 2},
		{"select with no rows", "SELECT id FROM acdemo.orders WHERE id = $1", []any{int64(42)}, 0},
		{"aggregate", "SELECT count(*) FROM acdemo.sales", nil, 1},
		{"set", "SET application_name = 'libpq-test'", nil, 0},
		{"empty query", ";", nil, 0},
	}
	for _, tt := range execs {
		t.Run("exec "+tt.name, func(t *testing.T) {
			res, err := db.ExecContext(ctx, tt.sql, tt.args...)
			if err != nil {
				t.Fatalf("%s: %v", tt.sql, err)
			}
			n, err := res.RowsAffected()
			if tt.sql == ";" {
				// lib/pq has no count for an empty query and says so.
				if err == nil {
					t.Errorf("RowsAffected of an empty query = %d, want lib/pq's no-count error", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("RowsAffected: %v", err)
			}
			if n != tt.want {
				t.Errorf("%s: RowsAffected = %d, want %d", tt.sql, n, tt.want)
			}
		})
	}
}

func TestLibpqPreparedStatements(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	db := openPQ(t, pqDSN("sslmode=disable"), nil)

	stmt, err := db.PrepareContext(ctx, "SELECT region, amount FROM acdemo.orders WHERE id = $1")
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	defer stmt.Close()
	want := map[int64][2]string{1: {"EU", "120.50"}, 2: {"US", "75.00"}, 3: {"EU", "310.25"}}
	for i := range 60 {
		id := int64(i%3 + 1)
		var region, amount string
		if err := stmt.QueryRowContext(ctx, id).Scan(&region, &amount); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if got := [2]string{region, amount}; got != want[id] {
			t.Fatalf("run %d: order %d = %v, want %v", i, id, got, want[id])
		}
	}
	if err := stmt.QueryRowContext(ctx, int64(9)).Scan(new(string), new(string)); !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("prepared statement for a missing id: err %v, want sql.ErrNoRows", err)
	}

	// A statement with several parameters of different types, through
	// Exec and Query.
	multi, err := db.PrepareContext(ctx, "SELECT id FROM acdemo.orders WHERE region = $1 AND amount >= $2 AND order_date < $3 ORDER BY id")
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	defer multi.Close()
	res, err := multi.ExecContext(ctx, "EU", 100, "2024-12-31")
	if err != nil {
		t.Fatalf("exec prepared: %v", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 2 {
		t.Errorf("prepared exec RowsAffected = %d, err %v; want 2", n, err)
	}
	rows, err := multi.QueryContext(ctx, "EU", 200, "2024-12-31")
	if err != nil {
		t.Fatalf("query prepared: %v", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if !slices.Equal(ids, []int64{3}) {
		t.Errorf("EU orders of at least 200 = %v, want [3]", ids)
	}

	// Preparing something SQE refuses fails at Prepare with its SQLSTATE.
	if _, err := db.PrepareContext(ctx, "SELECT nope FROM acdemo.orders WHERE id = $1"); err == nil {
		t.Error("preparing a statement with an unknown column succeeded")
	} else if code := pqCode(t, err); code != "42703" {
		t.Errorf("prepare with an unknown column: code %s, want 42703", code)
	}
}

// pqTypeCase is one value sent as a text parameter and read back.
type pqTypeCase struct {
	name string
	sql  string
	arg  any
	note string
	// dest returns a pointer to scan into and the check of the result.
	dest func() (any, func() error)
}

// pqTimeAs compares a scanned time.Time by its rendering in layout, for
// types (date, timestamp) whose value is a wall clock, not an instant.
func pqTimeAs(layout, want string) func() (any, func() error) {
	return func() (any, func() error) {
		var got time.Time
		return &got, func() error {
			if g := got.Format(layout); g != want {
				return fmt.Errorf("got %s, want %s", g, want)
			}
			return nil
		}
	}
}

func TestLibpqTypes(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := pqConn(t, ctx)

	ts := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	tsPlus2 := time.Date(2024, 2, 29, 15, 14, 15, 123456000, time.FixedZone("", 2*3600))
	const tsLayout = "2006-01-02 15:04:05.999999"
	cases := []pqTypeCase{
		{"bool", "SELECT $1::bool", true, "", scanTo(true)},
		{"bool false", "SELECT $1::bool", false, "", scanTo(false)},
		{"int2", "SELECT $1::int2", int64(-32767), "", scanTo(int64(-32767))},
		{"int4", "SELECT $1::int4", int64(math.MaxInt32), "", scanTo(int64(math.MaxInt32))},
		{"int8 min", "SELECT $1::int8", int64(math.MinInt64), "", scanTo(int64(math.MinInt64))},
		{"int8 max", "SELECT $1::int8", int64(math.MaxInt64), "", scanTo(int64(math.MaxInt64))},
		{"float4", "SELECT $1::float4", 1.5, "", scanTo(1.5)},
		{"float8", "SELECT $1::float8", math.Pi, "", scanTo(math.Pi)},
		{"float8 exponent", "SELECT $1::float8", 1.2e-300, "", scanTo(1.2e-300)},
		{"numeric(12,2)", "SELECT $1::numeric(12,2)", "120.50", "", scanTo("120.50")},
		{"numeric(12,2) rounds", "SELECT $1::numeric(12,2)", "0.125", "", scanTo("0.13")},
		{"numeric(30,6) big", "SELECT $1::numeric(30,6)", "1234567890123456789012.5", "", scanTo("1234567890123456789012.500000")},
		{"numeric", "SELECT $1::numeric", "120.50", numericCastNote, scanTo("120.50")},
		{"numeric negative fraction", "SELECT $1::numeric", "-0.005", numericCastNote, scanTo("-0.005")},
		{"text", "SELECT $1::text", "héllo, 'wörld' \"q\" \t ✓", "", scanTo("héllo, 'wörld' \"q\" \t ✓")},
		{"text empty", "SELECT $1::text", "", "", scanTo("")},
		{"text without a cast", "SELECT $1", "plain", "", scanTo("plain")},
		{"varchar", "SELECT $1::varchar", "abc", "", scanTo("abc")},
		{"date from a string", "SELECT $1::date", "2024-02-29", "", pqTimeAs(time.DateOnly, "2024-02-29")},
		{"date before 1970", "SELECT $1::date", "1969-07-20", "", pqTimeAs(time.DateOnly, "1969-07-20")},
		{"date from time.Time", "SELECT $1::date", date(2024, 2, 29), dateInputNote, pqTimeAs(time.DateOnly, "2024-02-29")},
		{"timestamp from a string", "SELECT $1::timestamp", "2024-02-29 13:14:15.123456", "", pqTimeAs(tsLayout, "2024-02-29 13:14:15.123456")},
		// lib/pq writes time.Time as 2024-02-29 13:14:15.123456Z; a
		// timestamp without time zone ignores the zone.
		{"timestamp from time.Time", "SELECT $1::timestamp", ts, "", pqTimeAs(tsLayout, "2024-02-29 13:14:15.123456")},
		{"timestamptz", "SELECT $1::timestamptz", tsPlus2, "", scanTime(ts)},
		{"bytes as text", "SELECT $1::text", []byte("raw"), "", scanTo("raw")},
		{"uuid", "SELECT $1::uuid", "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "", scanTo("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")},
		// lib/pq sends []byte in binary format and reads bytea's hex text.
		{"bytea", "SELECT $1::bytea", []byte{0, 1, '\\', 0xff}, "", scanBytes([]byte{0, 1, '\\', 0xff})},
		{"bytea as text", "SELECT $1::bytea::text", []byte("ab"), "", scanTo(`\x6162`)},
		{"json", "SELECT $1::json", `{"b":1,  "a":2}`, "", scanTo(`{"b":1,  "a":2}`)},
		{"jsonb", "SELECT $1::jsonb", `{"b":1,  "a":2, "b":3}`, "", scanTo(`{"a": 2, "b": 3}`)},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			dest, check := tt.dest()
			if err := conn.QueryRowContext(ctx, tt.sql, tt.arg).Scan(dest); err != nil {
				t.Fatalf("%s with %#v: %v%s", tt.sql, tt.arg, err, noteOf(tt.note))
			}
			if err := check(); err != nil {
				t.Errorf("%s with %#v: %v%s", tt.sql, tt.arg, err, noteOf(tt.note))
			}
		})
	}

	t.Run("NULL parameters", func(t *testing.T) {
		var (
			b   sql.NullBool
			i   sql.NullInt64
			f   sql.NullFloat64
			num sql.NullString
			txt sql.NullString
			d   sql.NullTime
			ts  sql.NullTime
			tz  sql.NullTime
		)
		err := conn.QueryRowContext(ctx, "SELECT $1::bool, $2::int8, $3::float8, $4::numeric(12,2), $5::text, $6::date, $7::timestamp, $8::timestamptz",
			nil, nil, nil, nil, nil, nil, nil, nil).Scan(&b, &i, &f, &num, &txt, &d, &ts, &tz)
		if err != nil {
			t.Fatalf("NULL parameters: %v", err)
		}
		if b.Valid || i.Valid || f.Valid || num.Valid || txt.Valid || d.Valid || ts.Valid || tz.Valid {
			t.Errorf("NULL parameters came back valid: %v %v %v %v %v %v %v %v", b, i, f, num, txt, d, ts, tz)
		}
		var n int64
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM acdemo.orders WHERE region = $1", nil).Scan(&n); err != nil || n != 0 {
			t.Errorf("region = NULL: count %d, err %v; want 0", n, err)
		}
	})

	// Table columns of every demo type, read as Go values.
	t.Run("table columns", func(t *testing.T) {
		var (
			id     int64
			region string
			amount string
			day    time.Time
		)
		err := conn.QueryRowContext(ctx, "SELECT id, region, amount, order_date FROM acdemo.orders WHERE id = $1", 3).Scan(&id, &region, &amount, &day)
		if err != nil {
			t.Fatal(err)
		}
		if id != 3 || region != "EU" || amount != "310.25" || day.Format(time.DateOnly) != "2024-03-22" {
			t.Errorf("order 3 = %d, %s, %s, %s; want 3, EU, 310.25, 2024-03-22", id, region, amount, day.Format(time.DateOnly))
		}
		var (
			sid      int64
			product  sql.NullString
			quantity sql.NullInt64
			price    sql.NullString
			discount sql.NullFloat64
			soldOn   sql.NullTime
		)
		err = conn.QueryRowContext(ctx, "SELECT id, product, quantity, price, discount, sold_on FROM acdemo.sales WHERE id = $1", 1234).
			Scan(&sid, &product, &quantity, &price, &discount, &soldOn)
		if err != nil {
			t.Fatal(err)
		}
		if sid != 1234 {
			t.Errorf("sales id = %d, want 1234", sid)
		}
		// The simple protocol must give the same text for the same row.
		var product2, quantity2, price2, discount2, soldOn2 sql.NullString
		err = conn.QueryRowContext(ctx, "SELECT product, quantity::text, price::text, discount::text, sold_on::text FROM acdemo.sales WHERE id = 1234").
			Scan(&product2, &quantity2, &price2, &discount2, &soldOn2)
		if err != nil {
			t.Fatal(err)
		}
		if product != product2 || price != price2 {
			t.Errorf("product, price = %v, %v; as text %v, %v", product, price, product2, price2)
		}
		if quantity.Valid != quantity2.Valid || (quantity.Valid && fmt.Sprint(quantity.Int64) != quantity2.String) {
			t.Errorf("quantity = %v, as text %v", quantity, quantity2)
		}
		if soldOn.Valid != soldOn2.Valid || (soldOn.Valid && soldOn.Time.Format(time.DateOnly) != soldOn2.String) {
			t.Errorf("sold_on = %v, as text %v", soldOn, soldOn2)
		}
		if discount.Valid != discount2.Valid {
			t.Errorf("discount = %v, as text %v", discount, discount2)
		}
	})
}

func TestLibpqTransactions(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	db := openPQ(t, pqDSN("sslmode=disable"), nil)

	t.Run("commit", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatalf("begin: %v", err)
		}
		var n int64
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM acdemo.orders").Scan(&n); err != nil || n != 3 {
			t.Errorf("count in a transaction = %d, err %v; want 3", n, err)
		}
		var region string
		if err := tx.QueryRowContext(ctx, "SELECT region FROM acdemo.orders WHERE id = $1", 2).Scan(&region); err != nil || region != "US" {
			t.Errorf("region of 2 in a transaction = %q, err %v; want US", region, err)
		}
		stmt, err := tx.PrepareContext(ctx, "SELECT id FROM acdemo.orders WHERE region = $1 ORDER BY id LIMIT 1")
		if err != nil {
			t.Fatalf("prepare in a transaction: %v", err)
		}
		var id int64
		if err := stmt.QueryRowContext(ctx, "EU").Scan(&id); err != nil || id != 1 {
			t.Errorf("prepared in a transaction: id %d, err %v; want 1", id, err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("commit: %v", err)
		}
		if err := tx.Commit(); !errors.Is(err, sql.ErrTxDone) {
			t.Errorf("second commit: %v, want sql.ErrTxDone", err)
		}
	})

	t.Run("rollback", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatalf("begin: %v", err)
		}
		if _, err := tx.ExecContext(ctx, "SET search_path = acdemo"); err != nil {
			t.Fatalf("set in a transaction: %v", err)
		}
		var n int64
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM orders WHERE amount > $1", 100).Scan(&n); err != nil || n != 2 {
			t.Errorf("count through the search_path = %d, err %v; want 2", n, err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatalf("rollback: %v", err)
		}
	})

	t.Run("read-only", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			t.Fatalf("BEGIN READ ONLY: %v", err)
		}
		var n int64
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM acdemo.orders").Scan(&n); err != nil || n != 3 {
			t.Errorf("count in a read-only transaction = %d, err %v; want 3", n, err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("commit: %v", err)
		}
	})

	t.Run("error aborts the transaction", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatalf("begin: %v", err)
		}
		defer func() { _ = tx.Rollback() }()
		_, err = tx.ExecContext(ctx, "SELECT nope FROM acdemo.orders")
		if err == nil {
			t.Fatal("unknown column in a transaction succeeded")
		}
		if code := pqCode(t, err); code != "42703" {
			t.Errorf("unknown column: code %s, want 42703", code)
		}
		// PostgreSQL refuses everything but ROLLBACK until the
		// transaction ends, with and without arguments.
		for _, q := range []struct {
			sql  string
			args []any
		}{{"SELECT 1", nil}, {"SELECT $1::int8", []any{1}}} {
			var one int64
			err = tx.QueryRowContext(ctx, q.sql, q.args...).Scan(&one)
			if err == nil {
				t.Errorf("%s in a failed transaction succeeded", q.sql)
			} else if code := pqCode(t, err); code != "25P02" {
				t.Errorf("%s in a failed transaction: code %s, want 25P02", q.sql, code)
			}
		}
		if err := tx.Rollback(); err != nil {
			t.Fatalf("rollback of the failed transaction: %v", err)
		}
	})

	// After all of that, a pooled connection answers normally.
	var one int64
	if err := db.QueryRowContext(ctx, "SELECT $1::int8", 1).Scan(&one); err != nil || one != 1 {
		t.Errorf("after the transactions: %d, %v", one, err)
	}
}

func TestLibpqErrorKeepsConnection(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	// One session for every case: each error must leave it usable.
	conn := pqConn(t, ctx)
	tests := []struct {
		name     string
		sql      string
		args     []any
		code     string
		position string // "" when PostgreSQL reports none
	}{
		{"syntax error", "SELEC 1", nil, "42601", "1"},
		{"unknown table", "SELECT * FROM acdemo.nope", nil, "42P01", "15"},
		{"unknown column with an argument", "SELECT nope FROM acdemo.orders WHERE id = $1", []any{1}, "42703", "8"},
		{"division by zero with an argument", "SELECT id / $1 FROM acdemo.orders", []any{0}, "22012", ""},
		{"bad integer argument", "SELECT id FROM acdemo.orders WHERE id = $1", []any{"one"}, "22P02", ""},
		{"wrong number of arguments", "SELECT id FROM acdemo.orders WHERE id = $1 AND region = $2", []any{1}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := conn.QueryContext(ctx, tt.sql, tt.args...)
			if err == nil {
				for rows.Next() {
				}
				err = rows.Err()
				rows.Close()
			}
			if err == nil {
				t.Fatalf("%s succeeded", tt.sql)
			}
			if tt.code != "" {
				pe := pq.As(err)
				if pe == nil {
					t.Fatalf("%s: want a *pq.Error, got %T: %v", tt.sql, err, err)
				}
				if string(pe.Code) != tt.code {
					t.Errorf("%s: code %s (%s), want %s", tt.sql, pe.Code, pe.Message, tt.code)
				}
				if pe.Severity != "ERROR" {
					t.Errorf("%s: severity %s, want ERROR", tt.sql, pe.Severity)
				}
				if tt.position != "" && pe.Position != tt.position {
					t.Errorf("%s: position %q, want %q", tt.sql, pe.Position, tt.position)
				}
			}
			var one int64
			if err := conn.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
				t.Fatalf("SELECT 1 after the error: %d, %v", one, err)
			}
			if err := conn.QueryRowContext(ctx, "SELECT $1::int8", 2).Scan(&one); err != nil || one != 2 {
				t.Fatalf("SELECT $1 after the error: %d, %v", one, err)
			}
		})
	}
}

// TestLibpqContextCancel ends a long query through its context. lib/pq
// then sends a CancelRequest on a new connection and drops the session;
// the pool must go on with a fresh one.
func TestLibpqContextCancel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sql  string
		args []any
	}{
		{"simple protocol", slowQuery, nil},
		{"extended protocol", "SELECT * FROM acdemo.sales WHERE id > $1 ORDER BY product, id", []any{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t, 60*time.Second)
			db := openPQ(t, pqDSN("sslmode=disable"), nil)
			if err := db.PingContext(ctx); err != nil {
				t.Fatalf("ping: %v", err)
			}

			qctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			defer cancel()
			start := time.Now()
			err := func() error {
				rows, err := db.QueryContext(qctx, tt.sql, tt.args...)
				if err != nil {
					return err
				}
				defer rows.Close()
				for rows.Next() {
					time.Sleep(time.Millisecond)
				}
				return rows.Err()
			}()
			elapsed := time.Since(start)
			if err == nil {
				t.Fatal("the query finished before the context ended; it is meant to run for seconds")
			}
			isCancel := pq.As(err, "57014") != nil
			if !isCancel && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				t.Fatalf("error = %v, want 57014 or the context's error", err)
			}
			if elapsed > 8*time.Second {
				t.Errorf("the query ran %s after a 500ms deadline", elapsed.Round(time.Millisecond))
			}

			var n int64
			if err := db.QueryRowContext(ctx, "SELECT count(*) FROM acdemo.orders WHERE id > $1", 1).Scan(&n); err != nil || n != 2 {
				t.Errorf("after the cancel: count = %d, err %v; want 2", n, err)
			}
		})
	}
}

// TestLibpqCatalogQueries runs catalog lookups with arguments, which go
// through the extended protocol with text results.
func TestLibpqCatalogQueries(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := pqConn(t, ctx)

	var (
		oid     int64
		typname string
	)
	if err := conn.QueryRowContext(ctx, "SELECT oid, typname FROM pg_catalog.pg_type WHERE typname = $1", "numeric").Scan(&oid, &typname); err != nil {
		t.Errorf("pg_type row of numeric: %v\n(%s)", err, wireEncodingNote)
	} else if oid != 1700 || typname != "numeric" {
		t.Errorf("pg_type row of numeric = %d, %q; want 1700, numeric", oid, typname)
	}

	rows, err := conn.QueryContext(ctx, "SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = $2 ORDER BY c.relname", "acdemo", "r")
	if err != nil {
		t.Fatalf("tables of acdemo: %v\n(%s)", err, wireEncodingNote)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("tables of acdemo: %v", err)
	}
	if !slices.Equal(tables, []string{"orders", "sales"}) {
		t.Errorf("tables of acdemo = %q, want [orders sales]", tables)
	}

	var dataType string
	var nullable string
	err = conn.QueryRowContext(ctx, "SELECT data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = $3",
		"acdemo", "sales", "discount").Scan(&dataType, &nullable)
	if err != nil {
		t.Fatalf("information_schema.columns: %v", err)
	}
	if dataType != "double precision" || nullable != "YES" {
		t.Errorf("acdemo.sales.discount = %q, nullable %q; want double precision, YES", dataType, nullable)
	}
}
