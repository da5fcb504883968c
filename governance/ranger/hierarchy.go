package ranger

import (
	"fmt"
	"maps"
)

// Matcher classes of a resource definition this evaluator implements.
const (
	defaultMatcherClass = "org.apache.ranger.plugin.resourcematcher.RangerDefaultResourceMatcher"
	urlMatcherClass     = "org.apache.ranger.plugin.resourcematcher.RangerURLResourceMatcher"
	pathMatcherClass    = "org.apache.ranger.plugin.resourcematcher.RangerPathResourceMatcher"
)

// resourceLevel is one resource definition as a policy of one type sees
// it, with its matcher options resolved.
type resourceLevel struct {
	name       string
	parent     string
	wildcard   bool
	ignoreCase bool
	// url and path: the level is matched by Ranger's URL or path
	// matcher, whose recursive values cover everything below them.
	url       bool
	path      bool
	separator byte
	// tokens replaces {USER} and {OWNER} in policy values with the
	// caller and the resource owner (Ranger's replaceTokens option); nil
	// when the option is off.
	tokens *tokenSyntax
}

// hierarchies are the resource definitions of one policy type and every
// path from a root resource to a leaf (Ranger's resource hierarchies).
type hierarchies struct {
	levels map[string]*resourceLevel
	paths  [][]string
}

// newHierarchies builds the hierarchies of a list of resource definitions.
// For data masks and row filters, defs are the dataMaskDef / rowFilterDef
// resources, which take their parent and matcher from the service's own
// resource of the same name and may override its matcher options.
func newHierarchies(main []ResourceDef, defs []ResourceDef) (*hierarchies, error) {
	byName := make(map[string]ResourceDef, len(main))
	for _, d := range main {
		byName[d.Name] = d
	}
	h := &hierarchies{levels: make(map[string]*resourceLevel, len(defs))}
	var order []string
	for _, d := range defs {
		base, ok := byName[d.Name]
		if !ok {
			return nil, fmt.Errorf("resource %q is not a resource of the service definition", d.Name)
		}
		opts := maps.Clone(base.MatcherOptions)
		if opts == nil {
			opts = StringMap{}
		}
		maps.Copy(opts, d.MatcherOptions)
		matcher := base.Matcher
		if d.Matcher != "" {
			matcher = d.Matcher
		}
		lvl := &resourceLevel{
			name:       d.Name,
			parent:     base.Parent,
			wildcard:   opts.boolOption("wildCard", true),
			ignoreCase: opts.boolOption("ignoreCase", true),
			separator:  opts.charOption("pathSeparatorChar", '/'),
			tokens:     newTokenSyntax(opts),
		}
		switch matcher {
		case "", defaultMatcherClass:
		case urlMatcherClass:
			lvl.url = true
		case pathMatcherClass:
			lvl.path = true
		default:
			return nil, fmt.Errorf("resource %q: unsupported matcher %s", d.Name, matcher)
		}
		h.levels[d.Name] = lvl
		order = append(order, d.Name)
	}
	children := make(map[string][]string)
	var roots []string
	for _, name := range order {
		p := h.levels[name].parent
		if _, ok := h.levels[p]; p == "" || !ok {
			roots = append(roots, name)
			continue
		}
		children[p] = append(children[p], name)
	}
	var walk func(path []string)
	walk = func(path []string) {
		last := path[len(path)-1]
		if len(children[last]) == 0 {
			h.paths = append(h.paths, path)
			return
		}
		for _, c := range children[last] {
			walk(append(path[:len(path):len(path)], c))
		}
	}
	for _, r := range roots {
		walk([]string{r})
	}
	return h, nil
}

// pathHasAll reports whether a hierarchy contains every key of m.
func pathHasAll[V any](path []string, m map[string]V) bool {
	for k := range m {
		found := false
		for _, n := range path {
			if n == k {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// shortestPath is the shortest hierarchy containing every key of m (the
// first one listed when several are as short), or nil.
func shortestPath[V any](h *hierarchies, m map[string]V) []string {
	var best []string
	for _, p := range h.paths {
		if pathHasAll(p, m) && (best == nil || len(p) < len(best)) {
			best = p
		}
	}
	return best
}

// gapless reports whether the keys of m present in path form its prefix,
// as Ranger requires of both policies and requests.
func gapless[V any](path []string, m map[string]V) bool {
	skipped := false
	for _, n := range path {
		if _, ok := m[n]; !ok {
			skipped = true
		} else if skipped {
			return false
		}
	}
	return true
}
