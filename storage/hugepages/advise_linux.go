package hugepages

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Advise asks the kernel to back the whole 2 MiB pages of the n bytes at
// p with huge pages, before they are first touched: one fault per 2 MiB
// instead of per 4 KiB. It is advice only: refused, the memory stays as
// it was.
func Advise(p unsafe.Pointer, n uintptr) {
	const huge = 2 << 20
	start := (uintptr(p) + huge - 1) &^ (huge - 1)
	end := (uintptr(p) + n) &^ (huge - 1)
	if end <= start {
		return
	}
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), end-start), unix.MADV_HUGEPAGE)
}
