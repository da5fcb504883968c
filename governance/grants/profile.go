package grants

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

//go:embed data/grant-profile.json
var embeddedProfile string

//go:embed data/ranger-servicedef-polaris.json
var embeddedServiceDef string

// Profile is the grant profile closed under a service definition: for each
// SQL privilege, the level it binds to and, per kind of object, the
// complete access-type set written at each level of its plan. It also
// knows the service definition's native access types, which a statement
// may name directly. A Profile is immutable and safe for concurrent use.
type Profile struct {
	sd         *serviceDef
	privileges map[string]*privilege // by canonical name and alias
	names      []string              // canonical names in profile order
}

// privilege is one SQL privilege of the profile, its sets already closed.
type privilege struct {
	name  string
	level Level
	on    map[ObjectKind]map[Level][]string
}

// profileJSON is the file format of data/grant-profile.json.
type profileJSON struct {
	Version    int    `json:"version"`
	About      string `json:"about"`
	Privileges []struct {
		Name    string                            `json:"name"`
		Aliases []string                          `json:"aliases"`
		Level   Level                             `json:"level"`
		About   string                            `json:"about"`
		On      map[ObjectKind]map[Level][]string `json:"on"`
	} `json:"privileges"`
}

// profileVersion is the profile format this package reads.
const profileVersion = 1

// Load returns the profile shipped with SQE, closed under the Polaris
// service definition shipped beside it. It parses both files on every
// call; callers keep the result.
func Load() (*Profile, error) {
	return parseProfile([]byte(embeddedProfile), []byte(embeddedServiceDef))
}

// parseProfile reads a profile and a service definition and checks the
// profile against it (see checkPrivilege).
func parseProfile(profileData, serviceDefData []byte) (*Profile, error) {
	sd, err := parseServiceDef(serviceDefData)
	if err != nil {
		return nil, err
	}
	var raw profileJSON
	dec := json.NewDecoder(bytes.NewReader(profileData))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("parse grant profile: %w", err)
	}
	if raw.Version != profileVersion {
		return nil, fmt.Errorf("grant profile version %d, want %d", raw.Version, profileVersion)
	}
	p := &Profile{sd: sd, privileges: map[string]*privilege{}}
	for _, rp := range raw.Privileges {
		priv := &privilege{name: rp.Name, level: rp.Level, on: map[ObjectKind]map[Level][]string{}}
		if err := checkPrivilege(sd, rp.Name, rp.Level, rp.On); err != nil {
			return nil, fmt.Errorf("grant profile: %w", err)
		}
		for kind, byLevel := range rp.On {
			priv.on[kind] = map[Level][]string{}
			for l, seeds := range byLevel {
				closed, err := sd.closure(seeds)
				if err != nil {
					return nil, fmt.Errorf("grant profile: %s on %s at %s: %w", rp.Name, kind, l, err)
				}
				priv.on[kind][l] = closed
			}
		}
		for _, name := range append([]string{rp.Name}, rp.Aliases...) {
			if name != canonicalPrivilegeName(name) {
				return nil, fmt.Errorf("grant profile: privilege name %q is not in canonical form %q", name, canonicalPrivilegeName(name))
			}
			if _, dup := p.privileges[name]; dup {
				return nil, fmt.Errorf("grant profile: privilege name %q used twice", name)
			}
			if sd.known(strings.ToLower(name)) {
				return nil, fmt.Errorf("grant profile: privilege name %q is also a native access type", name)
			}
			p.privileges[name] = priv
		}
		p.names = append(p.names, rp.Name)
	}
	return p, nil
}

// checkPrivilege checks one profile entry: a known binding level; at least
// one object kind at that level and none deeper; for each object kind, a
// non-empty seed list at every level from the catalog down to the
// object's own level (the traversal that reaching the object needs) and
// none below it; every seed a declared access type. Seeds are not checked
// against accessTypeRestrictions: Polaris authorizes LIST_NAMESPACES on
// the catalog with namespace-list, which the service definition restricts
// to namespaces.
func checkPrivilege(sd *serviceDef, name string, level Level, on map[ObjectKind]map[Level][]string) error {
	if level.depth() == 0 {
		return fmt.Errorf("%s: unknown level %q", name, level)
	}
	atLevel := false
	for kind, byLevel := range on {
		d := kind.depth()
		switch {
		case d == 0:
			return fmt.Errorf("%s: unknown object kind %q", name, kind)
		case d > level.depth():
			return fmt.Errorf("%s binds to the %s level but lists %s objects, which are deeper", name, level, kind)
		case d == level.depth():
			atLevel = true
		}
		for l := range byLevel {
			if l.depth() == 0 || l.depth() > d {
				return fmt.Errorf("%s on %s: level %q is not at or above the object", name, kind, l)
			}
		}
		for _, l := range levels()[:d] {
			seeds := byLevel[l]
			if len(seeds) == 0 {
				return fmt.Errorf("%s on %s: no access types at the %s level", name, kind, l)
			}
			for _, s := range seeds {
				if !sd.known(s) {
					return fmt.Errorf("%s on %s at %s: unknown access type %q", name, kind, l, s)
				}
			}
		}
	}
	if !atLevel {
		return fmt.Errorf("%s binds to the %s level but lists no object at it", name, level)
	}
	return nil
}

// canonicalPrivilegeName is a SQL privilege name in upper case with single
// spaces: "create  table" is CREATE TABLE.
func canonicalPrivilegeName(name string) string {
	return strings.ToUpper(strings.Join(strings.Fields(name), " "))
}

// Privileges returns the canonical names of the profile's SQL privileges,
// in profile order.
func (p *Profile) Privileges() []string { return slices.Clone(p.names) }

// Closure returns the access types with everything they imply under the
// service definition, sorted; an undeclared access type is an error.
func (p *Profile) Closure(accessTypes ...string) ([]string, error) {
	return p.sd.closure(accessTypes)
}

// AccessTypes returns, for a SQL privilege of the profile granted on an
// object of the given kind, the closed access-type set of each level of
// its plan, outermost first; false when the privilege does not apply to
// that kind of object.
func (p *Profile) AccessTypes(privilegeName string, kind ObjectKind) (map[Level][]string, bool) {
	priv, ok := p.privileges[canonicalPrivilegeName(privilegeName)]
	if !ok {
		return nil, false
	}
	byLevel, ok := priv.on[kind]
	if !ok {
		return nil, false
	}
	out := map[Level][]string{}
	for l, set := range byLevel {
		out[l] = slices.Clone(set)
	}
	return out, true
}

// PolarisServiceDef is the Ranger service definition the profile is
// closed under (Apache Polaris's "polaris" servicedef), as JSON, for an
// evaluator that enforces the policies the profile writes.
func PolarisServiceDef() []byte { return []byte(embeddedServiceDef) }
