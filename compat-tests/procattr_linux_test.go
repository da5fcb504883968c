//go:build linux

package compattests

import "syscall"

// serverProcAttr makes the kernel send SIGTERM to a server if the test
// binary dies without stopping it (a panic, a -timeout), so no server
// outlives the run.
func serverProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
