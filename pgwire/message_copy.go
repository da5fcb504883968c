package pgwire

import (
	"fmt"

	"github.com/jackc/pgproto3/v2"
)

// copyFrontendMessage returns a deep copy of msg that shares nothing with
// the Backend: pgproto3 reuses its message structs and the chunk reader's
// buffer, so a message handed to another goroutine must be owned outright.
// The copy is made by encoding msg into scratch and decoding a fresh struct
// from a private copy of the body. It also returns the encoded size, which
// the inbox uses to bound the memory it holds.
func copyFrontendMessage(msg pgproto3.FrontendMessage, scratch *[]byte) (pgproto3.FrontendMessage, int, error) {
	var fresh pgproto3.FrontendMessage
	switch msg.(type) {
	case *pgproto3.Query:
		fresh = &pgproto3.Query{}
	case *pgproto3.Parse:
		fresh = &pgproto3.Parse{}
	case *pgproto3.Bind:
		fresh = &pgproto3.Bind{}
	case *pgproto3.Describe:
		fresh = &pgproto3.Describe{}
	case *pgproto3.Execute:
		fresh = &pgproto3.Execute{}
	case *pgproto3.Close:
		fresh = &pgproto3.Close{}
	case *pgproto3.Sync:
		fresh = &pgproto3.Sync{}
	case *pgproto3.Flush:
		fresh = &pgproto3.Flush{}
	case *pgproto3.Terminate:
		fresh = &pgproto3.Terminate{}
	case *pgproto3.FunctionCall:
		fresh = &pgproto3.FunctionCall{}
	case *pgproto3.CopyData:
		fresh = &pgproto3.CopyData{}
	case *pgproto3.CopyDone:
		fresh = &pgproto3.CopyDone{}
	case *pgproto3.CopyFail:
		fresh = &pgproto3.CopyFail{}
	case *pgproto3.PasswordMessage:
		fresh = &pgproto3.PasswordMessage{}
	default:
		return nil, 0, fmt.Errorf("copy frontend message: unexpected %T", msg)
	}
	enc, err := msg.Encode((*scratch)[:0])
	if err != nil {
		return nil, 0, fmt.Errorf("copy frontend message %T: %w", msg, err)
	}
	if cap(enc) <= maxAuthMessageSize {
		*scratch = enc // reuse it, unless one huge message made it huge
	}
	// Frontend messages carry a 1-byte type and a 4-byte length.
	body := make([]byte, len(enc)-5)
	copy(body, enc[5:])
	if err := fresh.Decode(body); err != nil {
		return nil, 0, fmt.Errorf("copy frontend message %T: %w", msg, err)
	}
	return fresh, len(enc), nil
}
