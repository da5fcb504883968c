package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// referencesRelation reports whether the parse tree msg names an
// unqualified relation called name anywhere (a WITH RECURSIVE query's
// reference to itself). It walks every field by reflection, so no node
// type can be missed.
func referencesRelation(msg proto.Message, name string) bool {
	if rv, ok := msg.(*pg_query.RangeVar); ok && rv.Schemaname == "" && rv.Catalogname == "" && rv.Relname == name {
		return true
	}
	found := false
	msg.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			list := v.List()
			for i := 0; i < list.Len() && !found; i++ {
				found = referencesRelation(list.Get(i).Message().Interface(), name)
			}
		case fd.Message() != nil && !fd.IsMap():
			found = referencesRelation(v.Message().Interface(), name)
		}
		return !found
	})
	return found
}
