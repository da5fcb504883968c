package pgcatalog

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The relations the catalog must provide.
var wantRelations = []string{
	"pg_catalog.pg_namespace", "pg_catalog.pg_class", "pg_catalog.pg_attribute", "pg_catalog.pg_type",
	"pg_catalog.pg_proc", "pg_catalog.pg_database", "pg_catalog.pg_roles", "pg_catalog.pg_user",
	"pg_catalog.pg_settings", "pg_catalog.pg_description", "pg_catalog.pg_index", "pg_catalog.pg_constraint",
	"pg_catalog.pg_attrdef", "pg_catalog.pg_am", "pg_catalog.pg_collation", "pg_catalog.pg_inherits",
	"pg_catalog.pg_policy", "pg_catalog.pg_statistic_ext", "pg_catalog.pg_trigger", "pg_catalog.pg_publication",
	"pg_catalog.pg_extension", "pg_catalog.pg_enum", "pg_catalog.pg_range", "pg_catalog.pg_rewrite", "pg_catalog.pg_sequence",
	"pg_catalog.pg_tables", "pg_catalog.pg_views", "pg_catalog.pg_matviews", "pg_catalog.pg_stat_user_tables",
	"pg_catalog.pg_stat_activity", "pg_catalog.pg_prepared_statements", "pg_catalog.pg_stats", "pg_catalog.pg_tablespace", "pg_catalog.pg_depend",
	"pg_catalog.pg_auth_members", "pg_catalog.pg_publication_namespace", "pg_catalog.pg_publication_rel",
	"pg_catalog.pg_partitioned_table", "pg_catalog.pg_foreign_table",
	"information_schema.schemata", "information_schema.tables", "information_schema.columns",
	"information_schema.views", "information_schema.table_constraints", "information_schema.key_column_usage",
	"information_schema.table_privileges", "information_schema.role_table_grants", "information_schema.column_privileges", "information_schema.role_column_grants", "information_schema.routines",
}

// goldenColumn is one line of testdata/columns/<schema>.<relation>.tsv,
// taken from PostgreSQL 15.18's pg_attribute: the column name, its
// declared type, the base type of that (domains resolved) and attnotnull.
type goldenColumn struct {
	name, declared, base string
	notNull              bool
}

func readGolden(t *testing.T, path string) []goldenColumn {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goldenColumn
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		if len(p) != 4 {
			t.Fatalf("%s: bad line %q", path, sc.Text())
		}
		out = append(out, goldenColumn{p[0], p[1], p[2], p[3] == "t"})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// SQE's timestamptz carries no precision modifier, so information_schema's
// time_stamp domain (timestamp(2) with time zone) is presented without it.
func normalizeType(s string) string {
	return strings.Replace(s, "timestamp(2)", "timestamp", 1)
}

func TestColumnsMatchPostgres15(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "columns", "*.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(wantRelations) {
		t.Fatalf("%d golden files, want %d", len(files), len(wantRelations))
	}
	for _, key := range wantRelations {
		t.Run(key, func(t *testing.T) {
			schema, name, _ := strings.Cut(key, ".")
			rel, ok := Lookup(schema, name)
			if !ok {
				t.Fatalf("Lookup(%q, %q) found nothing", schema, name)
			}
			if rel.Schema() != schema || rel.Name() != name {
				t.Fatalf("Lookup gave %s.%s", rel.Schema(), rel.Name())
			}
			golden := readGolden(t, filepath.Join("testdata", "columns", key+".tsv"))
			cols := rel.Columns()
			if len(cols) != len(golden) {
				t.Fatalf("%d columns, PostgreSQL has %d", len(cols), len(golden))
			}
			for i, g := range golden {
				c := cols[i]
				if c.Name != g.name {
					t.Errorf("column %d is %q, want %q", i+1, c.Name, g.name)
				}
				if got, want := c.Type.Name(), normalizeType(g.base); got != want {
					t.Errorf("column %s is %s, want %s", c.Name, got, want)
				}
				if c.Nullable == g.notNull {
					t.Errorf("column %s nullable=%v, PostgreSQL attnotnull=%v", c.Name, c.Nullable, g.notNull)
				}
			}
		})
	}
}

func TestLookupUnknown(t *testing.T) {
	tests := []struct{ schema, name string }{
		{"pg_catalog", "pg_nope"},
		{"information_schema", "pg_class"},
		{"public", "pg_class"},
		{"", "pg_class"},
	}
	for _, tt := range tests {
		if _, ok := Lookup(tt.schema, tt.name); ok {
			t.Errorf("Lookup(%q, %q) found a relation", tt.schema, tt.name)
		}
	}
}
