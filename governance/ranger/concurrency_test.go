package ranger

import (
	"fmt"
	"sync"
	"testing"
)

// The evaluator is shared by every session: concurrent requests must not
// race (run with -race) and must get the answers a lone request gets.
func TestConcurrentUse(t *testing.T) {
	e := tagEvaluator(t, `[{"id":1,"name":"hr","resources":{"database":{"values":["hr"]},"table":{"values":["*"]},"column":{"values":["*"]}},
	  "policyItems":[{"accesses":[{"type":"select"}],"groups":["public"]}]}]`,
		`[{"id":101,"name":"PII deny","resources":{"tag":{"values":["PII"]}},"denyPolicyItems":[{"accesses":[{"type":"hive:select"}],"users":["u1"]}]}]`)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				user := fmt.Sprintf("u%d", (g+i)%3)
				got := e.IsAccessAllowed(ask(user, nil, "select", column("hr", "emp", "ssn"))).Allowed
				if want := user != "u1"; got != want {
					errs <- fmt.Sprintf("%s: allowed = %v", user, got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// A plain request costs at most its evaluation context: matchers and
// access sets are compiled once.
func TestAccessCheckAllocations(t *testing.T) {
	e := hive(t, `[
	  {"id":1,"name":"a","resources":{"database":{"values":["db*"]},"table":{"values":["*"]},"column":{"values":["*"]}},"policyItems":[{"accesses":[{"type":"select"}],"groups":["g"]}]},
	  {"id":2,"name":"b","resources":{"database":{"values":["other"]}},"denyPolicyItems":[{"accesses":[{"type":"all"}],"users":["x"]}]}
	]`)
	req := ask("u", []string{"g"}, "select", column("db1", "t", "c"))
	allocs := testing.AllocsPerRun(100, func() {
		if !e.IsAccessAllowed(req).Allowed {
			t.Fatal("denied")
		}
	})
	if allocs > 1 {
		t.Errorf("%v allocations per access check, want at most 1", allocs)
	}
}
