package main

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// The listed files of each table are Parquet files that together hold
// exactly the table's generated rows.
func TestSQEDataFiles(t *testing.T) {
	const sf = 0.001
	dir := filepath.Join(t.TempDir(), "sqe")
	if err := prepareTPCHDir(t.Context(), dir, sf); err != nil {
		t.Fatal(err)
	}
	files, err := sqeDataFiles(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tbl := range datagen.Tables() {
		var want int64
		if err := datagen.Generate(t.Context(), tbl.Name, sf, 4096, func(rec arrow.RecordBatch) error {
			want += rec.NumRows()
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var got int64
		for _, path := range files[tbl.Name] {
			r, err := file.OpenParquetFile(path, false)
			if err != nil {
				t.Fatalf("%s: %v", tbl.Name, err)
			}
			got += r.NumRows()
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if len(files[tbl.Name]) == 0 || got != want {
			t.Errorf("%s: %d files holding %d rows, want %d rows", tbl.Name, len(files[tbl.Name]), got, want)
		}
	}
	if len(files) != len(datagen.Tables()) {
		t.Errorf("files of %d tables, want %d", len(files), len(datagen.Tables()))
	}
}

func TestLocalPath(t *testing.T) {
	tests := []struct {
		location string
		want     string
		wantErr  bool
	}{
		{"file:///data/warehouse/t/data/a.parquet", "/data/warehouse/t/data/a.parquet", false},
		{"/data/warehouse/t/data/a.parquet", "/data/warehouse/t/data/a.parquet", false},
		{"s3://bucket/t/data/a.parquet", "", true},
		{"file://relative/a.parquet", "", true},
		{"data/a.parquet", "", true},
	}
	for _, tt := range tests {
		got, err := localPath(tt.location)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("localPath(%q) = %q, %v; want %q, error %v", tt.location, got, err, tt.want, tt.wantErr)
		}
	}
}
