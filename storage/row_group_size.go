package storage

import "github.com/apache/iceberg-go/table"

// defaultRowGroupRows caps the rows of each Parquet row group SQE writes
// into a table that does not set write.parquet.row-group-limit itself
// (iceberg-go's default, 1,048,576 rows, makes most files one group).
// A row group is the smallest unit a scan can skip by its statistics and
// the unit parallel workers share out, so a file this big is split into
// groups about the size of the stride that other Iceberg engines skip
// within a file (ORC's 10,000-row index stride, Parquet's 20,000-row page
// limit). Much smaller groups would cost scans: each group repeats its
// column chunks' headers and dictionaries and is decoded separately.
const defaultRowGroupRows = 16_384

// rowGroupLimit is the write option that applies defaultRowGroupRows to
// tbl, or none when the table sets its own limit.
func rowGroupLimit(tbl *table.Table) []table.WriteRecordOption {
	if _, set := tbl.Properties()[table.ParquetRowGroupLimitKey]; set {
		return nil
	}
	return []table.WriteRecordOption{table.WithParquetRowGroupLimit(defaultRowGroupRows)}
}
