package metrics

// Label values derived from SQLSTATEs. Labels stay few: a class is two
// characters, a refusal reason or limit one of a handful of names.

const (
	outcomeOK       = "ok"
	outcomeError    = "error"
	sqlstateSuccess = "00000"
)

// sqlstateClass is the SQLSTATE's class (its first two characters); "00"
// for success.
func sqlstateClass(sqlstate string) string {
	if len(sqlstate) < 2 {
		return "00"
	}
	return sqlstate[:2]
}

// refusalReason names the SQLSTATE a connection was refused with during
// startup, or gives its class for one without a name, so that the label
// set stays bounded.
func refusalReason(sqlstate string) string {
	switch sqlstate {
	case "53300":
		return "too_many_connections"
	case "28P01":
		return "authentication_failed"
	case "28000":
		return "not_authorized"
	case "08P01":
		return "protocol_violation"
	case "57P01":
		return "shutting_down"
	case "3D000":
		return "unknown_database"
	}
	return "class_" + sqlstateClass(sqlstate)
}

// rateLimit tells which kind of limit an error's SQLSTATE reports, if it
// reports one.
func rateLimit(sqlstate string) (string, bool) {
	switch sqlstate {
	case "53400":
		return "query_rate", true
	case "53300":
		return "connections", true
	}
	return "", false
}
