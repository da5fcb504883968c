package grants

import (
	"slices"
	"testing"
)

// TestAuthorizeGolden decides every case of testdata/authorize/*.json
// against its given policies and compares the writes left to carry out,
// or the refusal, with the golden file.
func TestAuthorizeGolden(t *testing.T) {
	p := loadProfile(t)
	for _, input := range inputs(t, "authorize") {
		t.Run(input, func(t *testing.T) {
			var c struct {
				About string   `json:"about"`
				Given []Policy `json:"given"`
				Cases []struct {
					step
					Caller    Grantor   `json:"caller"`
					Authority Authority `json:"authority"`
				} `json:"cases"`
			}
			readCase(t, input, &c)
			type result struct {
				Name   string        `json:"name"`
				SQL    string        `json:"sql"`
				Caller Grantor       `json:"caller"`
				Mode   AuthorityMode `json:"mode"`
				Writes []string      `json:"writes,omitempty"`
				Error  *errorJSON    `json:"error,omitempty"`
			}
			var got []result
			for _, cs := range c.Cases {
				s := cs.step
				s.Grantor = cs.Caller.User
				r := result{Name: s.Name, SQL: sqlOf(s), Caller: cs.Caller, Mode: cs.Authority.Mode}
				plan, err := p.planStep(s)
				if err != nil {
					t.Fatalf("%s: %v", r.SQL, err)
				}
				out, err := p.Authorize(cs.Caller, plan, c.Given, cs.Authority)
				if err != nil {
					r.Error = toErrorJSON(err)
				} else {
					for _, w := range out.Writes {
						r.Writes = append(r.Writes, string(w.Level)+" "+w.Resource.String())
					}
					checkAuthorizedPlan(t, plan, out)
				}
				got = append(got, r)
			}
			checkGolden(t, input, got)
		})
	}
}

// checkAuthorizedPlan checks what Authorize may change in a plan: it may
// drop traversal writes, and nothing else.
func checkAuthorizedPlan(t *testing.T, plan, out Plan) {
	t.Helper()
	if !slices.ContainsFunc(out.Writes, func(w Write) bool { return w.Named }) {
		t.Errorf("authorized plan lost its named write: %+v", out.Writes)
	}
	for _, w := range out.Writes {
		if !slices.ContainsFunc(plan.Writes, func(o Write) bool {
			return o.Resource == w.Resource && slices.Equal(o.Accesses, w.Accesses) && o.Named == w.Named
		}) {
			t.Errorf("authorized plan has a write the plan did not: %+v", w)
		}
	}
	o, p := out, plan
	o.Writes, p.Writes = nil, nil
	if !slices.Equal(o.Grantees, p.Grantees) || o.Action != p.Action || o.Object != p.Object || o.WithGrantOption != p.WithGrantOption {
		t.Errorf("authorized plan changed more than its writes: %+v", out)
	}
}
