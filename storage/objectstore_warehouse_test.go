package storage

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	icebergio "github.com/apache/iceberg-go/io"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage/s3fake"
)

// isolateAWSEnvironment keeps the machine's AWS settings (keys, region,
// profiles, endpoint) out of a test.
func isolateAWSEnvironment(t *testing.T) {
	t.Helper()
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv("AWS_CONFIG_FILE", none)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
	for _, name := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_S3_ENDPOINT"} {
		t.Setenv(name, "")
	}
}

// fakeS3Properties points the S3 file I/O at fake with its keys.
func fakeS3Properties(fake *s3fake.Server) map[string]string {
	return map[string]string{
		icebergio.S3EndpointURL:     fake.URL,
		icebergio.S3AccessKeyID:     s3fake.AccessKey,
		icebergio.S3SecretAccessKey: s3fake.SecretKey,
	}
}

// openS3Catalog opens an embedded catalog in a fresh data directory over
// warehouse s3://bucket/wh in fake.
func openS3Catalog(t *testing.T, props map[string]string) (Catalog, string) {
	t.Helper()
	dir := t.TempDir()
	cat, err := OpenEmbeddedWith(t.Context(), "wh", dir, AllowAll{}, EmbeddedOptions{
		CommitRetries: DefaultCommitRetries, Warehouse: "s3://bucket/wh", Properties: props,
	})
	if err != nil {
		t.Fatalf("open over s3://bucket/wh: %v", err)
	}
	t.Cleanup(func() {
		if err := cat.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return cat, dir
}

// keysUnder filters keys to those under prefix with the given suffix.
func keysUnder(keys []string, prefix, suffix string) []string {
	var out []string
	for _, k := range keys {
		if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, suffix) {
			out = append(out, k)
		}
	}
	return out
}

// dataFileKeys are the object keys of the table's current data files.
func dataFileKeys(t *testing.T, tbl *Table) []string {
	t.Helper()
	var keys []string
	for _, p := range dataFilePaths(t, tbl) {
		key, ok := strings.CutPrefix(p, "s3://bucket/")
		if !ok {
			t.Fatalf("data file %s is not in the bucket", p)
		}
		keys = append(keys, key)
	}
	return keys
}

// An embedded catalog over an S3 warehouse keeps every table file in the
// bucket and only catalog.db locally: create, append, scan, a
// copy-on-write delete, a staged write discarded, truncate and drop.
func TestS3WarehouseRoundTrip(t *testing.T) {
	isolateAWSEnvironment(t)
	fake := s3fake.Start(t, "bucket")
	cat, dir := openS3Catalog(t, fakeS3Properties(fake))
	ctx := adminCtx(t)

	tbl := createIDTable(t, cat, "ns", "t")
	if got := keysUnder(fake.Keys(t, "bucket", ""), "wh/ns.db/t/metadata/", ".metadata.json"); len(got) != 1 {
		t.Fatalf("metadata files after CREATE: %v", got)
	}
	tbl, err := tbl.Append(ctx, idBatches(t, 0, 100, 40))
	if err != nil {
		t.Fatal(err)
	}
	tbl, err = tbl.Append(ctx, idBatches(t, 100, 150, 50))
	if err != nil {
		t.Fatal(err)
	}
	files := dataFileKeys(t, tbl)
	if len(files) != 2 {
		t.Fatalf("data files after two appends: %v", files)
	}
	stored := fake.Keys(t, "bucket", "")
	for _, f := range files {
		if !slices.Contains(stored, f) || !strings.HasPrefix(f, "wh/ns.db/t/data/") {
			t.Fatalf("data file %s not stored under wh/ns.db/t/data/ (bucket holds %v)", f, stored)
		}
	}
	_, rows := readAll(t, tbl, ScanRequest{})
	if len(rows) != 150 {
		t.Fatalf("%d rows read back, want 150", len(rows))
	}
	for i, r := range rows {
		if r[0] != int64(i) || r[1] != "n"+strconv.Itoa(i) {
			t.Fatalf("row %d = %v", i, r)
		}
	}

	// DELETE rewrites the first file without rows 3..5; the second stays.
	tbl, rewritten := deleteIDs(t, tbl, nil, 3, 4, 5)
	if rewritten != 2 {
		t.Fatalf("rewrite planned %d files, want 2", rewritten)
	}
	got := ids(t, tbl)
	if len(got) != 147 || slices.Contains(got, 3) || slices.Contains(got, 5) || !slices.Contains(got, 149) {
		t.Fatalf("ids after delete: %d rows %v", len(got), got)
	}
	after := dataFileKeys(t, tbl)
	kept := 0
	for _, f := range files {
		if slices.Contains(after, f) {
			kept++
		}
	}
	if len(after) != 2 || kept != 1 {
		t.Fatalf("data files after delete: %v (before %v): want the untouched one kept and one new", after, files)
	}

	// A staged write is stored, then removed from the bucket by Discard.
	w, err := tbl.Stage(ctx, idBatches(t, 200, 210, 10))
	if err != nil {
		t.Fatal(err)
	}
	var staged []string
	for _, f := range w.files {
		staged = append(staged, strings.TrimPrefix(f.FilePath(), "s3://bucket/"))
	}
	if len(staged) != 1 || !slices.Contains(fake.Keys(t, "bucket", ""), staged[0]) {
		t.Fatalf("staged files %v not in the bucket", staged)
	}
	w.Discard(ctx)
	if slices.Contains(fake.Keys(t, "bucket", ""), staged[0]) {
		t.Fatalf("staged file %s still in the bucket after Discard", staged[0])
	}

	// A fresh load reads the same rows from the bucket.
	fresh, err := cat.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, fresh); !slices.Equal(got, ids(t, tbl)) {
		t.Fatalf("reloaded ids differ: %v", got)
	}
	truncated, err := fresh.Truncate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, truncated); n != 0 {
		t.Fatalf("%d rows after TRUNCATE", n)
	}
	if err := cat.DropTable(ctx, "ns", "t"); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.LoadTable(ctx, "ns", "t"); !errors.Is(err, ErrNoSuchTable) {
		t.Fatalf("load after DROP: %v", err)
	}

	// Nothing but the catalog database was written locally.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "catalog.db") {
			t.Errorf("data directory holds %s besides the catalog database", e.Name())
		}
	}
}

