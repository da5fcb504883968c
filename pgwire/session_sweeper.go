package pgwire

import (
	"time"
)

// startSweeper runs the server's one sweeper goroutine, which ends the
// sessions past their idle or lifetime limit; the returned func stops it
// and waits for it. Without limits nothing runs.
func (s *Server) startSweeper() (stop func()) {
	interval := s.limits.sweepInterval()
	if interval == 0 {
		return func() {}
	}
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				s.sweep(now)
			}
		}
	}()
	return func() {
		close(done)
		<-exited
	}
}

// sweep cancels every serving connection whose session is past a limit at
// now, with the FATAL error its processor sends before closing.
func (s *Server) sweep(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if !c.serving.Load() {
			continue // still logging in: StartupTimeout bounds that
		}
		since, inTx := c.waiting.since()
		if end := s.limits.expired(now, c.started, since, inTx); end != nil {
			c.cancel(end)
		}
	}
}
