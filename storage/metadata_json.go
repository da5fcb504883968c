package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// A metadata file lists every snapshot of the table, so encoding it
// costs in proportion to the table's history: with a thousand snapshots
// most of a one-row commit's CPU went to encoding snapshots that earlier
// commits had encoded already. Snapshots never change, so the catalog
// keeps each one's JSON (snapshotJSON) and writes a version 2 metadata
// file as the other fields, encoded afresh, followed by the snapshots'
// kept JSON. The bytes are those iceberg-go's MarshalJSON writes (a test
// holds them to it); other versions, and metadata with encryption keys,
// are encoded by iceberg-go.

// snapshotJSONBytes bounds the JSON the cache keeps.
const snapshotJSONBytes = 64 << 20

type snapshotKey struct {
	table uuid.UUID
	id    int64
}

// snapshotJSON holds snapshots' JSON, first in first out within its
// byte budget.
type snapshotJSON struct {
	mu     sync.Mutex
	byKey  map[snapshotKey][]byte
	order  []snapshotKey
	bytes  int
	budget int
}

func newSnapshotJSON(budget int) *snapshotJSON {
	return &snapshotJSON{byKey: make(map[snapshotKey][]byte), budget: budget}
}

// get returns snap's JSON, encoding and keeping it when absent.
func (c *snapshotJSON) get(tableUUID uuid.UUID, snap *table.Snapshot) ([]byte, error) {
	k := snapshotKey{tableUUID, snap.SnapshotID}
	c.mu.Lock()
	b, ok := c.byKey[k]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := json.Marshal(snap)
	if err != nil {
		return nil, fmt.Errorf("encode snapshot %d: %w", snap.SnapshotID, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; ok || len(b) > c.budget {
		return b, nil
	}
	for c.bytes+len(b) > c.budget && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.byKey[old])
		delete(c.byKey, old)
	}
	c.byKey[k] = b
	c.order = append(c.order, k)
	c.bytes += len(b)
	return b, nil
}

// metadataV2Fields are the fields of a version 2 metadata file but its
// snapshots, in the order iceberg-go writes them.
type metadataV2Fields struct {
	LastSequenceNumber int64                           `json:"last-sequence-number"`
	FormatVersion      int                             `json:"format-version"`
	UUID               uuid.UUID                       `json:"table-uuid"`
	Location           string                          `json:"location"`
	LastUpdatedMS      int64                           `json:"last-updated-ms"`
	LastColumnID       int                             `json:"last-column-id"`
	Schemas            []*iceberg.Schema               `json:"schemas"`
	CurrentSchemaID    int                             `json:"current-schema-id"`
	Specs              []iceberg.PartitionSpec         `json:"partition-specs"`
	DefaultSpecID      int                             `json:"default-spec-id"`
	LastPartitionID    *int                            `json:"last-partition-id,omitempty"`
	Properties         iceberg.Properties              `json:"properties,omitempty"`
	CurrentSnapshotID  *int64                          `json:"current-snapshot-id,omitempty"`
	SnapshotLog        []table.SnapshotLogEntry        `json:"snapshot-log,omitempty"`
	MetadataLog        []table.MetadataLogEntry        `json:"metadata-log,omitempty"`
	SortOrders         []table.SortOrder               `json:"sort-orders"`
	DefaultSortOrderID int                             `json:"default-sort-order-id"`
	Refs               map[string]table.SnapshotRef    `json:"refs,omitempty"`
	Statistics         []table.StatisticsFile          `json:"statistics,omitempty"`
	PartitionStats     []table.PartitionStatisticsFile `json:"partition-statistics,omitempty"`
}

// encodeMetadata writes meta as the package's encodeMetadata does, taking the
// snapshots' JSON from c.
func (c *snapshotJSON) encodeMetadata(w io.Writer, meta table.Metadata) error {
	if c == nil || meta.Version() != 2 || hasEncryptionKeys(meta) {
		return encodeMetadata(w, meta)
	}
	f := metadataV2Fields{
		LastSequenceNumber: meta.LastSequenceNumber(),
		FormatVersion:      meta.Version(),
		UUID:               meta.TableUUID(),
		Location:           meta.Location(),
		LastUpdatedMS:      meta.LastUpdatedMillis(),
		LastColumnID:       meta.LastColumnID(),
		Schemas:            meta.Schemas(),
		CurrentSchemaID:    meta.CurrentSchema().ID,
		Specs:              meta.PartitionSpecs(),
		DefaultSpecID:      meta.DefaultPartitionSpec(),
		LastPartitionID:    meta.LastPartitionSpecID(),
		Properties:         meta.Properties(),
		SnapshotLog:        slices.Collect(meta.SnapshotLogs()),
		MetadataLog:        slices.Collect(meta.PreviousFiles()),
		SortOrders:         meta.SortOrders(),
		DefaultSortOrderID: meta.DefaultSortOrder(),
		Statistics:         slices.Collect(meta.Statistics()),
		PartitionStats:     slices.Collect(meta.PartitionStatistics()),
	}
	if snap := meta.CurrentSnapshot(); snap != nil {
		id := snap.SnapshotID
		f.CurrentSnapshotID = &id
	}
	for name, ref := range meta.Refs() {
		if f.Refs == nil {
			f.Refs = map[string]table.SnapshotRef{}
		}
		f.Refs[name] = ref
	}
	head, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("encode metadata: %w", err)
	}
	snaps := meta.Snapshots()
	var buf bytes.Buffer
	buf.Grow(len(head) + 16 + len(snaps)*800)
	if len(snaps) == 0 {
		buf.Write(head)
	} else {
		buf.Write(head[:len(head)-1])
		buf.WriteString(`,"snapshots":[`)
		for i := range snaps {
			b, err := c.get(f.UUID, &snaps[i])
			if err != nil {
				return err
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(b)
		}
		buf.WriteString("]}")
	}
	buf.WriteByte('\n')
	_, err = w.Write(buf.Bytes())
	return err
}

func hasEncryptionKeys(meta table.Metadata) bool {
	for range meta.EncryptionKeys() {
		return true
	}
	return false
}
