package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// declaredColumnType is the type a column was declared with when the
// table records one (storage.Table.DeclaredType) that its stored type
// can hold: smallint over integer, varchar(n) over text. ok is false
// otherwise, and the stored type stands.
func declaredColumnType(declared string, stored types.T) (types.T, bool) {
	d := strings.ToLower(strings.TrimSpace(declared))
	switch {
	case d == "smallint" || d == "int2":
		return types.Int2, stored.OID == types.OIDInt4
	case stored.OID != types.OIDText:
		return types.T{}, false
	case d == "varchar" || d == "character varying":
		return types.Varchar, true
	}
	for _, prefix := range []string{"varchar(", "character varying("} {
		if rest, ok := strings.CutPrefix(d, prefix); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(rest, ")"), 10, 32)
			if err != nil || !strings.HasSuffix(rest, ")") || n < 1 {
				return types.T{}, false
			}
			return types.VarcharN(int32(n)), true
		}
	}
	return types.T{}, false
}

// narrowToInt2 converts a stored integer column of a smallint column to
// smallint. Values written through SQE fit; one that does not (another
// writer) is an error rather than a wrapped number.
func narrowToInt2(a arrow.Array) (arrow.Array, error) {
	in, ok := a.(*array.Int32)
	if !ok {
		return nil, fmt.Errorf("smallint column stored as %s", a.DataType())
	}
	b := array.NewInt16Builder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(in.Len())
	for i, v := range in.Int32Values() {
		if in.IsNull(i) {
			b.AppendNull()
			continue
		}
		if v < -32768 || v > 32767 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "smallint out of range")
		}
		b.UnsafeAppend(int16(v))
	}
	return b.NewArray(), nil
}
