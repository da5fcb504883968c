//go:build !race && !sqe_poison

package storage

// poisonFreed is off in ordinary builds (decode_buffers_poison.go).
const poisonFreed = false
