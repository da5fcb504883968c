package exec

import (
	"testing"

	"github.com/sqe-db/sqe/sql/functions"
)

// TestEveryRegisteredFunctionHasAKernel checks the registry the binder
// reads against the kernel table: every scalar function, operator
// function and pattern operator must have a kernel or be a special form,
// so that none fails only when a query calls it.
func TestEveryRegisteredFunctionHasAKernel(t *testing.T) {
	kernels, special := scalarKernels(), specialForms()
	check := func(registered, name string) {
		t.Helper()
		_, isKernel := kernels[name]
		_, isSpecial := special[name]
		switch {
		case !isKernel && !isSpecial:
			t.Errorf("%s is registered (as %s) but has no kernel and is no special form", registered, name)
		case isKernel && isSpecial:
			t.Errorf("%s is both in the kernel table and a special form", name)
		}
	}
	for _, name := range functions.ScalarNames() {
		f, _ := functions.LookupScalar(name)
		check(name, f.Name)
	}
	for _, sym := range functions.InfixOperatorSymbols() {
		if op, ok := functions.LookupOperatorFunction(sym, false); ok {
			check(sym, op.Func)
		}
		if fn, _, ok := functions.LookupPatternOp(sym); ok {
			check(sym, fn)
		}
	}
	for _, sym := range functions.PrefixOperatorSymbols() {
		if op, ok := functions.LookupOperatorFunction(sym, true); ok {
			check(sym, op.Func)
		}
	}
	for name, factory := range kernels {
		if factory() == nil {
			t.Errorf("the factory of %s makes no kernel", name)
		}
	}
	for name, factory := range byteaKernels() {
		if _, ok := kernels[name]; !ok {
			t.Errorf("%s has a bytea form but no text form", name)
		}
		if factory() == nil {
			t.Errorf("the bytea factory of %s makes no kernel", name)
		}
	}
}

// TestLookupKernelRefusesUnknownNames keeps the error of a name missing
// from the table.
func TestLookupKernelRefusesUnknownNames(t *testing.T) {
	if _, err := lookupKernel("no_such_function"); err == nil {
		t.Fatal("lookupKernel found a kernel for no_such_function")
	}
	if k, err := lookupKernel("btrim"); err != nil || k == nil {
		t.Fatalf("lookupKernel(btrim) = %v, %v", k, err)
	}
}
