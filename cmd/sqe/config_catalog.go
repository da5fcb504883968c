package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/sqe-db/sqe/storage"
)

// validate checks one [[catalog]] for the keys its type needs and refuses
// keys its type does not use, so that a typo never silently falls back to
// another behaviour.
func (c CatalogConfig) validate() error {
	switch c.Type {
	case "embedded":
		if c.URI != "" || c.Warehouse != "" || c.Prefix != "" || c.ServiceToken != "" || c.Credential != "" || len(c.Properties) > 0 {
			return errors.New("uri, warehouse, prefix, service_token, credential and properties apply to type \"rest\" only")
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

// openCatalog opens one configured catalog.
func openCatalog(ctx context.Context, cc CatalogConfig, dataDir string, commitRetries int) (storage.Catalog, error) {
	if cc.Type == "rest" {
		return storage.OpenREST(ctx, storage.RESTConfig{
			Name: cc.Name, URI: cc.URI, Warehouse: cc.Warehouse, Prefix: cc.Prefix,
			Properties: cc.Properties, ServiceToken: cc.ServiceToken, Credential: cc.Credential,
			CommitRetries: commitRetries,
		})
	}
	return storage.OpenEmbeddedWith(ctx, cc.Name, dataDir, storage.AllowAll{}, storage.EmbeddedOptions{CommitRetries: commitRetries})
}
