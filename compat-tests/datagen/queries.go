package datagen

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed queries/*.sql
var queryFiles embed.FS

// Query is one TPC-H query with the specification's validation parameters,
// in PostgreSQL syntax over unqualified table names.
type Query struct {
	// Name is the query's number, such as "Q1".
	Name string
	SQL  string
}

// Queries returns the 22 TPC-H queries in number order, Q1 to Q22.
func Queries() ([]Query, error) {
	names, err := fs.Glob(queryFiles, "queries/q*.sql")
	if err != nil {
		return nil, fmt.Errorf("list queries: %w", err)
	}
	// The files are named qNN.sql, so their lexical order is numeric.
	qs := make([]Query, 0, len(names))
	for _, name := range names {
		data, err := queryFiles.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("read query %s: %w", name, err)
		}
		num := strings.TrimLeft(strings.TrimSuffix(strings.TrimPrefix(name, "queries/q"), ".sql"), "0")
		qs = append(qs, Query{Name: "Q" + num, SQL: strings.TrimSpace(string(data))})
	}
	return qs, nil
}
