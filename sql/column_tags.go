package sql

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/storage"
)

// Column tags (ALTER TABLE ... SET TAGS) live on the Iceberg table
// property sqe.column-tags, keyed by Iceberg field id, so that renaming a
// column keeps its tags and so its tag masks. The name beside each entry
// is only for people reading the property.
const propColumnTags = "sqe.column-tags"

// columnTagEntry is one column's tags in the property.
type columnTagEntry struct {
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}

// columnTagsDoc is the property's value: field id -> entry.
type columnTagsDoc map[string]columnTagEntry

// readColumnTags parses the property; absent is no tags. A value that
// cannot be read is an error: the tags are unknown.
func readColumnTags(props map[string]string) (columnTagsDoc, error) {
	raw, ok := props[propColumnTags]
	if !ok || raw == "" {
		return columnTagsDoc{}, nil
	}
	var doc columnTagsDoc
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		return nil, fmt.Errorf("table property %s is unreadable: %w", propColumnTags, err)
	}
	for id := range doc {
		if _, err := strconv.Atoi(id); err != nil {
			return nil, fmt.Errorf("table property %s: %q is not a field id", propColumnTags, id)
		}
	}
	return doc, nil
}

// encode renders the property's value, entries with no tag left out.
func (d columnTagsDoc) encode() (string, error) {
	clean := columnTagsDoc{}
	for id, e := range d {
		if len(e.Tags) > 0 {
			slices.Sort(e.Tags)
			clean[id] = columnTagEntry{Name: e.Name, Tags: slices.Compact(e.Tags)}
		}
	}
	b, err := json.Marshal(clean)
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", propColumnTags, err)
	}
	return string(b), nil
}

// tagsByColumn maps the tags onto the schema's columns by field id.
func tagsByColumn(doc columnTagsDoc, schema *arrow.Schema) map[int][]string {
	out := map[int][]string{}
	for i, f := range schema.Fields() {
		id := storage.FieldID(f.Metadata.ToMap())
		if e, ok := doc[strconv.Itoa(id)]; ok && id >= 0 && len(e.Tags) > 0 {
			out[i] = e.Tags
		}
	}
	return out
}

// propOwner is the table property Iceberg (and Spark, Trino) record the
// table's owner in.
const propOwner = "owner"

// Owner is the table's owner property (planner.OwnedTable).
func (a *tableAdapter) Owner() string { return a.t.Properties()[propOwner] }

// ColumnTags are the table's column tags by column index (planner.TaggedTable).
func (a *tableAdapter) ColumnTags() (map[int][]string, error) {
	doc, err := readColumnTags(a.t.Properties())
	if err != nil {
		return nil, err
	}
	return tagsByColumn(doc, a.t.Schema()), nil
}
