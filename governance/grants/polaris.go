package grants

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/sqe-db/sqe/sql/pgerror"
)

//go:embed data/polaris-privileges.json
var embeddedPolarisPrivileges string

// PolarisMapping is the grant profile's table for the polaris backend:
// for each SQL privilege and kind of object, the Apache Polaris privileges
// written at each level (data/polaris-privileges.json). It covers exactly
// the profile's privileges, kinds and levels, so that a statement planned
// with the profile always has a Polaris translation. Immutable.
type PolarisMapping struct {
	privileges map[string]map[ObjectKind]map[Level][]string
	// tableLevel holds the privileges written at the table level of some
	// plan: found on a namespace, they are an ALL TABLES grant.
	tableLevel map[string]bool
}

// PolarisWrite is one securable a Polaris plan grants on or revokes from:
// the resource (a Wildcard table is the namespace, where Polaris applies
// the grant to every table in it) and the privileges.
type PolarisWrite struct {
	Resource   Resource
	Privileges []string
	// Named marks the level the statement names, the only one REVOKE
	// touches.
	Named bool
}

// polarisSecurablePrivileges are the privileges Polaris's management API
// accepts on each kind of securable (the CatalogPrivilege,
// NamespacePrivilege, TablePrivilege and ViewPrivilege enumerations of
// its OpenAPI, restricted to those the mapping may use).
var polarisSecurablePrivileges = map[Level][]string{
	LevelCatalog: {"CATALOG_MANAGE_CONTENT", "NAMESPACE_CREATE", "NAMESPACE_LIST", "NAMESPACE_DROP",
		"NAMESPACE_READ_PROPERTIES", "TABLE_CREATE", "TABLE_LIST", "TABLE_DROP", "TABLE_READ_DATA", "TABLE_WRITE_DATA",
		"VIEW_LIST", "VIEW_DROP", "VIEW_READ_PROPERTIES"},
	LevelNamespace: {"CATALOG_MANAGE_CONTENT", "NAMESPACE_CREATE", "NAMESPACE_LIST", "NAMESPACE_DROP",
		"NAMESPACE_READ_PROPERTIES", "TABLE_CREATE", "TABLE_LIST", "TABLE_DROP", "TABLE_READ_DATA", "TABLE_WRITE_DATA",
		"VIEW_LIST", "VIEW_DROP", "VIEW_READ_PROPERTIES"},
	LevelTable: {"TABLE_DROP", "TABLE_LIST", "TABLE_READ_PROPERTIES", "TABLE_READ_DATA", "TABLE_WRITE_DATA",
		"VIEW_DROP", "VIEW_LIST", "VIEW_READ_PROPERTIES"},
}

// LoadPolarisMapping returns the shipped Polaris table, checked against
// the profile p.
func (p *Profile) LoadPolarisMapping() (*PolarisMapping, error) {
	return p.parsePolarisMapping([]byte(embeddedPolarisPrivileges))
}

func (p *Profile) parsePolarisMapping(data []byte) (*PolarisMapping, error) {
	var raw struct {
		Version    int                                          `json:"version"`
		About      string                                       `json:"about"`
		Privileges map[string]map[ObjectKind]map[Level][]string `json:"privileges"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("parse polaris privileges: %w", err)
	}
	if raw.Version != 1 {
		return nil, fmt.Errorf("polaris privileges version %d, want 1", raw.Version)
	}
	m := &PolarisMapping{privileges: raw.Privileges, tableLevel: map[string]bool{}}
	if got, want := slices.Sorted(maps.Keys(raw.Privileges)), slices.Sorted(slices.Values(p.names)); !slices.Equal(got, want) {
		return nil, fmt.Errorf("polaris privileges: privileges %v, the profile has %v", got, want)
	}
	for name, byKind := range raw.Privileges {
		priv := p.privileges[name]
		if got, want := slices.Sorted(maps.Keys(byKind)), slices.Sorted(maps.Keys(priv.on)); !slices.Equal(got, want) {
			return nil, fmt.Errorf("polaris privileges: %s on %v, the profile on %v", name, got, want)
		}
		for kind, byLevel := range byKind {
			if got, want := slices.Sorted(maps.Keys(byLevel)), slices.Sorted(maps.Keys(priv.on[kind])); !slices.Equal(got, want) {
				return nil, fmt.Errorf("polaris privileges: %s on %s at levels %v, the profile at %v", name, kind, got, want)
			}
			for l, privs := range byLevel {
				for _, pp := range privs {
					if !slices.Contains(polarisSecurablePrivileges[l], pp) {
						return nil, fmt.Errorf("polaris privileges: %s on %s: %s cannot be granted on a %s", name, kind, pp, l)
					}
					if l == LevelTable {
						m.tableLevel[pp] = true
					}
				}
			}
		}
	}
	return m, nil
}

// Writes translates a plan made by the profile into Polaris grants,
// outermost first: the plan's levels, each with the Polaris privileges of
// the plan's SQL privileges there. A native access type has no Polaris
// translation and is refused.
func (m *PolarisMapping) Writes(plan Plan) ([]PolarisWrite, error) {
	kind := plan.Object.Kind
	var out []PolarisWrite
	for _, w := range plan.Writes {
		res := w.Resource
		if res.Table == Wildcard {
			res.Table = ""
		}
		var privs []string
		for _, pp := range plan.Privileges {
			byKind, ok := m.privileges[pp.Name]
			if !ok {
				return nil, pgerror.New(pgerror.FeatureNotSupported, "access type %q has no Polaris privilege", pp.Name).
					WithHint("Name a SQL privilege (SELECT, INSERT, USAGE, ...): the polaris backend writes Polaris's own privileges for them.")
			}
			privs = append(privs, byKind[kind][w.Level]...)
		}
		if len(privs) == 0 {
			continue
		}
		slices.Sort(privs)
		privs = slices.Compact(privs)
		if i := slices.IndexFunc(out, func(o PolarisWrite) bool { return o.Resource == res }); i >= 0 {
			// ALL TABLES: the table level lands on the namespace too.
			out[i].Privileges = slices.Compact(slices.Sorted(slices.Values(append(out[i].Privileges, privs...))))
			out[i].Named = out[i].Named || w.Named
			continue
		}
		out = append(out, PolarisWrite{Resource: res, Privileges: privs, Named: w.Named})
	}
	return out, nil
}

// IsTableLevel reports whether privilege is one the mapping writes at the
// table level: on a namespace, it is a grant on all its tables.
func (m *PolarisMapping) IsTableLevel(privilege string) bool { return m.tableLevel[privilege] }
