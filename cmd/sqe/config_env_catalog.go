package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/storage"
)

// A [[catalog]] is an entry of an array, so its keys are overridden by
// catalog name rather than by position:
//
//	SQE_CATALOG__<NAME>__<KEY>                  uri, warehouse, service_token, ...
//	SQE_CATALOG__<NAME>__PROPERTIES__<PROPERTY>  "s3.secret-access-key" as S3_SECRET_ACCESS_KEY
//	SQE_CATALOG__<NAME>__PROPERTY_FILES__<PROPERTY>
//
// <NAME> and <PROPERTY> are written in upper case with every character
// other than a letter or a digit as "_". The catalog must be configured
// in the file (or be the default sales_wh when the file configures none).

const catalogEnvPrefix = "SQE_CATALOG__"

// catalogMaps are the catalog keys holding tables of properties.
func catalogMaps() []string { return []string{"properties", "property_files"} }

// envSegment is a name as it appears in a variable name.
func envSegment(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, name)
}

// catalogEnvName is the variable that sets key of the catalog named name.
func catalogEnvName(name, key string) string {
	return catalogEnvPrefix + envSegment(name) + "__" + strings.ToUpper(key)
}

// catalogPropertyEnvName is the variable that sets one catalog property.
func catalogPropertyEnvName(name, property string) string {
	return catalogEnvPrefix + envSegment(name) + "__PROPERTIES__" + envSegment(property)
}

// applyCatalogEnv applies one SQE_CATALOG__ variable (rest is the part
// after the prefix) to the catalogs of raw.
func applyCatalogEnv(raw map[string]any, variable, rest, value string) error {
	parts := strings.Split(rest, "__")
	if len(parts) < 2 || len(parts) > 3 {
		return fmt.Errorf("config: %s: expected %s<NAME>__<KEY> or %s<NAME>__PROPERTIES__<PROPERTY>", variable, catalogEnvPrefix, catalogEnvPrefix)
	}
	catalogs, _ := raw[catalogTable].([]map[string]any)
	if len(catalogs) == 0 && parts[0] == envSegment(defaultCatalogName) {
		catalogs = []map[string]any{{"name": defaultCatalogName, "type": "embedded"}}
		raw[catalogTable] = catalogs
	}
	var catalog map[string]any
	for _, c := range catalogs {
		if name, _ := c["name"].(string); envSegment(name) == parts[0] {
			catalog = c
		}
	}
	if catalog == nil {
		return fmt.Errorf("config: %s: no [[catalog]] is named %s (variables set the keys of catalogs the file configures)", variable, strings.ToLower(parts[0]))
	}
	key := strings.ToLower(parts[1])
	if len(parts) == 2 {
		if slices.Contains(catalogMaps(), key) {
			return fmt.Errorf("config: %s: name one property: %s__<PROPERTY>", variable, variable)
		}
		catalog[key] = typedEnvValue(catalogTable+"."+key, value)
		return nil
	}
	if !slices.Contains(catalogMaps(), key) {
		return fmt.Errorf("config: %s: %s is not a table of properties (%s)", variable, key, strings.Join(catalogMaps(), ", "))
	}
	property, ok := propertyForEnv(catalog, parts[2])
	if !ok {
		return fmt.Errorf("config: %s: no known property is written %s; set other properties in the file", variable, parts[2])
	}
	table, _ := catalog[key].(map[string]any)
	if table == nil {
		table = map[string]any{}
		catalog[key] = table
	}
	table[property] = value
	return nil
}

// propertyForEnv finds the property a variable's last segment names among
// those the catalog already sets and those the object store knows.
func propertyForEnv(catalog map[string]any, segment string) (string, bool) {
	candidates := storage.ObjectStorePropertyKeys()
	for _, key := range catalogMaps() {
		table, _ := catalog[key].(map[string]any)
		candidates = append(candidates, slices.Collect(maps.Keys(table))...)
	}
	for _, p := range candidates {
		if envSegment(p) == segment {
			return p, true
		}
	}
	return "", false
}

// typedEnvValue is value as the key at path takes it: always a string for
// a string key (a password of digits stays a string), else envValue.
func typedEnvValue(path, value string) any {
	if k, ok := configKeyByPath(path); ok && typeName(k.Type) == "string" {
		return value
	}
	return envValue(value)
}
