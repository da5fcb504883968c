//go:build !race && !sqe_poison

package offheap

const guardFreed = false
