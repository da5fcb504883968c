// Package functions is SQE's registry of SQL operators, scalar functions
// and aggregates: for each, the argument types it accepts, the type it
// returns, and whether it is leakproof.
//
// The binder resolves every operator and function call through this
// registry, so the leakproof flag is decided in one place, next to the
// signature, when a function is added. The optimizer reads the flag: only a
// leakproof predicate may be evaluated on rows that a row filter has not yet
// admitted, because a function that can fail (overflow, division by zero, a
// bad cast) turns a hidden row's value into an error message. The kernels
// that compute these functions over Arrow arrays live in planner/exec.
package functions
