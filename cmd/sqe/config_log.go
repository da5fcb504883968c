package main

import (
	"log/slog"
	"maps"
	"reflect"
	"slices"

	"github.com/sqe-db/sqe/storage"
)

// effectiveConfig is the configuration as the startup log line shows it:
// every key with the value in force after the file, the environment and
// the flags, grouped as in sqe.toml, catalogs by name. A set secret reads
// [REDACTED] (an unset one ""), so the line says whether it is set and
// never what it is.
type effectiveConfig Config

func (c effectiveConfig) LogValue() slog.Value {
	cfg := Config(c)
	attrs := structAttrs(reflect.ValueOf(cfg))
	catalogs := make([]slog.Attr, 0, len(cfg.Catalogs))
	for _, cc := range cfg.Catalogs {
		catalogs = append(catalogs, slog.Attr{Key: cc.Name, Value: slog.GroupValue(structAttrs(reflect.ValueOf(cc))...)})
	}
	attrs = append(attrs, slog.Attr{Key: catalogTable, Value: slog.GroupValue(catalogs...)})
	engines := make([]slog.Attr, 0, len(cfg.Engines))
	for _, ec := range cfg.Engines {
		engines = append(engines, slog.Attr{Key: ec.Name, Value: slog.GroupValue(structAttrs(reflect.ValueOf(ec))...)})
	}
	attrs = append(attrs, slog.Attr{Key: engineTable, Value: slog.GroupValue(engines...)})
	return slog.GroupValue(attrs...)
}

// structAttrs are the attributes of one table's keys; arrays of tables
// are left to the caller.
func structAttrs(v reflect.Value) []slog.Attr {
	var attrs []slog.Attr
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name := tomlName(f)
		field := v.Field(i)
		switch {
		case name == "":
		case f.Type.Kind() == reflect.Struct:
			attrs = append(attrs, slog.Attr{Key: name, Value: slog.GroupValue(structAttrs(field)...)})
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
		case f.Tag.Get("secret") == "true":
			attrs = append(attrs, slog.String(name, redactedIfSet(field.String())))
		case f.Type.Kind() == reflect.Map && f.Type.Elem().Kind() == reflect.String:
			// property_files holds paths; only properties hold values.
			attrs = append(attrs, slog.Attr{Key: name, Value: propertiesValue(field.Interface().(map[string]string), name == "properties")})
		default:
			attrs = append(attrs, slog.Any(name, field.Interface()))
		}
	}
	return attrs
}

// propertiesValue shows a table of catalog properties sorted, the values
// of secret ones redacted when values (not file paths) are shown.
func propertiesValue(props map[string]string, values bool) slog.Value {
	attrs := make([]slog.Attr, 0, len(props))
	for _, key := range slices.Sorted(maps.Keys(props)) {
		value := props[key]
		if values && storage.IsSecretProperty(key) {
			value = redactedIfSet(value)
		}
		attrs = append(attrs, slog.String(key, value))
	}
	return slog.GroupValue(attrs...)
}

func redactedIfSet(s string) string {
	if s == "" {
		return ""
	}
	return redacted
}
