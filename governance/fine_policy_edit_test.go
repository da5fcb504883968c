package governance

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
)

// TestEditFinePolicy: an edit creates, changes and removes a policy and
// bumps the version only when it changed something; a failed edit writes
// nothing; concurrent edits of one policy all land.
func TestEditFinePolicy(t *testing.T) {
	ctx := context.Background()
	s, err := OpenStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	version := func() int64 {
		t.Helper()
		v, err := s.FinePoliciesVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	body := func() string {
		t.Helper()
		stored, _, err := s.FinePolicies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored) == 0 {
			return "<none>"
		}
		return stored[0].Body
	}
	set := func(b string) FinePolicyEdit {
		return func(*StoredFinePolicy) (*StoredFinePolicy, error) {
			if b == "" {
				return nil, nil
			}
			return &StoredFinePolicy{Name: "p", Service: FinePolicyHive, Body: b}, nil
		}
	}
	for _, step := range []struct {
		name    string
		edit    FinePolicyEdit
		changed bool
		body    string
		bump    bool
	}{
		{"create", set("0"), true, "0", true},
		{"the same again", set("0"), false, "0", false},
		{"change", set("1"), true, "1", true},
		{"a failed edit", func(*StoredFinePolicy) (*StoredFinePolicy, error) { return nil, errors.New("refused") }, false, "1", false},
		{"remove", set(""), true, "<none>", true},
		{"remove what is gone", set(""), false, "<none>", false},
	} {
		before := version()
		changed, err := s.EditFinePolicy(ctx, "p", step.edit)
		if changed != step.changed || (err != nil) != (step.name == "a failed edit") {
			t.Errorf("%s: changed %v (%v), want %v", step.name, changed, err, step.changed)
		}
		if got := body(); got != step.body {
			t.Errorf("%s: body %q, want %q", step.name, got, step.body)
		}
		if bumped := version() != before; bumped != step.bump {
			t.Errorf("%s: version bumped %v, want %v", step.name, bumped, step.bump)
		}
	}

	const editors = 8
	var wg sync.WaitGroup
	errs := make(chan error, editors)
	for range editors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.EditFinePolicy(ctx, "counter", func(cur *StoredFinePolicy) (*StoredFinePolicy, error) {
				n := 0
				if cur != nil {
					n, _ = strconv.Atoi(cur.Body)
				}
				return &StoredFinePolicy{Name: "counter", Service: FinePolicyHive, Body: strconv.Itoa(n + 1)}, nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := body(); got != strconv.Itoa(editors) {
		t.Errorf("after %d concurrent increments: %s", editors, got)
	}
}
