package grants

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// step is one statement of a test case: the action and its inputs.
type step struct {
	Name   string `json:"name,omitempty"`
	Action Action `json:"action"`
	Statement
}

// errorJSON is how a refusal appears in a golden file.
type errorJSON struct {
	Code     string `json:"code,omitempty"`
	Message  string `json:"message"`
	Detail   string `json:"detail,omitempty"`
	Hint     string `json:"hint,omitempty"`
	Internal bool   `json:"internal,omitempty"`
}

func toErrorJSON(err error) *errorJSON {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return &errorJSON{Code: pe.Code, Message: pe.Message, Detail: pe.Detail, Hint: pe.Hint}
	}
	return &errorJSON{Message: err.Error(), Internal: true}
}

// readCase decodes a test input file strictly.
func readCase(t *testing.T, path string, into any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// checkGolden compares got, as indented JSON, with the golden file beside
// the input (x.json -> x.golden.json), or rewrites it under -update.
func checkGolden(t *testing.T, input string, got any) {
	t.Helper()
	golden := strings.TrimSuffix(input, ".json") + ".golden.json"
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *update {
		if err := os.WriteFile(golden, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("%s differs from the result; got:\n%s", golden, data)
	}
}

// inputs lists the test inputs of a testdata directory.
func inputs(t *testing.T, dir string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".golden.json") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no inputs in testdata/%s", dir)
	}
	return out
}

// plan plans a step with the action it names.
func (p *Profile) planStep(s step) (Plan, error) {
	switch s.Action {
	case ActionGrant:
		return p.PlanGrant(s.Statement)
	case ActionRevoke:
		return p.PlanRevoke(s.Statement)
	case ActionDeny:
		return p.PlanDeny(s.Statement)
	}
	return Plan{}, errors.New("unknown action " + string(s.Action))
}

// applyPlan applies a plan with the method for its action.
func (p *Profile) applyPlan(existing []Policy, plan Plan) ([]Policy, error) {
	switch plan.Action {
	case ActionGrant:
		return p.ApplyGrant(existing, plan)
	case ActionRevoke:
		return p.ApplyRevoke(existing, plan)
	}
	return p.ApplyDeny(existing, plan)
}

// sqlOf renders a step as the SQL it stands for, to make golden files
// readable.
func sqlOf(s step) string {
	var b strings.Builder
	b.WriteString(string(s.Action) + " " + strings.Join(s.Privileges, ", ") + " ON ")
	o := s.Object
	switch {
	case o.Kind == ObjectCatalog:
		b.WriteString("DATABASE " + quoteIdent(o.Catalog))
	case o.Kind == ObjectSchema:
		b.WriteString("SCHEMA " + quoteIdent(o.Catalog) + "." + quoteIdent(o.Namespace))
	case o.Name == Wildcard:
		b.WriteString("ALL " + strings.ToUpper(string(o.Kind)) + "S IN SCHEMA " + quoteIdent(o.Catalog) + "." + quoteIdent(o.Namespace))
	default:
		b.WriteString(strings.ToUpper(string(o.Kind)) + " " + quoteIdent(o.Catalog) + "." + quoteIdent(o.Namespace) + "." + quoteIdent(o.Name))
	}
	if s.Action == ActionRevoke {
		b.WriteString(" FROM ")
	} else {
		b.WriteString(" TO ")
	}
	var gs []string
	for _, g := range s.Grantees {
		gs = append(gs, g.String())
	}
	b.WriteString(strings.Join(gs, ", "))
	if s.WithGrantOption {
		b.WriteString(" WITH GRANT OPTION")
	}
	return b.String()
}
