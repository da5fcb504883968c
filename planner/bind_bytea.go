package planner

import "github.com/sqe-db/sqe/sql/types"

// byteaConcat binds bytea || bytea (byteacat, not leakproof as in
// PostgreSQL). An untyped literal beside a bytea is read as bytea, the
// exact match PostgreSQL's resolution prefers; bytea beside text is left
// to text || anynonarray. ok is false when the operator is not byteacat.
func (b *Binder) byteaConcat(l, r Expr, loc int32) (Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	isBytea := func(t types.T) bool { return t.OID == types.OIDBytea }
	fits := func(t types.T) bool { return isBytea(t) || t.OID == types.OIDUnknown }
	if !(isBytea(lt) && fits(rt) || isBytea(rt) && fits(lt)) {
		return nil, false, nil
	}
	var err error
	if l, err = b.coerce(l, types.Bytea, loc); err != nil {
		return nil, true, err
	}
	if r, err = b.coerce(r, types.Bytea, loc); err != nil {
		return nil, true, err
	}
	return &Func{Name: "byteacat", Args: []Expr{l, r}, Typ: types.Bytea}, true, nil
}
