package grants

import "strings"

// Level is a level of the Polaris resource hierarchy that a grant can be
// written at. The realm (root) sits above every level and is always set.
type Level string

// The levels, outermost first.
const (
	LevelCatalog   Level = "catalog"
	LevelNamespace Level = "namespace"
	LevelTable     Level = "table"
)

// levels lists the levels outermost first.
func levels() []Level { return []Level{LevelCatalog, LevelNamespace, LevelTable} }

// depth is 1 for the catalog, 2 for a namespace, 3 for a table, 0 for an
// unknown level.
func (l Level) depth() int {
	switch l {
	case LevelCatalog:
		return 1
	case LevelNamespace:
		return 2
	case LevelTable:
		return 3
	}
	return 0
}

// DefaultRealm is the root value every policy carries unless configured
// otherwise: Polaris puts its realm in every authorization request, and a
// policy without a matching root never applies.
const DefaultRealm = "*"

// Resource is the exact resource of a policy. A view's name goes in the
// Table slot; Table "*" is every table (or view) of the namespace.
type Resource struct {
	Root      string `json:"root"`
	Catalog   string `json:"catalog"`
	Namespace string `json:"namespace,omitempty"`
	Table     string `json:"table,omitempty"`
}

// Level is the deepest level the resource names.
func (r Resource) Level() Level {
	switch {
	case r.Table != "":
		return LevelTable
	case r.Namespace != "":
		return LevelNamespace
	default:
		return LevelCatalog
	}
}

// String renders the resource as a dotted name without the realm.
func (r Resource) String() string {
	parts := []string{r.Catalog}
	if r.Namespace != "" {
		parts = append(parts, r.Namespace)
	}
	if r.Table != "" {
		parts = append(parts, r.Table)
	}
	return strings.Join(parts, ".")
}

// truncate returns the resource cut to level l.
func (r Resource) truncate(l Level) Resource {
	out := Resource{Root: r.Root, Catalog: r.Catalog}
	if l.depth() >= LevelNamespace.depth() {
		out.Namespace = r.Namespace
	}
	if l.depth() >= LevelTable.depth() {
		out.Table = r.Table
	}
	return out
}

// values returns root, catalog, namespace and table in that order.
func (r Resource) values() [4]string {
	return [4]string{r.Root, r.Catalog, r.Namespace, r.Table}
}

// compare orders resources outermost first, then by name.
func (r Resource) compare(o Resource) int {
	a, b := r.values(), o.values()
	for i := range a {
		if c := strings.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}
