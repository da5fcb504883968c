package pgwire

import (
	"net"
	"net/netip"
	"time"

	"github.com/pires/go-proxyproto"
)

// Behind a TCP load balancer every connection comes from the balancer's
// address, which would make the failed-login lockout lock out everyone
// at once, let plaintext through from a balancer on loopback, and give
// policy conditions on client addresses the balancer's. A balancer that
// speaks the PROXY protocol (haproxy.org's specification, v1 text or v2
// binary) sends the client's address first; Config.ProxyProtocolFrom
// names the balancers whose header is read. The header is read by the
// connection's own goroutine, under the startup deadline, never by the
// accept loop.

// proxyPeer reports whether a connection from addr must start with a
// PROXY protocol header.
func (s *Server) proxyPeer(addr net.Addr) bool {
	if len(s.cfg.ProxyProtocolFrom) == 0 {
		return false
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return false
	}
	ip, ok := netip.AddrFromSlice(tcp.IP)
	if !ok {
		return false
	}
	ip = ip.Unmap()
	for _, p := range s.cfg.ProxyProtocolFrom {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// acceptProxyHeader sets c.client, the address the connection is from:
// the PROXY header's source for a connection from a configured balancer,
// the peer's address otherwise. It reports false when a balancer's
// connection has no valid header, which closes it.
func (c *conn) acceptProxyHeader(deadline time.Time) bool {
	c.client = c.raw.RemoteAddr()
	if !c.srv.proxyPeer(c.client) {
		return true
	}
	pc := proxyproto.NewConn(c.raw, proxyproto.WithPolicy(proxyproto.REQUIRE),
		proxyproto.SetReadHeaderTimeout(max(time.Until(deadline), time.Millisecond)))
	header := pc.ProxyHeader()
	// Reading the header restores the read deadline proxyproto knew of
	// (none): set the startup deadline again.
	if err := c.raw.SetDeadline(deadline); err != nil || header == nil {
		c.logger.Warn("connection from a PROXY protocol peer without a valid header; closed")
		return false
	}
	// A LOCAL header (a balancer's own health check) names no client:
	// the balancer is the client.
	c.client = pc.RemoteAddr()
	c.transport, c.rw = pc, pc
	c.logger = c.logger.With("client", c.client.String())
	return true
}
