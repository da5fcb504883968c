package sql

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sqe-db/sqe/sql/types"
)

// procedure is a system procedure that CALL runs, spelled as Spark's and
// Trino's Iceberg procedures are: CALL system.name(arg => value, ...).
// Arguments are typed and named; they may also be given by position, in
// params order. The procedure answers one row of columns.
type procedure struct {
	// name is the qualified name, "system.<name>".
	name    string
	params  []procParam
	columns []Column
	// run does the work with the evaluated arguments and returns the
	// row, one Go value per column (int32 for integer, int64 for bigint,
	// string for text).
	run func(ctx context.Context, s *Session, args procArgs) ([]any, error)
}

// procParam is one named parameter of a procedure.
type procParam struct {
	name string
	// typ is the argument's type; an argument of another type is taken
	// when PostgreSQL would cast it implicitly (see implicitlyCoercible).
	typ types.T
	// required: a call without the argument fails. An optional argument
	// that is omitted (or NULL) takes def, or stays absent when def is nil
	// and the procedure decides.
	required bool
	def      any
}

// procedures is the registry of system procedures by qualified name. It
// is built once per Engine; adding a procedure is one register call in
// newProcedures.
type procedures map[string]*procedure

func newProcedures() procedures {
	r := procedures{}
	r.register(rewriteDataFilesProcedure())
	r.register(expireSnapshotsProcedure())
	r.register(reprojectColumnTagsProcedure())
	r.register(createTagProcedure())
	r.register(createBranchProcedure())
	r.register(dropTagProcedure())
	r.register(dropBranchProcedure())
	r.register(fastForwardProcedure())
	return r
}

// register adds p. A procedure whose name is taken or whose parameter
// type CALL cannot evaluate is a programming error, caught when the
// registry is built.
func (r procedures) register(p *procedure) {
	if _, dup := r[p.name]; dup {
		panic(fmt.Sprintf("procedure %s registered twice", p.name))
	}
	for _, prm := range p.params {
		if _, ok := castTypeName(prm.typ); !ok {
			panic(fmt.Sprintf("procedure %s: parameter %s has type %s, which CALL cannot evaluate", p.name, prm.name, prm.typ.Name()))
		}
	}
	r[p.name] = p
}

// signature lists the parameters as the hint of a failed call shows them.
func (p *procedure) signature() string {
	parts := make([]string, len(p.params))
	for i, prm := range p.params {
		parts[i] = prm.name + " " + prm.typ.Name()
		switch {
		case prm.def != nil:
			parts[i] += fmt.Sprintf(" DEFAULT %v", prm.def)
		case !prm.required:
			parts[i] += " (optional)"
		}
	}
	return p.name + "(" + strings.Join(parts, ", ") + ")"
}

// procArgs are a call's evaluated arguments by parameter name; an
// omitted optional argument without a default is absent.
type procArgs map[string]any

func (a procArgs) text(name string) (string, bool) {
	v, ok := a[name].(string)
	return v, ok
}

func (a procArgs) integer(name string) (int64, bool) {
	switch v := a[name].(type) {
	case int32:
		return int64(v), true
	case int64:
		return v, true
	}
	return 0, false
}

func (a procArgs) boolean(name string) (bool, bool) {
	v, ok := a[name].(bool)
	return v, ok
}

func (a procArgs) timestamp(name string) (time.Time, bool) {
	v, ok := a[name].(time.Time)
	return v, ok
}
