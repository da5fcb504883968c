package pgwire

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/types"
)

// This file encodes the byte-string types: uuid (Arrow
// fixed_size_binary(16)) and bytea (Arrow binary). Their binary send
// forms are the bytes themselves.

type uuidText struct {
	arrayOf[*array.FixedSizeBinary]
}

func (e *uuidText) appendText(dst []byte, i int) []byte {
	return types.AppendUUID(dst, e.arr.Value(i))
}

type byteaText struct{ arrayOf[*array.Binary] }

func (e *byteaText) appendText(dst []byte, i int) []byte {
	return types.AppendByteaHex(dst, e.arr.Value(i))
}

type largeByteaText struct{ arrayOf[*array.LargeBinary] }

func (e *largeByteaText) appendText(dst []byte, i int) []byte {
	return types.AppendByteaHex(dst, e.arr.Value(i))
}

// bytesArray is an Arrow array of byte strings, whatever its layout.
type bytesArray interface {
	arrow.Array
	Value(int) []byte
}

type bytesBinary[A bytesArray] struct{ arrayOf[A] }

func (e *bytesBinary[A]) appendBinary(dst []byte, i int) []byte {
	return append(dst, e.arr.Value(i)...)
}
