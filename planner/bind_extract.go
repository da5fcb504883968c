package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindExtract binds extract(field FROM x) (numeric) and date_part(field,
// x) (double precision). A constant field is checked here and decides
// the numeric's scale; any other is read per row (extract_row_unit).
func (b *Binder) bindExtract(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, error) {
	if len(fc.Args) != 2 {
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s with %d arguments does not exist", name, len(fc.Args))
	}
	fieldExpr, err := b.bindExpr(fc.Args[0], ec)
	if err != nil {
		return nil, err
	}
	arg, err := b.bindExpr(fc.Args[1], ec)
	if err != nil {
		return nil, err
	}
	if isUnknown(arg) {
		if arg, err = b.cast(arg, types.Timestamp, fc.Location); err != nil {
			return nil, err
		}
	}
	fam := arg.Type().Family()
	if fam != types.FamilyDate && fam != types.FamilyTimestamp && fam != types.FamilyTime && fam != types.FamilyInterval {
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(unknown, %s) does not exist", name, arg.Type().Name())
	}
	if name == "date_part" && fam == types.FamilyDate {
		// PostgreSQL 15's date_part(text, date) is date_part(text,
		// timestamp) over the date's midnight.
		if arg, err = b.cast(arg, types.Timestamp, fc.Location); err != nil {
			return nil, err
		}
	}
	if ft := fieldExpr.Type(); ft.Family() != types.FamilyString && !isUnknown(fieldExpr) {
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s, %s) does not exist", name, ft.Name(), arg.Type().Name())
	}
	c, ok := fieldExpr.(*Const)
	if !ok || c.Value == nil {
		// The unit is read per row, and with it the result's scale: a
		// general numeric for extract.
		if fieldExpr, err = b.coerce(fieldExpr, types.Text, fc.Location); err != nil {
			return nil, err
		}
		res := types.NumericGeneral(0)
		if name == "date_part" {
			res = types.Float8
		}
		return &Func{Name: "extract_row_unit", Args: []Expr{fieldExpr, arg}, Typ: res}, nil
	}
	unit, _ := c.Value.(string)
	field, scale, err := types.ExtractUnit(unit, arg.Type())
	if pe, ok := err.(*pgerror.Error); ok {
		return nil, pe.WithPosition(b.position(fc.Location))
	} else if err != nil {
		return nil, err
	}
	res := types.T{OID: types.OIDNumeric, Scale: scale}
	if name == "date_part" {
		res = types.Float8
	}
	return &Func{Name: "extract", Args: []Expr{&Const{Typ: types.Text, Value: field}, arg}, Typ: res}, nil
}
