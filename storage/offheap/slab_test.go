package offheap

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// int64Array makes an Arrow int64 array over the first 8*n bytes of s
// from off, holding the values 0..n-1.
func int64Array(s *Slab, off, n int) arrow.Array {
	b := s.Bytes()[off : off+8*n : off+8*n]
	vals := arrow.Int64Traits.CastFromBytes(b)
	for i := range vals {
		vals[i] = int64(i)
	}
	buf := s.Buffer(b)
	defer buf.Release() // the array data retains what it holds
	data := array.NewData(arrow.PrimitiveTypes.Int64, n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

func TestSlabLivesUntilItsLastBuffer(t *testing.T) {
	s := New(64 << 10)
	if s == nil {
		t.Fatal("New(64 KiB) = nil")
	}
	a, b := int64Array(s, 0, 1000), int64Array(s, 8192, 1000)
	s.Release()
	// A slice retains the buffer, as any holder's reference does.
	sliced := array.NewSlice(a, 10, 20)
	a.Release()
	if s.m.released.Load() {
		t.Fatal("slab released while arrays over it are held")
	}
	if got := sliced.(*array.Int64).Value(0); got != 10 {
		t.Fatalf("slice's first value = %d, want 10", got)
	}
	sliced.Release()
	if got := b.(*array.Int64).Value(999); got != 999 {
		t.Fatalf("last value = %d, want 999", got)
	}
	if s.m.released.Load() {
		t.Fatal("slab released while one array over it is held")
	}
	b.Release()
	if !s.m.released.Load() {
		t.Fatal("slab not released after its last buffer")
	}
}

func TestSlabFreedByCollectorWhenNotReleased(t *testing.T) {
	s := New(64 << 10)
	m := s.m
	a := int64Array(s, 0, 100)
	s.Release()
	_ = a.Len()
	a, s = nil, nil // dropped without Release: a holder's bug
	deadline := time.Now().Add(10 * time.Second)
	for !m.released.Load() {
		if time.Now().After(deadline) {
			t.Fatal("unreachable slab not released by the collector")
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSlabAlignsHugePages(t *testing.T) {
	s := New(3 << 20)
	defer s.Release()
	if p := uintptr(unsafe.Pointer(unsafe.SliceData(s.Bytes()))); p%hugePage != 0 {
		t.Errorf("slab of 3 MiB starts at %#x, not on a 2 MiB boundary", p)
	}
	if len(s.Bytes()) != 3<<20 || cap(s.Bytes()) != 3<<20 {
		t.Errorf("slab of 3 MiB has len %d, cap %d", len(s.Bytes()), cap(s.Bytes()))
	}
	for i, v := range s.Bytes() {
		if v != 0 {
			t.Fatalf("byte %d of a new slab is %d, want 0", i, v)
		}
	}
	if New(0) != nil {
		t.Error("New(0) is not nil")
	}
}

// A buffer a holder grows moves to Go's memory and lets go of the slab;
// Go memory freed through the slab is not counted against it.
func TestSlabReallocateLeavesTheSlab(t *testing.T) {
	s := New(4096)
	b := s.Buffer(s.Bytes()[:16:16])
	grown := s.Reallocate(32, b.Bytes())
	if len(grown) != 32 || s.holds(grown) {
		t.Fatalf("Reallocate gave %d bytes, in the slab: %v", len(grown), s.holds(grown))
	}
	s.Free(s.Allocate(8))
	if s.m.released.Load() {
		t.Fatal("slab released while its creator holds it")
	}
	s.Release()
	if !s.m.released.Load() {
		t.Fatal("slab not released after its references")
	}
}

// In checked builds a read of a released slab faults rather than finding
// another slab's data at the same address.
func TestReleasedSlabFaultsInCheckedBuilds(t *testing.T) {
	if !guardFreed {
		t.Skip("released slabs are unmapped in this build")
	}
	s := New(4096)
	mem := s.Bytes()
	s.Release()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() == nil {
			t.Error("reading a released slab did not fault")
		}
	}()
	if mem[0] != 0 {
		t.Errorf("released slab read %#x", mem[0])
	}
}

// A slab asked for a bound keeps only the bytes its writer used.
func TestSlabTrim(t *testing.T) {
	for _, size := range []int{5000, 3 << 20, 64 << 20} {
		s := New(size)
		b := s.Bytes()
		for i := range 4097 {
			b[i] = byte(i)
		}
		s.Trim(4097)
		if len(s.Bytes()) != 4097 || cap(s.Bytes()) != 4097 || len(s.m.whole) != pageRound(4097) {
			t.Fatalf("trimmed %d-byte slab: len %d, cap %d, mapped %d", size, len(s.Bytes()), cap(s.Bytes()), len(s.m.whole))
		}
		a := int64Array(s, 0, 512)
		s.Trim(8) // too late: buffers share the slab
		if len(s.Bytes()) != 4097 {
			t.Fatalf("Trim after Buffer shortened the slab to %d", len(s.Bytes()))
		}
		if got := a.(*array.Int64).Value(511); got != 511 {
			t.Fatalf("value 511 = %d", got)
		}
		s.Release()
		a.Release()
		if !s.m.released.Load() {
			t.Fatal("trimmed slab not released")
		}
	}
	s := New(1 << 20)
	s.Trim(0)
	s.Release()
}
