package extgrammar

import (
	"fmt"
	"strings"
)

// ObjectKind is what an object of a statement names.
type ObjectKind int

const (
	// ObjectTable is [TABLE] name: catalog.namespace.table, namespace.table
	// or table.
	ObjectTable ObjectKind = iota + 1
	// ObjectView is VIEW name, with the parts of a table name.
	ObjectView
	// ObjectSchema is SCHEMA name: catalog.namespace or namespace.
	ObjectSchema
	// ObjectCatalog is CATALOG name or DATABASE name: a PostgreSQL
	// database is an Iceberg catalog.
	ObjectCatalog
	// ObjectAllTablesInSchema is ALL TABLES IN SCHEMA name.
	ObjectAllTablesInSchema
	// ObjectAllViewsInSchema is ALL VIEWS IN SCHEMA name.
	ObjectAllViewsInSchema
	// ObjectFutureTablesInSchema is FUTURE TABLES IN SCHEMA name.
	ObjectFutureTablesInSchema
	// ObjectFutureViewsInSchema is FUTURE VIEWS IN SCHEMA name.
	ObjectFutureViewsInSchema
	// ObjectAny is a name of one to three parts given without a kind, as
	// in SHOW GRANTS ON name: whatever lies under that dotted prefix.
	ObjectAny
)

// keywords are the words that introduce an object of this kind.
func (k ObjectKind) keywords() string {
	switch k {
	case ObjectTable:
		return "TABLE"
	case ObjectView:
		return "VIEW"
	case ObjectSchema:
		return "SCHEMA"
	case ObjectCatalog:
		return "CATALOG"
	case ObjectAllTablesInSchema:
		return "ALL TABLES IN SCHEMA"
	case ObjectAllViewsInSchema:
		return "ALL VIEWS IN SCHEMA"
	case ObjectFutureTablesInSchema:
		return "FUTURE TABLES IN SCHEMA"
	case ObjectFutureViewsInSchema:
		return "FUTURE VIEWS IN SCHEMA"
	}
	return ""
}

// String names the kind as SQL introduces it ("TABLE", "ALL TABLES IN
// SCHEMA"), or "ObjectAny".
func (k ObjectKind) String() string {
	if k == ObjectAny {
		return "ObjectAny"
	}
	if w := k.keywords(); w != "" {
		return w
	}
	return fmt.Sprintf("ObjectKind(%d)", int(k))
}

// maxParts is how many dotted parts a name of this kind may have.
func (k ObjectKind) maxParts() int {
	switch k {
	case ObjectCatalog:
		return 1
	case ObjectSchema, ObjectAllTablesInSchema, ObjectAllViewsInSchema,
		ObjectFutureTablesInSchema, ObjectFutureViewsInSchema:
		return 2
	}
	return 3
}

// Object is one object a statement names.
type Object struct {
	Kind ObjectKind
	// Name holds the dotted parts as written (unquoted ones folded to
	// lower case), outermost first; for the IN SCHEMA kinds it is the
	// schema's name. Parts left out (a table named without its catalog)
	// are resolved later, against the session.
	Name []string
}

// String renders the object as SQL: its kind's keywords, then the name.
func (o Object) String() string {
	if w := o.Kind.keywords(); w != "" {
		return w + " " + qualifiedName(o.Name)
	}
	return qualifiedName(o.Name)
}

// qualifiedName renders dotted name parts, each quoted where needed.
func qualifiedName(parts []string) string {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = quoteIdent(p)
	}
	return strings.Join(quoted, ".")
}

// objectList renders objects of one kind as SQL writes them: the kind's
// keywords once, then the names separated by commas.
func objectList(objs []Object) string {
	if len(objs) == 0 {
		return ""
	}
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = qualifiedName(o.Name)
	}
	list := strings.Join(names, ", ")
	if w := objs[0].Kind.keywords(); w != "" {
		return w + " " + list
	}
	return list
}
