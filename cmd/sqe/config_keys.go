package main

import (
	"reflect"
	"strings"
)

// configKey is one key of sqe.toml, found by walking Config's toml tags:
// the reference (docs/configuration.md), the secret rules and the startup
// log line all derive from this one list, so none of them can forget a key.
type configKey struct {
	// Path is the dotted key, e.g. "policy.ranger.admin_password"; the
	// keys of a [[catalog]] are "catalog.<key>".
	Path string
	// Type is the Go type of the field.
	Type reflect.Type
	// Secret marks a key refused in the file (secret:"true").
	Secret bool
}

// catalogTable is the array of tables whose entries are catalogs.
const catalogTable = "catalog"

// configKeys lists every key of Config, depth first in field order.
func configKeys() []configKey {
	return structKeys(reflect.TypeFor[Config](), "")
}

func structKeys(t reflect.Type, prefix string) []configKey {
	var keys []configKey
	for f := range t.Fields() {
		name := tomlName(f)
		if name == "" {
			continue
		}
		path := prefix + name
		switch {
		case f.Type.Kind() == reflect.Struct:
			keys = append(keys, structKeys(f.Type, path+".")...)
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			keys = append(keys, structKeys(f.Type.Elem(), path+".")...)
		default:
			keys = append(keys, configKey{Path: path, Type: f.Type, Secret: f.Tag.Get("secret") == "true"})
		}
	}
	return keys
}

// tomlName is the key a field is read from ("" for none).
func tomlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// configKeyByPath finds a key by its dotted path.
func configKeyByPath(path string) (configKey, bool) {
	for _, k := range configKeys() {
		if k.Path == path {
			return k, true
		}
	}
	return configKey{}, false
}

// typeName is a key's type as the reference names it.
func typeName(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[ByteSize]():
		return "byte size"
	case t.Kind() == reflect.String:
		return "string"
	case t.Kind() == reflect.Bool:
		return "boolean"
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		return "integer"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return "array of strings"
	case t.Kind() == reflect.Map && t.Elem().Kind() == reflect.String:
		return "table of strings"
	case t == reflect.TypeFor[map[string]RoleOverride]():
		return "table of role overrides"
	}
	return t.String()
}
