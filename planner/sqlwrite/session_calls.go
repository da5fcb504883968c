package sqlwrite

import (
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// sessionCall writes the functions the session computes (those with a
// Row) that the writer knows; ok is false for the others, refused by the
// caller:
//   - regtypeout of a regtype constant, which is how pg_typeof(x) is
//     printed: the type is fixed when the statement is bound, so its name
//     is a text constant, the one SQE computes, in both dialects;
//   - quote_ident, for PostgreSQL, whose quote_ident is SQE's: the same
//     PostgreSQL 15 keywords are quoted, and the engine's connection
//     turns quote_all_identifiers off. Trino has no such function.
func (w *writer) sessionCall(f *planner.Func, s *scope) (sql string, ok bool, err error) {
	if f.Row == nil || len(f.Args) != 1 || f.Typ.OID != types.OIDText {
		return "", false, nil
	}
	switch f.Name {
	case "regtypeout":
		c, isConst := f.Args[0].(*planner.Const)
		if !isConst || c.Typ.OID != types.OIDRegtype {
			return "", false, nil
		}
		name, err := f.Row([]any{c.Value})
		if _, isString := name.(string); err != nil || (name != nil && !isString) {
			return "", false, nil
		}
		sql, err = w.constant(&planner.Const{Typ: types.Text, Value: name})
		return sql, true, err
	case "quote_ident":
		if w.d != PostgreSQL || !isText(f.Args[0].Type()) {
			return "", false, nil
		}
		arg, err := w.expr(f.Args[0], s)
		return "quote_ident(" + arg + ")", true, err
	}
	return "", false, nil
}
