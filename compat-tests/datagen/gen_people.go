package datagen

import (
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// supplierSource makes SF*10,000 suppliers.
type supplierSource struct {
	g       *rowRand
	pool    textPool
	sc      scale
	key     *array.Int64Builder
	name    *array.StringBuilder
	address *array.StringBuilder
	nation  *array.Int64Builder
	phone   *array.StringBuilder
	acctbal *array.Decimal128Builder
	comment *array.StringBuilder
}

func (s *supplierSource) units() int64 { return s.sc.suppliers }

func (s *supplierSource) bind(b *array.RecordBuilder) {
	f := builders{b: b}
	s.key, s.name, s.address, s.nation = f.int64(), f.str(), f.str(), f.int64()
	s.phone, s.acctbal, s.comment = f.str(), f.decimal(), f.str()
}

func (s *supplierSource) appendUnit(n int64) {
	g := s.g
	g.seed(seedSupplier, n)
	key := n + 1
	s.key.Append(key)
	s.name.Append(numberedName("Supplier#", key))
	s.address.Append(vstring(g, 10, 40))
	nation := g.between(0, int64(len(nations)-1))
	s.nation.Append(nation)
	s.phone.Append(phone(g, nation))
	s.acctbal.Append(decimal128.FromI64(g.between(-99_999, 999_999)))
	s.comment.Append(s.pool.text(g, 25, 100))
}

// customerSource makes SF*150,000 customers.
type customerSource struct {
	g       *rowRand
	pool    textPool
	sc      scale
	key     *array.Int64Builder
	name    *array.StringBuilder
	address *array.StringBuilder
	nation  *array.Int64Builder
	phone   *array.StringBuilder
	acctbal *array.Decimal128Builder
	segment *array.StringBuilder
	comment *array.StringBuilder
}

func (s *customerSource) units() int64 { return s.sc.customers }

func (s *customerSource) bind(b *array.RecordBuilder) {
	f := builders{b: b}
	s.key, s.name, s.address, s.nation = f.int64(), f.str(), f.str(), f.int64()
	s.phone, s.acctbal, s.segment, s.comment = f.str(), f.decimal(), f.str(), f.str()
}

func (s *customerSource) appendUnit(n int64) {
	g := s.g
	g.seed(seedCustomer, n)
	key := n + 1
	s.key.Append(key)
	s.name.Append(numberedName("Customer#", key))
	s.address.Append(vstring(g, 10, 40))
	nation := g.between(0, int64(len(nations)-1))
	s.nation.Append(nation)
	s.phone.Append(phone(g, nation))
	s.acctbal.Append(decimal128.FromI64(g.between(-99_999, 999_999)))
	s.segment.Append(marketSegments[g.index(len(marketSegments))])
	s.comment.Append(s.pool.text(g, 29, 116))
}
