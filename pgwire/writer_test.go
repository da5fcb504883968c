package pgwire

import (
	"errors"
	"testing"

	"github.com/jackc/pgproto3/v2"
)

// countingWriter records the size of each write.
type countingWriter struct {
	writes []int
	fail   bool
}

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.fail {
		return 0, errors.New("broken pipe")
	}
	w.writes = append(w.writes, len(p))
	return len(p), nil
}

func TestMessageWriterBatchesWrites(t *testing.T) {
	w := &countingWriter{}
	mw := newMessageWriter(w)
	row := &pgproto3.DataRow{Values: [][]byte{make([]byte, 1000)}}
	for i := 0; i < 10; i++ {
		if err := mw.send(row); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.writes) != 0 {
		t.Fatalf("small output was written before a flush: %v", w.writes)
	}
	for i := 0; i < 100; i++ {
		if err := mw.send(row); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.writes) != 1 || w.writes[0] < flushThreshold {
		t.Fatalf("writes %v: want one write once the threshold was passed", w.writes)
	}
	if err := mw.flush(); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, n := range w.writes {
		total += n
	}
	if want := 110 * (1 + 4 + 2 + 4 + 1000); total != want {
		t.Fatalf("wrote %d bytes, want %d", total, want)
	}
}

func TestMessageWriterLatchesErrors(t *testing.T) {
	w := &countingWriter{fail: true}
	mw := newMessageWriter(w)
	if err := mw.send(&pgproto3.ReadyForQuery{TxStatus: 'I'}); err != nil {
		t.Fatal(err)
	}
	if err := mw.flush(); err == nil {
		t.Fatal("flush to a broken writer succeeded")
	}
	w.fail = false
	if err := mw.send(&pgproto3.ReadyForQuery{TxStatus: 'I'}); err == nil {
		t.Fatal("send after a failed write succeeded")
	}
}
