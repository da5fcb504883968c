package pgcatalog

import (
	"context"
	"hash/fnv"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
)

// Source is what the catalog relations are computed from: the caller's
// view of the server.
type Source interface {
	Database() string    // current database (catalog)
	Databases() []string // all catalogs
	User() string
	Roles() []string // the caller's effective roles
	Superuser() bool
	// Namespaces and Tables list only what the caller may see: gate one
	// applies behind these calls.
	Namespaces(ctx context.Context) ([]string, error)
	Tables(ctx context.Context, namespace string) ([]TableInfo, error)
	// Grants is what the caller may see of gate one's grants on the
	// objects it sees (relacl, nspacl, datacl); nil when the server
	// keeps no grants.
	Grants(ctx context.Context) (Grants, error)
	Settings() [][2]string // name, value (pg_settings)
	// BackendPID is the process id the caller's connection announced in
	// BackendKeyData (pg_stat_activity.pid), or 0 when it has none.
	BackendPID() int32
	// Activity lists the server's live sessions (pg_stat_activity); ok
	// is false when the caller's session belongs to no server.
	Activity() (sessions []Activity, ok bool)
	// PreparedStatements are the caller's session's named prepared
	// statements (pg_prepared_statements).
	PreparedStatements() []PreparedStatement
}

// ObjectBatches is a Source that remembers the batches of the relations
// computed only from its database, namespaces and tables (pg_class,
// pg_attribute, information_schema.columns, ...) for as long as those
// stay the same for the caller. A catalog query then reads a batch built
// once instead of building rows for every table of the catalog; a
// correlated subquery over pg_attrdef did so once per outer row.
type ObjectBatches interface {
	// ObjectBatch returns the batch remembered for the relation named
	// name (every column), computing it with build when there is none;
	// false, without building, when nothing can be remembered for the
	// caller now. The batch is shared: it must not be released or
	// changed.
	ObjectBatch(ctx context.Context, name string, build func() (arrow.RecordBatch, error)) (arrow.RecordBatch, bool, error)
}

// TableInfo describes one table the caller may see.
type TableInfo struct {
	Namespace, Name string
	OID             uint32
	Columns         []planner.TableColumn
	// RowEstimate is the table-level row count from metadata, or -1.
	RowEstimate int64
	// FilesSize is the bytes of the table's data files, 0 for a view, -1
	// when unknown or withheld from the caller (pg_relation_size).
	FilesSize int64
	// Comment is the table's comment (COMMENT ON TABLE), "" for none.
	Comment string
	// ColumnComments are the columns' comments by position, "" for none;
	// shorter than Columns when the last ones have none.
	ColumnComments []string
	// Defaults are the columns' DEFAULT expressions by position as
	// pg_attrdef.adbin holds them (package nodetree), "" for none;
	// shorter than Columns when the last ones have none.
	Defaults []string
	// View marks a view (relkind 'v'); Definition is then its query as
	// pg_get_viewdef shows it.
	View       bool
	Definition string
	// Statistics are what ANALYZE collected of the columns the caller
	// may see (pg_stats), in column order; empty before ANALYZE.
	Statistics []ColumnStatistics
}

// ColumnStatistics is one analyzed column of a table as the caller may
// see its statistics.
type ColumnStatistics struct {
	// Column is the column's index in TableInfo.Columns.
	Column int
	// Withheld marks statistics that describe values or rows the caller
	// may not see (a masked column, a table under a row filter): pg_stats
	// shows the column with every statistic NULL.
	Withheld bool
	// Rows and Nulls are the analyzed snapshot's rows and the column's
	// NULLs; Distinct estimates its distinct non-null values; AvgWidth is
	// the average size in bytes of a non-null value as stored (a string's
	// UTF-8 bytes).
	Rows, Nulls int64
	Distinct    float64
	AvgWidth    float64
}

// Well-known object ids, as PostgreSQL 15 assigns them.
const (
	oidPgCatalog         uint32 = 11
	oidPublic            uint32 = 2200
	oidInformationSchema uint32 = 13207
	// oidBootstrapOwner owns every object: Iceberg records no owners, and
	// PostgreSQL's bootstrap superuser has this id.
	oidBootstrapOwner uint32 = 10
	// ownerName is how the owner is named where a column holds a role name.
	ownerName               = "sqe"
	oidHeapAM        uint32 = 2
	oidDefaultTblspc uint32 = 1663
	firstUserOID     uint32 = 16384
)

// systemNamespaces are the namespaces every caller sees, with their fixed
// OIDs.
var systemNamespaces = []struct {
	name string
	oid  uint32
}{
	{"pg_catalog", oidPgCatalog},
	{"public", oidPublic},
	{"information_schema", oidInformationSchema},
}

// NamespaceOID is the stable OID of a namespace of database: the fixed
// PostgreSQL OID for pg_catalog, public and information_schema, otherwise
// a hash of the name above PostgreSQL's first user OID, so that it survives
// restarts and every server node agrees on it.
func NamespaceOID(database, namespace string) uint32 {
	for _, s := range systemNamespaces {
		if s.name == namespace {
			return s.oid
		}
	}
	return hashOID("namespace", database+"."+namespace)
}

// DatabaseOID is the stable OID of a database (an Iceberg catalog).
func DatabaseOID(database string) uint32 { return hashOID("database", database) }

// RoleOID is the stable OID of a user or role name. Users and roles share
// one namespace of names in PostgreSQL, and so here.
func RoleOID(name string) uint32 { return hashOID("role", name) }

// hashOID places a hash of kind and name above firstUserOID. The kind keeps
// a role and a namespace of the same name apart.
func hashOID(kind, name string) uint32 {
	h := fnv.New32a()
	_, _ = io.WriteString(h, kind)
	_, _ = io.WriteString(h, "\x00")
	_, _ = io.WriteString(h, name)
	return firstUserOID + h.Sum32()%(1<<31-firstUserOID)
}

// OwnerOID and OwnerName are the role that owns every object SQE lists:
// Iceberg records no owners.
const (
	OwnerOID  = oidBootstrapOwner
	OwnerName = ownerName
)
