//go:build race || sqe_poison

package bufferpool

// poisonFreed makes every Pool keep buffers of any size and poison them
// when freed: builds with the race detector and the compatibility tests'
// server check that no array is read after its release.
const poisonFreed = true
