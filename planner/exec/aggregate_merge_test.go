package exec

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSerialOrder: the merged groups come out ordered by first position
// as a comparison sort orders them, whether morsels are fewer than the
// groups (counted out) or more, and whatever order the groups were
// numbered in.
func TestSerialOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 19))
	for _, tt := range []struct {
		name            string
		groups, morsels int
		// shuffled numbers the groups at random; otherwise mostly in
		// position order, as a worker numbers its own morsels' groups.
		shuffled bool
	}{
		{"one group", 1, 1, false},
		{"few morsels, in order", 5000, 12, false},
		{"few morsels, shuffled", 5000, 12, true},
		{"more morsels than groups", 300, 100_000, true},
		{"one morsel", 2000, 1, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seen := map[int64]bool{}
			first := make([]int64, 0, tt.groups)
			for len(first) < tt.groups {
				pos := int64(rng.IntN(tt.morsels))<<32 | int64(rng.IntN(1<<20))
				if !seen[pos] {
					seen[pos] = true
					first = append(first, pos)
				}
			}
			if !tt.shuffled {
				slices.Sort(first)
				// A merge lowers some groups' positions: a few out of place.
				for range tt.groups / 50 {
					i, j := rng.IntN(tt.groups), rng.IntN(tt.groups)
					first[i], first[j] = first[j], first[i]
				}
			}
			want := make([]int32, len(first))
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortFunc(want, func(a, b int32) int { return cmp.Compare(first[a], first[b]) })
			got := serialOrder(first)
			if !slices.Equal(got, want) {
				t.Fatalf("%d groups: order differs from a comparison sort's at %d", len(first), firstDifference(got, want))
			}
		})
	}
}

func firstDifference(a, b []int32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// BenchmarkSerialOrder orders 4M merged groups of 256 morsels, numbered
// as two workers' parts merge them: counted out by morsel, and by one
// comparison sort (what it replaced).
func BenchmarkSerialOrder(b *testing.B) {
	const groups, morsels = 4 << 20, 256
	first := make([]int64, 0, groups)
	for m := range int64(morsels) {
		for r := range int64(groups / morsels) {
			first = append(first, m<<32|r*3)
		}
	}
	// The second worker's morsels' groups come after the first's.
	var parts [2][]int64
	for _, f := range first {
		w := (f >> 32) % 2
		parts[w] = append(parts[w], f)
	}
	first = append(parts[0], parts[1]...)
	b.Run("counted", func(b *testing.B) {
		for b.Loop() {
			serialOrder(first)
		}
	})
	b.Run("compared", func(b *testing.B) {
		for b.Loop() {
			idx := make([]int32, len(first))
			for i := range idx {
				idx[i] = int32(i)
			}
			slices.SortFunc(idx, func(x, y int32) int { return cmp.Compare(first[x], first[y]) })
		}
	})
}
