package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// child is a process the program started and must stop. Its exit is
// collected by one goroutine, so both Stop and an early crash can see it.
type child struct {
	name    string
	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error
	logPath string
}

// startChild starts cmd, whose stderr goes to logPath.
func startChild(name string, cmd *exec.Cmd, logPath string) (*child, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	cmd.Stderr = logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &child{name: name, cmd: cmd, exited: make(chan struct{}), logPath: logPath}
	go func() {
		c.waitErr = cmd.Wait()
		logFile.Close()
		close(c.exited)
	}()
	return c, nil
}

func (c *child) pid() int { return c.cmd.Process.Pid }

// running reports whether the process has not exited yet.
func (c *child) running() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

// stop sends sig to the process and waits for it to exit, killing it if
// it has not after grace. It is safe to call more than once.
func (c *child) stop(sig os.Signal, grace time.Duration) error {
	if !c.running() {
		return nil
	}
	if err := c.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stop %s (pid %d): %w", c.name, c.pid(), err)
	}
	select {
	case <-c.exited:
		return nil
	case <-time.After(grace):
	}
	if err := c.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("kill %s (pid %d): %w", c.name, c.pid(), err)
	}
	<-c.exited
	return fmt.Errorf("%s (pid %d) did not stop within %s and was killed", c.name, c.pid(), grace)
}

// logTail is the end of the process's log, for error messages.
func (c *child) logTail() string {
	data, err := os.ReadFile(c.logPath)
	if err != nil {
		return ""
	}
	const keep = 2000
	if len(data) > keep {
		data = data[len(data)-keep:]
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	return string(bytes.TrimSpace(data))
}

// exitError describes how the process ended, once it has.
func (c *child) exitError() error {
	<-c.exited
	if c.waitErr != nil {
		return fmt.Errorf("%s exited: %w\n%s", c.name, c.waitErr, c.logTail())
	}
	return fmt.Errorf("%s exited early\n%s", c.name, c.logTail())
}

// runAs makes cmd run as uid/gid when set (PostgreSQL refuses to run as
// root).
func runAs(cmd *exec.Cmd, cred *syscall.Credential) {
	if cred == nil {
		return
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
}
