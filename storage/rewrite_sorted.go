package storage

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/table/compaction"
)

// RowSorter returns a reader of rdr's rows ordered by order. It reads
// rdr to its end but does not release it; the caller releases both.
// Storage knows nothing of how rows compare or where a sort too large
// for memory spills, so the SQL layer passes the engine's sort.
type RowSorter func(ctx context.Context, rdr array.RecordReader, order []SortField) (array.RecordReader, error)

// sortedCompactionGroups plans the compaction of a sorted table. Sorting
// only the small files among themselves would leave their rows
// overlapping the large files' key ranges, so a partition is rewritten
// whole, its rows sorted together and rolled at the target size, when
// two or more of its files are below target or when its files' ranges of
// the first sort column overlap (rows written before the order was set,
// or by several writes). A partition of one file is left as it is: its
// bounds cannot tell whether its rows are in order.
func sortedCompactionGroups(tasks []table.FileScanTask, target int64, firstSortField iceberg.NestedField) []compaction.Group {
	byPartition := map[string][]table.FileScanTask{}
	var keys []string
	for _, task := range tasks {
		k := partitionKey(task.File)
		if _, ok := byPartition[k]; !ok {
			keys = append(keys, k)
		}
		byPartition[k] = append(byPartition[k], task)
	}
	var groups []compaction.Group
	for _, k := range keys {
		part := byPartition[k]
		if len(part) < 2 {
			continue
		}
		small := 0
		for _, task := range part {
			if task.File.FileSizeBytes() < target {
				small++
			}
		}
		if small < 2 && !rangesOverlap(part, firstSortField) {
			continue
		}
		g := compaction.Group{PartitionKey: k, Tasks: part}
		for _, task := range part {
			g.TotalSizeBytes += task.File.FileSizeBytes()
		}
		groups = append(groups, g)
	}
	return groups
}

// partitionKey names a data file's partition: its spec and its partition
// values, in field id order.
func partitionKey(df iceberg.DataFile) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", df.SpecID())
	part := df.Partition()
	for _, id := range slices.Sorted(maps.Keys(part)) {
		fmt.Fprintf(&b, "/%d=%v", id, part[id])
	}
	return b.String()
}

// rangesOverlap reports whether the files' ranges of values of field
// overlap, from the bounds their manifest entries keep. Two files that
// both hold NULLs in it overlap (at NULL); a file whose bounds are
// missing or of a type not compared here counts as overlapping, so that
// the partition is sorted rather than left as it may be. Ranges that only
// touch (one file's upper bound is the next one's lower) do not overlap:
// a sorted write puts equal keys side by side, and they may straddle a
// file boundary.
func rangesOverlap(tasks []table.FileScanTask, field iceberg.NestedField) bool {
	type span struct{ lo, hi iceberg.Literal }
	var spans []span
	withNulls := 0
	for _, task := range tasks {
		df := task.File
		nulls := df.NullValueCounts()[field.ID]
		if nulls > 0 {
			withNulls++
		}
		if nulls > 0 && nulls == df.Count() {
			continue // NULLs only: no bounds
		}
		lo, okL := boundLiteral(field.Type, df.LowerBoundValues()[field.ID])
		hi, okH := boundLiteral(field.Type, df.UpperBoundValues()[field.ID])
		if !okL || !okH {
			return true
		}
		spans = append(spans, span{lo, hi})
	}
	if withNulls > 1 {
		return true
	}
	unknown := false
	slices.SortFunc(spans, func(a, b span) int {
		c, ok := compareBounds(a.lo, b.lo)
		unknown = unknown || !ok
		return c
	})
	if unknown {
		return true
	}
	for i := 1; i < len(spans); i++ {
		c, ok := compareBounds(spans[i].lo, spans[i-1].hi)
		if !ok || c < 0 {
			return true
		}
	}
	return false
}

// compareBounds orders two bounds of one column: the types row proofs
// compare, and the other ordered primitive types a sort key may have.
func compareBounds(a, b iceberg.Literal) (int, bool) {
	if c, ok := compareLiterals(a, b); ok {
		return c, true
	}
	switch x := a.(type) {
	case iceberg.Float32Literal:
		return compareAs(x, b)
	case iceberg.Float64Literal:
		return compareAs(x, b)
	case iceberg.TimeLiteral:
		return compareAs(x, b)
	case iceberg.TimestampNsLiteral:
		return compareAs(x, b)
	case iceberg.BinaryLiteral:
		y, ok := b.(iceberg.BinaryLiteral)
		return cmp.Compare(string(x), string(y)), ok
	}
	return 0, false
}
