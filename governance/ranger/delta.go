package ranger

import "fmt"

// PolicyDelta is Ranger's RangerPolicyDelta: one change to a service's
// policies in a delta download.
type PolicyDelta struct {
	ID            int64  `json:"id,omitempty"`
	ChangeType    int    `json:"changeType"`
	PolicyVersion *int64 `json:"policyVersion,omitempty"`
	Policy        Policy `json:"policy"`
}

// Change types of a PolicyDelta (RangerPolicyDelta.CHANGE_TYPE_*).
const (
	DeltaPolicyCreate = 0
	DeltaPolicyUpdate = 1
	DeltaPolicyDelete = 2
)

// ApplyPolicyDeltas returns the policies after the deltas, as Ranger's
// RangerPolicyDeltaUtil.applyDeltas does: a create or an update replaces
// the policy of the same id (or adds it), a delete removes it. Only the
// deltas for serviceType (the service definition's name) apply; a delta
// of another type (the tag service's) is left for its own policies. The
// input is not changed. A change type other than a policy change is an
// error: a plugin then downloads the whole policy set instead.
func ApplyPolicyDeltas(policies []Policy, deltas []PolicyDelta, serviceType string) ([]Policy, error) {
	out := make([]Policy, 0, len(policies))
	out = append(out, policies...)
	for i, d := range deltas {
		if d.Policy.ServiceType != "" && d.Policy.ServiceType != serviceType {
			continue
		}
		switch d.ChangeType {
		case DeltaPolicyCreate, DeltaPolicyUpdate, DeltaPolicyDelete:
		default:
			return nil, fmt.Errorf("policy delta %d: change type %d is not a policy change", i+1, d.ChangeType)
		}
		kept := out[:0:0]
		for _, p := range out {
			if p.ID != d.Policy.ID {
				kept = append(kept, p)
			}
		}
		out = kept
		if d.ChangeType != DeltaPolicyDelete {
			out = append(out, d.Policy)
		}
	}
	return out, nil
}
