package planner

import "fmt"

// SampleMethod is a TABLESAMPLE method.
type SampleMethod string

// The TABLESAMPLE methods PostgreSQL ships.
const (
	// SampleBernoulli keeps each row with the sample's probability.
	SampleBernoulli SampleMethod = "bernoulli"
	// SampleSystem keeps whole blocks of rows with the sample's
	// probability.
	SampleSystem SampleMethod = "system"
)

// Sample keeps a sample of its input's rows: FROM t TABLESAMPLE method
// (percent) [REPEATABLE (seed)]. It sits above a table's secured
// relation (the barrier filter and the masking projection), so it
// samples only the rows the caller may see, and the filters the query
// puts on the table stay above it: the WHERE clause filters sampled rows,
// as in PostgreSQL.
//
// Which rows it keeps depends only on the seed and each row's ordinal
// among the rows coming up to it (exec's sample): never on rows the
// barrier hid, nor on their number. So the same seed over the same
// snapshot, seen by the same caller, keeps the same rows; the input of a
// Sample is therefore never split over parallel workers, whose rows would
// arrive in no fixed order.
type Sample struct {
	Input  Node
	Method SampleMethod
	// Percent is the sample's percentage (real), evaluated once when the
	// sample starts; Seed is REPEATABLE's (double precision), nil for a
	// sample drawn afresh each time.
	Percent Expr
	Seed    Expr
}

func (s *Sample) Columns() []Column { return s.Input.Columns() }
func (s *Sample) Inputs() []Node    { return []Node{s.Input} }

// describe is the sample as EXPLAIN shows it.
func (s *Sample) describe() string {
	d := fmt.Sprintf("Sample %s (%s)", s.Method, s.Percent)
	if s.Seed != nil {
		d += fmt.Sprintf(" REPEATABLE (%s)", s.Seed)
	}
	return d
}
