package planner

import (
	"context"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/sql/types"
)

// TableName is a possibly partial three-part name as written.
type TableName struct {
	Catalog, Schema, Name string
	// Version, when set, asks for a past version of the table (FOR
	// VERSION AS OF, FOR TIMESTAMP AS OF, or the session's default).
	Version *TableVersion
}

// label is the name as plans print it: its three parts in braces.
func (n TableName) label() string {
	return "{" + n.Catalog + " " + n.Schema + " " + n.Name + "}"
}

// PastTable is a Table that may be a past version of its table (FOR
// VERSION AS OF): PastVersion says which, for EXPLAIN, or is empty for
// the current state.
type PastTable interface {
	Table
	PastVersion() string
}

// TableVersion names a past version of a table: a snapshot by id, a
// branch or tag by name, or the snapshot current at a time. Exactly one
// of SnapshotID, Ref and AsOf is set.
type TableVersion struct {
	SnapshotID int64
	Ref        string
	AsOf       time.Time
	// FromSetting marks the session's default version (sqe.read_as_of):
	// it applies to the tables a statement reads, and is passed over by
	// relations that have no versions (views read their tables at it;
	// catalog relations are current), where a version written on the
	// reference itself is an error.
	FromSetting bool
}

// Catalog resolves table references as the calling user: gate one sits
// behind it, so a table the caller may not see is reported missing.
type Catalog interface {
	// ResolveTable loads the table that name refers to, applying the
	// session's default catalog and search_path to a partial name.
	ResolveTable(ctx context.Context, name TableName) (Table, error)
}

// TableColumn is one column of a stored table.
type TableColumn struct {
	Name     string
	Type     types.T
	Nullable bool
}

// Table is a resolved, readable table.
type Table interface {
	// QualifiedName is the table's full name, catalog.schema.table.
	QualifiedName() TableName
	// OID is a stable object id for the table (pg_class.oid).
	OID() uint32
	Columns() []TableColumn
	// RowEstimate is the table's row count from metadata, or -1.
	RowEstimate() int64
	// Scan streams the given columns (indices into Columns) of the rows
	// that filter may match; filter, when not nil, is used for pruning:
	// rows it rejects may still come back, since the plan evaluates the
	// same predicate above the scan. Batches carry the columns in the
	// order asked.
	Scan(ctx context.Context, columns []int, filter iceberg.BooleanExpression) (RecordStream, error)
}

// RecordStream is a stream of batches; Next returns io.EOF at the end.
type RecordStream interface {
	Next() (arrow.RecordBatch, error)
	Close() error
}

// EOF is returned by RecordStream.Next at the end of the stream.
var EOF = io.EOF

// Security turns a table into the relation the caller may see (gate two).
// Package governance implements it; until policies exist every column is
// visible and no row is filtered.
type Security interface {
	Secure(ctx context.Context, t Table) (*SecuredRelation, error)
}

// VersionedSecurity is a Security that can say which version of its
// policies it decides under, so that what it shows a caller of a table's
// metadata can be remembered until the version or the table moves.
type VersionedSecurity interface {
	Security
	// PoliciesVersion is the version the statement in ctx is decided
	// under. ok is false when a decision may change while the version
	// stays (a condition on the time or the client), or when the
	// policies are unknown: then nothing may be remembered.
	PoliciesVersion(ctx context.Context) (version int64, ok bool, err error)
}

// SecuredRelation is what the caller may see of a table: which columns,
// which rows (a filter evaluated on stored values, as a barrier) and which
// values (a mask expression replacing a column).
type SecuredRelation struct {
	Table Table
	// Visible lists the indices of the table columns the caller may see,
	// in table order. Restricted columns are absent.
	Visible []int
	// RowFilters are SQL boolean expressions over the table's columns, all
	// of which a row must satisfy. One that cannot be bound admits no row.
	RowFilters []string
	// Masks maps a visible column index to a SQL expression over the
	// table's columns that replaces the column's value. One that cannot be
	// bound makes the column NULL.
	Masks map[int]string
}

// OpenRelation is the Security of a caller no policy applies to.
type OpenRelation struct{}

// Secure returns every column, unfiltered and unmasked.
func (OpenRelation) Secure(_ context.Context, t Table) (*SecuredRelation, error) {
	cols := t.Columns()
	vis := make([]int, len(cols))
	for i := range cols {
		vis[i] = i
	}
	return &SecuredRelation{Table: t, Visible: vis}, nil
}

// PoliciesVersion is constant: the open relation never changes.
func (OpenRelation) PoliciesVersion(context.Context) (int64, bool, error) { return 0, true, nil }

// TaggedTable is a Table whose columns carry tags (gate two's tag
// policies apply to every column with a tag).
type TaggedTable interface {
	Table
	// ColumnTags returns the tags of each tagged column, by column index.
	// An error means the tags are unknown, which admits no row.
	ColumnTags() (map[int][]string, error)
}

// OwnedTable is a Table that records its owner (Iceberg's "owner" table
// property), so that policies granting {OWNER} reach it.
type OwnedTable interface {
	Table
	// Owner is the table's owner; empty when none is recorded.
	Owner() string
}
