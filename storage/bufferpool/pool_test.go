package bufferpool

import (
	"bytes"
	"testing"
)

func TestPoolReuse(t *testing.T) {
	p := &Pool{minPooled: minPooled}
	small := p.Allocate(100)
	if len(small) != 100 || p.pooled(small) {
		t.Fatalf("small buffer: len %d, pooled %v; want 100 bytes from Go's allocator", len(small), p.pooled(small))
	}
	p.Free(small) // not the pool's: ignored

	b := p.Allocate(300 << 10)
	if len(b) != 300<<10 || cap(b) != 512<<10 {
		t.Fatalf("len %d cap %d, want %d in a class of %d", len(b), cap(b), 300<<10, 512<<10)
	}
	for i := range b {
		b[i] = 7
	}
	p.Free(b)
	// sync.Pool may drop a buffer at any collection, so a reuse is
	// checked only when it happened; its bytes must be zero either way.
	again := p.Allocate(400 << 10)
	if len(again) != 400<<10 || !allZero(again) {
		t.Fatalf("reallocated buffer: len %d, zero %v", len(again), allZero(again))
	}

	// Growing within the class keeps the contents and zeroes the rest.
	g := p.Allocate(70 << 10)
	for i := range g {
		g[i] = 1
	}
	g = g[:60<<10]
	grown := p.Reallocate(100<<10, g)
	if len(grown) != 100<<10 || &grown[0] != &g[0] {
		t.Fatal("growth within the class moved the buffer")
	}
	if !bytes.Equal(grown[:60<<10], bytes.Repeat([]byte{1}, 60<<10)) || !allZero(grown[60<<10:]) {
		t.Fatal("growth within the class did not keep the contents and zero the rest")
	}
	// Past the class, the contents move to a larger one.
	moved := p.Reallocate(200<<10, grown)
	if len(moved) != 200<<10 || cap(moved) != 256<<10 || moved[0] != 1 || !allZero(moved[100<<10:]) {
		t.Fatalf("growth past the class: len %d cap %d", len(moved), cap(moved))
	}
	// Growing a buffer of Go's allocator into a class copies it.
	fromGo := p.Reallocate(80<<10, []byte{9, 9})
	if cap(fromGo) != 128<<10 || fromGo[1] != 9 || !allZero(fromGo[2:]) {
		t.Fatalf("growth from Go's allocator: cap %d", cap(fromGo))
	}
}

func TestPoolPoison(t *testing.T) {
	p := &Pool{minPooled: 0, poison: true}
	b := p.Allocate(10)
	if cap(b) != 1<<minClass || !p.pooled(b) {
		t.Fatalf("with every buffer pooled, 10 bytes took cap %d", cap(b))
	}
	copy(b, "0123456789")
	view := b[:10:10] // what a reader holding on after release would see
	p.Free(b)
	if !bytes.Equal(view, bytes.Repeat([]byte{poisonByte}, 10)) {
		t.Fatalf("freed buffer reads %q, want poison", view)
	}
	if again := p.Allocate(20); !allZero(again) {
		t.Fatal("a poisoned buffer was handed out again without zeroing")
	}
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}
