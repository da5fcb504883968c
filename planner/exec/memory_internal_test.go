package exec

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestArrayBytesChargesSlicesForTheirRows(t *testing.T) {
	ints := array.NewInt64Builder(memory.DefaultAllocator)
	strs := array.NewStringBuilder(memory.DefaultAllocator)
	for i := 0; i < 1000; i++ {
		ints.Append(int64(i))
		strs.Append("0123456789") // 10 bytes each
	}
	ia, sa := ints.NewArray(), strs.NewArray()
	ints.Release()
	strs.Release()
	defer ia.Release()
	defer sa.Release()

	tests := []struct {
		name       string
		arr        arrow.Array
		start, end int64
		want       int64
	}{
		// Builders allocate a validity bitmap: one bit a row.
		{"int64 whole", ia, 0, 1000, 125 + 8000},
		{"int64 tenth", ia, 100, 200, 13 + 800},
		{"string whole", sa, 0, 1000, 125 + 4*1001 + 10000},
		{"string tenth", sa, 500, 600, 13 + 4*101 + 1000},
		{"empty", ia, 10, 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := array.NewSlice(tt.arr, tt.start, tt.end)
			defer s.Release()
			if got := arrayBytes(s); got != tt.want {
				t.Errorf("arrayBytes = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestReservationStaysWithinTheBudget(t *testing.T) {
	b := NewMemoryBudget(1000)
	ctx := WithMemoryBudget(context.Background(), b)
	r1, r2 := newReservation(ctx, "One"), newReservation(ctx, "Two")
	steps := []struct {
		name    string
		do      func() error
		used    int64
		wantErr bool
	}{
		{"grow within", func() error { return r1.grow(600) }, 600, false},
		{"second operator within", func() error { return r2.grow(400) }, 1000, false},
		{"one byte over", func() error { return r2.grow(1) }, 1000, true},
		{"shrink more than held", func() error { r2.shrink(5000); return nil }, 600, false},
		{"resize down", func() error { return r1.resize(100) }, 100, false},
		{"resize up", func() error { return r1.resize(900) }, 900, false},
		{"resize past the limit", func() error { return r1.resize(1001) }, 900, true},
		{"close", func() error { r1.close(); r2.close(); return nil }, 0, false},
	}
	for _, s := range steps {
		err := s.do()
		var pe *pgerror.Error
		switch {
		case s.wantErr && (!errors.As(err, &pe) || pe.Code != pgerror.OutOfMemory):
			t.Fatalf("%s: err = %v, want 53200", s.name, err)
		case !s.wantErr && err != nil:
			t.Fatalf("%s: %v", s.name, err)
		}
		if b.Used() != s.used {
			t.Fatalf("%s: used %d, want %d", s.name, b.Used(), s.used)
		}
	}
	if b.Peak() != 1000 {
		t.Errorf("peak %d, want 1000", b.Peak())
	}
	// Without a budget in the context nothing is limited.
	free := newReservation(context.Background(), "Free")
	if err := free.grow(1 << 40); err != nil {
		t.Errorf("without a budget: %v", err)
	}
	free.close()
}
