package main

import "testing"

// TestClientIP: the address policy conditions compare is the client's IP
// as Ranger's matchers read it, and none for a Unix socket.
func TestClientIP(t *testing.T) {
	for _, tc := range []struct{ host, want string }{
		{"127.0.0.1", "127.0.0.1"},
		{"::ffff:10.1.2.3", "10.1.2.3"},
		{"2001:db8::1", "2001:db8::1"},
		{"fe80::1%eth0", "fe80::1"},
		{"/run/sqe/.s.PGSQL.5432", ""},
		{"", ""},
	} {
		if got := clientIP(tc.host); got != tc.want {
			t.Errorf("clientIP(%q) = %q, want %q", tc.host, got, tc.want)
		}
	}
}
