package storage

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestEncodeMetadataMatchesEncoder checks that metadata files are
// written byte for byte as json.Encoder writes them, for tables with and
// without history and with characters the encoder escapes.
func TestEncodeMetadataMatchesEncoder(t *testing.T) {
	tests := []struct {
		name      string
		appends   int // then one rewrite, when any
		props     map[string]string
		snapshots int
	}{
		{name: "new table"},
		{name: "after appends and a rewrite", appends: 3, snapshots: 4},
		{name: "escaped characters", appends: 1, props: map[string]string{"comment": "<a & b> \u2028 \"q\" é"}, snapshots: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := adminCtx(t)
			cat := openCatalog(t, "wh", "", AllowAll{})
			if err := cat.CreateNamespace(ctx, "ns"); err != nil {
				t.Fatal(err)
			}
			tbl, err := cat.CreateTable(ctx, "ns", "t", idSchema, CreateTableOptions{Properties: tc.props})
			if err != nil {
				t.Fatal(err)
			}
			for i := range int64(tc.appends) {
				if tbl, err = tbl.Append(ctx, idBatches(t, 10*i, 10*i+10, 10)); err != nil {
					t.Fatal(err)
				}
			}
			if tc.appends > 0 {
				if tbl, _, err = rewriteIDs(t, tbl, nil, nil, idBatches(t, 100, 101, 1), 3); err != nil {
					t.Fatal(err)
				}
			}
			meta := tbl.tbl.Metadata()
			var got, want bytes.Buffer
			if err := encodeMetadata(&got, meta); err != nil {
				t.Fatal(err)
			}
			if err := json.NewEncoder(&want).Encode(meta); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("metadata JSON differs from json.Encoder's:\n%s\nwant\n%s", got.Bytes(), want.Bytes())
			}
			if n := len(meta.Snapshots()); n != tc.snapshots {
				t.Errorf("%d snapshots, want %d", n, tc.snapshots)
			}
		})
	}
}
