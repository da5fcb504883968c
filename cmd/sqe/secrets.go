package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/storage"
)

// Secrets (keys tagged secret:"true" and the catalog properties
// storage.IsSecretProperty names) are never read from sqe.toml, which is
// copied, committed and mounted where anyone may read it. Each comes from
// its environment variable (SQE_POLICY__MASK_KEY) or from a file that its
// "_file" companion key names (mask_key_file, itself settable as
// SQE_POLICY__MASK_KEY_FILE), such as a mounted container secret. A
// catalog property's file is named in [catalog.property_files].

// fileSuffix turns a secret key into the key naming its file.
const fileSuffix = "_file"

// refuseFileSecrets fails when the file itself (raw, before the
// environment is applied) sets a secret, naming the variable to use.
func refuseFileSecrets(raw map[string]any) error {
	for _, k := range configKeys() {
		if !k.Secret || strings.HasPrefix(k.Path, catalogTable+".") || strings.HasPrefix(k.Path, engineTable+".") {
			continue
		}
		if _, set := lookupRaw(raw, strings.Split(k.Path, ".")); set {
			return fmt.Errorf("%s is a secret and is not read from the file: set %s, or %s%s naming a file that holds it",
				k.Path, envName(k.Path), k.Path, fileSuffix)
		}
	}
	if err := refuseEngineFileSecrets(raw); err != nil {
		return err
	}
	catalogs, _ := raw[catalogTable].([]map[string]any)
	for _, c := range catalogs {
		name, _ := c["name"].(string)
		for _, k := range configKeys() {
			key, ok := strings.CutPrefix(k.Path, catalogTable+".")
			if !ok || !k.Secret {
				continue
			}
			if _, set := c[key]; set {
				return fmt.Errorf("catalog %s: %s is a secret and is not read from the file: set %s, or %s%s naming a file that holds it",
					name, key, catalogEnvName(name, key), key, fileSuffix)
			}
		}
		props, _ := c["properties"].(map[string]any)
		for _, p := range slices.Sorted(maps.Keys(props)) {
			if storage.IsSecretProperty(p) {
				return fmt.Errorf("catalog %s: property %q is a secret and is not read from the file: set %s, or name a file that holds it in [catalog.property_files]",
					name, p, catalogPropertyEnvName(name, p))
			}
		}
	}
	return nil
}

// lookupRaw follows path through nested tables.
func lookupRaw(raw map[string]any, path []string) (any, bool) {
	v, ok := raw[path[0]]
	if !ok || len(path) == 1 {
		return v, ok
	}
	next, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	return lookupRaw(next, path[1:])
}

// readSecretFiles sets each secret whose "_file" companion is set from
// that file, and each catalog property named in property_files.
func readSecretFiles(cfg *Config) error {
	if err := readStructSecretFiles(reflect.ValueOf(cfg).Elem(), ""); err != nil {
		return err
	}
	for i := range cfg.Engines {
		e := &cfg.Engines[i]
		if err := readStructSecretFiles(reflect.ValueOf(e).Elem(), ""); err != nil {
			return fmt.Errorf("engine %s: %w", e.Name, err)
		}
	}
	for i := range cfg.Catalogs {
		c := &cfg.Catalogs[i]
		if err := readStructSecretFiles(reflect.ValueOf(c).Elem(), ""); err != nil {
			return fmt.Errorf("catalog %s: %w", c.Name, err)
		}
		for _, p := range slices.Sorted(maps.Keys(c.PropertyFiles)) {
			if _, set := c.Properties[p]; set {
				return fmt.Errorf("catalog %s: property %q is set both directly and in property_files; set one", c.Name, p)
			}
			value, err := readSecretFile(c.PropertyFiles[p])
			if err != nil {
				return fmt.Errorf("catalog %s: property_files %q: %w", c.Name, p, err)
			}
			if c.Properties == nil {
				c.Properties = map[string]string{}
			}
			c.Properties[p] = value
		}
	}
	return nil
}

// readStructSecretFiles handles the secret fields of one struct (and of
// the structs nested in it) whose companion "<key>_file" field is set.
func readStructSecretFiles(v reflect.Value, prefix string) error {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name := tomlName(f)
		if f.Type.Kind() == reflect.Struct && name != "" {
			if err := readStructSecretFiles(v.Field(i), prefix+name+"."); err != nil {
				return err
			}
			continue
		}
		if f.Tag.Get("secret") != "true" {
			continue
		}
		companion, ok := fieldByTOMLName(v, name+fileSuffix)
		if !ok {
			return fmt.Errorf("%s%s has no %s%s key", prefix, name, name, fileSuffix)
		}
		path := companion.String()
		if path == "" {
			continue
		}
		if v.Field(i).String() != "" {
			return fmt.Errorf("%s%s is set both directly and by %s%s%s; set one", prefix, name, prefix, name, fileSuffix)
		}
		value, err := readSecretFile(path)
		if err != nil {
			return fmt.Errorf("%s%s%s: %w", prefix, name, fileSuffix, err)
		}
		v.Field(i).SetString(value)
	}
	return nil
}

func fieldByTOMLName(v reflect.Value, name string) (reflect.Value, bool) {
	for i := range v.NumField() {
		if tomlName(v.Type().Field(i)) == name {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// readSecretFile reads a secret without the line break an editor or
// `echo` leaves at its end. The error names the file, never its content.
func readSecretFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	value := strings.TrimRight(string(data), "\r\n")
	if value == "" {
		return "", errors.New("the file " + path + " is empty")
	}
	return value, nil
}

// envName is the variable that overrides a top-level key path.
func envName(path string) string {
	return "SQE_" + strings.ToUpper(strings.ReplaceAll(path, ".", "__"))
}
