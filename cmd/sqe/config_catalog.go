package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/sqe-db/sqe/storage"
)

// validate checks one [[catalog]] for the keys its type needs and refuses
// keys its type does not use, so that a typo never silently falls back to
// another behaviour.
func (c CatalogConfig) validate() error {
	switch c.Type {
	case "embedded":
		if c.URI != "" || c.Prefix != "" || c.ServiceToken != "" || c.Credential != "" {
			return errors.New("uri, prefix, service_token and credential apply to type \"rest\" only")
		}
		if err := c.embeddedOptions(0, false).Validate(); err != nil {
			return err
		}
	case "rest":
		if c.URI == "" {
			return errors.New("type \"rest\" needs a uri")
		}
		if c.ServiceToken != "" && c.Credential != "" {
			return errors.New("set service_token or credential, not both")
		}
	default:
		return fmt.Errorf("type %q is not supported (supported: embedded, rest)", c.Type)
	}
	return nil
}

// openCatalog opens one configured catalog. skipFsync applies to an embedded catalog only: a REST catalog's files
// are the catalog server's to flush. chunks (nil: none) is the data cache all catalogs share.
func openCatalog(ctx context.Context, cc CatalogConfig, dataDir string, commitRetries int, skipFsync bool, gate storage.Authorizer, chunks *storage.ChunkCache) (storage.Catalog, error) {
	if cc.Type == "rest" {
		return storage.OpenREST(ctx, storage.RESTConfig{
			Name: cc.Name, URI: cc.URI, Warehouse: cc.Warehouse, Prefix: cc.Prefix,
			Properties: cc.Properties, ServiceToken: cc.ServiceToken, Credential: cc.Credential,
			CommitRetries: commitRetries, ChunkCache: chunks,
		})
	}
	opts := cc.embeddedOptions(commitRetries, skipFsync)
	opts.ChunkCache = chunks
	return storage.OpenEmbeddedWith(ctx, cc.Name, dataDir, gate, opts)
}

func (c CatalogConfig) embeddedOptions(commitRetries int, skipFsync bool) storage.EmbeddedOptions {
	return storage.EmbeddedOptions{CommitRetries: commitRetries, Warehouse: c.Warehouse, Properties: c.Properties, SkipFsync: skipFsync}
}

// redacted is the text that stands for a secret in the log.
const redacted = "[REDACTED]"

// LogValue is the catalog as the startup log shows it: secrets (the
// service token, the credential, secret keys and session tokens among the
// properties) are replaced, so that no log line ever carries one.
func (c CatalogConfig) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("name", c.Name), slog.String("type", c.Type)}
	switch {
	case c.Warehouse != "":
		attrs = append(attrs, slog.String("warehouse", c.Warehouse))
	case c.Type == "embedded":
		attrs = append(attrs, slog.String("warehouse", "data_dir/warehouse"))
	}
	if c.URI != "" {
		attrs = append(attrs, slog.String("uri", c.URI))
	}
	if c.ServiceToken != "" {
		attrs = append(attrs, slog.String("service_token", redacted))
	}
	if c.Credential != "" {
		attrs = append(attrs, slog.String("credential", redacted))
	}
	for _, key := range slices.Sorted(maps.Keys(c.Properties)) {
		value := c.Properties[key]
		if storage.IsSecretProperty(key) {
			value = redacted
		}
		attrs = append(attrs, slog.String("properties."+key, value))
	}
	return slog.GroupValue(attrs...)
}
