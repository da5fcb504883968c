package sql

import (
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// parsePartitioning reads the partitioning table option: a comma-separated
// list of column, identity(column), year|month|day|hour(column),
// bucket(n, column) and truncate(width, column). Column names follow SQL
// identifier rules: folded to lower case unless double-quoted.
func parsePartitioning(spec string) ([]storage.PartitionField, error) {
	var out []storage.PartitionField
	for _, item := range splitTopLevel(spec) {
		item = strings.TrimSpace(item)
		f, err := parsePartitionField(item)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func parsePartitionField(item string) (storage.PartitionField, error) {
	bad := pgerror.New(pgerror.InvalidParameterValue, "invalid partitioning \"%s\"", item).
		WithHint("Use column, identity(col), year(col), month(col), day(col), hour(col), bucket(n, col) or truncate(width, col).")
	name, args, hasArgs := strings.Cut(item, "(")
	if !hasArgs {
		col, ok := partitionIdent(item)
		if !ok {
			return storage.PartitionField{}, bad
		}
		return storage.PartitionField{Transform: "identity", Column: col}, nil
	}
	args, closed := strings.CutSuffix(strings.TrimSpace(args), ")")
	if !closed {
		return storage.PartitionField{}, bad
	}
	transform := strings.ToLower(strings.TrimSpace(name))
	parts := strings.Split(args, ",")
	switch transform {
	case "identity", "year", "month", "day", "hour":
		if len(parts) != 1 {
			return storage.PartitionField{}, bad
		}
		col, ok := partitionIdent(parts[0])
		if !ok {
			return storage.PartitionField{}, bad
		}
		return storage.PartitionField{Transform: transform, Column: col}, nil
	case "bucket", "truncate":
		if len(parts) != 2 {
			return storage.PartitionField{}, bad
		}
		n, err := strconv.Atoi(strings.TrimSpace(parts[0]))
		col, ok := partitionIdent(parts[1])
		if err != nil || !ok || n <= 0 {
			return storage.PartitionField{}, bad
		}
		return storage.PartitionField{Transform: transform, Param: n, Column: col}, nil
	}
	return storage.PartitionField{}, pgerror.New(pgerror.InvalidParameterValue, "unknown partition transform \"%s\"", transform)
}

// partitionIdent reads one column name.
func partitionIdent(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		inner := strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
		return inner, inner != ""
	}
	if s == "" {
		return "", false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			return "", false
		}
	}
	return strings.ToLower(s), true
}

// splitTopLevel splits on commas outside parentheses and quotes.
func splitTopLevel(s string) []string {
	var out []string
	depth, start, quoted := 0, 0, false
	for i, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
		case quoted:
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
