//go:build !linux

package exec

import "unsafe"

// adviseHugePages has no equivalent to ask for here.
func adviseHugePages(unsafe.Pointer, uintptr) {}
