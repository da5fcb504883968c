package exec

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// keyEncoder writes the composite keys of a batch, column by column,
// into one reusable buffer: row r's key is buf[offs[r]:offs[r+1]], the
// bytes appendKey gives it. A first pass adds up each row's length, a
// second writes each column with a loop typed once per batch, so no row
// pays a type switch per key column.
type keyEncoder struct {
	buf  []byte
	offs []int
	cur  []int // per row, where the next column's bytes go
}

// keyWidth is the bytes a non-NULL value of a fixed-width key column
// takes after its marker, or 0 for variable-width and unknown types.
func keyWidth(dt arrow.DataType) int {
	switch dt.ID() {
	case arrow.BOOL:
		return 1
	case arrow.INT16:
		return 2
	case arrow.INT32, arrow.DATE32, arrow.UINT32:
		return 4
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.FLOAT32, arrow.FLOAT64:
		return 8
	case arrow.INTERVAL_MONTH_DAY_NANO, arrow.DECIMAL128, arrow.DECIMAL64:
		// A decimal64 takes a decimal128's 16 bytes (appendKey).
		return 16
	}
	return 0
}

// encode lays out the keys of n rows.
func (e *keyEncoder) encode(keys []arrow.Array, n int) {
	e.offs = grow(e.offs, n+1)[:n+1]
	clear(e.offs)
	for _, k := range keys {
		bm, off := bitmapOf(k)
		w := keyWidth(k.DataType())
		switch {
		case w > 0 && bm == nil:
			for r := 1; r <= n; r++ {
				e.offs[r] += 1 + w
			}
		case w > 0:
			for r := 0; r < n; r++ {
				e.offs[r+1]++
				if bitutil.BitIsSet(bm, off+r) {
					e.offs[r+1] += w
				}
			}
		default:
			if s, ok := k.(*array.String); ok {
				offsets := s.ValueOffsets()
				for r := 0; r < n; r++ {
					e.offs[r+1]++
					if bm == nil || bitutil.BitIsSet(bm, off+r) {
						l := int(offsets[r+1] - offsets[r])
						e.offs[r+1] += uvarintLen(uint64(l)) + l
					}
				}
				continue
			}
			var scratch []byte
			for r := 0; r < n; r++ {
				scratch = appendKey(scratch[:0], k, r)
				e.offs[r+1] += len(scratch)
			}
		}
	}
	for r := 1; r <= n; r++ {
		e.offs[r] += e.offs[r-1]
	}
	e.buf = grow(e.buf, e.offs[n])[:e.offs[n]]
	e.cur = grow(e.cur, n)[:n]
	copy(e.cur, e.offs[:n])
	for _, k := range keys {
		e.encodeColumn(k, n)
	}
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// encodeColumn appends one column's bytes to every row's key.
func (e *keyEncoder) encodeColumn(k arrow.Array, n int) {
	bm, off := bitmapOf(k)
	buf, cur := e.buf, e.cur[:n]
	// null writes a NULL marker and reports whether row r was NULL.
	null := func(r int) bool {
		if bm != nil && !bitutil.BitIsSet(bm, off+r) {
			buf[cur[r]] = 0
			cur[r]++
			return true
		}
		buf[cur[r]] = 1
		cur[r]++
		return false
	}
	switch k.DataType().ID() {
	case arrow.INT32, arrow.DATE32, arrow.UINT32:
		vals := values[uint32](k)[:n]
		if bm == nil {
			for r, v := range vals {
				p := cur[r]
				buf[p] = 1
				binary.LittleEndian.PutUint32(buf[p+1:], v)
				cur[r] = p + 5
			}
			return
		}
		for r, v := range vals {
			if !null(r) {
				binary.LittleEndian.PutUint32(buf[cur[r]:], v)
				cur[r] += 4
			}
		}
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		vals := values[uint64](k)[:n]
		if bm == nil {
			for r, v := range vals {
				p := cur[r]
				buf[p] = 1
				binary.LittleEndian.PutUint64(buf[p+1:], v)
				cur[r] = p + 9
			}
			return
		}
		for r, v := range vals {
			if !null(r) {
				binary.LittleEndian.PutUint64(buf[cur[r]:], v)
				cur[r] += 8
			}
		}
	case arrow.DECIMAL128:
		// Low then high 64 bits, as appendKey writes them.
		vals := values[decimal128.Num](k)[:n]
		for r, v := range vals {
			if !null(r) {
				binary.LittleEndian.PutUint64(buf[cur[r]:], v.LowBits())
				binary.LittleEndian.PutUint64(buf[cur[r]+8:], uint64(v.HighBits()))
				cur[r] += 16
			}
		}
	case arrow.DECIMAL64:
		vals := values[int64](k)[:n]
		for r, v := range vals {
			if !null(r) {
				binary.LittleEndian.PutUint64(buf[cur[r]:], uint64(v))
				binary.LittleEndian.PutUint64(buf[cur[r]+8:], uint64(v>>63))
				cur[r] += 16
			}
		}
	case arrow.INT16:
		vals := values[uint16](k)[:n]
		for r, v := range vals {
			if !null(r) {
				binary.LittleEndian.PutUint16(buf[cur[r]:], v)
				cur[r] += 2
			}
		}
	case arrow.FLOAT64:
		vals := values[float64](k)[:n]
		for r, v := range vals {
			if !null(r) {
				binary.LittleEndian.PutUint64(buf[cur[r]:], math.Float64bits(canonicalFloat(v)))
				cur[r] += 8
			}
		}
	case arrow.STRING:
		s := k.(*array.String)
		offsets := s.ValueOffsets()
		data := s.ValueBytes()
		base := offsets[0]
		for r := 0; r < n; r++ {
			if null(r) {
				continue
			}
			v := data[offsets[r]-base : offsets[r+1]-base]
			p := binary.PutUvarint(buf[cur[r]:], uint64(len(v)))
			cur[r] += p + copy(buf[cur[r]+p:], v)
		}
	default:
		for r := 0; r < n; r++ {
			p := cur[r]
			cur[r] = p + len(appendKey(buf[p:p], k, r))
		}
	}
}
