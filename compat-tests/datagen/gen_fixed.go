package datagen

import "github.com/apache/arrow-go/v18/arrow/array"

// regionSource makes the five regions.
type regionSource struct {
	g       *rowRand
	pool    textPool
	key     *array.Int64Builder
	name    *array.StringBuilder
	comment *array.StringBuilder
}

func (s *regionSource) units() int64 { return int64(len(regionNames)) }

func (s *regionSource) bind(b *array.RecordBuilder) {
	f := builders{b: b}
	s.key, s.name, s.comment = f.int64(), f.str(), f.str()
}

func (s *regionSource) appendUnit(n int64) {
	s.g.seed(seedRegion, n)
	s.key.Append(n)
	s.name.Append(regionNames[n])
	s.comment.Append(s.pool.text(s.g, 31, 115))
}

// nationSource makes the 25 nations.
type nationSource struct {
	g       *rowRand
	pool    textPool
	key     *array.Int64Builder
	name    *array.StringBuilder
	region  *array.Int64Builder
	comment *array.StringBuilder
}

func (s *nationSource) units() int64 { return int64(len(nations)) }

func (s *nationSource) bind(b *array.RecordBuilder) {
	f := builders{b: b}
	s.key, s.name, s.region, s.comment = f.int64(), f.str(), f.int64(), f.str()
}

func (s *nationSource) appendUnit(n int64) {
	s.g.seed(seedNation, n)
	s.key.Append(n)
	s.name.Append(nations[n].name)
	s.region.Append(int64(nations[n].region))
	s.comment.Append(s.pool.text(s.g, 31, 114))
}
