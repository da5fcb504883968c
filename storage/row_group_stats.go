package storage

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// A catalog's row-group cache holds the statistics of at most this many
// data files, and at most this many row groups across them.
const (
	rowGroupCacheFiles  = 4096
	rowGroupCacheGroups = 200_000
)

// rowGroupStats is what a Parquet footer says of one row group: its rows
// and, per top-level column (by Iceberg field id), the bounds and null
// count the writer recorded, and where a bloom filter is kept. A column
// absent from a map is unknown.
type rowGroupStats struct {
	rows   int64
	lower  map[int]iceberg.Literal
	upper  map[int]iceberg.Literal
	nulls  map[int]int64
	blooms map[int]bloomColumn // nil: none
}

// rowGroupCache remembers the row-group statistics of data files and
// the bloom filters read from them. A data file is never rewritten in
// place, so an entry, keyed by the file's path and size, stays true;
// entries only leave when the bounds push the least recently used out.
// Each catalog owns one; it is safe for concurrent use.
type rowGroupCache struct {
	entries *weightedLRU[rowGroupKey, []rowGroupStats]
	blooms  *weightedLRU[bloomKey, metadata.BloomFilter]
}

type rowGroupKey struct {
	path string
	size int64
}

func newRowGroupCache(maxFiles, maxGroups int) *rowGroupCache {
	return &rowGroupCache{
		entries: newWeightedLRU[rowGroupKey](maxFiles, maxGroups,
			func(groups []rowGroupStats) int { return len(groups) }),
		blooms: newWeightedLRU[bloomKey](bloomCacheFilters, bloomCacheBytes, bloomWeight),
	}
}

// footerReads bounds the footers one scan reads before its first row: a
// scan whose filter leaves many files matches most of their row groups
// anyway, and object stores answer each footer read in turn. Files past
// the bound are read whole, and their footers are read by later scans.
const footerReads = 16

// stats returns the row-group statistics of f, reading its footer through
// tbl's file IO on a miss while *budget is above zero (and counting it
// down). ok is false when f's statistics are neither cached nor read.
func (c *rowGroupCache) stats(ctx context.Context, tbl *table.Table, f iceberg.DataFile, budget *pruneBudget) ([]rowGroupStats, bool, error) {
	k := rowGroupKey{path: f.FilePath(), size: f.FileSizeBytes()}
	if groups, ok := c.entries.get(k); ok {
		return groups, true, nil
	}
	if budget.footers <= 0 {
		return nil, false, nil
	}
	budget.footers--
	groups, err := readRowGroupStats(ctx, tbl, f)
	if err != nil {
		return nil, false, err
	}
	c.entries.put(k, groups)
	return groups, true, nil
}

// readRowGroupStats reads f's Parquet footer and converts the statistics
// of its top-level columns to Iceberg literals of the columns' table types.
func readRowGroupStats(ctx context.Context, tbl *table.Table, f iceberg.DataFile) ([]rowGroupStats, error) {
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil, fmt.Errorf("read footer of %s: %w", f.FilePath(), err)
	}
	in, err := fs.Open(f.FilePath())
	if err != nil {
		return nil, fmt.Errorf("read footer of %s: %w", f.FilePath(), err)
	}
	defer in.Close()
	rdr, err := file.NewParquetReader(in)
	if err != nil {
		return nil, fmt.Errorf("read footer of %s: %w", f.FilePath(), err)
	}
	defer rdr.Close()
	return rowGroupStatsOf(tbl.Schema(), rdr.MetaData()), nil
}

