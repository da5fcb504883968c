package storage

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/io/gocloud/blobfs"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// warehouseSchemes are the warehouse URI schemes an embedded catalog
// accepts: the local file system and S3 under its three spellings (Hadoop
// tools write s3a:// and s3n://; they are the same store).
const warehouseSchemes = "file, s3, s3a, s3n"

// warehouseCheckTimeout bounds the check at open that the object store
// answers, so that a wrong endpoint fails the start instead of hanging it.
const warehouseCheckTimeout = 30 * time.Second

// warehouseCheckKey is the object the check at open asks for. It need not
// exist: "no such key" proves the endpoint, the credentials and the
// bucket.
const warehouseCheckKey = ".sqe-warehouse-check"

// warehouseLocation is a parsed warehouse URI.
type warehouseLocation struct {
	scheme string // "" (the data directory's folder), file, s3, s3a or s3n
	bucket string // s3: the bucket
	path   string // file: an absolute path; s3: the key prefix, no slash at either end
}

// parseWarehouse checks a warehouse URI; empty is the local default.
func parseWarehouse(s string) (warehouseLocation, error) {
	if s == "" {
		return warehouseLocation{}, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		// Not url.Error's text: it repeats the whole value, which may hold
		// a password.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return warehouseLocation{}, fmt.Errorf("warehouse is not a valid URI: %w", err)
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return warehouseLocation{}, fmt.Errorf("warehouse %q: a file URI names a local absolute path (file:///path)", s)
		}
		if !path.IsAbs(u.Path) {
			return warehouseLocation{}, fmt.Errorf("warehouse %q: a file URI needs an absolute path (file:///path)", s)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return warehouseLocation{}, fmt.Errorf("warehouse %q: a query or fragment is not allowed", s)
		}
		return warehouseLocation{scheme: scheme, path: path.Clean(u.Path)}, nil
	case "s3", "s3a", "s3n":
		if u.User != nil {
			// The value is not repeated: it holds a secret.
			return warehouseLocation{}, errors.New("warehouse: credentials do not belong in the URI; set AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or the properties s3.access-key-id / s3.secret-access-key")
		}
		if !validBucketName(u.Host) {
			return warehouseLocation{}, fmt.Errorf("warehouse %q: %q is not a valid bucket name (3 to 63 lower-case letters, digits, dots and hyphens)", s, u.Host)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return warehouseLocation{}, fmt.Errorf("warehouse %q: a query or fragment is not allowed", s)
		}
		return warehouseLocation{scheme: scheme, bucket: u.Host, path: strings.Trim(u.Path, "/")}, nil
	case "":
		return warehouseLocation{}, fmt.Errorf("warehouse %q is not a location URI: use s3://bucket/prefix or file:///path", s)
	default:
		return warehouseLocation{}, fmt.Errorf("warehouse %q: scheme %q is not supported (supported: %s)",
			s, u.Scheme, warehouseSchemes)
	}
}

// validBucketName is S3's rule for bucket names, which S3-compatible
// stores share: 3 to 63 lower-case letters, digits, dots and hyphens,
// starting and ending with a letter or digit.
func validBucketName(name string) bool {
	if len(name) < 3 || len(name) > 63 {
		return false
	}
	for i, c := range name {
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || i == len(name)-1 || c != '.' && c != '-') {
			return false
		}
	}
	return true
}

// objectStore reports whether the warehouse is in S3 (or a store speaking
// its protocol) rather than on the local file system.
func (w warehouseLocation) objectStore() bool {
	return w.scheme == "s3" || w.scheme == "s3a" || w.scheme == "s3n"
}

// uri is the warehouse as the catalog's "warehouse" property; table
// locations are <uri>/<namespace>.db/<table>.
func (w warehouseLocation) uri() string {
	if w.objectStore() {
		u := url.URL{Scheme: w.scheme, Host: w.bucket}
		if w.path != "" {
			u.Path = "/" + w.path
		}
		return u.String()
	}
	return "file://" + filepath.ToSlash(w.path)
}

// warehouseProperties prepares the data directory dir (it holds
// catalog.db whatever the warehouse) and the warehouse, and returns the
// SQL catalog's properties. A local warehouse folder is created; an object
// store is asked for one object, so that a wrong endpoint, bucket or key
// fails here, with SQLSTATE 58030, rather than at the first query.
func (o EmbeddedOptions) warehouseProperties(ctx context.Context, dir string) (iceberg.Properties, error) {
	loc, err := parseWarehouse(o.Warehouse)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	if loc.scheme == "" {
		loc = warehouseLocation{scheme: "file", path: filepath.Join(dir, "warehouse")}
	}
	props := iceberg.Properties{}
	if loc.objectStore() {
		props = objectStoreProperties(o.Properties, os.LookupEnv)
		if err := checkWarehouse(ctx, loc, props); err != nil {
			return nil, err
		}
	} else if err := os.MkdirAll(filepath.FromSlash(loc.path), 0o750); err != nil {
		return nil, err
	}
	props["init_catalog_tables"] = "true"
	props["warehouse"] = loc.uri()
	return props, nil
}

// checkWarehouse asks the object store for a key under the warehouse,
// within warehouseCheckTimeout. The key's absence is the expected answer,
// and so is "access denied" for it (credentials may be limited to what
// SQE writes); a network failure, unknown credentials, a bad signature or
// a missing bucket fail the check. It reads through the bucket under
// iceberg-go's file I/O because that I/O reports a missing bucket as a
// missing file.
func checkWarehouse(ctx context.Context, loc warehouseLocation, props iceberg.Properties) error {
	ctx, cancel := context.WithTimeout(ctx, warehouseCheckTimeout)
	defer cancel()
	fsys, err := icebergio.LoadFS(ctx, props, loc.uri())
	if err != nil {
		return warehouseUnusable(loc, err)
	}
	bucket, ok := fsys.(*blobfs.FileIO)
	if !ok {
		return fmt.Errorf("warehouse %s: unexpected file I/O %T", loc.uri(), fsys)
	}
	r, err := bucket.NewReader(ctx, path.Join(loc.path, warehouseCheckKey), nil)
	if err == nil {
		return r.Close()
	}
	switch objectStoreCode(err) {
	case "NoSuchKey", "AccessDenied":
		return nil
	}
	if ctx.Err() != nil {
		return pgerror.Wrap(err, pgerror.IOError, "could not use warehouse %s: no answer within %s", loc.uri(), warehouseCheckTimeout)
	}
	return warehouseUnusable(loc, err)
}

// warehouseUnusable is the error of a catalog that cannot open. Only the
// operator sees it, at start, so a network failure is told in full.
func warehouseUnusable(loc warehouseLocation, err error) error {
	reason := objectStoreReason(err)
	if netErr := networkError(err); netErr != nil {
		reason += ": " + netErr.Error()
	}
	return pgerror.Wrap(err, pgerror.IOError, "could not use warehouse %s: %s", loc.uri(), reason)
}
