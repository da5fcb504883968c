//go:build race || sqe_poison

package offheap

// guardFreed makes a released slab poisoned and inaccessible rather than
// unmapped: builds with the race detector and the compatibility tests'
// server check that no cached array is read after its release.
const guardFreed = true
