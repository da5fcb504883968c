package governance

import (
	"context"
	"sync"
)

// StatementVersions pins, for one statement, the version each policy
// store is read at. Gate one asks about every object a statement touches
// (a catalog query lists hundreds of tables, three checks each), and
// reading the version from the database for each check cost more than
// the checks themselves. Under a pin the first read of a version is kept
// for the rest of the statement, as PostgreSQL reads its catalogs under
// one snapshot per statement: a GRANT or REVOKE committed meanwhile
// applies from the next statement on. Writes never read through a pin
// (they compare and set on the version they read in their own
// transaction).
type StatementVersions struct {
	mu     sync.Mutex
	access versionPin
	fine   versionPin
}

type versionPin struct {
	version int64
	read    bool
}

type statementVersionsKey struct{}

// WithStatementVersions returns ctx under which the store's version reads
// are pinned by v. One statement uses one v, created when it starts.
func WithStatementVersions(ctx context.Context, v *StatementVersions) context.Context {
	return context.WithValue(ctx, statementVersionsKey{}, v)
}

// pinned returns the version pinned in ctx by pick, reading it with read
// the first time; without a pin in ctx every call reads.
func pinned(ctx context.Context, pick func(*StatementVersions) *versionPin, read func(context.Context) (int64, error)) (int64, error) {
	v, ok := ctx.Value(statementVersionsKey{}).(*StatementVersions)
	if !ok || v == nil {
		return read(ctx)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	p := pick(v)
	if p.read {
		return p.version, nil
	}
	version, err := read(ctx)
	if err != nil {
		return 0, err
	}
	*p = versionPin{version: version, read: true}
	return version, nil
}
