package datagen

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestReferentialIntegrity checks every foreign key at the test scale
// factor, and that keys are unique.
func TestReferentialIntegrity(t *testing.T) {
	regions := int64Set(t, "region", "r_regionkey")
	nationKeys := int64Set(t, "nation", "n_nationkey")
	suppliers := int64Set(t, "supplier", "s_suppkey")
	customers := int64Set(t, "customer", "c_custkey")
	parts := int64Set(t, "part", "p_partkey")
	orders := int64Set(t, "orders", "o_orderkey")
	if len(suppliers) != 100 || len(customers) != 1500 || len(parts) != 2000 || len(orders) != 15000 {
		t.Fatalf("keys not unique: %d suppliers, %d customers, %d parts, %d orders",
			len(suppliers), len(customers), len(parts), len(orders))
	}
	refs := func(table, col string, target map[int64]bool) {
		t.Helper()
		eachBatch(t, table, 4096, func(rec arrow.RecordBatch) {
			a := colOf[*array.Int64](t, rec, col)
			for i := range a.Len() {
				if !target[a.Value(i)] {
					t.Fatalf("%s.%s = %d has no referenced row", table, col, a.Value(i))
				}
			}
		})
	}
	refs("nation", "n_regionkey", regions)
	refs("supplier", "s_nationkey", nationKeys)
	refs("customer", "c_nationkey", nationKeys)
	refs("partsupp", "ps_partkey", parts)
	refs("partsupp", "ps_suppkey", suppliers)
	refs("orders", "o_custkey", customers)
	refs("lineitem", "l_orderkey", orders)

	// Every line item's (part, supplier) pair is a partsupp row, and
	// partsupp pairs are unique.
	type pair struct{ part, supp int64 }
	partsupp := map[pair]bool{}
	eachBatch(t, "partsupp", 4096, func(rec arrow.RecordBatch) {
		p, s := colOf[*array.Int64](t, rec, "ps_partkey"), colOf[*array.Int64](t, rec, "ps_suppkey")
		for i := range p.Len() {
			k := pair{p.Value(i), s.Value(i)}
			if partsupp[k] {
				t.Fatalf("partsupp key %v twice", k)
			}
			partsupp[k] = true
		}
	})
	eachBatch(t, "lineitem", 4096, func(rec arrow.RecordBatch) {
		p, s := colOf[*array.Int64](t, rec, "l_partkey"), colOf[*array.Int64](t, rec, "l_suppkey")
		for i := range p.Len() {
			if !partsupp[pair{p.Value(i), s.Value(i)}] {
				t.Fatalf("lineitem (%d, %d) not in partsupp", p.Value(i), s.Value(i))
			}
		}
	})
	// A third of the customers (keys divisible by three) place no order.
	eachBatch(t, "orders", 4096, func(rec arrow.RecordBatch) {
		c := colOf[*array.Int64](t, rec, "o_custkey")
		for i := range c.Len() {
			if c.Value(i)%3 == 0 {
				t.Fatalf("order for customer %d, a multiple of three", c.Value(i))
			}
		}
	})
}

// orderFacts is what lineitem says about one order.
type orderFacts struct {
	total          int64
	open, finished int
}

// TestValueRules checks the rules between columns that the queries rely
// on: the date ranges, return flag and line status against the current
// date, and each order's status and total price against its lines.
func TestValueRules(t *testing.T) {
	facts := map[int64]*orderFacts{}
	flags := map[string]int{}
	eachBatch(t, "lineitem", 4096, func(rec arrow.RecordBatch) {
		key := colOf[*array.Int64](t, rec, "l_orderkey")
		qty := colOf[*array.Decimal128](t, rec, "l_quantity")
		ext := colOf[*array.Decimal128](t, rec, "l_extendedprice")
		part := colOf[*array.Int64](t, rec, "l_partkey")
		disc := colOf[*array.Decimal128](t, rec, "l_discount")
		tax := colOf[*array.Decimal128](t, rec, "l_tax")
		flag := colOf[*array.String](t, rec, "l_returnflag")
		status := colOf[*array.String](t, rec, "l_linestatus")
		ship := colOf[*array.Date32](t, rec, "l_shipdate")
		receipt := colOf[*array.Date32](t, rec, "l_receiptdate")
		for i := range key.Len() {
			q, e := int64(qty.Value(i).LowBits()), int64(ext.Value(i).LowBits())
			if q < 100 || q > 5000 || q%100 != 0 || e != q/100*retailPrice(part.Value(i)) {
				t.Fatalf("line %d: quantity %d, extended price %d", i, q, e)
			}
			d, x := int64(disc.Value(i).LowBits()), int64(tax.Value(i).LowBits())
			if d < 0 || d > 10 || x < 0 || x > 8 {
				t.Fatalf("discount %d, tax %d", d, x)
			}
			if ship.Value(i) < startDate || receipt.Value(i) > endDate || receipt.Value(i) <= ship.Value(i) {
				t.Fatalf("dates ship %v receipt %v", ship.Value(i), receipt.Value(i))
			}
			wantStatus := "F"
			if ship.Value(i) > currentDate {
				wantStatus = "O"
			}
			f := flag.Value(i)
			if status.Value(i) != wantStatus || (receipt.Value(i) <= currentDate) == (f == "N") {
				t.Fatalf("flag %s status %s for ship %v receipt %v", f, status.Value(i), ship.Value(i), receipt.Value(i))
			}
			flags[f+status.Value(i)]++
			o := facts[key.Value(i)]
			if o == nil {
				o = &orderFacts{}
				facts[key.Value(i)] = o
			}
			o.total += (e*(100-d)*(100+x) + 5000) / 10000
			if wantStatus == "O" {
				o.open++
			} else {
				o.finished++
			}
		}
	})
	// Q1's four groups all occur.
	for _, g := range []string{"AF", "NF", "NO", "RF"} {
		if flags[g] == 0 {
			t.Errorf("no line item with return flag and status %s", g)
		}
	}
	eachBatch(t, "orders", 4096, func(rec arrow.RecordBatch) {
		key := colOf[*array.Int64](t, rec, "o_orderkey")
		status := colOf[*array.String](t, rec, "o_orderstatus")
		total := colOf[*array.Decimal128](t, rec, "o_totalprice")
		date := colOf[*array.Date32](t, rec, "o_orderdate")
		for i := range key.Len() {
			o := facts[key.Value(i)]
			if o == nil {
				t.Fatalf("order %d has no line items", key.Value(i))
			}
			want := "P"
			if o.open == 0 {
				want = "F"
			} else if o.finished == 0 {
				want = "O"
			}
			if status.Value(i) != want || total.Value(i).LowBits() != uint64(o.total) {
				t.Fatalf("order %d: status %s total %d, lines say %s %d",
					key.Value(i), status.Value(i), total.Value(i).LowBits(), want, o.total)
			}
			if date.Value(i) < startDate || date.Value(i) > endDate-151 {
				t.Fatalf("order date %v", date.Value(i))
			}
		}
	})
}