// rowGroupStatsOf converts a footer's statistics. A column whose
// statistics are missing, unreliable (StatsSet says so for writers known
// to order them wrongly) or of a physical type that does not match the
// table type is left unknown.
func rowGroupStatsOf(schema *iceberg.Schema, meta *metadata.FileMetaData) []rowGroupStats {
	out := make([]rowGroupStats, meta.NumRowGroups())
	forms := map[int]*storedAs{}
	for g := range out {
		rg := meta.RowGroup(g)
		st := rowGroupStats{rows: rg.NumRows(), lower: map[int]iceberg.Literal{},
			upper: map[int]iceberg.Literal{}, nulls: map[int]int64{},
			blooms: bloomColumnsOf(schema, meta, rg, forms)}
		for c := range rg.NumColumns() {
			col := meta.Schema.Column(c)
			if len(col.ColumnPath()) != 1 {
				continue // nested: never pushed down
			}
			id := int(col.SchemaNode().FieldID())
			field, ok := schema.FindFieldByID(id)
			if !ok {
				continue
			}
			chunk, err := rg.ColumnChunk(c)
			if err != nil {
				continue
			}
			if set, err := chunk.StatsSet(); err != nil || !set {
				continue
			}
			typed, err := chunk.Statistics()
			if err != nil || typed == nil {
				continue
			}
			if typed.HasNullCount() {
				st.nulls[id] = typed.NullCount()
			}
			if !typed.HasMinMax() {
				continue
			}
			lo, hi, ok := boundsLiterals(field.Type, typed)
			if ok {
				st.lower[id], st.upper[id] = lo, hi
			}
		}
		out[g] = st
	}
	return out
}

// boundsLiterals converts min and max to literals of the column type typ,
// for the types rowGroupMatch compares.
func boundsLiterals(typ iceberg.Type, s metadata.TypedStatistics) (lo, hi iceberg.Literal, ok bool) {
	switch typ.(type) {
	case iceberg.Int32Type:
		if x, isInt := s.(*metadata.Int32Statistics); isInt {
			return iceberg.Int32Literal(x.Min()), iceberg.Int32Literal(x.Max()), true
		}
	case iceberg.DateType:
		if x, isInt := s.(*metadata.Int32Statistics); isInt {
			return iceberg.DateLiteral(x.Min()), iceberg.DateLiteral(x.Max()), true
		}
	case iceberg.Int64Type:
		if x, isInt := s.(*metadata.Int64Statistics); isInt {
			return iceberg.Int64Literal(x.Min()), iceberg.Int64Literal(x.Max()), true
		}
	case iceberg.StringType:
		if x, isBytes := s.(*metadata.ByteArrayStatistics); isBytes {
			return iceberg.StringLiteral(x.Min()), iceberg.StringLiteral(x.Max()), true
		}
	case iceberg.BooleanType:
		if x, isBool := s.(*metadata.BooleanStatistics); isBool {
			return iceberg.BoolLiteral(x.Min()), iceberg.BoolLiteral(x.Max()), true
		}
	case iceberg.TimestampType, iceberg.TimestampTzType:
		// Microseconds only: a file written in another unit (INT96,
		// milliseconds) is not compared.
		lt, isTS := s.Descr().LogicalType().(schema.TimestampLogicalType)
		if x, isInt := s.(*metadata.Int64Statistics); isInt && isTS && lt.TimeUnit() == schema.TimeUnitMicros {
			return iceberg.TimestampLiteral(x.Min()), iceberg.TimestampLiteral(x.Max()), true
		}
	case iceberg.DecimalType:
		// Decimals stored as integers only, at the column's scale: the
		// statistics of fixed-length bytes need a signed comparison
		// that not every writer makes.
		lt, isDec := s.Descr().LogicalType().(schema.DecimalLogicalType)
		if !isDec || int(lt.Scale()) != typ.(iceberg.DecimalType).Scale() {
			break
		}
		scale := int(lt.Scale())
		switch x := s.(type) {
		case *metadata.Int32Statistics:
			return iceberg.DecimalLiteral{Val: decimal128.FromI64(int64(x.Min())), Scale: scale},
				iceberg.DecimalLiteral{Val: decimal128.FromI64(int64(x.Max())), Scale: scale}, true
		case *metadata.Int64Statistics:
			return iceberg.DecimalLiteral{Val: decimal128.FromI64(x.Min()), Scale: scale},
				iceberg.DecimalLiteral{Val: decimal128.FromI64(x.Max()), Scale: scale}, true
		}
	}
	return nil, nil, false
}
