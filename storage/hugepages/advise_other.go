//go:build !linux

package hugepages

import "unsafe"

// Advise has no equivalent to ask for here.
func Advise(unsafe.Pointer, uintptr) {}

// AdviseHeap has no advice to give here.
func AdviseHeap(int64) int64 { return 0 }
