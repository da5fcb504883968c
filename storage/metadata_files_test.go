package storage

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go/table"
)

// TestEncodeMetadataMatchesEncoder checks that metadata files are
// written byte for byte as json.Encoder writes them, for tables with and
// without history, partitioned and sorted, altered and analyzed, and with
// characters the encoder escapes: by iceberg-go's encoding and by the one
// that keeps snapshots' JSON, with its cache cold and warm.
func TestEncodeMetadataMatchesEncoder(t *testing.T) {
	tests := []struct {
		name      string
		appends   int // then one rewrite, when any
		props     map[string]string
		opts      CreateTableOptions
		then      func(t *testing.T, tbl *Table) *Table
		snapshots int
	}{
		{name: "new table"},
		{name: "after appends and a rewrite", appends: 3, snapshots: 4},
		{name: "escaped characters", appends: 1, props: map[string]string{"comment": "<a & b> \u2028 \"q\" é"}, snapshots: 2},
		{name: "partitioned and sorted", appends: 2, snapshots: 3, opts: CreateTableOptions{
			Partitioning: []PartitionField{{Transform: "bucket", Param: 3, Column: "id"}},
			SortOrder:    []SortField{{Column: "name", Descending: true}}}},
		{name: "altered and analyzed", appends: 2, snapshots: 3, then: func(t *testing.T, tbl *Table) *Table {
			tbl, err := tbl.Alter(adminCtx(t), func(a *Alteration) error {
				_, err := a.AddColumn("extra", arrow.PrimitiveTypes.Int32, false, "added later")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if tbl, err = tbl.Analyze(adminCtx(t), nil); err != nil {
				t.Fatal(err)
			}
			return tbl
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := adminCtx(t)
			cat := openCatalog(t, "wh", "", AllowAll{})
			if err := cat.CreateNamespace(ctx, "ns"); err != nil {
				t.Fatal(err)
			}
			opts := tc.opts
			opts.Properties = tc.props
			tbl, err := cat.CreateTable(ctx, "ns", "t", idSchema, opts)
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
			if tc.then != nil {
				tbl = tc.then(t, tbl)
			}
			meta := tbl.tbl.Metadata()
			var want bytes.Buffer
			if err := json.NewEncoder(&want).Encode(meta); err != nil {
				t.Fatal(err)
			}
			snaps := newSnapshotJSON(snapshotJSONBytes)
			for _, enc := range []struct {
				name   string
				encode func(w io.Writer, meta table.Metadata) error
			}{{"iceberg-go", encodeMetadata}, {"kept snapshots, cold", snaps.encodeMetadata}, {"kept snapshots, warm", snaps.encodeMetadata}} {
				var got bytes.Buffer
				if err := enc.encode(&got, meta); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("%s: metadata JSON differs from json.Encoder's:\n%s\nwant\n%s", enc.name, got.Bytes(), want.Bytes())
				}
			}
			if n := len(meta.Snapshots()); n != tc.snapshots {
				t.Errorf("%d snapshots, want %d", n, tc.snapshots)
			}
		})
	}
}

// The kept snapshots' JSON stays within its budget, dropping the oldest
// first, and a snapshot larger than the whole budget is encoded but not
// kept.
func TestSnapshotJSONBudget(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := appendOneByOne(t, createIDTable(t, cat, "ns", "t"), 0, 4)
	meta := tbl.tbl.Metadata()
	snaps := meta.Snapshots()
	one, err := json.Marshal(&snaps[0])
	if err != nil {
		t.Fatal(err)
	}
	c := newSnapshotJSON(2*len(one) + len(one)/2) // room for two
	for i := range snaps {
		got, err := c.get(meta.TableUUID(), &snaps[i])
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(&snaps[i])
		if !bytes.Equal(got, want) {
			t.Errorf("snapshot %d: %s, want %s", i, got, want)
		}
	}
	if c.bytes > c.budget || len(c.byKey) != 2 {
		t.Errorf("%d bytes in %d entries, budget %d for two", c.bytes, len(c.byKey), c.budget)
	}
	if _, ok := c.byKey[snapshotKey{meta.TableUUID(), snaps[0].SnapshotID}]; ok {
		t.Error("the oldest snapshot is still kept")
	}
	tiny := newSnapshotJSON(len(one) / 2)
	if _, err := tiny.get(meta.TableUUID(), &snaps[0]); err != nil || len(tiny.byKey) != 0 {
		t.Errorf("a snapshot over the budget: err %v, %d kept", err, len(tiny.byKey))
	}
}
