//go:build !linux

package hugepages

import "unsafe"

// Advise has no equivalent to ask for here.
func Advise(unsafe.Pointer, uintptr) {}
