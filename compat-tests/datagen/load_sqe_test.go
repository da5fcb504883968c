package datagen

import (
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqe-db/sqe/storage"
)

// roundTripSF keeps the storage writes of the round trip short.
const roundTripSF = 0.002

// TestLoadSQERoundTrip loads a small scale factor into an embedded
// catalog and scans every table back: the rows must be the generated ones,
// in order, and loading again must refuse to double them.
func TestLoadSQERoundTrip(t *testing.T) {
	ctx := storage.WithPrincipal(t.Context(), storage.Principal{User: "loader"})
	cat, err := storage.OpenEmbedded(ctx, "tpch_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cat.Close(); err != nil {
			t.Errorf("close catalog: %v", err)
		}
	})
	if err := LoadSQE(ctx, cat, "tpch", roundTripSF); err != nil {
		t.Fatalf("LoadSQE: %v", err)
	}
	names, err := cat.ListTables(ctx, "tpch")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(Tables()) {
		t.Fatalf("catalog has tables %v", names)
	}
	for _, tbl := range Tables() {
		t.Run(tbl.Name, func(t *testing.T) {
			h := newRowHasher()
			if err := Generate(ctx, tbl.Name, roundTripSF, 4096, func(rec arrow.RecordBatch) error {
				h.add(rec)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			wantHash, wantRows := h.sum(), h.rows
			st, err := cat.LoadTable(ctx, "tpch", tbl.Name)
			if err != nil {
				t.Fatal(err)
			}
			stream, err := st.Scan(ctx, storage.ScanRequest{})
			if err != nil {
				t.Fatal(err)
			}
			defer stream.Close()
			h = newRowHasher()
			for {
				rec, err := stream.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				h.add(rec)
				rec.Release()
			}
			if h.rows != wantRows || h.sum() != wantHash {
				t.Errorf("scanned %d rows hashing %s, generated %d rows hashing %s", h.rows, h.sum(), wantRows, wantHash)
			}
		})
	}
	if err := LoadSQE(ctx, cat, "tpch", roundTripSF); !errors.Is(err, storage.ErrAlreadyExists) {
		t.Errorf("second LoadSQE: got %v, want ErrAlreadyExists", err)
	}
}
