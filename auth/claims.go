package auth

import "fmt"

// claimSet is a token's payload decoded into generic JSON values.
type claimSet map[string]any

// lookup finds a claim by dotted path. A key that itself contains dots
// (namespaced claims such as "https://example.com/roles") is matched
// literally before the path is split, so both styles work.
func (c claimSet) lookup(path string) (any, bool) {
	return lookupPath(map[string]any(c), path)
}

func lookupPath(m map[string]any, path string) (any, bool) {
	if v, ok := m[path]; ok {
		return v, v != nil
	}
	for i := 0; i < len(path); i++ {
		if path[i] != '.' {
			continue
		}
		child, ok := m[path[:i]].(map[string]any)
		if !ok {
			continue
		}
		if v, ok := lookupPath(child, path[i+1:]); ok {
			return v, true
		}
	}
	return nil, false
}

// user maps the user claim, falling back to sub when the configured claim
// is absent. A claim that is present but not a string is an error rather
// than a reason to fall back: the token is malformed for this server.
func (c claimSet) user(userClaim string) (string, error) {
	name := userClaim
	v, ok := c.lookup(userClaim)
	if !ok {
		name = fallbackUserClaim
		v, ok = c.lookup(fallbackUserClaim)
	}
	if !ok {
		return "", nil
	}
	s, isString := v.(string)
	if !isString {
		return "", fmt.Errorf("claim %q has JSON type %s, want string", name, jsonKind(v))
	}
	return s, nil
}

// stringList maps a roles or groups claim: a JSON array of strings or a
// single string. An empty path or an absent claim yields nothing. Empty
// strings and duplicates are dropped; any other shape is an error, so a
// misconfigured claim path is noticed instead of silently granting less.
func (c claimSet) stringList(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	v, ok := c.lookup(path)
	if !ok {
		return nil, nil
	}
	var raw []any
	switch t := v.(type) {
	case string:
		raw = []any{t}
	case []any:
		raw = t
	default:
		return nil, fmt.Errorf("claim %q has JSON type %s, want string or array of strings", path, jsonKind(v))
	}
	out := make([]string, 0, len(raw))
	seen := make(map[string]bool, len(raw))
	for i, e := range raw {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("claim %q element %d has JSON type %s, want string", path, i, jsonKind(e))
		}
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// jsonKind names a decoded JSON value's type for error messages without
// quoting the value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
