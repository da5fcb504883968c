package hugepages

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestHeapAdviceSettings(t *testing.T) {
	for _, tc := range []struct {
		setting string
		want    bool
	}{
		{"always [madvise] never\n", true},
		{"[always] madvise never\n", false},
		{"always madvise [never]\n", false},
		{"", false},
	} {
		if got := adviceOnly(tc.setting); got != tc.want {
			t.Errorf("adviceOnly(%q) = %v, want %v", tc.setting, got, tc.want)
		}
	}
	for mode, want := range map[string]bool{"0\n": false, "1\n": false, "2\n": true, "": false} {
		if got := strictCommit(mode); got != want {
			t.Errorf("strictCommit(%q) = %v, want %v", mode, got, want)
		}
	}
}

// TestAdviseHeap: a large allocation made after the advice lies in memory
// advised for huge pages (the mapping of its first whole 2 MiB page has
// flags with "hg").
func TestAdviseHeap(t *testing.T) {
	if !adviceOnly(readFile("/sys/kernel/mm/transparent_hugepage/enabled")) || strictCommit(readFile("/proc/sys/vm/overcommit_memory")) {
		t.Skip("huge pages are not given on advice here: AdviseHeap leaves the heap alone")
	}
	if got := AdviseHeap(2 * heapChunk); got != 2*heapChunk {
		t.Fatalf("advised %d bytes, want %d", got, 2*heapChunk)
	}
	b := make([]byte, 64<<20)
	const huge = 2 << 20
	addr := (uintptr(unsafe.Pointer(unsafe.SliceData(b))) + huge - 1) &^ (huge - 1)
	flags, ok := mappingFlags(t, addr)
	if !ok {
		t.Fatalf("no mapping holds %#x", addr)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Fatalf("the mapping of a heap allocation after the advice has flags %q, without hg", flags)
	}
}

// mappingFlags is the VmFlags line of the mapping holding addr, from
// /proc/self/smaps.
func mappingFlags(t *testing.T, addr uintptr) (string, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		// A mapping's first line starts with its range; its other lines
		// with a key and a colon.
		if lo, hi, isRange := strings.Cut(fields[0], "-"); isRange && !strings.HasSuffix(fields[0], ":") {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= l && uint64(addr) < h
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), true
		}
	}
	return "", false
}
