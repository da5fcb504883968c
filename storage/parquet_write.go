package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// Table properties iceberg-go reads for its Parquet writer without
// exporting their names; SQE's writer reads them the same way.
const (
	parquetDictEnabledKey       = "parquet.enable.dictionary"
	parquetDictColumnEnabledKey = "write.parquet.dict-encoding-enabled.column"
	// parquetBloomFilterColumnFPPKey is Iceberg's per-column false
	// positive probability of a bloom filter (0.01 by default).
	parquetBloomFilterColumnFPPKey = "write.parquet.bloom-filter-fpp.column"
	parquetPageVersionV1           = "1"
	parquetCompressionLevelUnset   = -1
	maxDecimalPrecisionAsInteger   = 18
	defaultParquetBloomFilterSize  = table.ParquetBloomFilterMaxBytesDefault
)

// writesOwnParquet reports whether SQE writes tbl's data files itself
// rather than through iceberg-go: tables with a decimal column of
// precision 18 or less, which SQE stores as INT32 or INT64 (Parquet and
// Iceberg allow it) so that reading them is a plain copy instead of a
// byte swap of 16-byte values, iceberg-go having no setting for that;
// and tables with a sort order SQE honours, whose rows the SQL layer
// hands over already in order (iceberg-go would sort each batch again,
// by Arrow's rules, which place NaN unlike the engine's sort). SQE's
// writer covers unpartitioned tables of format version 1 or 2 whose
// columns are all flat; any other table is written by iceberg-go.
func writesOwnParquet(tbl *table.Table, schema *arrow.Schema) bool {
	if !tbl.Spec().IsUnpartitioned() || tbl.Metadata().Version() > 2 {
		return false
	}
	order, known := sortFields(tbl.SortOrder(), tbl.Schema())
	if !tbl.SortOrder().IsUnsorted() && !known {
		return false
	}
	narrow := false
	for _, f := range schema.Fields() {
		if !flatReadType(f.Type) {
			return false
		}
		if d, ok := f.Type.(*arrow.Decimal128Type); ok && d.Precision <= maxDecimalPrecisionAsInteger {
			narrow = true
		}
	}
	return narrow || len(order) > 0
}

// writeParquetFiles writes batches, each of schema (the table's Arrow
// schema, carrying field ids), as Parquet data files of tbl: files
// rolled at write.target-file-size-bytes, row groups cut at
// write.parquet.row-group-size-bytes and row-group-limit, the writer
// settings iceberg-go takes from the table properties, and decimals of
// precision 18 or less stored as integers. It releases each batch.
func writeParquetFiles(ctx context.Context, tbl *table.Table, schema *arrow.Schema, batches iter.Seq2[arrow.RecordBatch, error]) iter.Seq2[iceberg.DataFile, error] {
	return func(yield func(iceberg.DataFile, error) bool) {
		fs, err := tbl.FS(ctx)
		if err != nil {
			yield(nil, err)
			return
		}
		wfs, ok := fs.(iceio.WriteFileIO)
		if !ok {
			yield(nil, fmt.Errorf("file system of %s cannot write", tbl.Location()))
			return
		}
		locs, err := tbl.LocationProvider()
		if err != nil {
			yield(nil, err)
			return
		}
		props := tbl.Properties()
		w := &parquetFiles{
			ctx: ctx, tbl: tbl, fs: wfs, locs: locs, schema: schema, writeID: uuid.New(),
			props:        parquetWriterProperties(props, schema),
			targetBytes:  int64(props.GetInt(table.WriteTargetFileSizeBytesKey, table.WriteTargetFileSizeBytesDefault)),
			rowGroupSize: int64(props.GetInt(table.ParquetRowGroupSizeBytesKey, table.ParquetRowGroupSizeBytesDefault)),
		}
		for rec, err := range batches {
			if err == nil {
				err = w.write(rec)
				rec.Release()
			}
			if err != nil {
				w.abort()
				yield(nil, err)
				return
			}
			if w.open != nil && w.open.count.n >= w.targetBytes {
				df, err := w.close()
				if !yield(df, err) || err != nil {
					return
				}
			}
		}
		if w.open != nil {
			yield(w.close())
		}
	}
}

