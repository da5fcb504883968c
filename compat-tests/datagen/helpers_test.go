package datagen

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// testSF is the scale factor of the tests: big enough for every query to
// have rows, small enough to generate in well under a second.
const testSF = 0.01

// eachBatch generates table at testSF and calls fn with every batch.
func eachBatch(t *testing.T, table string, batchRows int, fn func(arrow.RecordBatch)) {
	t.Helper()
	err := Generate(t.Context(), table, testSF, batchRows, func(rec arrow.RecordBatch) error {
		fn(rec)
		return nil
	})
	if err != nil {
		t.Fatalf("Generate(%s): %v", table, err)
	}
}

// rowHasher hashes rows cell by cell as text, so batches of any size and
// tables read back from storage hash alike.
type rowHasher struct {
	h    hash.Hash
	rows int64
}

func newRowHasher() *rowHasher { return &rowHasher{h: sha256.New()} }

func (r *rowHasher) add(rec arrow.RecordBatch) {
	var buf []byte
	for i := range int(rec.NumRows()) {
		buf = buf[:0]
		for _, col := range rec.Columns() {
			buf = appendCell(buf, col, i)
			buf = append(buf, 0)
		}
		_, _ = r.h.Write(append(buf, '\n'))
	}
	r.rows += rec.NumRows()
}

// appendCell appends the value at row i of col in a form that does not
// depend on the array's layout (string and large string hash alike).
func appendCell(buf []byte, col arrow.Array, i int) []byte {
	switch a := col.(type) {
	case *array.Int64:
		return binary.LittleEndian.AppendUint64(buf, uint64(a.Value(i)))
	case *array.Int32:
		return binary.LittleEndian.AppendUint32(buf, uint32(a.Value(i)))
	case *array.Date32:
		return binary.LittleEndian.AppendUint32(buf, uint32(a.Value(i)))
	case *array.Decimal128:
		v := a.Value(i)
		buf = binary.LittleEndian.AppendUint64(buf, v.LowBits())
		return binary.LittleEndian.AppendUint64(buf, uint64(v.HighBits()))
	case *array.String:
		return append(buf, a.Value(i)...)
	case *array.LargeString:
		return append(buf, a.Value(i)...)
	}
	return append(buf, col.ValueStr(i)...)
}

func (r *rowHasher) sum() string { return hex.EncodeToString(r.h.Sum(nil)) }

// tableHash is the hash and row count of a generated table.
func tableHash(t *testing.T, table string, batchRows int) (string, int64) {
	t.Helper()
	h := newRowHasher()
	eachBatch(t, table, batchRows, h.add)
	return h.sum(), h.rows
}

// colOf returns the named column of rec.
func colOf[A arrow.Array](t *testing.T, rec arrow.RecordBatch, name string) A {
	t.Helper()
	idx := rec.Schema().FieldIndices(name)
	if len(idx) != 1 {
		t.Fatalf("no column %s", name)
	}
	a, ok := rec.Column(idx[0]).(A)
	if !ok {
		t.Fatalf("column %s is %T", name, rec.Column(idx[0]))
	}
	return a
}

// int64Set collects the values of an int64 column of a table.
func int64Set(t *testing.T, table, col string) map[int64]bool {
	t.Helper()
	set := map[int64]bool{}
	eachBatch(t, table, 4096, func(rec arrow.RecordBatch) {
		a := colOf[*array.Int64](t, rec, col)
		for i := range a.Len() {
			set[a.Value(i)] = true
		}
	})
	return set
}
