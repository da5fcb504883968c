package pgwire

import (
	"sort"

	"github.com/jackc/pgproto3/v2"
)

// initialParameters are the ParameterStatus values the server itself
// reports at startup; the session's ReportedParameters override them.
// They are PostgreSQL 15's GUC_REPORT parameters (server_version_num and
// search_path are not among them).
func (s *Server) initialParameters(st Startup, user string) map[string]string {
	return map[string]string{
		"server_version":                s.cfg.ServerVersion,
		"server_encoding":               "UTF8",
		"client_encoding":               "UTF8",
		"DateStyle":                     "ISO, MDY",
		"integer_datetimes":             "on",
		"standard_conforming_strings":   "on",
		"IntervalStyle":                 "postgres",
		"TimeZone":                      "UTC",
		"application_name":              st.Params["application_name"],
		"is_superuser":                  "off",
		"session_authorization":         user,
		"default_transaction_read_only": "off",
		"in_hot_standby":                "off",
	}
}

// sendChangedParameters sends ParameterStatus for every reported parameter
// whose value differs from what the client was last told.
func (c *conn) sendChangedParameters() error {
	current := c.session.ReportedParameters()
	var changed []string
	for k, v := range current {
		if old, ok := c.reported[k]; !ok || old != v {
			changed = append(changed, k)
		}
	}
	sort.Strings(changed)
	for _, k := range changed {
		c.reported[k] = current[k]
		if err := c.w.send(&pgproto3.ParameterStatus{Name: k, Value: current[k]}); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
