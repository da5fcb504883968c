package grants

import (
	"encoding/json"
	"fmt"
	"slices"
)

// serviceDef is the part of a Ranger service definition that planning
// needs: which access types exist, the resource each is restricted to, and
// what each implies.
type serviceDef struct {
	name     string
	levelOf  map[string]string   // access type -> resource name of its accessTypeRestrictions
	implies  map[string][]string // access type -> impliedGrants
	resource map[string]bool     // resource names declared
}

// serviceDefJSON mirrors the fields of a Ranger service definition read here.
type serviceDefJSON struct {
	Name      string `json:"name"`
	Resources []struct {
		Name                   string   `json:"name"`
		AccessTypeRestrictions []string `json:"accessTypeRestrictions"`
	} `json:"resources"`
	AccessTypes []struct {
		Name          string   `json:"name"`
		ImpliedGrants []string `json:"impliedGrants"`
	} `json:"accessTypes"`
}

// parseServiceDef reads a Ranger service definition and checks that it is
// consistent: every access type unique, every implied grant and every
// restriction naming a declared access type, no access type restricted to
// two resources.
func parseServiceDef(data []byte) (*serviceDef, error) {
	var raw serviceDefJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("parse service definition: %w", err)
	}
	sd := &serviceDef{
		name:     raw.Name,
		levelOf:  map[string]string{},
		implies:  map[string][]string{},
		resource: map[string]bool{},
	}
	for _, at := range raw.AccessTypes {
		if _, dup := sd.implies[at.Name]; dup {
			return nil, fmt.Errorf("service definition %s: access type %q declared twice", sd.name, at.Name)
		}
		sd.implies[at.Name] = slices.Clone(at.ImpliedGrants)
	}
	for name, implied := range sd.implies {
		for _, i := range implied {
			if _, ok := sd.implies[i]; !ok {
				return nil, fmt.Errorf("service definition %s: %s implies undeclared access type %q", sd.name, name, i)
			}
		}
	}
	for _, r := range raw.Resources {
		sd.resource[r.Name] = true
		for _, at := range r.AccessTypeRestrictions {
			if _, ok := sd.implies[at]; !ok {
				return nil, fmt.Errorf("service definition %s: resource %s restricts undeclared access type %q", sd.name, r.Name, at)
			}
			if prev, dup := sd.levelOf[at]; dup {
				return nil, fmt.Errorf("service definition %s: access type %q restricted to both %s and %s", sd.name, at, prev, r.Name)
			}
			sd.levelOf[at] = r.Name
		}
	}
	return sd, nil
}

// known reports whether the service definition declares the access type.
func (sd *serviceDef) known(accessType string) bool {
	_, ok := sd.implies[accessType]
	return ok
}

// closure returns the access types together with everything they imply,
// followed transitively, sorted. Ranger's own evaluator expands implied
// grants, but Polaris's embedded authorizer does not, so a policy must
// list the whole set explicitly.
func (sd *serviceDef) closure(accessTypes []string) ([]string, error) {
	seen := map[string]bool{}
	queue := slices.Clone(accessTypes)
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if seen[at] {
			continue
		}
		implied, ok := sd.implies[at]
		if !ok {
			return nil, fmt.Errorf("access type %q is not declared by service definition %s", at, sd.name)
		}
		seen[at] = true
		queue = append(queue, implied...)
	}
	out := make([]string, 0, len(seen))
	for at := range seen {
		out = append(out, at)
	}
	slices.Sort(out)
	return out, nil
}
