package main

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/storage"
)

// referencePath is the configuration reference, from this package.
const referencePath = "../../docs/configuration.md"

// referenceRow is one row of a table of the reference whose first cell
// is a `key`.
type referenceRow struct {
	line  int
	cells []string
}

// readReference returns the rows of the reference's tables by the name
// of their first column ("key" or "property"), keyed by the first cell
// without its backquotes.
func readReference(t *testing.T) map[string]map[string]referenceRow {
	t.Helper()
	f, err := os.Open(referencePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables := map[string]map[string]referenceRow{}
	column := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			column = ""
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case column == "":
			column = cells[0] // the header
			if tables[column] == nil {
				tables[column] = map[string]referenceRow{}
			}
		case strings.HasPrefix(cells[0], "`"):
			key := strings.Trim(cells[0], "`")
			if _, dup := tables[column][key]; dup {
				t.Errorf("%s:%d: %s documented twice", referencePath, n, key)
			}
			tables[column][key] = referenceRow{line: n, cells: cells}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return tables
}

// TestConfigurationReference keeps docs/configuration.md and Config equal:
// every key the server reads is documented with its type, its default
// and its variable, secrets are marked as such, and the page documents
// no key the server does not read.
func TestConfigurationReference(t *testing.T) {
	rows := readReference(t)["key"]
	if len(rows) == 0 {
		t.Fatalf("%s has no table of keys", referencePath)
	}
	defaults := defaultValues()
	known := map[string]bool{}
	for _, k := range configKeys() {
		known[k.Path] = true
		row, ok := rows[k.Path]
		if !ok {
			t.Errorf("%s does not document the key %s", referencePath, k.Path)
			continue
		}
		if len(row.cells) != 5 {
			t.Errorf("%s:%d: %d cells, want key | type | default | environment | meaning", referencePath, row.line, len(row.cells))
			continue
		}
		typ, def, env, meaning := row.cells[1], row.cells[2], row.cells[3], row.cells[4]
		if want := typeName(k.Type); typ != want {
			t.Errorf("%s:%d: %s has type %q, want %q", referencePath, row.line, k.Path, typ, want)
		}
		if want, ok := defaults[k.Path]; ok && !strings.Contains(def, "`"+want+"`") {
			t.Errorf("%s:%d: %s's default %q does not show `%s`", referencePath, row.line, k.Path, def, want)
		}
		if want := documentedEnvName(k.Path); want != "" && env != "`"+want+"`" {
			t.Errorf("%s:%d: %s's variable %q, want `%s`", referencePath, row.line, k.Path, env, want)
		}
		if k.Secret != strings.Contains(meaning, "**secret**") {
			t.Errorf("%s:%d: %s is secret=%v, and its meaning must say **secret** exactly when it is", referencePath, row.line, k.Path, k.Secret)
		}
		if k.Secret {
			if _, ok := configKeyByPath(k.Path + fileSuffix); !ok {
				t.Errorf("secret %s has no %s%s key", k.Path, k.Path, fileSuffix)
			}
		}
	}
	for key, row := range rows {
		if !known[key] {
			t.Errorf("%s:%d: documents %s, which the server does not read", referencePath, row.line, key)
		}
	}
}

// TestConfigurationReferenceProperties: the object store's properties
// are documented, secret ones marked, and no other.
func TestConfigurationReferenceProperties(t *testing.T) {
	rows := readReference(t)["property"]
	keys := storage.ObjectStorePropertyKeys()
	for _, p := range keys {
		row, ok := rows[p]
		if !ok {
			t.Errorf("%s does not document the property %s", referencePath, p)
			continue
		}
		if storage.IsSecretProperty(p) != strings.Contains(row.cells[len(row.cells)-1], "**secret**") {
			t.Errorf("%s:%d: %s must be marked **secret** exactly when it is one", referencePath, row.line, p)
		}
	}
	for p, row := range rows {
		if !slices.Contains(keys, p) {
			t.Errorf("%s:%d: documents the property %s, which the object store does not take", referencePath, row.line, p)
		}
	}
}

// documentedEnvName is the variable the reference gives a key: catalog
// keys by <NAME>, the catalog's name selecting rather than being set.
func documentedEnvName(path string) string {
	if key, ok := strings.CutPrefix(path, engineTable+"."); ok {
		if key == "name" || key == "catalogs" {
			return ""
		}
		return strings.Replace(engineEnvName("name", key), "__NAME__", "__<NAME>__", 1)
	}
	key, ok := strings.CutPrefix(path, catalogTable+".")
	switch {
	case !ok:
		return envName(path)
	case key == "name":
		return ""
	case slices.Contains(catalogMaps(), key):
		key += "__<PROPERTY>"
	}
	return strings.Replace(catalogEnvName("name", key), "__NAME__", "__<NAME>__", 1)
}

// defaultValues are the non-zero defaults of defaultConfig, as TOML
// writes them, by key.
func defaultValues() map[string]string {
	values := map[string]string{}
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name := tomlName(f)
			field := v.Field(i)
			switch {
			case name == "":
			case f.Type.Kind() == reflect.Struct:
				walk(field, prefix+name+".")
			case field.IsZero() || f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct:
			case f.Type.Kind() == reflect.Slice:
				quoted := make([]string, field.Len())
				for j := range quoted {
					quoted[j] = fmt.Sprintf("%q", field.Index(j).String())
				}
				values[prefix+name] = "[" + strings.Join(quoted, ", ") + "]"
			default:
				values[prefix+name] = fmt.Sprint(field.Interface())
			}
		}
	}
	walk(reflect.ValueOf(defaultConfig()), "")
	// A share of this machine's memory: the page says so in words.
	delete(values, "cache.data_bytes")
	values["catalog.name"] = defaultCatalogName
	values["catalog.type"] = "embedded"
	return values
}
