//go:build !race && !sqe_poison

package bufferpool

// poisonFreed is off in ordinary builds (poison_on.go).
const poisonFreed = false
