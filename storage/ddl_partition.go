package storage

import (
	"fmt"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// PartitionField is one field of an Iceberg partition spec: a transform of
// a source column. Transform is one of identity, year, month, day, hour,
// bucket (Param = number of buckets) and truncate (Param = width).
type PartitionField struct {
	Transform string
	Param     int
	Column    string
}

// String prints the field as written in a partitioning clause.
func (f PartitionField) String() string {
	switch f.Transform {
	case "identity":
		return f.Column
	case "bucket", "truncate":
		return fmt.Sprintf("%s(%d, %s)", f.Transform, f.Param, f.Column)
	}
	return f.Transform + "(" + f.Column + ")"
}

// transform is the Iceberg transform and the partition field's name, which
// follows the names other Iceberg engines give (order_date_day, id_bucket).
func (f PartitionField) transform() (iceberg.Transform, string, error) {
	switch f.Transform {
	case "identity":
		return iceberg.IdentityTransform{}, f.Column, nil
	case "year":
		return iceberg.YearTransform{}, f.Column + "_year", nil
	case "month":
		return iceberg.MonthTransform{}, f.Column + "_month", nil
	case "day":
		return iceberg.DayTransform{}, f.Column + "_day", nil
	case "hour":
		return iceberg.HourTransform{}, f.Column + "_hour", nil
	case "bucket":
		if f.Param <= 0 {
			return nil, "", badPartitioning("bucket count must be positive in %s", f)
		}
		return iceberg.BucketTransform{NumBuckets: f.Param}, f.Column + "_bucket", nil
	case "truncate":
		if f.Param <= 0 {
			return nil, "", badPartitioning("truncate width must be positive in %s", f)
		}
		return iceberg.TruncateTransform{Width: f.Param}, f.Column + "_trunc", nil
	}
	return nil, "", badPartitioning("unknown partition transform %q", f.Transform)
}

// partitionSpec builds the spec of fields over schema, refusing a column
// that does not exist or a transform its type does not allow.
func partitionSpec(fields []PartitionField, schema *iceberg.Schema) (*iceberg.PartitionSpec, error) {
	opts := make([]iceberg.PartitionOption, 0, len(fields))
	for _, f := range fields {
		tr, name, err := f.transform()
		if err != nil {
			return nil, err
		}
		src, ok := schema.FindFieldByName(f.Column)
		if !ok {
			return nil, pgerror.New(pgerror.UndefinedColumn, "column %q named in partitioning does not exist", f.Column)
		}
		if !tr.CanTransform(src.Type) {
			return nil, badPartitioning("partition transform %s cannot be applied to column %q of type %s", f.Transform, f.Column, src.Type)
		}
		opts = append(opts, iceberg.AddPartitionFieldByName(f.Column, name, tr, schema, nil))
	}
	spec, err := iceberg.NewPartitionSpecOpts(opts...)
	if err != nil {
		return nil, pgerror.Wrap(err, pgerror.InvalidParameterValue, "invalid partitioning: %s", err)
	}
	return &spec, nil
}

func badPartitioning(format string, args ...any) error {
	return pgerror.New(pgerror.InvalidParameterValue, format, args...)
}
