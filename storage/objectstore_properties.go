package storage

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
)

// Defaults for an object-store warehouse when the configuration and the
// environment leave them open.
const (
	// defaultS3Region is what S3-compatible stores (MinIO, Ceph) expect
	// when they are not configured for a region, and what the AWS SDK
	// needs to sign a request at all.
	defaultS3Region = "us-east-1"
	// defaultS3ConnectTimeout bounds each connection attempt, so that an
	// endpoint that does not answer fails a statement in seconds rather
	// than after the operating system gives up.
	defaultS3ConnectTimeout = "10s"
)

// objectStorePropertyKeys are the catalog properties an embedded catalog
// with an S3 warehouse accepts, sorted. They are iceberg-go's S3 file I/O
// settings.
func objectStorePropertyKeys() []string {
	keys := []string{
		icebergio.S3EndpointURL, icebergio.S3Region, icebergio.S3ClientRegion,
		icebergio.S3AccessKeyID, icebergio.S3SecretAccessKey, icebergio.S3SessionToken,
		icebergio.S3ForceVirtualAddressing, icebergio.S3ProxyURI, icebergio.S3ConnectTimeout,
		icebergio.S3CompatMode,
	}
	slices.Sort(keys)
	return keys
}

// ObjectStorePropertyKeys are the catalog properties that configure an
// S3-compatible store, sorted.
func ObjectStorePropertyKeys() []string { return objectStorePropertyKeys() }

// IsSecretProperty reports whether a catalog property holds a secret that
// must never be printed: a secret key, a session token, a credential, an
// authorization header.
func IsSecretProperty(key string) bool {
	k := strings.ToLower(key)
	for _, word := range []string{"secret", "token", "credential", "password", "authorization", "cookie", "api-key", "apikey"} {
		if strings.Contains(k, word) {
			return true
		}
	}
	return false
}

// validateObjectStoreProperties checks the properties of an embedded
// catalog whose warehouse is loc. Messages name keys, never the value of
// a secret one.
func validateObjectStoreProperties(loc warehouseLocation, props map[string]string) error {
	if len(props) == 0 {
		return nil
	}
	if !loc.objectStore() {
		return errors.New("properties configure object storage and need an s3:// warehouse")
	}
	known := objectStorePropertyKeys()
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(props)) {
		if !slices.Contains(known, key) {
			errs = append(errs, fmt.Errorf("unknown property %q (known: %s)", key, strings.Join(known, ", ")))
			continue
		}
		if err := checkObjectStoreValue(key, props[key]); err != nil {
			errs = append(errs, err)
		}
	}
	hasKey, hasSecret := props[icebergio.S3AccessKeyID] != "", props[icebergio.S3SecretAccessKey] != ""
	if hasKey != hasSecret {
		errs = append(errs, fmt.Errorf("set both %s and %s, or neither (to take them from the environment)",
			icebergio.S3AccessKeyID, icebergio.S3SecretAccessKey))
	}
	if props[icebergio.S3SessionToken] != "" && !hasKey {
		errs = append(errs, fmt.Errorf("%s needs %s and %s", icebergio.S3SessionToken,
			icebergio.S3AccessKeyID, icebergio.S3SecretAccessKey))
	}
	return errors.Join(errs...)
}

func checkObjectStoreValue(key, value string) error {
	if strings.TrimSpace(value) == "" {
		return fmt.Errorf("property %q is empty", key)
	}
	switch key {
	case icebergio.S3EndpointURL, icebergio.S3ProxyURI:
		u, err := url.Parse(value)
		switch {
		case err != nil:
			// The value is not repeated: it may hold a password.
			return fmt.Errorf("property %q must be an http:// or https:// URL", key)
		case u.User != nil:
			return fmt.Errorf("property %q must not carry credentials", key)
		case (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			return fmt.Errorf("property %q must be an http:// or https:// URL, not %q", key, value)
		}
	case icebergio.S3ForceVirtualAddressing, icebergio.S3CompatMode:
		if _, err := strconv.ParseBool(value); err != nil {
			return fmt.Errorf("property %q must be true or false, not %q", key, value)
		}
	case icebergio.S3ConnectTimeout:
		if d, ok := parseConnectTimeout(value); !ok || d <= 0 {
			return fmt.Errorf("property %q must be a positive duration (\"5s\", or seconds), not %q", key, value)
		}
	}
	return nil
}

// parseConnectTimeout reads s3.connect-timeout as iceberg-go does:
// seconds as a number, or a Go duration.
func parseConnectTimeout(s string) (time.Duration, bool) {
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(secs * float64(time.Second)), true
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// objectStoreProperties are the S3 file I/O properties of a warehouse:
// the configured ones, with the region and connect timeout defaulted when
// neither they nor the environment (lookupEnv) set them. Credentials left
// unset are found by the AWS SDK (environment, profile, instance role).
func objectStoreProperties(configured map[string]string, lookupEnv func(string) (string, bool)) iceberg.Properties {
	props := iceberg.Properties{}
	maps.Copy(props, configured)
	if props[icebergio.S3Region] == "" && props[icebergio.S3ClientRegion] == "" &&
		!envSet(lookupEnv, "AWS_REGION") && !envSet(lookupEnv, "AWS_DEFAULT_REGION") &&
		(props[icebergio.S3EndpointURL] != "" || envSet(lookupEnv, "AWS_S3_ENDPOINT")) {
		// Only for an explicit endpoint: against AWS itself, the SDK may
		// still find the region in a profile.
		props[icebergio.S3Region] = defaultS3Region
	}
	if props[icebergio.S3ConnectTimeout] == "" {
		props[icebergio.S3ConnectTimeout] = defaultS3ConnectTimeout
	}
	return props
}

func envSet(lookupEnv func(string) (string, bool), name string) bool {
	v, ok := lookupEnv(name)
	return ok && v != ""
}
