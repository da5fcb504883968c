// Package types is SQE's one mapping between PostgreSQL types (OIDs,
// typmods, names as format_type prints them) and Apache Arrow data types.
//
// Data moves through SQE as Arrow arrays; what a client sees is a
// PostgreSQL type. Storage reads Iceberg columns as Arrow (the Iceberg to
// Arrow half is iceberg-go's, see storage), the binder types every
// expression with a T, and pgwire describes and encodes results from T.
// Keeping the table here means a column never changes type between the
// catalog, the planner and the wire.
//
//	PostgreSQL      OID   Arrow                      Iceberg
//	boolean          16   bool                       boolean
//	smallint         21   int16                      int (widened on write)
//	integer          23   int32                      int
//	bigint           20   int64                      long
//	real            700   float32                    float
//	double prec.    701   float64                    double
//	numeric(p,s)   1700   decimal128(p,s)            decimal(p,s)
//	text             25   utf8                       string
//	varchar(n)     1043   utf8                       string
//	date           1082   date32                     date
//	timestamp      1114   timestamp[us]              timestamp
//	timestamptz    1184   timestamp[us, UTC]         timestamptz
package types
