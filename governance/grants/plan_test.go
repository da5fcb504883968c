package grants

import "testing"

// TestPlanGolden plans every statement of testdata/plan/*.json and compares
// the plans and refusals with the golden files.
func TestPlanGolden(t *testing.T) {
	p := loadProfile(t)
	for _, input := range inputs(t, "plan") {
		t.Run(input, func(t *testing.T) {
			var c struct {
				About string `json:"about"`
				Cases []step `json:"cases"`
			}
			readCase(t, input, &c)
			type result struct {
				Name  string     `json:"name"`
				SQL   string     `json:"sql"`
				Plan  *Plan      `json:"plan,omitempty"`
				Error *errorJSON `json:"error,omitempty"`
			}
			var got []result
			for _, s := range c.Cases {
				r := result{Name: s.Name, SQL: sqlOf(s)}
				plan, err := p.planStep(s)
				if err != nil {
					r.Error = toErrorJSON(err)
				} else {
					r.Plan = &plan
				}
				got = append(got, r)
			}
			checkGolden(t, input, got)
		})
	}
}
