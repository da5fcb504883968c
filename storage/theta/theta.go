// Package theta is a Theta sketch of distinct values, serialized in the
// Apache DataSketches "compact" form that Iceberg's Puffin statistics
// files hold as apache-datasketches-theta-v1 blobs, so that other engines
// (Spark, Trino) read the sketches SQE writes and SQE reads theirs.
//
// It is the K-minimum-values sketch the DataSketches libraries build:
// each value is hashed with MurmurHash3 x64-128 under the library's
// default seed (9001), the first 64 bits shifted right by one; the sketch
// keeps the k smallest hashes below theta, and estimates the distinct
// count as retained / (theta / 2^63). Below k distinct values it is exact.
// The DataSketches Go library is not served by the Go module proxy this
// project builds from; the format is small and fixed, and the tests pin it
// (the seed hash, the preamble, the ordered entries).
package theta

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/twmb/murmur3"
)

// DefaultSeed is DataSketches' default update seed, which Iceberg's
// specification requires for its theta blobs.
const DefaultSeed uint64 = 9001

// DefaultNominalEntries is DataSketches' default k (lgK 12), the one
// Iceberg's writers use: a relative standard error of about 1.6%.
const DefaultNominalEntries = 4096

// maxTheta is theta in exact mode: 2^63 - 1, as DataSketches holds it.
const maxTheta = math.MaxInt64

// Compact-form constants (DataSketches' theta serialization version 3).
const (
	serialVersion = 3
	familyCompact = 3

	flagReadOnly = 1 << 1
	flagEmpty    = 1 << 2
	flagCompact  = 1 << 3
	flagOrdered  = 1 << 4
)

// Sketch accumulates the hashes of the values given to Update. The zero
// value is not usable; call New.
type Sketch struct {
	k      int
	theta  uint64
	hashes map[uint64]struct{}
	empty  bool
}

// New is an empty sketch with the default nominal entries.
func New() *Sketch { return NewWithNominal(DefaultNominalEntries) }

// NewWithNominal is an empty sketch that keeps k hashes (k >= 16).
func NewWithNominal(k int) *Sketch {
	return &Sketch{k: max(k, 16), theta: maxTheta, hashes: map[uint64]struct{}{}, empty: true}
}

// Hash is the sketch hash of value: MurmurHash3 x64-128 under the seed,
// the first half shifted right by one, as DataSketches computes it.
func Hash(value []byte) uint64 {
	h1, _ := murmur3.SeedSum128(DefaultSeed, DefaultSeed, value)
	return h1 >> 1
}

// Update adds one value, as its bytes (Iceberg's single-value
// serialization for an Iceberg statistic).
func (s *Sketch) Update(value []byte) { s.UpdateHash(Hash(value)) }

// UpdateHash adds a value already hashed with Hash.
func (s *Sketch) UpdateHash(h uint64) {
	s.empty = false
	if h == 0 || h >= s.theta {
		return
	}
	s.hashes[h] = struct{}{}
	if len(s.hashes) >= 2*s.k {
		s.trim()
	}
}

// trim keeps the k smallest hashes, theta becoming the next one.
func (s *Sketch) trim() []uint64 {
	sorted := make([]uint64, 0, len(s.hashes))
	for h := range s.hashes {
		sorted = append(sorted, h)
	}
	slices.Sort(sorted)
	if len(sorted) <= s.k {
		return sorted
	}
	s.theta = sorted[s.k]
	for _, h := range sorted[s.k:] {
		delete(s.hashes, h)
	}
	return sorted[:s.k]
}

// Estimate is the estimated number of distinct values added.
func (s *Sketch) Estimate() float64 {
	entries := s.trim()
	return estimate(len(entries), s.theta)
}

func estimate(retained int, theta uint64) float64 {
	if theta >= maxTheta {
		return float64(retained)
	}
	return float64(retained) / (float64(theta) / float64(maxTheta))
}

// Compact serializes the sketch in DataSketches' ordered compact form,
// as the C++ and Java libraries write it: preamble longs 1 (empty, or one
// entry in exact mode), 2 (exact mode) or 3 (estimation mode, theta
// follows), then the retained hashes in ascending order.
func (s *Sketch) Compact() []byte {
	entries := s.trim()
	estimating := s.theta < maxTheta
	preLongs := 2
	switch {
	case estimating:
		preLongs = 3
	case s.empty || len(entries) == 1:
		preLongs = 1
	}
	out := make([]byte, 8*preLongs, 8*(preLongs+len(entries)))
	out[0] = byte(preLongs)
	out[1] = serialVersion
	out[2] = familyCompact
	flags := byte(flagCompact | flagReadOnly | flagOrdered)
	if s.empty {
		flags |= flagEmpty
	}
	out[5] = flags
	binary.LittleEndian.PutUint16(out[6:], SeedHash(DefaultSeed))
	if preLongs > 1 {
		binary.LittleEndian.PutUint32(out[8:], uint32(len(entries)))
	}
	if estimating {
		binary.LittleEndian.PutUint64(out[16:], s.theta)
	}
	for _, h := range entries {
		out = binary.LittleEndian.AppendUint64(out, h)
	}
	return out
}

// SeedHash is the 16-bit hash of a seed that DataSketches stores in a
// sketch so that sketches of different seeds are never combined.
func SeedHash(seed uint64) uint16 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h1, _ := murmur3.SeedSum128(0, 0, b[:])
	return uint16(h1)
}

// Compacted is a sketch read back from its compact form.
type Compacted struct {
	Empty   bool
	Theta   uint64
	Entries []uint64
}

// Estimate is the estimated number of distinct values.
func (c Compacted) Estimate() float64 { return estimate(len(c.Entries), c.Theta) }

// Decode reads a compact sketch of the default seed, checking its
// preamble.
func Decode(b []byte) (Compacted, error) {
	if len(b) < 8 {
		return Compacted{}, errors.New("theta sketch: shorter than its preamble")
	}
	preLongs, flags := int(b[0]&0x3f), b[5]
	switch {
	case b[1] != serialVersion:
		return Compacted{}, fmt.Errorf("theta sketch: serial version %d, want %d", b[1], serialVersion)
	case b[2] != familyCompact:
		return Compacted{}, fmt.Errorf("theta sketch: family %d, want the compact family %d", b[2], familyCompact)
	case flags&flagCompact == 0:
		return Compacted{}, errors.New("theta sketch: not compact")
	case preLongs < 1 || preLongs > 3 || len(b) < 8*preLongs:
		return Compacted{}, fmt.Errorf("theta sketch: bad preamble of %d longs", preLongs)
	}
	c := Compacted{Empty: flags&flagEmpty != 0, Theta: maxTheta}
	if c.Empty {
		return c, nil
	}
	if got := binary.LittleEndian.Uint16(b[6:]); got != SeedHash(DefaultSeed) {
		return Compacted{}, fmt.Errorf("theta sketch: seed hash %#x, want %#x", got, SeedHash(DefaultSeed))
	}
	n := 1
	if preLongs > 1 {
		n = int(binary.LittleEndian.Uint32(b[8:]))
	}
	if preLongs == 3 {
		c.Theta = binary.LittleEndian.Uint64(b[16:])
	}
	body := b[8*preLongs:]
	if len(body) != 8*n {
		return Compacted{}, fmt.Errorf("theta sketch: %d bytes of entries, want %d", len(body), 8*n)
	}
	c.Entries = make([]uint64, n)
	for i := range c.Entries {
		c.Entries[i] = binary.LittleEndian.Uint64(body[8*i:])
	}
	return c, nil
}
