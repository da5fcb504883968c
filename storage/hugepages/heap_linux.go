package hugepages

import (
	"os"
	"runtime/debug"
	"strings"
	"unsafe"
)

// heapChunk is the size of each allocation AdviseHeap maps and advises:
// a multiple of the runtime's 64 MiB heap arenas, and small enough that
// the runtime treats it as an ordinary large object.
const heapChunk = 256 << 20

// maxHeapAdvice bounds the advice: the runtime keeps about 64 KiB of
// metadata resident per 64 MiB arena it maps, and a heap past this is
// rare enough to take its faults.
const maxHeapAdvice int64 = 16 << 30

// AdviseHeap makes Go's heap map about n bytes (at most maxHeapAdvice)
// of address space it does not use yet and advises them for huge pages,
// then frees them; it returns how many bytes it advised. The runtime maps its heap once and
// never remaps it, and hands out its lowest free pages first, so the heap
// grows into the advised memory: one fault per 2 MiB when first touched
// instead of one per 4 KiB, as under the "always" setting. Nothing is
// touched here, so nothing becomes resident.
//
// It does nothing (0) unless huge pages are given only on advice (the
// "madvise" setting; under "always" the heap has them already), and where
// the system charges mapped memory against a strict commit limit
// (overcommit mode 2), where a mapping of unused memory would count.
func AdviseHeap(n int64) int64 {
	n = min(n, maxHeapAdvice)
	if n < heapChunk || !adviceOnly(readFile("/sys/kernel/mm/transparent_hugepage/enabled")) ||
		strictCommit(readFile("/proc/sys/vm/overcommit_memory")) {
		return 0
	}
	// Every chunk stays allocated until the last is, so each lies in
	// memory of its own.
	var chunks [][]byte
	for int64(len(chunks)+1)*heapChunk <= n {
		b := make([]byte, heapChunk)
		Advise(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b)))
		chunks = append(chunks, b)
	}
	advised := int64(len(chunks)) * heapChunk
	chunks = nil
	// Collected and returned at once: the runtime would otherwise count
	// the freed chunks as memory in use until its scavenger got to them.
	debug.FreeOSMemory()
	return advised
}

// adviceOnly reports whether the transparent huge page setting (as
// /sys/kernel/mm/transparent_hugepage/enabled shows it, the chosen one in
// brackets) gives huge pages only to memory advised for them.
func adviceOnly(setting string) bool { return strings.Contains(setting, "[madvise]") }

// strictCommit reports whether the overcommit mode
// (/proc/sys/vm/overcommit_memory) charges every writable mapping.
func strictCommit(mode string) bool { return strings.TrimSpace(mode) == "2" }

func readFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(b)
}
