package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/iceberg-go"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	"github.com/uptrace/bun/driver/sqliteshim"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// sqeDataFiles lists, for each TPC-H table in the SQE data directory dir,
// the local paths of the Parquet data files of its current snapshot, as
// the table's Iceberg metadata names them. It opens the embedded catalog
// (an iceberg-go SQL catalog on dir/catalog.db) directly, so the server
// must not be running. Tables are copy-on-write, so the data files alone
// hold the rows; a delete file is an error.
func sqeDataFiles(ctx context.Context, dir string) (files map[string][]string, err error) {
	db, err := sql.Open(sqliteshim.ShimName, "file:"+filepath.Join(dir, "catalog.db"))
	if err != nil {
		return nil, fmt.Errorf("open SQE catalog: %w", err)
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	cat, err := sqlcat.NewCatalog(sqeDatabase, db, sqlcat.SQLite, iceberg.Properties{})
	if err != nil {
		return nil, fmt.Errorf("open SQE catalog: %w", err)
	}
	files = map[string][]string{}
	for _, t := range datagen.Tables() {
		tbl, err := cat.LoadTable(ctx, table.Identifier{tpchNamespace, t.Name})
		if err != nil {
			return nil, fmt.Errorf("load %s.%s: %w", tpchNamespace, t.Name, err)
		}
		tasks, err := tbl.Scan().PlanFiles(ctx)
		if err != nil {
			return nil, fmt.Errorf("plan %s.%s: %w", tpchNamespace, t.Name, err)
		}
		for _, task := range tasks {
			if len(task.DeleteFiles)+len(task.EqualityDeleteFiles)+len(task.DeletionVectorFiles) > 0 {
				return nil, fmt.Errorf("%s.%s has delete files: its Parquet files alone do not hold its rows", tpchNamespace, t.Name)
			}
			path, err := localPath(task.File.FilePath())
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", tpchNamespace, t.Name, err)
			}
			files[t.Name] = append(files[t.Name], path)
		}
		if len(files[t.Name]) == 0 {
			return nil, fmt.Errorf("%s.%s has no data files", tpchNamespace, t.Name)
		}
	}
	return files, nil
}

// localPath is the file system path of a data file's location: a
// file:// URI or an absolute path. Files elsewhere (an object store)
// cannot be handed to DuckDB as they are.
func localPath(location string) (string, error) {
	path, isURI := strings.CutPrefix(location, "file://")
	if !isURI && strings.Contains(location, "://") {
		return "", fmt.Errorf("data file %s is not on the local file system", location)
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("data file %s is not an absolute path", location)
	}
	return path, nil
}

// writeDataFileList writes files as the JSON object the DuckDB program's
// -parquet flag reads: table name to a list of Parquet paths.
func writeDataFileList(path string, files map[string][]string) error {
	data, err := json.Marshal(files)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
