package storage

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/storage/offheap"
)

// chunkCopy is a chunk's copy for the cache, made piece by piece as a
// scan decodes the chunk. Each piece is copied when decoded, so the
// decoded piece goes back to its scan's buffers when the operators
// release it: holding a row group's decoded pieces until its last one
// made the run that fills the cache hold several times the live heap of
// a run that does not, and the collector's goal after it let the next
// run spread over memory never touched before.
//
// The copy lies in one slab outside Go's heap (storage/offheap: neither
// marked by the collector nor counted in the heap's goal, and backed by
// huge pages, one fault per 2 MiB): mapped for the most a chunk may hold
// (the cache's budget, at most maxChunkCopy; only the pages written take
// memory), trimmed to
// what the pieces used. Each piece's buffers hold their lengths only:
// pqarrow's decoder reserves a batch's values to the next power of two
// of what a page might hold, room a cached chunk should not keep. A
// chunk smaller than offheapMin is moved to Go's heap at the end (a
// mapping each for the many tiny chunks of small tables would be many
// mappings for few bytes), as is every chunk where there are no
// mappings. Pieces of nested or dictionary types are kept as decoded.
type chunkCopy struct {
	slab *offheap.Slab
	mem  []byte // the slab's bytes, or Go memory when there is no slab
	used int
	// pieces lays out each copied piece in mem.
	pieces []pieceCopy
	// kept holds the pieces kept as decoded, retained.
	kept []arrow.Array
	// overflow is set when a piece did not fit: the chunk is not kept.
	overflow bool
}

// pieceCopy is where a piece's buffers lie in its chunk's copy.
type pieceCopy struct {
	typ                arrow.DataType
	rows, nulls, shift int
	// bufs are each buffer's offset and length in the copy, length -1
	// for an absent buffer.
	bufs [][2]int
}

// offheapMin is the smallest chunk the cache keeps outside Go's heap.
const offheapMin = 256 << 10

// maxChunkCopy bounds the slab a chunk's copy maps: a decoded column
// chunk of more is not worth keeping.
const maxChunkCopy = 1 << 30

// newChunkCopy starts a copy of a chunk of at most bound bytes (the
// cache's budget), and at most maxChunkCopy.
func newChunkCopy(bound int64) *chunkCopy {
	c := &chunkCopy{slab: offheap.New(int(min(bound, maxChunkCopy)))}
	if c.slab != nil {
		c.mem = c.slab.Bytes()
	}
	return c
}

// add copies piece p into the copy, or keeps it retained when its type is
// nested or a dictionary.
func (c *chunkCopy) add(p arrow.Array) {
	d := p.Data()
	nested := len(d.Children()) > 0 || d.DataType().ID() == arrow.DICTIONARY
	switch {
	case c.overflow:
		return
	case nested != (len(c.kept) > 0) && len(c.kept)+len(c.pieces) > 0:
		// A chunk's pieces share their type; not keeping it is safe.
		c.overflow = true
		return
	case nested:
		p.Retain()
		c.kept = append(c.kept, p)
		return
	}
	pc := pieceCopy{typ: d.DataType(), rows: d.Len(), nulls: d.NullN(), shift: d.Offset(), bufs: make([][2]int, len(d.Buffers()))}
	for j, b := range d.Buffers() {
		if b == nil {
			pc.bufs[j] = [2]int{0, -1}
			continue
		}
		n := b.Len()
		if !c.room(alignedLen(n)) {
			c.overflow = true
			return
		}
		copy(c.mem[c.used:], b.Bytes())
		pc.bufs[j] = [2]int{c.used, n}
		c.used += alignedLen(n)
	}
	c.pieces = append(c.pieces, pc)
}

// room makes room for n more bytes: the slab's are fixed, Go memory
// grows.
func (c *chunkCopy) room(n int) bool {
	need := c.used + n
	if c.slab != nil {
		return need <= len(c.mem)
	}
	if need > len(c.mem) {
		grown := make([]byte, max(need, 2*len(c.mem)))
		copy(grown, c.mem[:c.used])
		c.mem = grown
	}
	return true
}

// arrays returns the copied pieces, each with one reference for the
// caller, and lets go of what the copy held otherwise; nil when a piece
// did not fit.
func (c *chunkCopy) arrays() []arrow.Array {
	switch {
	case c.overflow || len(c.kept)+len(c.pieces) == 0:
		c.release()
		return nil
	case len(c.kept) > 0:
		kept := c.kept
		c.kept = nil
		c.release()
		return kept
	}
	mem, slab := c.mem[:c.used:c.used], c.slab
	if slab != nil && c.used < offheapMin {
		mem = append([]byte(nil), mem...)
		slab.Release()
		slab = nil
	} else if slab != nil {
		slab.Trim(c.used)
		mem = slab.Bytes()
		defer slab.Release() // the pieces' buffers hold it
	}
	c.slab, c.mem = nil, nil
	out := make([]arrow.Array, len(c.pieces))
	for i, pc := range c.pieces {
		bufs := make([]*memory.Buffer, len(pc.bufs))
		for j, b := range pc.bufs {
			switch {
			case b[1] < 0:
			case slab != nil:
				bufs[j] = slab.Buffer(mem[b[0] : b[0]+b[1] : b[0]+b[1]])
			default:
				bufs[j] = memory.NewBufferBytes(mem[b[0] : b[0]+b[1] : b[0]+b[1]])
			}
		}
		// The data retains its buffers; ours are dropped with it.
		data := array.NewData(pc.typ, pc.rows, bufs, nil, pc.nulls, pc.shift)
		for _, b := range bufs {
			if b != nil {
				b.Release()
			}
		}
		out[i] = array.MakeFromData(data)
		data.Release()
	}
	c.pieces = nil
	return out
}

// release lets go of the copy unfinished.
func (c *chunkCopy) release() {
	for _, p := range c.kept {
		p.Release()
	}
	if c.slab != nil {
		c.slab.Release()
	}
	*c = chunkCopy{}
}
