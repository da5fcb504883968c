package datagen

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// partSource makes SF*200,000 parts.
type partSource struct {
	g         *rowRand
	pool      textPool
	sc        scale
	key       *array.Int64Builder
	name      *array.StringBuilder
	mfgr      *array.StringBuilder
	brand     *array.StringBuilder
	typ       *array.StringBuilder
	size      *array.Int32Builder
	container *array.StringBuilder
	price     *array.Decimal128Builder
	comment   *array.StringBuilder
}

func (s *partSource) units() int64 { return s.sc.parts }

func (s *partSource) bind(b *array.RecordBuilder) {
	f := builders{b: b}
	s.key, s.name, s.mfgr, s.brand, s.typ = f.int64(), f.str(), f.str(), f.str(), f.str()
	s.size, s.container, s.price, s.comment = f.int32(), f.str(), f.decimal(), f.str()
}

func (s *partSource) appendUnit(n int64) {
	g := s.g
	g.seed(seedPart, n)
	key := n + 1
	s.key.Append(key)
	s.name.Append(partName(g))
	m := g.between(1, 5)
	s.mfgr.Append("Manufacturer#" + strconv.FormatInt(m, 10))
	s.brand.Append("Brand#" + strconv.FormatInt(m, 10) + strconv.FormatInt(g.between(1, 5), 10))
	s.typ.Append(typeSyllable1[g.index(len(typeSyllable1))] + " " +
		typeSyllable2[g.index(len(typeSyllable2))] + " " + typeSyllable3[g.index(len(typeSyllable3))])
	s.size.Append(int32(g.between(1, 50)))
	s.container.Append(containerSyllable1[g.index(len(containerSyllable1))] + " " +
		containerSyllable2[g.index(len(containerSyllable2))])
	s.price.Append(decimal128.FromI64(retailPrice(key)))
	s.comment.Append(s.pool.text(g, 5, 22))
}

// partName is five distinct colour words.
func partName(g *rowRand) string {
	var picked [5]int
	for i := range picked {
	draw:
		for {
			c := g.index(len(partColors))
			for _, p := range picked[:i] {
				if p == c {
					continue draw
				}
			}
			picked[i] = c
			break
		}
	}
	words := make([]string, len(picked))
	for i, c := range picked {
		words[i] = partColors[c]
	}
	return strings.Join(words, " ")
}

// partsuppSource makes four rows per part, one per supplier of the part.
type partsuppSource struct {
	g       *rowRand
	pool    textPool
	sc      scale
	part    *array.Int64Builder
	supp    *array.Int64Builder
	avail   *array.Int32Builder
	cost    *array.Decimal128Builder
	comment *array.StringBuilder
}

// suppliersPerPart is how many partsupp rows each part has.
const suppliersPerPart = 4

func (s *partsuppSource) units() int64 { return s.sc.parts }

func (s *partsuppSource) bind(b *array.RecordBuilder) {
	f := builders{b: b}
	s.part, s.supp, s.avail, s.cost, s.comment = f.int64(), f.int64(), f.int32(), f.decimal(), f.str()
}

func (s *partsuppSource) appendUnit(n int64) {
	g := s.g
	g.seed(seedPartsupp, n)
	key := n + 1
	for i := range suppliersPerPart {
		s.part.Append(key)
		s.supp.Append(partSupplier(key, i, s.sc.suppliers))
		s.avail.Append(int32(g.between(1, 9999)))
		s.cost.Append(decimal128.FromI64(g.between(100, 100_000)))
		s.comment.Append(s.pool.text(g, 49, 198))
	}
}
