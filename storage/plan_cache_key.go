package storage

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// planKey names one plan. A catalog's cache is shared by all its users,
// so the key holds everything the plan is computed from, not merely names
// that point at it: the snapshot's manifest list by location (an Iceberg
// file is never rewritten) and a digest of the metadata planning reads and
// of the scan's filter and limit. A table given another table's UUID and
// snapshot ids therefore cannot plant a plan that a reader of the other
// table would be handed.
type planKey struct {
	snapshotID   int64
	manifestList string
	// scan digests the table UUID, format version, current schema,
	// partition specs and split size, and the scan's filter and limit.
	scan [sha256.Size]byte
}

// planKeyFor is the key of planning tbl's current snapshot with filter
// (nil: every row) and limit (0: none). ok is false when the plan cannot
// be keyed: no snapshot, a snapshot without a manifest list (version 1
// metadata may embed the manifest paths), or a filter that does not bind
// or has no key form. Such plans are simply not cached.
func planKeyFor(tbl *table.Table, filter iceberg.BooleanExpression, limit int64) (planKey, bool) {
	digest, ok := metadataDigest(tbl)
	if !ok {
		return planKey{}, false
	}
	return planKeyOver(digest, tbl, filter, limit)
}

// planKeyOver is planKeyFor with the digest of tbl's metadata already
// made (metadataDigest).
func planKeyOver(digest [sha256.Size]byte, tbl *table.Table, filter iceberg.BooleanExpression, limit int64) (planKey, bool) {
	meta := tbl.Metadata()
	snap := meta.CurrentSnapshot()
	if snap == nil || snap.ManifestList == "" {
		return planKey{}, false
	}
	filterKey, err := encodeFilter(meta.CurrentSchema(), planFilter(filter))
	if err != nil {
		return planKey{}, false
	}
	h := sha256.New()
	for _, field := range [][]byte{
		digest[:],
		[]byte(filterKey),
		[]byte(strconv.FormatInt(planLimit(filter, limit), 10)),
	} {
		writeField(h, field)
	}
	k := planKey{snapshotID: snap.SnapshotID, manifestList: snap.ManifestList}
	h.Sum(k.scan[:0])
	return k, true
}

// metadataDigest digests what planning reads of tbl's metadata besides
// the snapshot: the table UUID, format version, current schema, partition
// specs and split size.
func metadataDigest(tbl *table.Table) (digest [sha256.Size]byte, ok bool) {
	meta := tbl.Metadata()
	schema, err := json.Marshal(meta.CurrentSchema())
	if err != nil {
		return digest, false
	}
	specs, err := json.Marshal(meta.PartitionSpecs())
	if err != nil {
		return digest, false
	}
	h := sha256.New()
	for _, field := range [][]byte{
		[]byte(meta.TableUUID().String()),
		[]byte(strconv.Itoa(meta.Version())),
		schema,
		specs,
		[]byte(strconv.FormatInt(planSplitSize(meta), 10)),
	} {
		writeField(h, field)
	}
	h.Sum(digest[:0])
	return digest, true
}

// at is the key of the same scan of another snapshot of the table.
func (k planKey) at(snap *table.Snapshot) (planKey, bool) {
	if snap == nil || snap.ManifestList == "" {
		return planKey{}, false
	}
	k.snapshotID, k.manifestList = snap.SnapshotID, snap.ManifestList
	return k, true
}

// writeField writes b length-first, so that no two field lists write the
// same bytes.
func writeField(h hash.Hash, b []byte) {
	h.Write([]byte(strconv.Itoa(len(b)) + ":"))
	h.Write(b)
}

// planFilter is the filter a plan applies: nil means every row.
func planFilter(filter iceberg.BooleanExpression) iceberg.BooleanExpression {
	if filter == nil {
		return iceberg.AlwaysTrue{}
	}
	return filter
}

// planLimit is the part of limit that changes the plan: iceberg-go plans
// fewer manifests for a limit only when there is no filter.
func planLimit(filter iceberg.BooleanExpression, limit int64) int64 {
	if limit <= 0 || !planFilter(filter).Equals(iceberg.AlwaysTrue{}) {
		return 0
	}
	return limit
}

// planSplitSize is the table's read.split.target-size, read as iceberg-go
// reads it: Parquet files larger than it are planned as several tasks.
func planSplitSize(meta table.Metadata) int64 {
	return meta.Properties().GetInt64(table.ReadSplitTargetSizeKey, table.ReadSplitTargetSizeDefault)
}

// encodeFilter binds filter to schema as iceberg-go's planner does (case
// sensitively) and writes it as text that differs whenever the bound
// filters differ. The filter's String form is not that: it prints string
// members of a set unquoted, so IN ('a b', 'c') and IN ('a', 'b c') print
// alike.
func encodeFilter(schema *iceberg.Schema, filter iceberg.BooleanExpression) (string, error) {
	bound, err := iceberg.BindExpr(schema, filter, true)
	if err != nil {
		return "", fmt.Errorf("bind filter: %w", err)
	}
	return iceberg.VisitExpr(bound, filterEncoder{})
}

// filterEncoder writes a bound filter: columns by field id, literals by Go
// type and quoted value. A predicate it has no form for (a bounding box, a
// transform) ends the visit with an error, which VisitExpr returns.
type filterEncoder struct{}

func (filterEncoder) VisitTrue() string                  { return "true" }
func (filterEncoder) VisitFalse() string                 { return "false" }
func (filterEncoder) VisitNot(child string) string       { return "not(" + child + ")" }
func (filterEncoder) VisitAnd(left, right string) string { return "and(" + left + "," + right + ")" }
func (filterEncoder) VisitOr(left, right string) string  { return "or(" + left + "," + right + ")" }

func (filterEncoder) VisitUnbound(p iceberg.UnboundPredicate) string {
	panic(fmt.Errorf("no plan key for unbound predicate %s", p))
}

func (filterEncoder) VisitBound(p iceberg.BoundPredicate) string {
	if _, ok := p.Term().(*iceberg.BoundTransform); ok {
		panic(fmt.Errorf("no plan key for transform predicate %s", p))
	}
	field := strconv.Itoa(p.Term().Ref().Field().ID)
	switch p := p.(type) {
	case iceberg.BoundLiteralPredicate:
		return fmt.Sprintf("%s(%s,%s)", p.Op(), field, literalKey(p.Literal()))
	case iceberg.BoundSetPredicate:
		members := p.Literals().Members()
		keys := make([]string, len(members))
		for i, m := range members {
			keys[i] = literalKey(m)
		}
		slices.Sort(keys)
		return fmt.Sprintf("%s(%s,[%s])", p.Op(), field, strings.Join(keys, ","))
	case iceberg.BoundUnaryPredicate:
		return fmt.Sprintf("%s(%s)", p.Op(), field)
	default:
		panic(fmt.Errorf("no plan key for predicate %s", p))
	}
}

// literalKey is the literal's Go type and its value in Go syntax (strings
// quoted).
func literalKey(l iceberg.Literal) string {
	return fmt.Sprintf("%T:%#v", l, l.Any())
}
