package s3fake

import (
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Credentials the store accepts.
const (
	AccessKey = "SQETESTACCESSKEY"
	SecretKey = "sqe-test-secret-key-never-printed"
)

// Server is a running fake store.
type Server struct {
	// URL is the endpoint, for s3.endpoint.
	URL      string
	backend  *s3mem.Backend
	readOnly atomic.Bool
	revoked  atomic.Bool
	// behind is how far in the past objects written now are dated.
	behind atomic.Int64
}

// clock dates objects: the wall clock, less the server's setting.
type clock struct{ s *Server }

func (c clock) Now() time.Time                  { return time.Now().Add(-time.Duration(c.s.behind.Load())) }
func (c clock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// SetDatedBehind dates the objects written from now on d in the past, as
// if they had been written then (0: now), for tests of what ages files.
func (s *Server) SetDatedBehind(d time.Duration) { s.behind.Store(int64(d)) }

// Start serves a store holding the given (empty) buckets until the test
// ends.
func Start(t testing.TB, buckets ...string) *Server {
	t.Helper()
	s := &Server{}
	s.backend = s3mem.New(s3mem.WithTimeSource(clock{s}))
	for _, b := range buckets {
		if err := s.backend.CreateBucket(b); err != nil {
			t.Fatalf("s3fake: create bucket %s: %v", b, err)
		}
	}
	fake := gofakes3.New(s.backend, gofakes3.WithAutoBucket(false))
	srv := httptest.NewServer(s.guard(fake.Server()))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// SetReadOnly makes the store refuse (true) or accept (false) writes and
// deletes with S3's AccessDenied.
func (s *Server) SetReadOnly(readOnly bool) { s.readOnly.Store(readOnly) }

// SetRevoked makes the store forget (true) or know again (false) its
// access key, as when credentials are revoked: every request is refused
// with S3's InvalidAccessKeyId.
func (s *Server) SetRevoked(revoked bool) { s.revoked.Store(revoked) }

// guard answers as S3 does a request signed with an access key it does
// not know, and a write while the store is read-only.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.revoked.Load() || accessKeyOf(r.Header.Get("Authorization")) != AccessKey {
			refuse(w, http.StatusForbidden, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")
			return
		}
		if s.readOnly.Load() && r.Method != http.MethodGet && r.Method != http.MethodHead {
			refuse(w, http.StatusForbidden, "AccessDenied", "Access Denied")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// accessKeyOf is the access key of a SigV4 Authorization header
// ("AWS4-HMAC-SHA256 Credential=KEY/date/region/s3/aws4_request, ..."),
// or "" when it names none.
func accessKeyOf(authorization string) string {
	_, cred, ok := strings.Cut(authorization, "Credential=")
	if !ok {
		return ""
	}
	key, _, ok := strings.Cut(cred, "/")
	if !ok {
		return ""
	}
	return key
}

func refuse(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>` + code +
		`</Code><Message>` + message + `</Message></Error>`))
}

// Keys lists the keys stored in bucket under prefix, sorted.
func (s *Server) Keys(t testing.TB, bucket, prefix string) []string {
	t.Helper()
	p := gofakes3.Prefix{HasPrefix: true, Prefix: prefix}
	list, err := s.backend.ListBucket(bucket, &p, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatalf("s3fake: list %s/%s: %v", bucket, prefix, err)
	}
	keys := make([]string, 0, len(list.Contents))
	for _, c := range list.Contents {
		keys = append(keys, c.Key)
	}
	slices.Sort(keys)
	return keys
}

// ClosedEndpoint is the URL of a loopback port nothing listens on: an
// endpoint that refuses every connection.
func ClosedEndpoint(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("s3fake: %v", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatalf("s3fake: %v", err)
	}
	return "http://" + addr
}
