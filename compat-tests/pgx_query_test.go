package compattests

import (
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// order is one row of acdemo.orders decoded into Go values.
type order struct {
	ID     int64
	Region string
	SSN    string
	Amount pgtype.Numeric
	Date   time.Time
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// numeric builds the pgtype.Numeric of an exact decimal: units * 10^exp.
func numeric(units int64, exp int32) pgtype.Numeric {
	return pgtype.Numeric{Int: big.NewInt(units), Exp: exp, Valid: true}
}

// sameNumeric compares two numerics by value (12050e-2 equals 1205e-1).
func sameNumeric(a, b pgtype.Numeric) bool {
	if !a.Valid || !b.Valid {
		return a.Valid == b.Valid
	}
	ra := new(big.Rat).SetInt(a.Int)
	rb := new(big.Rat).SetInt(b.Int)
	ra.Mul(ra, pow10(a.Exp))
	rb.Mul(rb, pow10(b.Exp))
	return ra.Cmp(rb) == 0
}

func pow10(exp int32) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
	if exp < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(n int32) int32 {
	if n < 0 {
		return -n
	}
	return n
}

func TestPgxDecodesDemoOrders(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)

	rows, err := conn.Query(ctx, "SELECT id, region, ssn, amount, order_date FROM sales_wh.acdemo.orders ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (order, error) {
		var o order
		err := r.Scan(&o.ID, &o.Region, &o.SSN, &o.Amount, &o.Date)
		return o, err
	})
	if err != nil {
		t.Fatalf("collect rows: %v", err)
	}
	want := []order{
		{1, "EU", "111-11-1111", numeric(12050, -2), date(2024, 1, 15)},
		{2, "US", "222-22-2222", numeric(7500, -2), date(2024, 2, 3)},
		{3, "EU", "333-33-3333", numeric(31025, -2), date(2024, 3, 22)},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d rows %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.ID != w.ID || g.Region != w.Region || g.SSN != w.SSN || !sameNumeric(g.Amount, w.Amount) || !g.Date.Equal(w.Date) {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}

	// The same row with numeric and date as text, the way a client that
	// does not know the types reads them.
	var amount, day string
	if err := conn.QueryRow(ctx, "SELECT amount, order_date FROM acdemo.orders WHERE id = 1").Scan(&amount, &day); err != nil {
		t.Fatal(err)
	}
	if amount != "120.50" || day != "2024-01-15" {
		t.Errorf("amount, order_date as text = %q, %q; want 120.50, 2024-01-15", amount, day)
	}

	// Column metadata: the type OIDs PostgreSQL uses for these columns.
	wantOIDs := []uint32{pgtype.Int8OID, pgtype.TextOID, pgtype.TextOID, pgtype.NumericOID, pgtype.DateOID}
	rows, err = conn.Query(ctx, "SELECT id, region, ssn, amount, order_date FROM acdemo.orders LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	fields := rows.FieldDescriptions()
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var gotOIDs []uint32
	for _, f := range fields {
		gotOIDs = append(gotOIDs, f.DataTypeOID)
	}
	if !slices.Equal(gotOIDs, wantOIDs) {
		t.Errorf("column type OIDs = %v, want %v", gotOIDs, wantOIDs)
	}
}

func TestPgxAggregates(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)

	type group struct {
		Region string
		Count  int64
		Sum    pgtype.Numeric
	}
	rows, err := conn.Query(ctx, "SELECT region, count(*), sum(amount) FROM acdemo.orders GROUP BY region ORDER BY region")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[group])
	if err != nil {
		t.Fatalf("collect rows: %v", err)
	}
	want := []group{
		{"EU", 2, numeric(43075, -2)},
		{"US", 1, numeric(7500, -2)},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Region != want[i].Region || got[i].Count != want[i].Count || !sameNumeric(got[i].Sum, want[i].Sum) {
			t.Errorf("group %d = %+v, want %+v", i, got[i], want[i])
		}
	}

	var total int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM acdemo.sales").Scan(&total); err != nil {
		t.Fatal(err)
	}
	if total != 1_000_000 {
		t.Errorf("count(*) of acdemo.sales = %d, want 1000000", total)
	}
}

func TestPgxFiltersAndPaging(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)

	tests := []struct {
		name string
		sql  string
		want []int64
	}{
		{"equality", "SELECT id FROM acdemo.orders WHERE region = 'EU' ORDER BY id", []int64{1, 3}},
		{"range on numeric", "SELECT id FROM acdemo.orders WHERE amount > 100 ORDER BY id", []int64{1, 3}},
		{"date comparison", "SELECT id FROM acdemo.orders WHERE order_date >= '2024-02-01' ORDER BY id DESC", []int64{3, 2}},
		{"and or not", "SELECT id FROM acdemo.orders WHERE NOT (region = 'US') AND (id = 1 OR amount > 300) ORDER BY id", []int64{1, 3}},
		{"no match", "SELECT id FROM acdemo.orders WHERE region = 'APAC'", nil},
		{"limit", "SELECT id FROM acdemo.orders ORDER BY id LIMIT 2", []int64{1, 2}},
		{"offset", "SELECT id FROM acdemo.orders ORDER BY id OFFSET 1", []int64{2, 3}},
		{"limit offset", "SELECT id FROM acdemo.orders ORDER BY id DESC LIMIT 1 OFFSET 1", []int64{2}},
		{"limit on the big table", "SELECT id FROM acdemo.sales WHERE id <= 10 ORDER BY id LIMIT 3 OFFSET 2", []int64{3, 4, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := conn.Query(ctx, tt.sql)
			if err != nil {
				t.Fatal(err)
			}
			got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				t.Fatalf("%s: %v", tt.sql, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s = %v, want %v", tt.sql, got, tt.want)
			}
		})
	}
}

func TestPgxSearchPath(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)

	var path string
	if err := conn.QueryRow(ctx, "SHOW search_path").Scan(&path); err != nil {
		t.Fatal(err)
	}
	if path != `"$user", public` {
		t.Errorf("default search_path = %q, want %q", path, `"$user", public`)
	}

	if _, err := conn.Exec(ctx, "SELECT id FROM orders"); err == nil {
		t.Error("unqualified orders resolved before search_path names acdemo")
	} else if code := asPgError(t, err).Code; code != "42P01" {
		t.Errorf("unqualified orders before SET: code %s, want 42P01", code)
	}

	if _, err := conn.Exec(ctx, "SET search_path = acdemo"); err != nil {
		t.Fatalf("SET search_path: %v", err)
	}
	if err := conn.QueryRow(ctx, "SHOW search_path").Scan(&path); err != nil {
		t.Fatal(err)
	}
	if path != "acdemo" {
		t.Errorf("search_path after SET = %q, want acdemo", path)
	}
	rows, err := conn.Query(ctx, "SELECT id FROM orders ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatalf("unqualified orders: %v", err)
	}
	if want := []int64{1, 2, 3}; !slices.Equal(ids, want) {
		t.Errorf("unqualified orders ids = %v, want %v", ids, want)
	}
}
