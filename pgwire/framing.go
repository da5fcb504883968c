package pgwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgproto3/v2"
)

// Startup packet codes (the first int32 of a packet that has no type byte).
const (
	protocolVersion30  = pgproto3.ProtocolVersionNumber // 3.0
	sslRequestCode     = 80877103
	gssEncRequestCode  = 80877104
	cancelRequestCode  = 80877102
	maxStartupPacket   = 10000   // MAX_STARTUP_PACKET_LENGTH in PostgreSQL
	maxAuthMessageSize = 1 << 20 // a password message: room for very large tokens, not for abuse
)

// messageTooLargeError is a frontend message whose declared length is over
// the limit; the connection is closed with FATAL 54000 without reading it.
type messageTooLargeError struct {
	size, limit int
}

func (e *messageTooLargeError) Error() string {
	return fmt.Sprintf("message of %d bytes exceeds the limit of %d bytes", e.size, e.limit)
}

// frameGuard is the ChunkReader under pgproto3.Backend. The Backend reads a
// 5-byte header and then allocates and reads whatever body length the client
// declared; the guard looks at each header first and refuses a length over
// the limit before any of it is allocated, and checks each body first for
// the shapes pgproto3's decoders panic on (checkBody). It relies on the
// Backend's strict alternation of header and body reads.
type frameGuard struct {
	cr      pgproto3.ChunkReader
	limit   int
	inBody  bool
	msgType byte  // of the message whose body is next
	readErr error // the first error of the underlying reader: the client is gone
}

func (g *frameGuard) Next(n int) ([]byte, error) {
	if !g.inBody {
		buf, err := g.next(n)
		if err != nil {
			return nil, err
		}
		if len(buf) != 5 {
			return buf, nil // not a message header; never happens with pgproto3.Backend
		}
		size := int(binary.BigEndian.Uint32(buf[1:]))
		if size > g.limit {
			return nil, &messageTooLargeError{size: size, limit: g.limit}
		}
		g.msgType = buf[0]
		g.inBody = true
		return buf, nil
	}
	g.inBody = false
	buf, err := g.next(n)
	if err != nil {
		return nil, err
	}
	if err := checkBody(g.msgType, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// checkBody refuses the bodies pgproto3 v2's decoders would index out of
// range on: they panic instead of returning an error. That is an empty
// Query or CopyFail, a Bind with a parameter length below -1, and a
// FunctionCall that is cut short or has a NULL argument (its decoder reads
// the -1 as 4 GiB). Every other malformed body is reported by its decoder.
func checkBody(msgType byte, body []byte) error {
	w := bodyWalker{rest: body}
	switch msgType {
	case 'Q', 'f':
		if len(body) == 0 {
			return fmt.Errorf("empty %q message", msgType)
		}
	case 'B':
		w.cstring() // portal
		w.cstring() // statement
		w.take(2 * w.uint16())
		for n := w.uint16(); n > 0 && !w.bad; n-- {
			if size := w.int32(); size != -1 {
				w.take(size)
			}
		}
		w.take(2 * w.uint16())
		if w.bad {
			return errors.New("malformed Bind message")
		}
	case 'F':
		w.take(4) // function oid
		w.take(2 * w.uint16())
		for n := w.uint16(); n > 0 && !w.bad; n-- {
			w.take(w.int32())
		}
		w.take(2) // result format
		if w.bad {
			return errors.New("malformed or NULL-argument FunctionCall message")
		}
	}
	return nil
}

// bodyWalker reads a message body field by field; reading past the end
// (or a negative length) sets bad and makes every later read empty.
type bodyWalker struct {
	rest []byte
	bad  bool
}

func (w *bodyWalker) take(n int) []byte {
	if w.bad || n < 0 || n > len(w.rest) {
		w.bad = true
		return nil
	}
	out := w.rest[:n]
	w.rest = w.rest[n:]
	return out
}

func (w *bodyWalker) uint16() int {
	if b := w.take(2); b != nil {
		return int(binary.BigEndian.Uint16(b))
	}
	return 0
}

func (w *bodyWalker) int32() int {
	if b := w.take(4); b != nil {
		return int(int32(binary.BigEndian.Uint32(b)))
	}
	return 0
}

func (w *bodyWalker) cstring() {
	if i := bytes.IndexByte(w.rest, 0); i >= 0 && !w.bad {
		w.rest = w.rest[i+1:]
		return
	}
	w.bad = true
}

func (g *frameGuard) next(n int) ([]byte, error) {
	buf, err := g.cr.Next(n)
	if err != nil && g.readErr == nil {
		g.readErr = err
	}
	return buf, err
}

// readStartupPacket reads one length-prefixed startup-phase packet
// (StartupMessage, SSLRequest, GSSENCRequest or CancelRequest) straight from
// r, byte-exact, and decodes it with pgproto3's structs. It deliberately does
// not go through a buffering reader: bytes a client pipelines after an
// SSLRequest must not be read before the TLS handshake, or they would be
// trusted as if they had arrived encrypted.
func readStartupPacket(r io.Reader) (pgproto3.FrontendMessage, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	size := int(binary.BigEndian.Uint32(hdr[:]))
	if size < 8 || size > maxStartupPacket {
		return nil, &protocolError{msg: "invalid length of startup packet"}
	}
	body := make([]byte, size-4)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("read startup packet: %w", err)
	}
	code := binary.BigEndian.Uint32(body)
	var msg pgproto3.FrontendMessage
	switch code {
	case protocolVersion30:
		msg = &pgproto3.StartupMessage{}
	case sslRequestCode:
		msg = &pgproto3.SSLRequest{}
	case gssEncRequestCode:
		msg = &pgproto3.GSSEncRequest{}
	case cancelRequestCode:
		msg = &pgproto3.CancelRequest{}
	default:
		return nil, &protocolError{msg: fmt.Sprintf(
			"unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", code>>16, code&0xffff)}
	}
	if err := msg.Decode(body); err != nil {
		return nil, &protocolError{msg: "invalid startup packet layout", cause: err}
	}
	return msg, nil
}

// protocolError is a malformed or out-of-place message: the client gets
// FATAL 08P01 with msg and the connection closes.
type protocolError struct {
	msg   string
	cause error
}

func (e *protocolError) Error() string {
	if e.cause != nil {
		return e.msg + ": " + e.cause.Error()
	}
	return e.msg
}

func (e *protocolError) Unwrap() error { return e.cause }
