package faultproxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Mode is what the proxy does with a connection.
type Mode int

const (
	// Forward relays bytes both ways, each client write delayed by the
	// configured delay.
	Forward Mode = iota
	// Drop accepts a connection and closes it at once: the service is
	// unreachable.
	Drop
	// Hang accepts a connection and reads from it but never answers:
	// the service is slow past any deadline.
	Hang
	// Fail answers every HTTP request with the configured status.
	Fail
)

func (m Mode) String() string {
	switch m {
	case Forward:
		return "forward"
	case Drop:
		return "drop"
	case Hang:
		return "hang"
	case Fail:
		return "fail"
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// Proxy listens on a loopback port and stands in for the service at its
// target address. It is safe for concurrent use.
type Proxy struct {
	ln       net.Listener
	target   string
	accepted atomic.Int64

	mu     sync.Mutex
	mode   Mode
	delay  time.Duration
	status int
	conns  map[net.Conn]struct{}
	closed bool

	wg sync.WaitGroup
}

// Start listens on a free loopback port and forwards to target
// (host:port).
func Start(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fault proxy for %s: %w", target, err)
	}
	p := &Proxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// URL is the proxy's address as an http URL.
func (p *Proxy) URL() string { return "http://" + p.Addr() }

// Accepted is how many connections the proxy has accepted so far.
func (p *Proxy) Accepted() int64 { return p.accepted.Load() }

// Forward relays to the target with no delay.
func (p *Proxy) Forward() { p.set(Forward, 0, 0) }

// Delay relays to the target, holding each client write for d.
func (p *Proxy) Delay(d time.Duration) { p.set(Forward, d, 0) }

// Drop closes every connection as it arrives.
func (p *Proxy) Drop() { p.set(Drop, 0, 0) }

// Hang holds every connection open without an answer.
func (p *Proxy) Hang() { p.set(Hang, 0, 0) }

// Fail answers every HTTP request with status.
func (p *Proxy) Fail(status int) { p.set(Fail, 0, status) }

// Mode is the current mode.
func (p *Proxy) Mode() Mode {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

// set switches the mode and closes the open connections, so that a
// client's kept-alive connection meets the new mode on its next request
// rather than the old one.
func (p *Proxy) set(m Mode, delay time.Duration, status int) {
	p.mu.Lock()
	p.mode, p.delay, p.status = m, delay, status
	open := p.conns
	p.conns = map[net.Conn]struct{}{}
	p.mu.Unlock()
	for c := range open {
		_ = c.Close()
	}
}

// Close stops listening, closes every connection and waits for the
// proxy's goroutines to end.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	err := p.ln.Close()
	p.set(Drop, 0, 0)
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.accepted.Add(1)
		mode, ok := p.track(c)
		if !ok {
			_ = c.Close()
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer p.untrack(c)
			p.serve(c, mode)
		}()
	}
}

// track records c as open and returns the mode it is served in.
func (p *Proxy) track(c net.Conn) (Mode, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.mode == Drop {
		return p.mode, false
	}
	p.conns[c] = struct{}{}
	return p.mode, true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

func (p *Proxy) serve(c net.Conn, mode Mode) {
	switch mode {
	case Hang:
		_, _ = io.Copy(io.Discard, c) // until the client or the proxy gives up
	case Fail:
		p.fail(c)
	default:
		p.forward(c)
	}
}

// fail answers each request on c with the configured status and a JSON
// error body, as a failing service behind a load balancer does.
func (p *Proxy) fail(c net.Conn) {
	p.mu.Lock()
	status := p.status
	p.mu.Unlock()
	r := bufio.NewReader(c)
	for {
		req, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
		body := fmt.Sprintf(`{"error":{"message":"injected fault","type":"ServiceFailureException","code":%d}}`, status)
		resp := &http.Response{
			StatusCode:    status,
			ProtoMajor:    1,
			ProtoMinor:    1,
			Header:        http.Header{"Content-Type": {"application/json"}},
			Body:          io.NopCloser(strings.NewReader(body)),
			ContentLength: int64(len(body)),
		}
		if err := resp.Write(c); err != nil {
			return
		}
	}
}

// forward relays c to a fresh connection to the target until either side
// closes.
func (p *Proxy) forward(c net.Conn) {
	up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		return // the client sees its connection closed: the target is down
	}
	defer up.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(c, up)
		_ = c.Close()
	}()
	p.relayDelayed(up, c)
	_ = up.Close()
	<-done
}

// relayDelayed copies client bytes to up, holding each write for the
// delay in force when it is read.
func (p *Proxy) relayDelayed(up, c net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			p.mu.Lock()
			d := p.delay
			p.mu.Unlock()
			if d > 0 {
				time.Sleep(d)
			}
			if _, werr := up.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
