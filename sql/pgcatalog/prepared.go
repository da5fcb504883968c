package pgcatalog

import (
	"context"
	"time"
)

// PreparedStatement is one named prepared statement of the caller's
// session as pg_prepared_statements shows it.
type PreparedStatement struct {
	Name string
	// Statement is the query string that prepared it.
	Statement   string
	PrepareTime time.Time
	// ParameterTypes are the parameters' type OIDs.
	ParameterTypes []uint32
	// FromSQL marks one PREPARE made, rather than the protocol's Parse.
	FromSQL bool
	// GenericPlans and CustomPlans count executions by PostgreSQL's kind
	// of plan.
	GenericPlans, CustomPlans int64
}

// preparedStatementRows lists the caller's session's named prepared
// statements; no session sees another's.
func preparedStatementRows(_ context.Context, src Source) ([]row, error) {
	stmts := src.PreparedStatements()
	out := make([]row, 0, len(stmts))
	for _, ps := range stmts {
		out = append(out, row{
			"name": ps.Name, "statement": ps.Statement, "prepare_time": ps.PrepareTime,
			"parameter_types": ps.ParameterTypes, "from_sql": ps.FromSQL,
			"generic_plans": ps.GenericPlans, "custom_plans": ps.CustomPlans,
		})
	}
	return out, nil
}
