package storage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// The maintenance lease.
//
// Two servers on one catalog must not maintain a table at once: their
// rewrites would replace each other's files and every second commit would
// be wasted. The lease lives in the table's own metadata, so it works
// wherever the table lives (the embedded catalog and a REST catalog
// alike) without a store of its own. An Iceberg commit can be made
// conditional only on what its requirements assert: refs, schema, spec
// and sort order ids, never a property (the REST protocol has no other).
// So the lock is a tag, LeaseRef, and the property LeaseProperty says
// whose it is and until when ("<node> <expiry, Unix ms>"):
//
//   - take: a commit that requires the tag to be absent creates it (at
//     the current snapshot) and sets the property; of two servers racing,
//     the catalog lets exactly one through;
//   - break a lease past its expiry: a commit that requires the tag to
//     still point where it pointed removes both; then take it as above;
//   - renew: rewrite the property, requiring the tag unchanged;
//   - release: remove both, requiring the tag unchanged.
//
// While held, the tag keeps its snapshot from expiry (a renewal moves it
// to the current snapshot); it goes at release.
// A holder that died leaves a lease that others break once it expired. A
// holder works only while its lease has at least leaseMargin left, so
// servers' clocks must agree to within that margin.

const (
	// LeaseRef is the tag that is the maintenance lease's lock.
	LeaseRef = "sqe-maintenance-lease"
	// LeaseProperty names the lease's holder and expiry.
	LeaseProperty = "sqe.maintenance.lease"
)

// ErrLeaseHeld is returned when another server holds a table's
// maintenance lease, or took it over since this one held it.
var ErrLeaseHeld = errors.New("maintenance lease held by another server")

// errNoSnapshot: a table without a snapshot has nothing to maintain, and
// a tag needs a snapshot to point at.
var errNoSnapshot = errors.New("table has no snapshot")

// lease is a held maintenance lease on a table.
type lease struct {
	t        *Table
	node     string
	snapshot int64
	expiry   time.Time
}

// leaseMargin is the part of a lease's duration that is never worked in:
// a step starts only while more than this is left.
func leaseMargin(ttl time.Duration) time.Duration { return ttl / 4 }

// leaseValue is the property's value for node's lease until expiry.
func leaseValue(node string, expiry time.Time) string {
	return node + " " + strconv.FormatInt(expiry.UnixMilli(), 10)
}

// parseLease reads a lease property; ok is false for a malformed one.
func parseLease(v string) (node string, expiry time.Time, ok bool) {
	node, ms, found := strings.Cut(v, " ")
	n, err := strconv.ParseInt(ms, 10, 64)
	if !found || node == "" || err != nil {
		return "", time.Time{}, false
	}
	return node, time.UnixMilli(n), true
}

// leaseRef returns the lease tag's snapshot, if the tag exists.
func leaseRef(meta table.Metadata) (int64, bool) {
	for name, ref := range meta.Refs() {
		if name == LeaseRef {
			return ref.SnapshotID, true
		}
	}
	return 0, false
}