// A warehouse the store refuses, or a store that is not there, fails the
// open with SQLSTATE 58030 and the store's reason, in bounded time, and
// the secret key appears nowhere in the error.
func TestS3WarehouseRefusedAtOpen(t *testing.T) {
	isolateAWSEnvironment(t)
	fake := s3fake.Start(t, "bucket")
	with := func(key, value string) map[string]string {
		p := fakeS3Properties(fake)
		p[key] = value
		return p
	}
	for _, tc := range []struct {
		name      string
		warehouse string
		props     map[string]string
		reason    string
	}{
		{"unknown access key", "s3://bucket/wh", with(icebergio.S3AccessKeyID, "NOSUCHKEY"), "InvalidAccessKeyId"},
		{"missing bucket", "s3://nobucket/wh", fakeS3Properties(fake), "NoSuchBucket"},
		{"nothing listening", "s3://bucket/wh", with(icebergio.S3EndpointURL, s3fake.ClosedEndpoint(t)), "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			cat, err := OpenEmbeddedWith(t.Context(), "wh", t.TempDir(), AllowAll{}, EmbeddedOptions{
				Warehouse: tc.warehouse, Properties: tc.props,
			})
			if err == nil {
				cat.Close()
				t.Fatal("opened")
			}
			if took := time.Since(start); took > warehouseCheckTimeout {
				t.Errorf("refusal took %s", took)
			}
			if pgerror.Code(err) != pgerror.IOError || !strings.Contains(err.Error(), tc.reason) ||
				!strings.Contains(err.Error(), "could not use warehouse "+tc.warehouse) {
				t.Errorf("error %v (SQLSTATE %s), want 58030 naming the warehouse and %q", err, pgerror.Code(err), tc.reason)
			}
			for e := error(err); e != nil; e = errors.Unwrap(e) {
				if strings.Contains(e.Error(), s3fake.SecretKey) {
					t.Fatalf("the secret key appears in the error chain: %v", e)
				}
			}
		})
	}
}

