package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// peakRSS is a process's peak resident set size (VmHWM) in bytes.
func peakRSS(pid int) (int64, error) {
	return statusBytes(pid, "VmHWM")
}

// currentRSS is a process's resident set size now (VmRSS) in bytes.
func currentRSS(pid int) (int64, error) {
	return statusBytes(pid, "VmRSS")
}

// statusBytes reads one "<field>: 123 kB" line of /proc/<pid>/status.
func statusBytes(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("%s of pid %d: %w", field, pid, err)
	}
	defer f.Close()
	n, err := parseStatusKB(f, field)
	if err != nil {
		return 0, fmt.Errorf("%s of pid %d: %w", field, pid, err)
	}
	return n, nil
}

// parseVmHWM reads the "VmHWM:  123 kB" line of a /proc/<pid>/status.
func parseVmHWM(r io.Reader) (int64, error) { return parseStatusKB(r, "VmHWM") }

// parseStatusKB reads the "<field>:  123 kB" line of a /proc/<pid>/status
// and returns the size in bytes.
func parseStatusKB(r io.Reader, field string) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field+":")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("unexpected %s line %q", field, sc.Text())
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("unexpected %s line %q: %w", field, sc.Text(), err)
		}
		return kb * 1024, nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no %s line", field)
}
