package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// isolationLevels are the values transaction_isolation takes. SQE accepts
// every level: its reads see each table's latest committed snapshot, which
// is what each level promises for read-only work on one table.
var isolationLevels = []string{"serializable", "repeatable read", "read committed", "read uncommitted"}

// syncTransactionSettings makes transaction_isolation and
// transaction_read_only show the session defaults outside a block, where
// every statement is a transaction of its own.
func (s *Session) syncTransactionSettings() {
	if s.tx != nil {
		return
	}
	v := s.settings.values
	v["transaction_isolation"] = v["default_transaction_isolation"]
	v["transaction_read_only"] = v["default_transaction_read_only"]
}

// normalizeTransactionSetting checks a value of one of the transaction
// settings and returns it in the spelling SHOW prints; other settings pass
// unchanged.
func normalizeTransactionSetting(key, value string) (string, error) {
	switch key {
	case "transaction_isolation", "default_transaction_isolation":
		v := strings.ToLower(strings.TrimSpace(value))
		for _, l := range isolationLevels {
			if v == l {
				return v, nil
			}
		}
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", key, value).
			WithHint("Available values: %s.", strings.Join(isolationLevels, ", "))
	case "transaction_read_only", "default_transaction_read_only", "transaction_deferrable", "default_transaction_deferrable":
		switch strings.ToLower(strings.TrimSpace(value)) {
		case "on", "true", "yes", "1", "t", "y":
			return "on", nil
		case "off", "false", "no", "0", "f", "n":
			return "off", nil
		}
		return "", pgerror.New(pgerror.InvalidParameterValue, "parameter \"%s\" requires a Boolean value", key)
	}
	return value, nil
}

// setTransactionSetting sets transaction_isolation or
// transaction_read_only for the open block; outside one it has no lasting
// effect, as the statement's own transaction ends at once.
func (s *Session) setTransactionSetting(key, value string) error {
	v, err := normalizeTransactionSetting(key, value)
	if err != nil {
		return err
	}
	if s.tx == nil {
		return nil
	}
	if key == "transaction_isolation" && s.tx.queried && v != s.settings.values[key] {
		return pgerror.New(pgerror.ActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
	}
	s.settings.values[key] = v
	return nil
}

// transactionModes applies the modes of BEGIN / START TRANSACTION / SET
// TRANSACTION (ISOLATION LEVEL, READ ONLY / READ WRITE, DEFERRABLE) to the
// block, or to the session defaults for SET SESSION CHARACTERISTICS.
func (s *Session) transactionModes(opts []*pg_query.Node, sessionDefaults bool) error {
	for _, o := range opts {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		var value string
		if c := d.Arg.GetAConst(); c != nil {
			switch {
			case c.GetSval() != nil:
				value = c.GetSval().Sval
			case c.GetIval() != nil:
				value = "off"
				if c.GetIval().Ival != 0 {
					value = "on"
				}
			}
		}
		key := d.Defname
		if key == "transaction_deferrable" {
			// DEFERRABLE matters only to serializable read-only
			// transactions waiting for a safe snapshot; SQE's reads never
			// wait.
			if _, err := normalizeTransactionSetting(key, value); err != nil {
				return err
			}
			continue
		}
		if sessionDefaults {
			key = "default_" + key
			v, err := normalizeTransactionSetting(key, value)
			if err != nil {
				return err
			}
			if err := s.applySetting(false, []string{key}, func() error { return s.settings.set(key, v) }); err != nil {
				return err
			}
			continue
		}
		if err := s.setTransactionSetting(key, value); err != nil {
			return err
		}
	}
	return nil
}

// setConfig is set_config(name, value, is_local): SET or SET LOCAL as a
// function, returning the setting's new value. A NULL value resets it.
func (s *Session) setConfig(a []any) (any, error) {
	name, ok := a[0].(string)
	if !ok {
		return nil, pgerror.New(pgerror.NullValueNotAllowed, "SET requires parameter name")
	}
	key := strings.ToLower(name)
	local, _ := a[2].(bool)
	value, isValue := a[1].(string)
	switch {
	case key == "transaction_isolation" || key == "transaction_read_only":
		if isValue {
			if err := s.setTransactionSetting(key, value); err != nil {
				return nil, err
			}
		}
	case isValue:
		v, err := normalizeTransactionSetting(key, value)
		if err != nil {
			return nil, err
		}
		err = s.applySetting(local, []string{key}, func() error { return s.settings.set(name, v) })
		if err != nil {
			return nil, err
		}
	default:
		if err := s.applySetting(local, []string{key}, func() error { return s.settings.reset(name) }); err != nil {
			return nil, err
		}
	}
	// Outside a block a local value lasts for the statement's own
	// transaction, which is already over here; PostgreSQL still returns it.
	if local && s.tx == nil && isValue {
		if v, err := normalizeTransactionSetting(key, value); err == nil {
			return v, nil
		}
	}
	return s.settings.get(name)
}