// Credentials that may read but not write: a write fails with 58030 and
// the store's reason, commits nothing, and the table stays readable.
func TestS3WarehouseWriteRefused(t *testing.T) {
	isolateAWSEnvironment(t)
	fake := s3fake.Start(t, "bucket")
	cat, _ := openS3Catalog(t, fakeS3Properties(fake))
	ctx := adminCtx(t)
	tbl, err := createIDTable(t, cat, "ns", "t").Append(ctx, idBatches(t, 0, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	fake.SetReadOnly(true)
	_, err = tbl.Append(ctx, idBatches(t, 10, 20, 10))
	if pgerror.Code(err) != pgerror.IOError || !strings.Contains(err.Error(), "could not write a data file of table ns.t: object storage: AccessDenied") {
		t.Fatalf("append with read-only credentials: %v (SQLSTATE %s)", err, pgerror.Code(err))
	}
	fresh, err := cat.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, fresh, 10)
}

// Credentials revoked between planning a copy-on-write change and reading
// its files: the read fails with 58030 and the store's reason.
func TestS3WarehouseRewriteReadRefused(t *testing.T) {
	isolateAWSEnvironment(t)
	fake := s3fake.Start(t, "bucket")
	cat, _ := openS3Catalog(t, fakeS3Properties(fake))
	ctx := adminCtx(t)
	tbl, err := createIDTable(t, cat, "ns", "t").Append(ctx, idBatches(t, 0, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	rw, err := tbl.BeginRewrite(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	fake.SetRevoked(true)
	defer fake.SetRevoked(false)
	_, err = rw.ReadFile(ctx, 0)
	if pgerror.Code(err) != pgerror.IOError || !strings.Contains(err.Error(), "could not read a data file of table ns.t: object storage: InvalidAccessKeyId") {
		t.Fatalf("read with revoked credentials: %v (SQLSTATE %s)", err, pgerror.Code(err))
	}
}

// Without keys in the properties, the S3 file I/O signs with the keys
// in the environment.
func TestS3WarehouseCredentialsFromEnvironment(t *testing.T) {
	isolateAWSEnvironment(t)
	fake := s3fake.Start(t, "bucket")
	t.Setenv("AWS_ACCESS_KEY_ID", s3fake.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", s3fake.SecretKey)
	cat, _ := openS3Catalog(t, map[string]string{icebergio.S3EndpointURL: fake.URL})
	tbl, err := createIDTable(t, cat, "ns", "t").Append(adminCtx(t), idBatches(t, 0, 25, 10))
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, tbl, 25)
	if got := keysUnder(fake.Keys(t, "bucket", "wh/"), "wh/ns.db/t/data/", ".parquet"); len(got) != 1 {
		t.Fatalf("data files in the bucket: %v", got)
	}
}

func TestParseWarehouse(t *testing.T) {
	for _, tc := range []struct {
		in, uri, err string
	}{
		{in: "s3://bucket/wh", uri: "s3://bucket/wh"},
		{in: "s3://bucket/a/b/", uri: "s3://bucket/a/b"},
		{in: "s3://bucket", uri: "s3://bucket"},
		{in: "s3a://my.bucket-1/wh", uri: "s3a://my.bucket-1/wh"},
		{in: "S3N://bucket/wh", uri: "s3n://bucket/wh"},
		{in: "file:///srv/wh/", uri: "file:///srv/wh"},
		{in: "gs://bucket/wh", err: `scheme "gs" is not supported (supported: file, s3, s3a, s3n)`},
		{in: "/srv/wh", err: "is not a location URI: use s3://bucket/prefix or file:///path"},
		{in: "file://host/srv/wh", err: "a file URI names a local absolute path"},
		{in: "s3://Bucket/wh", err: `"Bucket" is not a valid bucket name`},
		{in: "s3:///wh", err: `"" is not a valid bucket name`},
		{in: "s3://bucket/wh?x=1", err: "a query or fragment is not allowed"},
		{in: "s3://KEY:hidden@bucket/wh", err: "credentials do not belong in the URI"},
		{in: "s3://-bucket/wh", err: `"-bucket" is not a valid bucket name`},
		{in: "s3://ab/wh", err: `"ab" is not a valid bucket name`},
		{in: "s3://a_b.c/wh", err: `"a_b.c" is not a valid bucket name`},
		{in: "s3://bucket/%zz", err: "warehouse is not a valid URI"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			loc, err := parseWarehouse(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if strings.Contains(err.Error(), "hidden") {
					t.Fatalf("error repeats the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := loc.uri(); got != tc.uri {
				t.Fatalf("uri %q, want %q", got, tc.uri)
			}
		})
	}
}

func TestValidateEmbeddedOptions(t *testing.T) {
	const secret = "do-not-print-me"
	s3 := func(props map[string]string) EmbeddedOptions {
		return EmbeddedOptions{Warehouse: "s3://bucket/wh", Properties: props}
	}
	for _, tc := range []struct {
		name string
		opts EmbeddedOptions
		err  string
	}{
		{"local default", EmbeddedOptions{}, ""},
		{"s3 without properties", s3(nil), ""},
		{"s3 with every property", s3(map[string]string{
			"s3.endpoint": "http://127.0.0.1:9000", "s3.region": "eu-west-1", "client.region": "eu-west-1",
			"s3.access-key-id": "k", "s3.secret-access-key": secret, "s3.session-token": secret,
			"s3.force-virtual-addressing": "false", "s3.proxy-uri": "http://127.0.0.1:3128",
			"s3.connect-timeout": "2.5", "s3.compat-mode": "true",
		}), ""},
		{"retries", EmbeddedOptions{CommitRetries: -1}, "commit retries must be between 0 and 1000"},
		{"properties on a local warehouse", EmbeddedOptions{Properties: map[string]string{"s3.region": "x"}}, "need an s3:// warehouse"},
		{"unknown key", s3(map[string]string{"s3.endpiont": "http://x"}), `unknown property "s3.endpiont"`},
		{"endpoint without scheme", s3(map[string]string{"s3.endpoint": "minio:9000"}), `"s3.endpoint" must be an http:// or https:// URL`},
		{"endpoint with credentials", s3(map[string]string{"s3.endpoint": "http://k:" + secret + "@minio:9000"}), "must not carry credentials"},
		{"endpoint with credentials, not a URL", s3(map[string]string{"s3.endpoint": "http://k:" + secret + "@minio:port"}), "must be an http:// or https:// URL"},
		{"boolean", s3(map[string]string{"s3.force-virtual-addressing": "yes please"}), "must be true or false"},
		{"timeout", s3(map[string]string{"s3.connect-timeout": "-1s"}), "must be a positive duration"},
		{"empty value", s3(map[string]string{"s3.region": " "}), `"s3.region" is empty`},
		{"secret without key", s3(map[string]string{"s3.secret-access-key": secret}), "set both s3.access-key-id and s3.secret-access-key"},
		{"token without keys", s3(map[string]string{"s3.session-token": secret}), "s3.session-token needs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opts.Validate()
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if strings.Contains(err.Error(), secret) {
				t.Fatalf("error prints a secret: %v", err)
			}
		})
	}
}

func TestObjectStorePropertiesDefaults(t *testing.T) {
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
	}
	for _, tc := range []struct {
		name              string
		configured, vars  map[string]string
		region, connectTO string
	}{
		{"endpoint, no region anywhere", map[string]string{"s3.endpoint": "http://m:9000"}, nil, "us-east-1", "10s"},
		{"endpoint from the environment", nil, map[string]string{"AWS_S3_ENDPOINT": "http://m:9000"}, "us-east-1", "10s"},
		{"region configured", map[string]string{"s3.endpoint": "http://m:9000", "s3.region": "eu-west-1"}, nil, "eu-west-1", "10s"},
		{"region in the environment", map[string]string{"s3.endpoint": "http://m:9000"}, map[string]string{"AWS_REGION": "eu-west-1"}, "", "10s"},
		{"AWS itself: the SDK finds the region", nil, nil, "", "10s"},
		{"timeout configured", map[string]string{"s3.connect-timeout": "3"}, nil, "", "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			props := objectStoreProperties(tc.configured, env(tc.vars))
			if props[icebergio.S3Region] != tc.region || props[icebergio.S3ConnectTimeout] != tc.connectTO {
				t.Fatalf("properties %v, want region %q and connect timeout %q", props, tc.region, tc.connectTO)
			}
		})
	}
}

// A file:// warehouse outside the data directory holds the table files;
// the data directory holds the catalog database only.
func TestFileWarehouseOutsideDataDir(t *testing.T) {
	dataDir, wh := t.TempDir(), filepath.Join(t.TempDir(), "wh")
	cat, err := OpenEmbeddedWith(t.Context(), "wh", dataDir, AllowAll{}, EmbeddedOptions{Warehouse: "file://" + filepath.ToSlash(wh)})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	tbl, err := createIDTable(t, cat, "ns", "t").Append(adminCtx(t), idBatches(t, 0, 5, 5))
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, tbl, 5)
	files := dataFilePaths(t, tbl)
	if len(files) != 1 || !strings.HasPrefix(trimFileScheme(files[0]), filepath.Join(wh, "ns.db", "t", "data")+string(filepath.Separator)) {
		t.Fatalf("data files %v, want one under %s", files, wh)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "warehouse")); !os.IsNotExist(err) {
		t.Fatalf("the default warehouse folder was created too (%v)", err)
	}
}

