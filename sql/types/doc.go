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
//	numeric(p<=18) 1700   decimal64(p,s)             decimal(p,s) (INT32/INT64
//	                                                 in SQE's files)
//	numeric(p,s)   1700   decimal128(p,s)            decimal(p,s)
//	numeric        1700   sqe.numeric (binary, a     (none: computed only;
//	                      scale per value, NaN, Inf) stored as decimal(38,s))
//	text             25   utf8                       string
//	varchar(n)     1043   utf8                       string
//	character(n)   1042   utf8 (blank-padded)        string
//	date           1082   date32                     date
//	timestamp      1114   timestamp[us]              timestamp
//	timestamptz    1184   timestamp[us, UTC]         timestamptz
//	time           1083   time64[us]                 time
//	interval       1186   month_day_nano_interval    (none: computed only)
//	uuid           2950   fixed_size_binary(16)      uuid
//	bytea            17   binary                     binary
//	uuid[]         2951   list<fixed_size_binary(16)>
//	bytea[]        1001   list<binary>
//	json            114   utf8 (as written)          string
//	jsonb          3802   utf8 (normalised)          string
//	json[]          199   list<utf8>
//	jsonb[]        3807   list<utf8>
//
// The system catalogs (package sql/pgcatalog) add types no stored table
// has; they are presented only, never written to Iceberg:
//
//	PostgreSQL      OID   Arrow
//	"char"           18   utf8 (one byte)
//	name             19   utf8
//	int2vector       22   list<int16>
//	regproc          24   uint32
//	oid              26   uint32
//	xid              28   uint32
//	oidvector        30   list<uint32>
//	pg_node_tree    194   utf8
//	inet            869   utf8
//	aclitem        1033   utf8
//	"char"[]       1002   list<utf8>
//	name[]         1003   list<utf8>
//	smallint[]     1005   list<int16>
//	integer[]      1007   list<int32>
//	text[]         1009   list<utf8>
//	oid[]          1028   list<uint32>
//	aclitem[]      1034   list<utf8>
//	anyarray       2277   list<utf8> (never holds a value)
package types
