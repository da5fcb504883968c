package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func endsTransaction(k pg_query.TransactionStmtKind) bool {
	switch k {
	case pg_query.TransactionStmtKind_TRANS_STMT_COMMIT, pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK,
		pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		return true
	}
	return false
}

// runTransaction tracks transaction blocks. Reads see the latest committed
// snapshot of each table; what a block means for writes arrives with the
// storage work.
func (s *Session) runTransaction(ts *pg_query.TransactionStmt) (Result, error) {
	switch ts.Kind {
	case pg_query.TransactionStmtKind_TRANS_STMT_BEGIN, pg_query.TransactionStmtKind_TRANS_STMT_START:
		if s.txStatus != 'I' {
			return nil, pgerror.New(pgerror.ActiveSQLTransaction, "there is already a transaction in progress")
		}
		s.txStatus = 'T'
		return commandResult("BEGIN"), nil
	case pg_query.TransactionStmtKind_TRANS_STMT_COMMIT:
		tag := "COMMIT"
		if s.txStatus == 'E' {
			tag = "ROLLBACK"
		}
		s.txStatus = 'I'
		return commandResult(tag), nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK:
		s.txStatus = 'I'
		return commandResult("ROLLBACK"), nil
	}
	return nil, pgerror.Unsupported("%s is not supported yet", strings.TrimPrefix(ts.Kind.String(), "TRANS_STMT_"))
}

func (s *Session) runSet(vs *pg_query.VariableSetStmt) (Result, error) {
	if vs.IsLocal {
		return nil, pgerror.Unsupported("SET LOCAL is not supported yet")
	}
	switch vs.Kind {
	case pg_query.VariableSetKind_VAR_SET_VALUE:
		var parts []string
		for _, a := range vs.Args {
			c := a.GetAConst()
			if c == nil {
				return nil, pgerror.New(pgerror.SyntaxError, "SET %s takes constant values", vs.Name)
			}
			switch v := c.Val.(type) {
			case *pg_query.A_Const_Sval:
				val := v.Sval.Sval
				if vs.Name == "search_path" && !isPlainIdent(val) {
					val = `"` + strings.ReplaceAll(val, `"`, `""`) + `"`
				}
				parts = append(parts, val)
			case *pg_query.A_Const_Ival:
				parts = append(parts, strconv.Itoa(int(v.Ival.Ival)))
			case *pg_query.A_Const_Fval:
				parts = append(parts, v.Fval.Fval)
			case *pg_query.A_Const_Boolval:
				if v.Boolval.Boolval {
					parts = append(parts, "on")
				} else {
					parts = append(parts, "off")
				}
			default:
				return nil, pgerror.New(pgerror.SyntaxError, "SET %s takes constant values", vs.Name)
			}
		}
		if err := s.settings.set(vs.Name, strings.Join(parts, ", ")); err != nil {
			return nil, err
		}
	case pg_query.VariableSetKind_VAR_SET_DEFAULT, pg_query.VariableSetKind_VAR_RESET:
		if err := s.settings.reset(vs.Name); err != nil {
			return nil, err
		}
	case pg_query.VariableSetKind_VAR_RESET_ALL:
		for k, v := range knownSettings {
			if !v.fixed {
				s.settings.values[k] = v.def
			}
		}
	case pg_query.VariableSetKind_VAR_SET_MULTI:
		// SET TRANSACTION ... / SET SESSION CHARACTERISTICS: accepted, as
		// reads are always at the latest snapshot.
		return commandResult("SET"), nil
	default:
		return nil, pgerror.Unsupported("this form of SET is not supported yet")
	}
	if vs.Kind == pg_query.VariableSetKind_VAR_RESET || vs.Kind == pg_query.VariableSetKind_VAR_RESET_ALL {
		return commandResult("RESET"), nil
	}
	return commandResult("SET"), nil
}

func isPlainIdent(s string) bool {
	if s == "" || s == "$user" {
		return s != ""
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			return false
		}
	}
	return true
}

func (s *Session) runShow(vs *pg_query.VariableShowStmt) (Result, error) {
	if strings.EqualFold(vs.Name, "all") {
		all := s.settings.all()
		rows := make([][]string, len(all))
		for i, kv := range all {
			rows[i] = []string{kv[0], kv[1], ""}
		}
		return newTextResult([]string{"name", "setting", "description"}, rows, "SHOW")
	}
	v, err := s.settings.get(vs.Name)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(vs.Name, "is_superuser") && s.superuser {
		v = "on"
	}
	return newTextResult([]string{displayName(strings.ToLower(vs.Name))}, [][]string{{v}}, "SHOW")
}
