package policy

import (
	"context"

	"github.com/sqe-db/sqe/governance/ranger"
)

// Snapshot is one consistent state of a store's gate-two policies.
type Snapshot struct {
	// Version changes whenever the policies do; the Enforcer recompiles
	// only then.
	Version int64
	// ServiceDef and TagServiceDef are the hive and tag service
	// definitions the policies are written against. TagServiceDef carries
	// the component-qualified mask types ("hive:MASK_SHOW_LAST_4") and,
	// where tag row filters are enabled, a row-filter definition.
	ServiceDef    *ranger.ServiceDef
	TagServiceDef *ranger.ServiceDef
	// Policies are the hive service's data-mask, row-filter and access
	// policies (an access policy's explicit denial of a column restricts
	// it); TagPolicies the tag service's.
	Policies    []ranger.Policy
	TagPolicies []ranger.Policy
	// Roles are the store's roles (Ranger's role download), nil when the
	// caller's roles come from elsewhere (the governance store, through
	// the session's identity).
	Roles *ranger.Roles
}

// Store keeps gate two's policies.
type Store interface {
	// Snapshot returns the current policies. An error means the policies
	// are unknown, and the caller must admit no row.
	Snapshot(ctx context.Context) (*Snapshot, error)
	// PutPolicy creates the policy named p.Name or, with replace,
	// replaces it. A policy of that name that exists without replace is
	// an error (42710).
	PutPolicy(ctx context.Context, p ranger.Policy, replace bool) error
	// DropPolicy removes the policy named name and reports whether it
	// existed.
	DropPolicy(ctx context.Context, name string) (bool, error)
	// EditPolicy reads the policy named name (nil when there is none),
	// hands it to edit and stores edit's answer in its place; a nil
	// answer removes the policy, an error writes nothing. The embedded
	// store reads and writes in one transaction. Ranger Admin has none:
	// there an edit made elsewhere between the read and the write is
	// lost.
	EditPolicy(ctx context.Context, name string, edit PolicyEdit) error
	// Engine is the [policy] engine the store implements (EngineEmbedded,
	// EngineRanger), which SHOW ACCESS names as the policies' store.
	Engine() string
}

// PolicyEdit turns the policy EditPolicy read, nil when there is none,
// into what is stored in its place: nil removes it. It may change current
// and return it.
type PolicyEdit func(current *ranger.Policy) (*ranger.Policy, error)

// The stores, as [policy] engine names them.
const (
	EngineEmbedded = "embedded"
	EngineRanger   = "ranger"
)

// IsTagPolicy reports whether p belongs to the tag service: its only
// resource is the tag.
func IsTagPolicy(p *ranger.Policy) bool {
	_, ok := p.Resources["tag"]
	return ok && len(p.Resources) == 1
}

// CacheObserver is told, for each snapshot a store hands out, whether it
// came from the store's cache (hit) or had to be read or revalidated
// (miss), for metrics.
type CacheObserver func(hit bool)