// parquetFiles is the state of one writeParquetFiles: the file being
// written, if any, and how many were started.
type parquetFiles struct {
	ctx          context.Context
	tbl          *table.Table
	fs           iceio.WriteFileIO
	locs         table.LocationProvider
	schema       *arrow.Schema
	writeID      uuid.UUID
	props        *parquet.WriterProperties
	targetBytes  int64
	rowGroupSize int64

	files int
	open  *parquetFile
}

type parquetFile struct {
	path  string
	out   io.WriteCloser
	count *countingWriter
	w     *pqarrow.FileWriter
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// write appends rec to the open file, starting one first when none is.
func (p *parquetFiles) write(rec arrow.RecordBatch) error {
	if rec.NumRows() == 0 {
		return nil
	}
	if p.open == nil {
		p.files++
		name := fmt.Sprintf("00000-0-%s-%05d.parquet", p.writeID, p.files)
		path := p.locs.NewDataLocation(name)
		out, err := p.fs.Create(path)
		if err != nil {
			return fmt.Errorf("create %s: %w", path, err)
		}
		count := &countingWriter{w: out}
		w, err := pqarrow.NewFileWriter(p.schema, count, p.props,
			pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(memory.DefaultAllocator), pqarrow.WithStoreSchema()))
		if err != nil {
			_ = out.Close()
			_ = p.fs.Remove(path)
			return fmt.Errorf("write %s: %w", path, err)
		}
		p.open = &parquetFile{path: path, out: out, count: count, w: w}
	}
	f := p.open
	// A new row group starts before a batch, never after the last one,
	// which would leave an empty group at the end of the file.
	if f.w.RowGroupTotalBytesWritten() >= p.rowGroupSize {
		if err := f.w.NewBufferedRowGroupChecked(); err != nil {
			return fmt.Errorf("write %s: %w", f.path, err)
		}
	}
	if err := f.w.WriteBuffered(rec); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// close finishes the open file and describes it as a data file, with the
// column statistics the table's metrics settings ask for.
func (p *parquetFiles) close() (iceberg.DataFile, error) {
	f := p.open
	p.open = nil
	// The Parquet writer finishes the file (its footer); closing it does
	// not close the counting writer's destination.
	err := errors.Join(f.w.Close(), f.out.Close())
	if err != nil {
		_ = p.fs.Remove(f.path)
		return nil, fmt.Errorf("write %s: %w", f.path, err)
	}
	meta, err := f.w.FileMetadata()
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", f.path, err)
	}
	df, err := table.DataFileFromMetadata(table.DataFileArgs{
		Schema: p.tbl.Schema(), Spec: p.tbl.Spec(), Format: iceberg.ParquetFile, Metadata: meta,
		FilePath: f.path, FileSize: f.count.n, Content: iceberg.EntryContentData,
		Properties: p.tbl.Properties(), FormatVersion: p.tbl.Metadata().Version(),
	})
	if err != nil {
		return nil, fmt.Errorf("describe %s: %w", f.path, err)
	}
	return df, nil
}

// abort removes the file being written.
func (p *parquetFiles) abort() {
	if f := p.open; f != nil {
		p.open = nil
		_ = errors.Join(f.w.Close(), f.out.Close())
		_ = p.fs.Remove(f.path)
	}
}

