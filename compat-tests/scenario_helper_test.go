package compattests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"testing"
	"time"
)

// scenarioTimeout bounds one run of a client scenario script (installing
// its dependencies is timed separately).
const scenarioTimeout = 60 * time.Second

// runScenario runs a client scenario script (node, python) in dir against
// s as alice and returns what it printed on stdout. The script finds the
// server in SQE_COMPAT_* variables; PG* variables of the caller are
// dropped so a PGSSLMODE or PGSERVICE cannot change what is tested, and
// TZ=UTC makes the dates clients build in local time print the same
// everywhere. The token is passed only through the environment.
func runScenario(t *testing.T, s *server, token, dir, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), scenarioTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(withoutPrefixes(os.Environ(), "PG", "SQE_", "TZ=", "PYTHON"),
		"SQE_COMPAT_HOST="+s.host,
		"SQE_COMPAT_PORT="+s.port,
		"SQE_COMPAT_USER=alice",
		"SQE_COMPAT_DATABASE="+demoDatabase,
		"SQE_COMPAT_TOKEN="+token,
		"TZ=UTC",
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not finish within %s\nstderr:\n%s", bin, args, scenarioTimeout, stderr.String())
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
		t.Fatalf("%s %v exited %d\nstdout:\n%s\nstderr:\n%s", bin, args, exitErr.ExitCode(), stdout.String(), stderr.String())
	default:
		t.Fatalf("run %s %v: %v", bin, args, err)
	}
	return stdout.Bytes()
}

// scenarioStep is one step a scenario script reports: its name, and
// either the value it decoded (ok) or the error it met.
type scenarioStep struct {
	Step  string          `json:"step"`
	OK    bool            `json:"ok"`
	Value json.RawMessage `json:"value,omitempty"`
	Error json.RawMessage `json:"error,omitempty"`
}

// wantStep is what one step must report, as the JSON PostgreSQL's answer
// produces through the same client: {"ok":true,"value":...} or
// {"ok":false,"error":{...}}. knownIssue, when set, names the SQE gap a
// mismatch is expected to come from, so a failure says what to fix.
type wantStep struct {
	step       string
	want       string
	knownIssue string
}

// checkSteps compares the reported steps with want, in order, one subtest
// per step so every mismatch is reported, not only the first.
func checkSteps(t *testing.T, got []scenarioStep, want []wantStep) {
	t.Helper()
	names := make([]string, len(got))
	for i, g := range got {
		names[i] = g.Step
	}
	wantNames := make([]string, len(want))
	for i, w := range want {
		wantNames[i] = w.step
	}
	if !reflect.DeepEqual(names, wantNames) {
		t.Fatalf("steps reported:\n  %q\nwant:\n  %q", names, wantNames)
	}
	for i, w := range want {
		g := got[i]
		t.Run(w.step, func(t *testing.T) {
			gotJSON := stepJSON(t, g)
			if sameJSON(t, gotJSON, []byte(w.want)) {
				return
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, []byte(w.want)); err != nil {
				t.Fatalf("expected JSON of step %q: %v", w.step, err)
			}
			msg := "step %q reported\n  %s\nwant (what PostgreSQL answers)\n  %s"
			args := []any{w.step, gotJSON, compact.String()}
			if w.knownIssue != "" {
				msg += "\nknown SQE issue: %s"
				args = append(args, w.knownIssue)
			}
			t.Errorf(msg, args...)
		})
	}
}

// stepJSON re-encodes a step without its name, the form wantStep uses.
func stepJSON(t *testing.T, s scenarioStep) []byte {
	t.Helper()
	m := map[string]any{"ok": s.OK}
	if s.Value != nil {
		m["value"] = s.Value
	}
	if s.Error != nil {
		m["error"] = s.Error
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("encode step %q: %v", s.Step, err)
	}
	return out
}

// sameJSON compares two JSON documents by value, ignoring layout and key
// order.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("decode %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("decode expected %s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}
