package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/types"
)

// TypeFromName resolves a type as written in a column definition or cast
// (varchar(20), numeric(12,2), int[]), with the errors a cast to it gives.
func TypeFromName(tn *pg_query.TypeName) (types.T, error) { return typeFromName(tn) }
