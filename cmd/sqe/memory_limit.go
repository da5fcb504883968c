package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// ByteSize is a configured amount of memory: an integer number of bytes,
// or a string with a unit ("512MiB", "2GiB", "1GB"). As in PostgreSQL,
// kB, MB, GB and TB are powers of 1024, like KiB, MiB, GiB and TiB.
type ByteSize int64

// byteUnits are the accepted units, matched without regard to case.
var byteUnits = map[string]int64{
	"":    1,
	"b":   1,
	"kb":  1 << 10,
	"kib": 1 << 10,
	"mb":  1 << 20,
	"mib": 1 << 20,
	"gb":  1 << 30,
	"gib": 1 << 30,
	"tb":  1 << 40,
	"tib": 1 << 40,
}

// UnmarshalTOML accepts a TOML integer or string (an environment override
// of digits alone arrives as an integer).
func (b *ByteSize) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return fmt.Errorf("memory size %d is negative", x)
		}
		*b = ByteSize(x)
		return nil
	case string:
		n, err := parseByteSize(x)
		if err != nil {
			return err
		}
		*b = ByteSize(n)
		return nil
	}
	return fmt.Errorf("memory size must be a number of bytes or a string like \"2GiB\", not %T", v)
}

// MarshalText lets the configuration be encoded again (in bytes).
func (b ByteSize) MarshalText() ([]byte, error) {
	return []byte(strconv.FormatInt(int64(b), 10)), nil
}

func parseByteSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	unit, ok := byteUnits[strings.ToLower(strings.TrimSpace(t[i:]))]
	if !ok || i == 0 {
		return 0, fmt.Errorf("memory size %q: want a number with an optional unit (B, kB, MB, GB, TB, KiB, MiB, GiB, TiB)", s)
	}
	f, err := strconv.ParseFloat(t[:i], 64)
	if err != nil {
		return 0, fmt.Errorf("memory size %q: %w", s, err)
	}
	n := f * float64(unit)
	if n >= math.MaxInt64 {
		return 0, fmt.Errorf("memory size %q is too large", s)
	}
	return int64(n), nil
}

// The files the process's memory is read from.
const (
	procMeminfo     = "/proc/meminfo"
	cgroupMemoryMax = "/sys/fs/cgroup/memory.max"
)

const (
	// minDefaultMemoryLimit is the floor of the default per-query limit.
	minDefaultMemoryLimit = 256 << 20
	// fallbackMemoryLimit is the default when the machine's memory cannot
	// be read.
	fallbackMemoryLimit = 1 << 30
)

// memoryQuarter is a quarter of the memory the process may use (the
// machine's, or its cgroup's when lower), at least 256 MiB: the default
// of a query's memory limit (several large queries can run side by side
// before the server risks being killed) and of the data cache's budget
// (a fixed budget would leave a large machine's memory unused and decode
// a large table's columns again on every scan).
func memoryQuarter(meminfo, cgroupMax string) int64 {
	total := processMemory(meminfo, cgroupMax)
	if total <= 0 {
		return fallbackMemoryLimit
	}
	return max(total/4, minDefaultMemoryLimit)
}

// processMemory is the memory the process may use: the machine's, or its
// cgroup's when lower; 0 when neither can be read.
func processMemory(meminfo, cgroupMax string) int64 {
	total := readMemTotal(meminfo)
	if limit := readCgroupMax(cgroupMax); limit > 0 && (total == 0 || limit < total) {
		total = limit
	}
	return total
}

// gcMemoryLimit is the soft limit the Go runtime's collector keeps the
// heap under (debug.SetMemoryLimit): three quarters of the memory the
// process may use, so the garbage of queries running at their memory
// limits is collected before the process is killed for it, less the data
// cache's budget of cacheBytes, which lies outside the heap (at least a
// quarter of that memory); 0 (no limit) when that memory cannot be read.
// GOMEMLIMIT, when set, wins.
func gcMemoryLimit(meminfo, cgroupMax string, cacheBytes int64) int64 {
	total := processMemory(meminfo, cgroupMax)
	return max(total/4*3-max(cacheBytes, 0), total/4)
}

// readMemTotal reads MemTotal from a /proc/meminfo-style file; 0 when it
// cannot.
func readMemTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "MemTotal:       16318480 kB"
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// readCgroupMax reads a cgroup v2 memory.max; 0 for "max" or unreadable.
func readCgroupMax(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
