package storage

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	icebergio "github.com/apache/iceberg-go/io"
)

// TestS3FileIOUsesEndpointAndEnvironmentCredentials resolves an s3://
// warehouse with a catalog's s3.* properties and no keys in them, and
// checks on a stand-in S3 endpoint that a read goes there, path-style,
// signed with the credentials from the environment.
func TestS3FileIOUsesEndpointAndEnvironmentCredentials(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDFROMENVIRONMENT")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret-from-environment")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")

	var mu sync.Mutex
	var paths, auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>none</Message></Error>`))
	}))
	defer srv.Close()

	props := map[string]string{
		icebergio.S3EndpointURL: srv.URL,
		icebergio.S3Region:      "us-east-1",
	}
	fs, err := icebergio.LoadFS(t.Context(), props, "s3://bucket/wh")
	if err != nil {
		t.Fatalf("LoadFS(s3://bucket/wh): %v", err)
	}
	if _, err := fs.Open("s3://bucket/wh/ns.db/t/data/x.parquet"); err == nil {
		t.Fatal("opening an object the store does not have succeeded")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) == 0 {
		t.Fatal("no request reached the S3 endpoint")
	}
	for i, p := range paths {
		if !strings.HasSuffix(p, " /bucket/wh/ns.db/t/data/x.parquet") {
			t.Errorf("request %q is not a path-style request for the object", p)
		}
		if !strings.Contains(auths[i], "Credential=AKIDFROMENVIRONMENT/") {
			t.Errorf("request %q is not signed with the environment's key: %q", p, auths[i])
		}
	}
}
