package functions

import "github.com/sqe-db/sqe/sql/types"

// sleepArgs is pg_sleep(seconds double precision) returns void.
func sleepArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 || (!args[0].IsNumeric() && args[0].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	return []types.T{types.Float8}, types.Void, true
}
