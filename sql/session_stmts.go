package sql

import (
	"context"
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

// runTransaction tracks transaction blocks and their savepoints. Reads see
// the latest committed snapshot of each table plus the block's own staged
// writes; COMMIT commits those writes (txn_writes.go), and what a block
// undoes is its writes, settings and cursors (savepoint.go).
func (s *Session) runTransaction(ctx context.Context, ts *pg_query.TransactionStmt) (Result, error) {
	switch ts.Kind {
	case pg_query.TransactionStmtKind_TRANS_STMT_BEGIN, pg_query.TransactionStmtKind_TRANS_STMT_START:
		if s.txStatus != 'I' {
			return nil, pgerror.New(pgerror.ActiveSQLTransaction, "there is already a transaction in progress")
		}
		s.beginBlock()
		if err := s.transactionModes(ts.Options, false); err != nil {
			s.endBlock(false)
			return nil, err
		}
		if ts.Kind == pg_query.TransactionStmtKind_TRANS_STMT_START {
			return commandResult("START TRANSACTION"), nil
		}
		return commandResult("BEGIN"), nil
	case pg_query.TransactionStmtKind_TRANS_STMT_COMMIT:
		tag := "COMMIT"
		if s.txStatus == 'E' {
			tag = "ROLLBACK"
		}
		if s.txStatus == 'T' {
			// A COMMIT that fails ends the block as a rollback, as in
			// PostgreSQL.
			if err := s.commitWrites(ctx); err != nil {
				s.endBlock(false)
				return nil, err
			}
		}
		s.endBlock(s.txStatus == 'T')
		return commandResult(tag), nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK:
		s.endBlock(false)
		return commandResult("ROLLBACK"), nil
	case pg_query.TransactionStmtKind_TRANS_STMT_SAVEPOINT:
		if s.tx == nil {
			return nil, pgerror.New(pgerror.NoActiveSQLTransaction, "SAVEPOINT can only be used in transaction blocks")
		}
		s.defineSavepoint(ts.SavepointName)
		return commandResult("SAVEPOINT"), nil
	case pg_query.TransactionStmtKind_TRANS_STMT_RELEASE:
		if s.tx == nil {
			return nil, pgerror.New(pgerror.NoActiveSQLTransaction, "RELEASE SAVEPOINT can only be used in transaction blocks")
		}
		if err := s.releaseSavepoint(ts.SavepointName); err != nil {
			return nil, err
		}
		return commandResult("RELEASE"), nil
	case pg_query.TransactionStmtKind_TRANS_STMT_ROLLBACK_TO:
		if s.tx == nil {
			return nil, pgerror.New(pgerror.NoActiveSQLTransaction, "ROLLBACK TO SAVEPOINT can only be used in transaction blocks")
		}
		if err := s.rollbackToSavepoint(ts.SavepointName); err != nil {
			return nil, err
		}
		return commandResult("ROLLBACK"), nil
	}
	return nil, pgerror.Unsupported("%s is not supported yet", strings.TrimPrefix(ts.Kind.String(), "TRANS_STMT_"))
}

func (s *Session) runSet(vs *pg_query.VariableSetStmt) (Result, error) {
	key := strings.ToLower(vs.Name)
	if key == "role" {
		return s.runSetRole(vs)
	}
	switch vs.Kind {
	case pg_query.VariableSetKind_VAR_SET_VALUE:
		value, err := setValue(vs)
		if err != nil {
			return nil, err
		}
		if key == "transaction_isolation" || key == "transaction_read_only" {
			if err := s.setTransactionSetting(key, value); err != nil {
				return nil, err
			}
			return commandResult("SET"), nil
		}
		if value, err = normalizeTransactionSetting(key, value); err != nil {
			return nil, err
		}
		if err := s.applySetting(vs.IsLocal, []string{key}, func() error { return s.settings.set(vs.Name, value) }); err != nil {
			return nil, err
		}
	case pg_query.VariableSetKind_VAR_SET_DEFAULT, pg_query.VariableSetKind_VAR_RESET:
		if key == "transaction_isolation" || key == "transaction_read_only" {
			if s.tx != nil {
				s.settings.values[key] = s.settings.values["default_"+key]
			}
			break
		}
		if err := s.applySetting(vs.IsLocal, []string{key}, func() error { return s.settings.reset(vs.Name) }); err != nil {
			return nil, err
		}
	case pg_query.VariableSetKind_VAR_RESET_ALL:
		_ = s.applySetting(false, nil, func() error {
			s.resetAllSettings()
			return nil
		})
	case pg_query.VariableSetKind_VAR_SET_MULTI:
		// SET TRANSACTION ... outside a block has no effect (PostgreSQL
		// warns); SET SESSION CHARACTERISTICS sets the defaults.
		if err := s.transactionModes(vs.Args, vs.Name == "SESSION CHARACTERISTICS"); err != nil {
			return nil, err
		}
		return commandResult("SET"), nil
	default:
		return nil, pgerror.Unsupported("this form of SET is not supported yet")
	}
	if vs.Kind == pg_query.VariableSetKind_VAR_RESET || vs.Kind == pg_query.VariableSetKind_VAR_RESET_ALL {
		return commandResult("RESET"), nil
	}
	return commandResult("SET"), nil
}

// setValue renders a SET statement's constant values as one setting
// value.
func setValue(vs *pg_query.VariableSetStmt) (string, error) {
	var parts []string
	for _, a := range vs.Args {
		c := a.GetAConst()
		if c == nil {
			return "", pgerror.New(pgerror.SyntaxError, "SET %s takes constant values", vs.Name)
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
			return "", pgerror.New(pgerror.SyntaxError, "SET %s takes constant values", vs.Name)
		}
	}
	return strings.Join(parts, ", "), nil
}

// resetAllSettings is RESET ALL: every changeable setting back to its
// session default.
func (s *Session) resetAllSettings() {
	for k := range s.settings.values {
		v, known := knownSettings[k]
		// The transaction's own modes are not session settings.
		if !known || !v.fixed && !v.internal && k != "transaction_isolation" && k != "transaction_read_only" {
			s.settings.values[k] = s.settings.defaults[k]
		}
	}
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

// runSetRole accepts SET ROLE NONE and RESET ROLE, which keep the
// session's own identity (all SQE has: the token decides who the caller
// is). Taking on another role is refused rather than ignored, because
// ignoring it would let a tool believe it had narrowed its privileges.
func (s *Session) runSetRole(vs *pg_query.VariableSetStmt) (Result, error) {
	switch vs.Kind {
	case pg_query.VariableSetKind_VAR_RESET, pg_query.VariableSetKind_VAR_SET_DEFAULT:
		return commandResult("RESET"), nil
	case pg_query.VariableSetKind_VAR_SET_VALUE:
		value, err := setValue(vs)
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(value, "none") {
			return commandResult("SET"), nil
		}
	}
	return nil, pgerror.Unsupported("SET ROLE to another role is not supported; the token decides the session's identity")
}
