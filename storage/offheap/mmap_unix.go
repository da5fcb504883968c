//go:build unix

package offheap

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapMemory maps n bytes of zeroed anonymous memory. No swap is reserved
// for it: only the pages written take memory.
func mapMemory(n int) ([]byte, error) {
	p, err := unix.MmapPtr(-1, 0, nil, uintptr(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(p), n), nil
}

// unmapMemory unmaps b, whole pages of a mapping (its end rounded up).
func unmapMemory(b []byte) {
	if len(b) > 0 {
		_ = unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b)))
	}
}

// guardMemory returns b's pages to the system and makes b inaccessible,
// keeping its addresses reserved: a later read faults instead of finding
// another slab's data there.
func guardMemory(b []byte) {
	_ = unix.Madvise(b, unix.MADV_DONTNEED)
	_ = unix.Mprotect(b, unix.PROT_NONE)
}
