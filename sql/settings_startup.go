package sql

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// StartupSetting is one run-time parameter a client set when it
// connected: a StartupMessage parameter other than user, database and
// replication, or a -c name=value of its options.
type StartupSetting struct {
	Name, Value string
}

// applyStartupSettings applies the startup packet's settings as
// PostgreSQL does: each as if SET when the session starts, checked the
// same way (an unknown name or an invalid value fails the connection),
// and together they become the values RESET returns to.
func (s *Session) applyStartupSettings(list []StartupSetting) error {
	for _, st := range list {
		if err := s.applyStartupSetting(st); err != nil {
			return err
		}
	}
	s.syncTransactionSettings()
	s.settings.keepAsDefaults()
	return nil
}

func (s *Session) applyStartupSetting(st StartupSetting) error {
	key := strings.ToLower(st.Name)
	switch key {
	case "transaction_isolation":
		// PostgreSQL sets it inside the transaction that starts the
		// session, after that transaction's first query.
		return pgerror.New(pgerror.ActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
	case "transaction_read_only", "transaction_deferrable":
		// Valid, but it lasts only for the transaction that starts the
		// session.
		_, err := normalizeTransactionSetting(key, st.Value)
		return err
	case "session_authorization":
		if st.Value != s.identity.User {
			// The token decides who the session is; becoming another
			// role would need the rights of a superuser.
			return pgerror.New(pgerror.InsufficientPrivilege, "permission denied to set session authorization")
		}
		return nil
	}
	v, err := normalizeTransactionSetting(key, st.Value)
	if err != nil {
		return err
	}
	return s.settings.set(st.Name, v)
}
