package planner

import (
	"errors"
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// BindExecuteParams binds the arguments of EXECUTE for a prepared
// statement whose parameters have the types to. As in PostgreSQL each
// argument is an expression over no columns, without a subquery or an
// aggregate, converted to its parameter's type by assignment (an untyped
// literal is read as that type; text is not converted to integer). The
// plan's one row holds each value in its text form, which the caller
// decodes as it decodes a client's text parameter, so a value reaches the
// statement exactly as it would through Bind.
func (b *Binder) BindExecuteParams(args []*pg_query.Node, to []types.T) (*Plan, error) {
	if len(args) != len(to) {
		return nil, pgerror.New(pgerror.SyntaxError, "wrong number of parameters").
			WithDetail("Expected %d parameters but got %d.", len(to), len(args))
	}
	proj := &Project{Input: OneRow{}}
	ec := &exprCtx{scope: &scope{}, clause: "EXECUTE parameters"}
	for i, a := range args {
		if sl := findParseNode(a, func(m proto.Message) bool { _, ok := m.(*pg_query.SubLink); return ok }); sl != nil {
			return nil, b.errAt(sl.(*pg_query.SubLink).Location, pgerror.FeatureNotSupported, "cannot use subquery in EXECUTE parameter")
		}
		e, err := b.bindExpr(a, ec)
		if err != nil {
			return nil, err
		}
		from := e.Type()
		loc := exprLocation(a)
		e, err = b.assignCast(e, to[i], loc)
		if errors.Is(err, errNotAssignable) {
			return nil, b.errAt(loc, pgerror.DatatypeMismatch, "parameter $%d of type %s cannot be coerced to the expected type %s", i+1, from.Name(), to[i].Name()).
				WithHint("You will need to rewrite or cast the expression.")
		}
		if err != nil {
			return nil, err
		}
		if e, err = b.presentable(e); err != nil {
			return nil, err
		}
		if e.Type() != types.Text {
			if e, err = b.cast(e, types.Text, loc); err != nil {
				return nil, err
			}
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, b.newColumn(fmt.Sprintf("$%d", i+1), Column{Type: types.Text, Nullable: true}))
	}
	return &Plan{Root: proj}, nil
}

// ParamsReferenced are the numbers of the parameters ($n) the parse tree
// n refers to anywhere.
func ParamsReferenced(n *pg_query.Node) map[int32]bool {
	refs := map[int32]bool{}
	findParseNode(n, func(m proto.Message) bool {
		if p, ok := m.(*pg_query.ParamRef); ok {
			refs[p.Number] = true
		}
		return false
	})
	return refs
}

// findParseNode returns the first message of the parse tree msg (msg
// included) that match accepts, nil if none does. It walks every field
// by reflection, so no node type can be missed.
func findParseNode(msg proto.Message, match func(proto.Message) bool) proto.Message {
	if match(msg) {
		return msg
	}
	var found proto.Message
	msg.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			list := v.List()
			for i := 0; i < list.Len() && found == nil; i++ {
				found = findParseNode(list.Get(i).Message().Interface(), match)
			}
		case fd.Message() != nil && !fd.IsMap():
			found = findParseNode(v.Message().Interface(), match)
		}
		return found == nil
	})
	return found
}
