package planner

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// jsonSRF describes a one-column json set-returning function: the json
// type it takes, the type of its rows, and the name its column gets in
// FROM when PostgreSQL declares one (an OUT parameter), else "".
type jsonSRF struct {
	arg, out types.T
	col      string
}

var jsonSRFs = map[string]jsonSRF{
	"json_array_elements":       {arg: types.JSON, out: types.JSON, col: "value"},
	"json_array_elements_text":  {arg: types.JSON, out: types.Text, col: "value"},
	"jsonb_array_elements":      {arg: types.JSONB, out: types.JSONB, col: "value"},
	"jsonb_array_elements_text": {arg: types.JSONB, out: types.Text, col: "value"},
	"json_object_keys":          {arg: types.JSON, out: types.Text},
	"jsonb_object_keys":         {arg: types.JSONB, out: types.Text},
}

// isJSONEach names the functions returning (key text, value) records:
// json_each, json_each_text, jsonb_each, jsonb_each_text.
func isJSONEach(name string) bool {
	switch strings.ToLower(name) {
	case "json_each", "json_each_text", "jsonb_each", "jsonb_each_text":
		return true
	}
	return false
}

// bindJSONEach binds json_each(x) and its kin in FROM as two
// set-returning calls the ProjectSet runs in lockstep, one for the keys
// ("<name>.key") and one for the values ("<name>.value"): they split the
// same value, so their rows pair up.
func (b *Binder) bindJSONEach(fc *pg_query.FuncCall) ([]*SRFCall, error) {
	name := strings.ToLower(funcName(fc))
	if fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 || fc.FuncVariadic {
		return nil, b.errAt(fc.Location, pgerror.WrongObjectType, "%s is not an aggregate function", name)
	}
	argType, valType := types.JSON, types.JSON
	if strings.HasPrefix(name, "jsonb") {
		argType, valType = types.JSONB, types.JSONB
	}
	if strings.HasSuffix(name, "_text") {
		valType = types.Text
	}
	args := make([]Expr, len(fc.Args))
	names := make([]string, len(fc.Args))
	for i, n := range fc.Args {
		e, err := b.bindExpr(n, &exprCtx{scope: &scope{}, clause: "FROM"})
		if err != nil {
			return nil, err
		}
		args[i], names[i] = e, e.Type().Name()
	}
	if len(args) != 1 || (args[0].Type().OID != argType.OID && !isUnknown(args[0])) {
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	arg, err := b.coerce(args[0], argType, fc.Location)
	if err != nil {
		return nil, err
	}
	key := &SRFCall{Name: name + ".key", Args: []Expr{arg}, Out: b.newColumn("key", Column{Type: types.Text, Nullable: true})}
	val := &SRFCall{Name: name + ".value", Args: []Expr{arg}, Out: b.newColumn("value", Column{Type: valType, Nullable: true})}
	return []*SRFCall{key, val}, nil
}