// TestS3WarehouseMaintenance: a scheduled maintenance pass over a table
// in an object store lists the table's folders as it does on disk:
// it compacts the small files, deletes old metadata files and removes
// the orphan files older than the window, not a younger one, and the
// rows stay.
func TestS3WarehouseMaintenance(t *testing.T) {
	isolateAWSEnvironment(t)
	fake := s3fake.Start(t, "bucket")
	cat, _ := openS3Catalog(t, fakeS3Properties(fake))
	ctx := adminCtx(t)

	// Everything but the young orphan was written four days ago.
	fake.SetDatedBehind(4 * 24 * time.Hour)
	tbl := setProps(t, createIDTable(t, cat, "ns", "t"), map[string]string{"write.metadata.previous-versions-max": "3"})
	tbl = appendOneByOne(t, tbl, 0, 12)
	fsys, err := tbl.tbl.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w, ok := fsys.(icebergio.WriteFileIO)
	if !ok {
		t.Fatalf("the object store's file IO %T cannot write", fsys)
	}
	data := tbl.tbl.Location() + "/data/"
	if err := w.WriteFile(data+"old-orphan.parquet", []byte("x")); err != nil {
		t.Fatal(err)
	}
	fake.SetDatedBehind(0)
	if err := w.WriteFile(data+"young-orphan.parquet", []byte("x")); err != nil {
		t.Fatal(err)
	}
	metadataBefore := len(keysUnder(fake.Keys(t, "bucket", ""), "wh/ns.db/t/metadata/", ".metadata.json"))

	m := newTestMaintainer("a", newFakeClock(), nil, cat)
	r, err := m.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	noFailures(t, r)
	if s, ok := step(r, StepOrphanFiles); !ok || s.Outcome != OutcomeDone || s.FilesRemoved < 1 {
		t.Errorf("orphan step %+v, want done, the old orphan removed", s)
	}
	keys := fake.Keys(t, "bucket", "wh/ns.db/t/data/")
	if slices.Contains(keys, "wh/ns.db/t/data/old-orphan.parquet") {
		t.Errorf("the old orphan is still stored: %v", keys)
	}
	if !slices.Contains(keys, "wh/ns.db/t/data/young-orphan.parquet") {
		t.Errorf("the young orphan was removed: %v", keys)
	}
	if after := len(keysUnder(fake.Keys(t, "bucket", ""), "wh/ns.db/t/metadata/", ".metadata.json")); after >= metadataBefore || after > 5 {
		t.Errorf("metadata files: %d before the pass, %d after", metadataBefore, after)
	}
	for _, s := range r.Steps {
		t.Logf("%s: %s, %d files removed", s.Step, s.Outcome, s.FilesRemoved)
	}
	wantIDs(t, cat, "t", idRange(0, 12))
}
