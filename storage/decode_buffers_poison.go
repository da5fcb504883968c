//go:build race || sqe_poison

package storage

// poisonFreed makes every scan's decodeBuffers pool buffers of any size
// and poison them when freed: builds with the race detector and the
// compatibility tests' server check that no decoded array is read after
// its release.
const poisonFreed = true