// acquireLease takes the table's maintenance lease for node until
// now+ttl, breaking an expired one and renewing one node holds. It fails
// with ErrLeaseHeld while another server's lease runs.
func (t *Table) acquireLease(ctx context.Context, node string, now time.Time, ttl time.Duration) (*lease, error) {
	expiry := now.Add(ttl)
	var l *lease
	err := t.commitLease(ctx, "take maintenance lease on", func(meta table.Metadata) (*int64, []table.Update, bool, error) {
		held, has := leaseRef(meta)
		holder, until, ok := parseLease(meta.Properties()[LeaseProperty])
		set := table.NewSetPropertiesUpdate(iceberg.Properties{LeaseProperty: leaseValue(node, expiry)})
		switch {
		case has && ok && holder == node:
			l = &lease{t: t, node: node, snapshot: held, expiry: expiry}
			return &held, []table.Update{set}, true, nil
		case has && ok && now.Before(until):
			return nil, nil, false, fmt.Errorf("%w: %s until %s", ErrLeaseHeld, holder, until.UTC().Format(time.RFC3339))
		case has:
			// Expired (or unreadable): break it, then take it on the
			// next round.
			return &held, []table.Update{table.NewRemoveSnapshotRefUpdate(LeaseRef),
				table.NewRemovePropertiesUpdate([]string{LeaseProperty})}, false, nil
		}
		cur := meta.CurrentSnapshot()
		if cur == nil {
			return nil, nil, false, errNoSnapshot
		}
		l = &lease{t: t, node: node, snapshot: cur.SnapshotID, expiry: expiry}
		return nil, []table.Update{table.NewSetSnapshotRefUpdate(LeaseRef, cur.SnapshotID, table.TagRef, 0, 0, 0), set}, true, nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// usable reports whether the lease may still be worked under at now.
func (l *lease) usable(now time.Time, ttl time.Duration) bool {
	return now.Add(leaseMargin(ttl)).Before(l.expiry)
}

// renew extends the lease to now+ttl and moves its tag to the current
// snapshot, so that the tag keeps no snapshot from an expiry that
// follows; ErrLeaseHeld if the lease was lost.
func (l *lease) renew(ctx context.Context, now time.Time, ttl time.Duration) error {
	expiry := now.Add(ttl)
	moved := l.snapshot
	err := l.t.commitLease(ctx, "renew maintenance lease on", func(meta table.Metadata) (*int64, []table.Update, bool, error) {
		if !l.heldIn(meta) {
			return nil, nil, false, fmt.Errorf("%w: the lease was lost", ErrLeaseHeld)
		}
		updates := []table.Update{table.NewSetPropertiesUpdate(iceberg.Properties{LeaseProperty: leaseValue(l.node, expiry)})}
		if cur := meta.CurrentSnapshot(); cur != nil && cur.SnapshotID != l.snapshot {
			moved = cur.SnapshotID
			updates = append(updates, table.NewSetSnapshotRefUpdate(LeaseRef, moved, table.TagRef, 0, 0, 0))
		}
		return &l.snapshot, updates, true, nil
	})
	if err == nil {
		l.expiry, l.snapshot = expiry, moved
	}
	return err
}

// release gives the lease up; a lease already lost is left alone.
func (l *lease) release(ctx context.Context) error {
	err := l.t.commitLease(ctx, "release maintenance lease on", func(meta table.Metadata) (*int64, []table.Update, bool, error) {
		if !l.heldIn(meta) {
			return nil, nil, true, nil
		}
		return &l.snapshot, []table.Update{table.NewRemoveSnapshotRefUpdate(LeaseRef),
			table.NewRemovePropertiesUpdate([]string{LeaseProperty})}, true, nil
	})
	if errors.Is(err, ErrLeaseHeld) {
		return nil
	}
	return err
}

// heldIn reports whether meta shows this lease.
func (l *lease) heldIn(meta table.Metadata) bool {
	id, has := leaseRef(meta)
	holder, _, ok := parseLease(meta.Properties()[LeaseProperty])
	return has && id == l.snapshot && ok && holder == l.node
}

// leaseDecision looks at the table's newest metadata and says what to
// commit: the lease tag's required snapshot (nil: the tag must be
// absent), the updates (none: nothing to commit), and whether this
// commit ends the operation (false: decide again on the metadata it
// leaves).
type leaseDecision func(meta table.Metadata) (tag *int64, updates []table.Update, final bool, err error)

// commitLease commits what decide says, under the table's commit lock,
// each commit conditional on the lease tag. A commit that loses a race
// decides again on the reloaded metadata, which then shows the winner's
// lease (ErrLeaseHeld), up to the catalog's commit attempts.
func (t *Table) commitLease(ctx context.Context, verb string, decide leaseDecision) error {
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return err
	}
	unlock, err := t.host.lockTable(ctx, t.ident)
	if err != nil {
		return fmt.Errorf("%s %s: wait for commit lock: %w", verb, t.ident, err)
	}
	defer unlock()
	cat, err := t.host.catalogIO(ctx)
	if err != nil {
		return err
	}
	ident := table.Identifier{t.ident.Namespace, t.ident.Table}
	for attempt := 1; ; {
		base, err := t.host.reloadTable(ctx, t.ident)
		if err != nil {
			return err
		}
		tag, updates, final, err := decide(base.Metadata())
		if err != nil {
			return err
		}
		if len(updates) > 0 {
			reqs := []table.Requirement{table.AssertTableUUID(base.Metadata().TableUUID()), table.AssertRefSnapshotID(LeaseRef, tag)}
			_, _, err = cat.CommitTable(ctx, ident, reqs, updates)
			if err != nil {
				if !isCommitConflict(err) && !strings.Contains(err.Error(), "requirement failed") {
					return t.host.commitError(ctx, t.ident, fmt.Errorf("%s %s: commit: %w", verb, t.ident, err))
				}
				if attempt >= t.host.commitAttempts() {
					return fmt.Errorf("%w: %s %s: %w", ErrLeaseHeld, verb, t.ident, err)
				}
				attempt++
				if err := sleepCtx(ctx, commitBackoff(attempt-1)); err != nil {
					return fmt.Errorf("%s %s: %w", verb, t.ident, err)
				}
				continue
			}
		}
		if final {
			return nil
		}
	}
}
