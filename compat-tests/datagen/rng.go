package datagen

import "math/rand/v2"

// rowRand draws the values of one row. It is reseeded for every row (or
// every order, for an order and its line items), so a row depends only on
// its table and position, never on which rows were generated before it.
type rowRand struct {
	pcg *rand.PCG
	r   *rand.Rand
}

func newRowRand() *rowRand {
	pcg := rand.NewPCG(0, 0)
	return &rowRand{pcg: pcg, r: rand.New(pcg)}
}

// seed starts the stream of row in the table with tableSeed. The row is
// hashed first, so neighbouring rows get unrelated streams.
func (g *rowRand) seed(tableSeed uint64, row int64) {
	h := splitmix64(uint64(row) ^ tableSeed)
	g.pcg.Seed(tableSeed, h)
}

// between is uniform in [lo, hi].
func (g *rowRand) between(lo, hi int64) int64 { return lo + g.r.Int64N(hi-lo+1) }

// index is uniform in [0, n).
func (g *rowRand) index(n int) int { return g.r.IntN(n) }

// splitmix64 is the finaliser of the SplitMix64 generator, a cheap
// bijective mix of all 64 bits.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Per-table seeds. Changing one changes that table's rows, and only
// those: keep them fixed.
const (
	seedRegion   uint64 = 0x7470_6368_0000_0001
	seedNation   uint64 = 0x7470_6368_0000_0002
	seedSupplier uint64 = 0x7470_6368_0000_0003
	seedCustomer uint64 = 0x7470_6368_0000_0004
	seedPart     uint64 = 0x7470_6368_0000_0005
	seedPartsupp uint64 = 0x7470_6368_0000_0006
	seedOrder    uint64 = 0x7470_6368_0000_0007
	seedTextPool uint64 = 0x7470_6368_0000_0008
)
