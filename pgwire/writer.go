package pgwire

import (
	"fmt"
	"io"

	"github.com/jackc/pgproto3/v2"
)

// flushThreshold is the buffered size at which messages go to the socket
// before the next ReadyForQuery: large enough that a result set costs few
// syscalls, small enough that memory per connection stays bounded.
const flushThreshold = 64 << 10

// messageWriter batches backend messages into one buffer owned by the
// connection's processor goroutine. Messages are appended with their own
// Encode (no per-message allocation once the buffer has grown) and written
// to the socket in one call when the buffer is large, at ReadyForQuery, and
// before the processor waits for input.
type messageWriter struct {
	w   io.Writer
	buf []byte
	err error // first write error; once set, nothing more is written
}

func newMessageWriter(w io.Writer) *messageWriter {
	return &messageWriter{w: w, buf: make([]byte, 0, flushThreshold+flushThreshold/4)}
}

// send appends msg and flushes if the buffer has passed the threshold.
func (mw *messageWriter) send(msg pgproto3.BackendMessage) error {
	if mw.err != nil {
		return mw.err
	}
	buf, err := msg.Encode(mw.buf)
	if err != nil {
		// The buffer may hold a partial message: drop everything unsent
		// rather than put a corrupt frame on the wire.
		mw.err = fmt.Errorf("encode %T: %w", msg, err)
		mw.buf = mw.buf[:0]
		return mw.err
	}
	mw.buf = buf
	return mw.maybeFlush()
}

func (mw *messageWriter) maybeFlush() error {
	if len(mw.buf) >= flushThreshold {
		return mw.flush()
	}
	return nil
}

// flush writes everything buffered to the socket.
func (mw *messageWriter) flush() error {
	if mw.err != nil {
		return mw.err
	}
	if len(mw.buf) == 0 {
		return nil
	}
	_, err := mw.w.Write(mw.buf)
	if cap(mw.buf) > 4*flushThreshold {
		// One huge row should not pin a huge buffer for the connection's life.
		mw.buf = make([]byte, 0, flushThreshold+flushThreshold/4)
	} else {
		mw.buf = mw.buf[:0]
	}
	if err != nil {
		mw.err = fmt.Errorf("write to client: %w", err)
	}
	return mw.err
}
