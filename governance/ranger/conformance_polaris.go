package ranger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Apache Polaris's Ranger authorizer tests (extensions/auth/ranger,
// authz_tests): each operation maps to the Ranger access types checked on
// its target and secondary entities; every one must be allowed.

const (
	polarisPoliciesFile = "dev_polaris.json"
	polarisOpsFile      = "polaris-operation-to-ranger-accesstypes.tsv"
	polarisUnmapped     = "UNMAPPED"
)

type polarisFile struct {
	Tests []struct {
		Request struct {
			AuthzOp   string `json:"authzOp"`
			Principal struct {
				Name  string   `json:"name"`
				Roles []string `json:"roles"`
			} `json:"principal"`
			Target    string `json:"target"`
			Secondary string `json:"secondary"`
		} `json:"request"`
		Result struct {
			IsAllowed bool `json:"isAllowed"`
		} `json:"result"`
	} `json:"tests"`
}

// polarisOp is an operation's row of the mapping table; nil target types
// mean the operation is UNMAPPED (always refused).
type polarisOp struct {
	target, secondary []string
}

// polarisResourceLevels are the Ranger resource levels each Polaris entity
// type is written in ("TABLE_LIKE:REALM/catalog/ns/table").
var polarisResourceLevels = map[string][]string{
	"ROOT":       {"root"},
	"CATALOG":    {"root", "catalog"},
	"PRINCIPAL":  {"root", "principal"},
	"NAMESPACE":  {"root", "catalog", "namespace"},
	"TABLE_LIKE": {"root", "catalog", "namespace", "table"},
	"POLICY":     {"root", "catalog", "namespace", "policy"},
}

func runPolarisFile(root, path string, data []byte, fr *FileReport) {
	var f polarisFile
	if err := json.Unmarshal(data, &f); err != nil {
		fr.skip("#0 (file)", "cannot read the file: %v", err)
		return
	}
	label := func(i int) string {
		r := f.Tests[i].Request
		name := fmt.Sprintf("%s %s on %s", r.AuthzOp, r.Principal.Name, r.Target)
		if r.Secondary != "" {
			name += " and " + r.Secondary
		}
		return testLabel(i, name)
	}
	dir := filepath.Dir(path)
	ev, ops, err := loadPolaris(dir)
	if err != nil {
		for i := range f.Tests {
			fr.skip(label(i), "%v", err)
		}
		return
	}
	for i, t := range f.Tests {
		got, why := polarisAuthorize(ev, ops, t.Request.AuthzOp, t.Request.Principal.Name, t.Request.Principal.Roles, t.Request.Target, t.Request.Secondary)
		if got != t.Result.IsAllowed {
			fr.fail(label(i), "isAllowed: want %v, got %v (%s)", t.Result.IsAllowed, got, why)
			continue
		}
		fr.pass()
	}
}

func loadPolaris(dir string) (*Evaluator, map[string]polarisOp, error) {
	data, err := os.ReadFile(filepath.Join(dir, polarisPoliciesFile))
	if err != nil {
		return nil, nil, fmt.Errorf("policies: %w", err)
	}
	var sp ServicePolicies
	if err := json.Unmarshal(data, &sp); err != nil {
		return nil, nil, fmt.Errorf("policies %s: %w", polarisPoliciesFile, err)
	}
	ev, err := New(ConfigFromDownload(&sp))
	if err != nil {
		return nil, nil, fmt.Errorf("evaluator not built: %w", err)
	}
	tsv, err := os.ReadFile(filepath.Join(dir, polarisOpsFile))
	if err != nil {
		return nil, nil, fmt.Errorf("operation mapping: %w", err)
	}
	ops, err := parsePolarisOps(tsv)
	if err != nil {
		return nil, nil, fmt.Errorf("operation mapping %s: %w", polarisOpsFile, err)
	}
	return ev, ops, nil
}

// parsePolarisOps reads the operation table: comment lines start with #,
// the first other line is the header, "-" is an empty list.
func parsePolarisOps(tsv []byte) (map[string]polarisOp, error) {
	ops := map[string]polarisOp{}
	sc := bufio.NewScanner(bytes.NewReader(tsv))
	header := true
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if header {
			header = false
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 3 {
			return nil, fmt.Errorf("line %d: want operation, target and secondary access types", n)
		}
		var op polarisOp
		if cols[1] != polarisUnmapped {
			op.target = splitList(cols[1])
			op.secondary = splitList(cols[2])
		}
		ops[cols[0]] = op
	}
	return ops, sc.Err()
}

func splitList(s string) []string {
	if s == "-" || s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// polarisAuthorize decides an operation as the Polaris Ranger authorizer
// does: the principal is the Ranger user, its principal roles the Ranger
// roles (no groups); UNMAPPED operations are refused; every target access
// type must be allowed on the target and every secondary one on the
// secondary entity.
func polarisAuthorize(ev *Evaluator, ops map[string]polarisOp, opName, principal string, roles []string, target, secondary string) (bool, string) {
	op, ok := ops[opName]
	if !ok {
		return false, "operation not in the mapping table"
	}
	if op.target == nil {
		return false, "operation is UNMAPPED"
	}
	check := func(entity string, types []string) (bool, string) {
		if len(types) == 0 || entity == "" {
			return true, ""
		}
		res, err := parsePolarisResource(entity)
		if err != nil {
			return false, err.Error()
		}
		r := ev.IsAccessAllowed(&Request{Resource: res, AccessTypes: types, User: principal, Roles: roles})
		if !r.Allowed {
			return false, fmt.Sprintf("%s not allowed on %s", strings.Join(types, ","), entity)
		}
		return true, fmt.Sprintf("allowed by policy %d", r.PolicyID)
	}
	okT, why := check(target, op.target)
	if !okT {
		return false, why
	}
	okS, whyS := check(secondary, op.secondary)
	if !okS {
		return false, whyS
	}
	return true, why
}

// parsePolarisResource reads "TYPE:REALM/a/b/c" into Ranger resource
// levels; the last level keeps any remaining '/'.
func parsePolarisResource(s string) (Resource, error) {
	typ, path, ok := strings.Cut(s, ":")
	levels, known := polarisResourceLevels[typ]
	if !ok || !known {
		return nil, fmt.Errorf("entity %q has no Ranger resource", s)
	}
	parts := strings.SplitN(path, "/", len(levels))
	if len(parts) != len(levels) {
		return nil, fmt.Errorf("entity %q: want %d path elements", s, len(levels))
	}
	res := make(Resource, len(levels))
	for i, l := range levels {
		res[l] = []string{parts[i]}
	}
	return res, nil
}
