package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// The set an IN (subquery) tests against. A single value is looked up in
// a hash set of the subquery's non-NULL values. A row, (a, b) IN (SELECT
// x, y ...), is PostgreSQL's OR of row equalities: true when some
// subquery row equals it in every field; else NULL when some subquery row
// is equal in every field where neither side is NULL; else false. Rows
// without NULLs on either side are decided by the hash set of whole
// rows; the others compare field by field with the kept rows.

// addValues adds the values of a one-column subquery's batch to the set
// and returns the memory it took.
func (s *answer) addValues(col arrow.Array, keyBuf *[]byte) int64 {
	var grown int64
	for r := 0; r < col.Len(); r++ {
		if col.IsNull(r) {
			s.hasNull = true
			continue
		}
		*keyBuf = appendKey((*keyBuf)[:0], col, r)
		if !s.set[string(*keyBuf)] {
			s.set[string(*keyBuf)] = true
			grown += hashEntryBytes + int64(len(*keyBuf))
		}
	}
	return grown
}

// addRows adds the rows of a row-valued IN's subquery batch: whole rows
// without NULLs to the set, and every row, field by field, to rows.
func (s *answer) addRows(b arrow.RecordBatch, keyBuf *[]byte) int64 {
	var grown int64
	cols := b.Columns()
	for r := 0; r < int(b.NumRows()); r++ {
		fields := make([]string, len(cols))
		whole := (*keyBuf)[:0]
		anyNull := false
		for c, col := range cols {
			if col.IsNull(r) {
				anyNull = true
				continue
			}
			start := len(whole)
			whole = appendKey(whole, col, r)
			fields[c] = string(whole[start:])
			grown += int64(len(fields[c]))
		}
		*keyBuf = whole
		if anyNull {
			s.hasNull = true
		} else if !s.set[string(whole)] {
			s.set[string(whole)] = true
			grown += hashEntryBytes + int64(len(whole))
		}
		s.rows = append(s.rows, fields)
		grown += int64(len(fields)) * 16
	}
	return grown
}

// rowIn answers row r of args IN (the rows).
func (s *answer) rowIn(args []arrow.Array, r int, keyBuf *[]byte) any {
	if len(s.rows) == 0 {
		return false
	}
	whole := (*keyBuf)[:0]
	anyNull := false
	for _, a := range args {
		anyNull = anyNull || a.IsNull(r)
		whole = appendKey(whole, a, r)
	}
	*keyBuf = whole
	if !anyNull && s.set[string(whole)] {
		return true
	}
	if !anyNull && !s.hasNull {
		return false
	}
	// No row equals it outright: NULL when some row might.
	fields := make([]string, len(args))
	for c, a := range args {
		if !a.IsNull(r) {
			fields[c] = string(appendKey(nil, a, r))
		}
	}
	for _, row := range s.rows {
		if mightEqual(fields, row) {
			return nil
		}
	}
	return false
}

// mightEqual reports whether two rows' fields are equal wherever neither
// is NULL ("").
func mightEqual(a, b []string) bool {
	for i := range a {
		if a[i] != "" && b[i] != "" && a[i] != b[i] {
			return false
		}
	}
	return true
}
