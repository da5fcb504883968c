package datagen

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgx/v5"
)

// Table describes one TPC-H table: its Arrow schema (what Generate emits
// and LoadSQE creates) and the PostgreSQL statement that creates it,
// unqualified.
type Table struct {
	Name        string
	Schema      *arrow.Schema
	PostgresDDL string
	// primaryKey lists the key columns LoadPostgres adds after loading.
	primaryKey []string
}

// CreateStatement is PostgresDDL with the table's name qualified by
// schema.
func (t Table) CreateStatement(schema string) string {
	body := strings.TrimPrefix(t.PostgresDDL, "CREATE TABLE "+t.Name)
	return "CREATE TABLE " + pgx.Identifier{schema, t.Name}.Sanitize() + body
}

// Tables returns the eight tables in load order: every table comes after
// the tables its foreign keys point to.
func Tables() []Table {
	return []Table{
		newTable("region", regionColumns, "r_regionkey"),
		newTable("nation", nationColumns, "n_nationkey"),
		newTable("supplier", supplierColumns, "s_suppkey"),
		newTable("customer", customerColumns, "c_custkey"),
		newTable("part", partColumns, "p_partkey"),
		newTable("partsupp", partsuppColumns, "ps_partkey", "ps_suppkey"),
		newTable("orders", ordersColumns, "o_orderkey"),
		newTable("lineitem", lineitemColumns, "l_orderkey", "l_linenumber"),
	}
}

func newTable(name string, columns []column, primaryKey ...string) Table {
	return Table{Name: name, Schema: arrowSchema(columns), PostgresDDL: ddl(name, columns), primaryKey: primaryKey}
}

// lookupTable finds a table by name.
func lookupTable(name string) (Table, error) {
	for _, t := range Tables() {
		if t.Name == name {
			return t, nil
		}
	}
	return Table{}, fmt.Errorf("datagen: no TPC-H table %q", name)
}

// ddl writes the CREATE TABLE statement of a table.
func ddl(name string, columns []column) string {
	defs := make([]string, len(columns))
	for i, c := range columns {
		defs[i] = "\t" + c.name + " " + c.pgType + " NOT NULL"
	}
	return "CREATE TABLE " + name + " (\n" + strings.Join(defs, ",\n") + "\n)"
}
