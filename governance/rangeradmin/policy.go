package rangeradmin

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sqe-db/sqe/governance/grants"
)

// storedPolicy is a policy as Ranger Admin returned it: the whole JSON
// object, so that writing it back keeps every field not modelled here,
// and the part gate one models.
type storedPolicy struct {
	id    int64
	raw   map[string]json.RawMessage
	model grants.Policy
}

// rawItem is the modelled part of a RangerPolicyItem.
type rawItem struct {
	Accesses []struct {
		Type      string `json:"type"`
		IsAllowed *bool  `json:"isAllowed"`
	} `json:"accesses"`
	Users         []string `json:"users"`
	Roles         []string `json:"roles"`
	Groups        []string `json:"groups"`
	DelegateAdmin bool     `json:"delegateAdmin"`
}

// rawResource is a RangerPolicyResource.
type rawResource struct {
	Values     []string `json:"values"`
	IsExcludes bool     `json:"isExcludes"`
}

// polarisLevels are the resource names of the polaris service a gate one
// policy may use, outermost first.
func polarisLevels() [4]string { return [4]string{"root", "catalog", "namespace", "table"} }

// parseStored reads one policy of the listing. ok is false for a policy
// gate one does not model (another policy type, extra or excluded
// resources, several values at a level): it is never written back, so
// nothing of it can be lost.
func parseStored(data json.RawMessage) (p storedPolicy, ok bool, err error) {
	if err := json.Unmarshal(data, &p.raw); err != nil {
		return p, false, fmt.Errorf("decode policy: %w", err)
	}
	var head struct {
		ID              int64                  `json:"id"`
		PolicyType      int                    `json:"policyType"`
		IsEnabled       *bool                  `json:"isEnabled"`
		Resources       map[string]rawResource `json:"resources"`
		PolicyItems     []json.RawMessage      `json:"policyItems"`
		DenyPolicyItems []json.RawMessage      `json:"denyPolicyItems"`
		PolicyLabels    []string               `json:"policyLabels"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return p, false, fmt.Errorf("decode policy: %w", err)
	}
	p.id = head.ID
	res, ok := modelResource(head.Resources)
	if !ok || head.PolicyType != 0 || p.id == 0 {
		return p, false, nil
	}
	p.model = grants.Policy{Resource: res, Disabled: head.IsEnabled != nil && !*head.IsEnabled, Labels: head.PolicyLabels}
	if p.model.Allow, err = modelItems(head.PolicyItems); err != nil {
		return p, false, fmt.Errorf("policy %d: %w", p.id, err)
	}
	if p.model.Deny, err = modelItems(head.DenyPolicyItems); err != nil {
		return p, false, fmt.Errorf("policy %d: %w", p.id, err)
	}
	return p, true, nil
}

// modelResource is the exact resource of a policy of the polaris shape:
// root and catalog, then optionally namespace and table, one value each,
// none excluded.
func modelResource(rs map[string]rawResource) (grants.Resource, bool) {
	var vals [4]string
	for name, r := range rs {
		levels := polarisLevels()
		i := slices.Index(levels[:], name)
		if i < 0 || r.IsExcludes || len(r.Values) != 1 || r.Values[0] == "" {
			return grants.Resource{}, false
		}
		vals[i] = r.Values[0]
	}
	if vals[0] == "" || vals[1] == "" || vals[3] != "" && vals[2] == "" {
		return grants.Resource{}, false
	}
	return grants.Resource{Root: vals[0], Catalog: vals[1], Namespace: vals[2], Table: vals[3]}, true
}

// modelItems reads policy items; an access with isAllowed false grants
// nothing and is left out.
func modelItems(raw []json.RawMessage) ([]grants.Item, error) {
	var out []grants.Item
	for _, data := range raw {
		var ri rawItem
		if err := json.Unmarshal(data, &ri); err != nil {
			return nil, fmt.Errorf("decode policy item: %w", err)
		}
		out = append(out, ri.model())
	}
	return out, nil
}

func (ri rawItem) model() grants.Item {
	it := grants.Item{Users: ri.Users, Roles: ri.Roles, Groups: ri.Groups, DelegateAdmin: ri.DelegateAdmin}
	for _, a := range ri.Accesses {
		if a.IsAllowed == nil || *a.IsAllowed {
			it.Accesses = append(it.Accesses, a.Type)
		}
	}
	return it
}

// itemKey identifies an item by principals, access-type set and delegate
// admin. Ranger echoes a stored item with every optional field filled in
// (users: [], conditions: [], isAllowed: true), so items are matched on
// this rather than on their JSON.
func itemKey(it grants.Item) string {
	set := func(s []string) string {
		c := slices.Clone(s)
		slices.Sort(c)
		return strings.Join(slices.Compact(c), ",")
	}
	return fmt.Sprintf("u:%s|r:%s|g:%s|a:%s|d:%t", set(it.Users), set(it.Roles), set(it.Groups), set(it.Accesses), it.DelegateAdmin)
}

// writeBody is the JSON to write for the policy p on top of the stored
// one (nil for a new policy): the stored object with its modelled fields
// replaced. An item equal on itemKey to a stored one is written as Ranger
// returned it, keeping its conditions and whatever else it carried.
func writeBody(stored *storedPolicy, p grants.Policy, service, name string) (map[string]json.RawMessage, error) {
	body := map[string]json.RawMessage{}
	keep := map[string]json.RawMessage{}
	if stored != nil {
		for k, v := range stored.raw {
			body[k] = v
		}
		for _, field := range []string{"policyItems", "denyPolicyItems"} {
			var items []json.RawMessage
			if err := json.Unmarshal(stored.raw[field], &items); err != nil && stored.raw[field] != nil {
				return nil, fmt.Errorf("policy %d: decode %s: %w", stored.id, field, err)
			}
			for _, data := range items {
				var ri rawItem
				if err := json.Unmarshal(data, &ri); err != nil {
					return nil, fmt.Errorf("policy %d: decode %s: %w", stored.id, field, err)
				}
				keep[field+"/"+itemKey(ri.model())] = data
			}
		}
	} else {
		set := func(k string, v any) { body[k], _ = json.Marshal(v) }
		set("service", service)
		set("name", name)
		set("policyType", 0)
		set("isEnabled", true)
		set("isAuditEnabled", true)
		set("resources", resourcesJSON(p.Resource))
	}
	items := func(field string, its []grants.Item) error {
		out := make([]json.RawMessage, 0, len(its))
		for _, it := range its {
			if data, ok := keep[field+"/"+itemKey(it)]; ok {
				out = append(out, data)
				continue
			}
			data, err := json.Marshal(itemJSON(it))
			if err != nil {
				return err
			}
			out = append(out, data)
		}
		data, err := json.Marshal(out)
		body[field] = data
		return err
	}
	if err := items("policyItems", p.Allow); err != nil {
		return nil, err
	}
	if err := items("denyPolicyItems", p.Deny); err != nil {
		return nil, err
	}
	labels := p.Labels
	if labels == nil {
		labels = []string{}
	}
	data, err := json.Marshal(labels)
	body["policyLabels"] = data
	return body, err
}

// resourcesJSON is the resource map of a policy on r.
func resourcesJSON(r grants.Resource) map[string]rawResource {
	out := map[string]rawResource{}
	for i, v := range [4]string{r.Root, r.Catalog, r.Namespace, r.Table} {
		if v != "" {
			out[polarisLevels()[i]] = rawResource{Values: []string{v}}
		}
	}
	return out
}

// itemJSON is a RangerPolicyItem for it.
func itemJSON(it grants.Item) map[string]any {
	accesses := make([]map[string]any, 0, len(it.Accesses))
	for _, a := range it.Accesses {
		accesses = append(accesses, map[string]any{"type": a, "isAllowed": true})
	}
	nonNil := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	return map[string]any{
		"accesses": accesses, "users": nonNil(it.Users), "roles": nonNil(it.Roles), "groups": nonNil(it.Groups),
		"conditions": []any{}, "delegateAdmin": it.DelegateAdmin,
	}
}

// policyName is the name of a policy created for r; Ranger wants names
// unique in a service, and the resource is.
func policyName(r grants.Resource) string {
	if r.Root == grants.DefaultRealm {
		return "sqe " + r.String()
	}
	return "sqe " + r.Root + "/" + r.String()
}
