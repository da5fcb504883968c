//go:build !unix

package offheap

import "errors"

// Without mmap there is no memory outside Go's heap: New returns nil and
// callers use Go's heap.
func mapMemory(int) ([]byte, error) { return nil, errors.New("no anonymous mappings") }

func unmapMemory([]byte) {}

func guardMemory([]byte) {}
