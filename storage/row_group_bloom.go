package storage

import (
	"context"
	"encoding/binary"
	"math"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// Bloom filters let a point lookup skip the row groups of a column whose
// values are not ordered, where every group's bounds span nearly the
// whole range and statistics prune nothing. A table asks for them per
// column (write.parquet.bloom-filter-enabled.column.<name>, as Iceberg
// defines it); both writers then store one filter per row group of the
// column, sized by write.parquet.bloom-filter-max-bytes.
//
// A row group the statistics keep is judged again with the filters of
// the columns an equality or IN list tests: it is skipped when none of
// the values can be in it. A filter is read only then, with one small
// read of the data file, and the filters read are cached by the
// row-group cache, bounded in bytes, so that a repeated lookup reads
// none. Each scan reads at most bloomReads filters; past that, a group
// is read whole.
//
// A literal is hashed as the writer hashed the stored value: the
// physical value (INT32, INT64, the bytes of a BYTE_ARRAY or
// FIXED_LEN_BYTE_ARRAY) the column's Parquet type and annotation say
// the table value is stored as. A combination not known here (floating
// point, where -0 equals 0 and NaN equals NaN in SQL but not in the
// filter; INT96 or millisecond timestamps; decimals stored as
// variable-length bytes) is never judged by its filter.

// A row-group cache holds at most this many bytes of bloom filters, and
// at most this many filters.
const (
	bloomCacheBytes   = 64 << 20
	bloomCacheFilters = 1 << 16
)

// bloomReads bounds the bloom filters (and the footers they need) one
// scan reads: a filter is a read of its own, as large as
// write.parquet.bloom-filter-max-bytes allows.
const bloomReads = 64

// pruneBudget is what one scan may still read to prune row groups.
type pruneBudget struct {
	footers, blooms int
}

func newPruneBudget() *pruneBudget {
	return &pruneBudget{footers: footerReads, blooms: bloomReads}
}

// bloomColumn is a column chunk that has a bloom filter: the column's
// index among the file's leaves and how the file stores its values.
type bloomColumn struct {
	leaf   int
	stored *storedAs
}

// storedAs is the physical form in which a file stores the values of a
// table column: kind, with the byte length of a fixed-length array and
// the scale of a decimal.
type storedAs struct {
	kind   storedKind
	length int
	scale  int
}

type storedKind int

const (
	storedInt32 storedKind = iota + 1
	storedInt64
	storedBytes
	storedFixed
	storedDecimalInt32
	storedDecimalInt64
	storedDecimalFixed
)

// storedForm returns how col stores values of the table type typ, or
// nil when it is a combination whose hashing is not known here.
func storedForm(typ iceberg.Type, col *schema.Column) *storedAs {
	phys, logical := col.PhysicalType(), col.LogicalType()
	plain := logical == nil || !logical.IsValid() || logical.IsNone()
	signedInt := func(bits int8) bool {
		if plain {
			return true
		}
		it, ok := logical.(schema.IntLogicalType)
		return ok && it.IsSigned() && it.BitWidth() <= bits
	}
	switch t := typ.(type) {
	case iceberg.Int32Type:
		if phys == parquet.Types.Int32 && signedInt(32) {
			return &storedAs{kind: storedInt32}
		}
	case iceberg.Int64Type:
		switch {
		case phys == parquet.Types.Int64 && signedInt(64):
			return &storedAs{kind: storedInt64}
		case phys == parquet.Types.Int32 && signedInt(32): // written as int, promoted since
			return &storedAs{kind: storedInt32}
		}
	case iceberg.DateType:
		if _, ok := logical.(schema.DateLogicalType); ok && phys == parquet.Types.Int32 {
			return &storedAs{kind: storedInt32}
		}
	case iceberg.TimestampType, iceberg.TimestampTzType:
		if ts, ok := logical.(schema.TimestampLogicalType); ok && phys == parquet.Types.Int64 &&
			ts.TimeUnit() == schema.TimeUnitMicros {
			return &storedAs{kind: storedInt64}
		}
	case iceberg.TimeType:
		if tm, ok := logical.(schema.TimeLogicalType); ok && phys == parquet.Types.Int64 &&
			tm.TimeUnit() == schema.TimeUnitMicros {
			return &storedAs{kind: storedInt64}
		}
	case iceberg.StringType:
		if _, ok := logical.(schema.StringLogicalType); (ok || plain) && phys == parquet.Types.ByteArray {
			return &storedAs{kind: storedBytes}
		}
	case iceberg.BinaryType:
		if plain && phys == parquet.Types.ByteArray {
			return &storedAs{kind: storedBytes}
		}
	case iceberg.FixedType:
		if plain && phys == parquet.Types.FixedLenByteArray && col.TypeLength() == t.Len() {
			return &storedAs{kind: storedFixed, length: t.Len()}
		}
	case iceberg.DecimalType:
		dec, ok := logical.(schema.DecimalLogicalType)
		if !ok || int(dec.Scale()) != t.Scale() {
			return nil
		}
		switch phys {
		case parquet.Types.Int32:
			return &storedAs{kind: storedDecimalInt32, scale: t.Scale()}
		case parquet.Types.Int64:
			return &storedAs{kind: storedDecimalInt64, scale: t.Scale()}
		case parquet.Types.FixedLenByteArray:
			if n := col.TypeLength(); n > 0 && n <= 16 {
				return &storedAs{kind: storedDecimalFixed, length: n, scale: t.Scale()}
			}
		}
	}
	return nil
}

// hash is lit's hash as the writer computed it for a stored value equal
// to lit; ok is false when lit is not a value this form holds as such
// (another literal type, a decimal of another scale, a value out of the
// stored range), and the filter is then not consulted.
func (s *storedAs) hash(h metadata.Hasher, lit iceberg.Literal) (uint64, bool) {
	switch s.kind {
	case storedInt32:
		var v int64
		switch l := lit.(type) {
		case iceberg.Int32Literal:
			v = int64(l)
		case iceberg.Int64Literal:
			v = int64(l)
		case iceberg.DateLiteral:
			v = int64(l)
		default:
			return 0, false
		}
		if v < math.MinInt32 || v > math.MaxInt32 {
			return 0, false
		}
		return metadata.GetHash(h, int32(v)), true
	case storedInt64:
		switch l := lit.(type) {
		case iceberg.Int64Literal:
			return metadata.GetHash(h, int64(l)), true
		case iceberg.TimestampLiteral:
			return metadata.GetHash(h, int64(l)), true
		case iceberg.TimeLiteral:
			return metadata.GetHash(h, int64(l)), true
		}
	case storedBytes:
		switch l := lit.(type) {
		case iceberg.StringLiteral:
			return metadata.GetHash(h, parquet.ByteArray(l)), true
		case iceberg.BinaryLiteral:
			return metadata.GetHash(h, parquet.ByteArray(l)), true
		}
	case storedFixed:
		if l, ok := lit.(iceberg.FixedLiteral); ok && len(l) == s.length {
			return metadata.GetHash(h, parquet.FixedLenByteArray(l)), true
		}
	case storedDecimalInt32, storedDecimalInt64, storedDecimalFixed:
		l, ok := lit.(iceberg.DecimalLiteral)
		if !ok || l.Scale != s.scale {
			return 0, false
		}
		return s.hashDecimal(h, l.Val)
	}
	return 0, false
}

// hashDecimal hashes an unscaled decimal as an INT32, an INT64 or the
// big-endian two's complement of s.length bytes, as stored.
func (s *storedAs) hashDecimal(h metadata.Hasher, v decimal128.Num) (uint64, bool) {
	hi, lo := v.HighBits(), v.LowBits()
	small := hi == int64(lo)>>63 // v fits in an int64
	switch s.kind {
	case storedDecimalInt32:
		if !small || int64(lo) < math.MinInt32 || int64(lo) > math.MaxInt32 {
			return 0, false
		}
		return metadata.GetHash(h, int32(int64(lo))), true
	case storedDecimalInt64:
		if !small {
			return 0, false
		}
		return metadata.GetHash(h, int64(lo)), true
	}
	var be [16]byte
	binary.BigEndian.PutUint64(be[:8], uint64(hi))
	binary.BigEndian.PutUint64(be[8:], lo)
	cut := 16 - s.length
	sign := byte(0)
	if be[cut]&0x80 != 0 {
		sign = 0xff
	}
	for _, b := range be[:cut] {
		if b != sign {
			return 0, false // needs more bytes than the column has
		}
	}
	return metadata.GetHash(h, parquet.FixedLenByteArray(be[cut:])), true
}

// bloomKey names the bloom filter of one column chunk.
type bloomKey struct {
	file     fileKey
	rowGroup int
	fieldID  int
}

// bloomWeight is a cached filter's bytes, with the bookkeeping.
func bloomWeight(f metadata.BloomFilter) int { return int(f.Size()) + 64 }

// bloomProbe reads, for one scan task's data file, the bloom filters a
// row-group judgement asks for: from the row-group cache, or from the
// file, opened on the first miss. It is used by one goroutine.
type bloomProbe struct {
	ctx    context.Context
	t      *Table
	file   iceberg.DataFile
	key    fileKey
	budget *pruneBudget

	in     iceio.File
	rdr    *metadata.BloomFilterReader
	failed bool // the file could not be opened: every filter is doubt
}

func (t *Table) newBloomProbe(ctx context.Context, f iceberg.DataFile, budget *pruneBudget) *bloomProbe {
	return &bloomProbe{ctx: ctx, t: t, file: f, key: fileKey{path: f.FilePath(), size: f.FileSizeBytes()}, budget: budget}
}

// match returns the judge of group g's bloom filters for rowGroupMatch:
// false only when the filter of field id holds none of lits.
func (p *bloomProbe) match(g int, group *rowGroupStats) func(id int, lits []iceberg.Literal) bool {
	return func(id int, lits []iceberg.Literal) bool {
		col, ok := group.blooms[id]
		if !ok {
			return true
		}
		bf := p.filter(g, id, col)
		if bf == nil {
			return true
		}
		for _, lit := range lits {
			h, ok := col.stored.hash(bf.Hasher(), lit)
			if !ok || bf.CheckHash(h) {
				return true
			}
		}
		return false
	}
}

// filter returns the bloom filter of field id in row group g, nil when
// it is neither cached nor read (budget, a failed read).
func (p *bloomProbe) filter(g, id int, col bloomColumn) metadata.BloomFilter {
	cache := p.t.host.rowGroupCache()
	k := bloomKey{file: p.key, rowGroup: g, fieldID: id}
	if bf, ok := cache.blooms.get(k); ok {
		return bf
	}
	if p.budget.blooms <= 0 || !p.open() {
		return nil
	}
	p.budget.blooms--
	rg, err := p.rdr.RowGroup(g)
	if err != nil {
		return nil
	}
	bf, err := rg.GetColumnBloomFilter(col.leaf)
	if err != nil || bf == nil {
		return nil
	}
	cache.blooms.put(k, bf)
	return bf
}

// open opens the data file and takes its footer from the chunk cache,
// or parses it and leaves it there for the read that follows.
func (p *bloomProbe) open() bool {
	if p.rdr != nil || p.failed {
		return p.rdr != nil
	}
	p.failed = true
	fs, err := p.t.tbl.FS(p.ctx)
	if err != nil {
		return false
	}
	in, err := fs.Open(p.file.FilePath())
	if err != nil {
		return false
	}
	chunks := p.t.host.chunkCache()
	var meta *metadata.FileMetaData
	if chunks != nil {
		if footer, ok := chunks.footer(p.key); ok {
			meta = footer.meta
		}
	}
	if meta == nil {
		if p.budget.blooms <= 0 {
			_ = in.Close()
			return false
		}
		p.budget.blooms--
		rdr, err := file.NewParquetReader(in)
		if err != nil {
			_ = in.Close()
			return false
		}
		meta = rdr.MetaData()
		if chunks != nil {
			if footer, err := newParquetFooter(meta); err == nil {
				chunks.keepFooter(p.key, footer)
			}
		}
	}
	p.in, p.failed = in, false
	// A pool of its own: a cached filter's buffer goes back to it when the
	// filter is collected, which keeps no reader of the file alive.
	p.rdr = &metadata.BloomFilterReader{Input: in, FileMetadata: meta,
		BufferPool: &sync.Pool{New: func() any { return memory.NewResizableBuffer(memory.DefaultAllocator) }}}
	return true
}

func (p *bloomProbe) close() {
	if p.in != nil {
		_ = p.in.Close()
		p.in = nil
	}
}

// bloomColumnsOf returns, by field id, the columns of row group rg that
// carry a bloom filter in a form storedForm knows; nil when none.
func bloomColumnsOf(tableSchema *iceberg.Schema, meta *metadata.FileMetaData, rg *metadata.RowGroupMetaData, forms map[int]*storedAs) map[int]bloomColumn {
	var out map[int]bloomColumn
	for c := range rg.NumColumns() {
		chunk, err := rg.ColumnChunk(c)
		if err != nil || chunk.BloomFilterOffset() <= 0 {
			continue
		}
		col := meta.Schema.Column(c)
		if len(col.ColumnPath()) != 1 {
			continue
		}
		id := int(col.SchemaNode().FieldID())
		stored, seen := forms[id]
		if !seen {
			if field, ok := tableSchema.FindFieldByID(id); ok {
				stored = storedForm(field.Type, col)
			}
			forms[id] = stored
		}
		if stored == nil {
			continue
		}
		if out == nil {
			out = map[int]bloomColumn{}
		}
		out[id] = bloomColumn{leaf: c, stored: stored}
	}
	return out
}

// bloomTested reports whether bound tests a column by equality or IN
// that the table's properties give a bloom filter: only then is the
// footer of a file of one row group read to judge it (the planner has
// judged such a file by the statistics already).
func (t *Table) bloomTested(bound iceberg.BooleanExpression) bool {
	props := t.tbl.Properties()
	found := false
	_, _ = iceberg.VisitExpr(bound, &predicateWalk{visit: func(pred iceberg.BoundPredicate) {
		if pred.Op() != iceberg.OpEQ && pred.Op() != iceberg.OpIn {
			return
		}
		ref, ok := pred.Term().(iceberg.BoundReference)
		if !ok {
			return
		}
		name, ok := t.tbl.Schema().FindColumnName(ref.Field().ID)
		if ok && javaTrue(props.Get(table.ParquetBloomFilterColumnEnabledKeyPrefix+"."+name, "false")) {
			found = true
		}
	}})
	return found
}

// predicateWalk calls visit with every bound predicate of an expression.
type predicateWalk struct {
	visit func(iceberg.BoundPredicate)
}

func (*predicateWalk) VisitTrue() struct{}                            { return struct{}{} }
func (*predicateWalk) VisitFalse() struct{}                           { return struct{}{} }
func (*predicateWalk) VisitNot(struct{}) struct{}                     { return struct{}{} }
func (*predicateWalk) VisitAnd(_, _ struct{}) struct{}                { return struct{}{} }
func (*predicateWalk) VisitOr(_, _ struct{}) struct{}                 { return struct{}{} }
func (*predicateWalk) VisitUnbound(iceberg.UnboundPredicate) struct{} { return struct{}{} }
func (w *predicateWalk) VisitBound(pred iceberg.BoundPredicate) struct{} {
	w.visit(pred)
	return struct{}{}
}
