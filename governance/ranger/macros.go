package ranger

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// resolveMacros replaces Ranger's request macros in a mask or filter
// expression: ${{USER.attr}} becomes the caller's attribute. A macro that
// cannot be resolved is an error, so that the caller fails closed instead
// of applying a filter that means something else.
func resolveMacros(expr string, req *Request, policyID int64) (string, error) {
	if !strings.Contains(expr, "${{") {
		return expr, nil
	}
	var sb strings.Builder
	rest := expr
	for {
		start := strings.Index(rest, "${{")
		if start < 0 {
			sb.WriteString(rest)
			return sb.String(), nil
		}
		end := strings.Index(rest[start:], "}}")
		if end < 0 {
			return "", pgerror.New(pgerror.InsufficientPrivilege,
				"policy %d has an unterminated ${{ in its expression", policyID)
		}
		sb.WriteString(rest[:start])
		macro := strings.TrimSpace(rest[start+3 : start+end])
		attr, ok := strings.CutPrefix(macro, "USER.")
		if !ok || attr == "" {
			return "", pgerror.New(pgerror.InsufficientPrivilege,
				"policy %d uses the macro ${{%s}}, which is not supported", policyID, macro)
		}
		v, ok := req.UserAttributes[attr]
		if !ok {
			return "", pgerror.New(pgerror.InsufficientPrivilege,
				"policy %d needs the user attribute %q, which user %q does not have", policyID, attr, req.User)
		}
		sb.WriteString(v)
		rest = rest[start+end+2:]
	}
}
