package grants

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestApplyGolden replays the statements of each testdata/apply/*.json
// scenario on its given policies and compares the policies after every
// statement with the golden file. Every step also checks that applying
// left its input untouched.
func TestApplyGolden(t *testing.T) {
	p := loadProfile(t)
	for _, input := range inputs(t, "apply") {
		t.Run(input, func(t *testing.T) {
			var c struct {
				About string   `json:"about"`
				Given []Policy `json:"given"`
				Steps []step   `json:"steps"`
			}
			readCase(t, input, &c)
			type result struct {
				SQL      string     `json:"sql"`
				Policies []Policy   `json:"policies,omitempty"`
				Error    *errorJSON `json:"error,omitempty"`
			}
			state := c.Given
			var got []result
			for _, s := range c.Steps {
				r := result{SQL: sqlOf(s)}
				plan, err := p.planStep(s)
				if err != nil {
					t.Fatalf("%s: %v", r.SQL, err)
				}
				before := deepCopy(t, state)
				next, err := p.applyPlan(state, plan)
				if !reflect.DeepEqual(before, state) {
					t.Errorf("%s: applying changed its input", r.SQL)
				}
				if err != nil {
					r.Error = toErrorJSON(err)
				} else {
					r.Policies = next
					state = next
				}
				got = append(got, r)
			}
			checkGolden(t, input, got)
		})
	}
}

func deepCopy(t *testing.T, policies []Policy) []Policy {
	t.Helper()
	data, err := json.Marshal(policies)
	if err != nil {
		t.Fatal(err)
	}
	var out []Policy
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
