//go:build !linux

package compattests

import "syscall"

// serverProcAttr has no parent-death signal to ask for outside Linux; a
// server left by a crashed run must be stopped by hand there.
func serverProcAttr() *syscall.SysProcAttr { return nil }
