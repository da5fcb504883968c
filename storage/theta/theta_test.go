package theta

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// TestSeedHash: the seed hash of the default seed is the one every
// DataSketches library writes (0x93cc), which also pins the MurmurHash3
// variant.
func TestSeedHash(t *testing.T) {
	if got := SeedHash(DefaultSeed); got != 0x93cc {
		t.Fatalf("SeedHash(9001) = %#x, want 0x93cc", got)
	}
}

func longBytes(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

// TestCompactLayout: the preamble and entries of the compact form in
// each of its three shapes.
func TestCompactLayout(t *testing.T) {
	empty := New().Compact()
	if want := []byte{1, 3, 3, 0, 0, 0x1e, 0xcc, 0x93}; !slices.Equal(empty, want) {
		t.Fatalf("empty sketch = % x, want % x", empty, want)
	}

	one := New()
	one.Update(longBytes(7))
	one.Update(longBytes(7))
	b := one.Compact()
	if len(b) != 16 || b[0] != 1 || b[5] != 0x1a || binary.LittleEndian.Uint64(b[8:]) != Hash(longBytes(7)) {
		t.Fatalf("single-entry sketch = % x", b)
	}

	exact := New()
	for i := range 100 {
		exact.Update(longBytes(int64(i % 10)))
	}
	b = exact.Compact()
	if len(b) != 16+80 || b[0] != 2 || binary.LittleEndian.Uint32(b[8:]) != 10 {
		t.Fatalf("exact sketch preamble = % x", b[:16])
	}
	c, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(c.Entries) || c.Estimate() != 10 || c.Theta != math.MaxInt64 {
		t.Fatalf("decoded %+v, estimate %v", c, c.Estimate())
	}
}

// TestEstimate: in estimation mode the sketch is within a few standard
// errors of the true count, and its serialized form carries theta and
// estimates the same.
func TestEstimate(t *testing.T) {
	for _, n := range []int{4095, 4096, 10_000, 200_000} {
		s := New()
		for i := range n {
			s.Update(longBytes(int64(i)))
			s.Update(longBytes(int64(i))) // duplicates change nothing
		}
		est := s.Estimate()
		if math.Abs(est-float64(n)) > 0.05*float64(n) {
			t.Fatalf("n=%d: estimate %v", n, est)
		}
		b := s.Compact()
		c, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if c.Estimate() != est {
			t.Fatalf("n=%d: decoded estimate %v, sketch %v", n, c.Estimate(), est)
		}
		if n > DefaultNominalEntries && (b[0] != 3 || len(c.Entries) != DefaultNominalEntries || c.Theta >= math.MaxInt64) {
			t.Fatalf("n=%d: estimation-mode preamble % x, %d entries", n, b[:24], len(c.Entries))
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	good := New()
	good.Update([]byte("a"))
	b := good.Compact()
	for name, bad := range map[string][]byte{
		"short":     b[:4],
		"version":   append([]byte{b[0], 2}, b[2:]...),
		"family":    append([]byte{b[0], b[1], 2}, b[3:]...),
		"seed hash": append(append([]byte{}, b[:6]...), append([]byte{0, 0}, b[8:]...)...),
		"truncated": b[:len(b)-1],
	} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("%s: decoded % x", name, bad)
		}
	}
}