// parquetWriterProperties are the writer settings iceberg-go derives from
// the table properties (page and row-group sizes, page version,
// compression, dictionaries, bloom filters, the dictionary cost fallback
// on every column), plus decimals stored as integers and page indexes
// (each page's bounds and place, a few bytes a page, for readers that
// skip pages; SQE's reader does not yet, see the package doc).
func parquetWriterProperties(props iceberg.Properties, schema *arrow.Schema) *parquet.WriterProperties {
	version := parquet.DataPageV2
	if props.Get(table.ParquetPageVersionKey, table.ParquetPageVersionDefault) == parquetPageVersionV1 {
		version = parquet.DataPageV1
	}
	out := []parquet.WriterProperty{
		parquet.WithMaxRowGroupLength(int64(props.GetInt(table.ParquetRowGroupLimitKey, table.ParquetRowGroupLimitDefault))),
		parquet.WithDataPageSize(int64(props.GetInt(table.ParquetPageSizeBytesKey, table.ParquetPageSizeBytesDefault))),
		parquet.WithDataPageVersion(version),
		parquet.WithBatchSize(int64(props.GetInt(table.ParquetPageRowLimitKey, table.ParquetPageRowLimitDefault))),
		parquet.WithDictionaryPageSizeLimit(int64(props.GetInt(table.ParquetDictSizeBytesKey, table.ParquetDictSizeBytesDefault))),
		parquet.WithCompression(parquetCodec(props.Get(table.ParquetCompressionKey, table.ParquetCompressionDefault))),
		parquet.WithCompressionLevel(props.GetInt(table.ParquetCompressionLevelKey, parquetCompressionLevelUnset)),
		parquet.WithMaxBloomFilterBytes(int64(props.GetInt(table.ParquetBloomFilterMaxBytesKey, defaultParquetBloomFilterSize))),
		parquet.WithDictionaryDefault(javaTrue(props.Get(parquetDictEnabledKey, "true"))),
		parquet.WithStoreDecimalAsInteger(true),
		parquet.WithPageIndexEnabled(true),
		// A bloom filter takes the smallest size that keeps its false
		// positive rate for the values the row group holds, rather than
		// write.parquet.bloom-filter-max-bytes whatever they are (1 MiB
		// per column of each 16,384-row group made a 10M-row table's file
		// mostly filters, too many for a lookup to read).
		parquet.WithAdaptiveBloomFilterEnabled(true),
	}
	for key, val := range props {
		if col, ok := strings.CutPrefix(key, table.ParquetBloomFilterColumnEnabledKeyPrefix+"."); ok && col != "" {
			out = append(out, parquet.WithBloomFilterEnabledFor(col, javaTrue(val)))
		}
		if col, ok := strings.CutPrefix(key, parquetBloomFilterColumnFPPKey+"."); ok && col != "" {
			if fpp, err := strconv.ParseFloat(val, 64); err == nil && fpp > 0 && fpp < 1 {
				out = append(out, parquet.WithBloomFilterFPPFor(col, fpp))
			}
		}
		if col, ok := strings.CutPrefix(key, parquetDictColumnEnabledKey+"."); ok && col != "" {
			out = append(out, parquet.WithDictionaryFor(col, javaTrue(val)))
		}
	}
	// Columns of all-distinct values fall back to plain encoding rather
	// than keep a dictionary as large as the data (as Iceberg's Java
	// writer does); arrow-go does this only for uncompressed columns.
	for _, f := range schema.Fields() {
		out = append(out, parquet.WithDictionaryCostFallbackFor(f.Name, true))
	}
	return parquet.NewWriterProperties(out...)
}

// javaTrue is Java's Boolean.parseBoolean, which Iceberg's writers use
// for these properties: only "true", in any case, is true.
func javaTrue(s string) bool { return strings.EqualFold(s, "true") }

func parquetCodec(name string) compress.Compression {
	switch name {
	case "snappy":
		return compress.Codecs.Snappy
	case "zstd":
		return compress.Codecs.Zstd
	case "uncompressed":
		return compress.Codecs.Uncompressed
	case "gzip":
		return compress.Codecs.Gzip
	case "brotli":
		return compress.Codecs.Brotli
	case "lz4":
		return compress.Codecs.Lz4
	case "lz4raw":
		return compress.Codecs.Lz4Raw
	case "lzo":
		return compress.Codecs.Lzo
	}
	slog.Warn("unrecognized compression codec, writing uncompressed", "codec", name)
	return compress.Codecs.Uncompressed
}
