package pgwire

import (
	"encoding/hex"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBytesEncoders checks uuid and bytea (and their arrays) against the
// text and binary forms PostgreSQL 15 sends (uuid_out/uuid_send,
// byteaout/byteasend with bytea_output = hex, array_out/array_send).
func TestBytesEncoders(t *testing.T) {
	mem := memory.NewGoAllocator()
	uuid := "a0eebc999c0b4ef8bb6d6bb9bd380a11"
	tests := []struct {
		name     string
		typ      types.T
		fill     func(b array.Builder)
		wantText []string
		wantBin  []string // hex, "NULL" for null
	}{
		{"uuid", types.UUID, func(b array.Builder) {
			b.(*array.FixedSizeBinaryBuilder).Append(mustHex(t, uuid))
			b.AppendNull()
		}, []string{"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "<NULL>"}, []string{uuid, "NULL"}},
		{"bytea", types.Bytea, func(b array.Builder) {
			b.(*array.BinaryBuilder).Append([]byte{0x00, 0xff, 0x10})
			b.(*array.BinaryBuilder).Append([]byte{})
		}, []string{`\x00ff10`, `\x`}, []string{"00ff10", ""}},
		{"uuid array", types.T{OID: types.OIDUUIDArray}, func(b array.Builder) {
			lb := b.(*array.ListBuilder)
			lb.Append(true)
			lb.ValueBuilder().(*array.FixedSizeBinaryBuilder).Append(mustHex(t, uuid))
			lb.ValueBuilder().AppendNull()
		}, []string{"{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}"},
			[]string{"000000010000000100000b86000000020000000100000010" + uuid + "ffffffff"}},
		{"bytea array", types.T{OID: types.OIDByteaArray}, func(b array.Builder) {
			lb := b.(*array.ListBuilder)
			lb.Append(true)
			lb.ValueBuilder().(*array.BinaryBuilder).Append([]byte{1})
			lb.ValueBuilder().(*array.BinaryBuilder).Append([]byte{})
			lb.ValueBuilder().AppendNull()
		}, []string{`{"\\x01","\\x",NULL}`},
			[]string{"0000000100000001000000110000000300000001000000010100000000ffffffff"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := array.NewBuilder(mem, tt.typ.Arrow())
			tt.fill(b)
			arr := b.NewArray()
			b.Release()
			defer arr.Release()
			col := sql.Column{Name: "c", Type: tt.typ}
			for i, want := range tt.wantText {
				if got := encodeOne(t, col, arr, i); got != want {
					t.Errorf("text row %d: got %q, want %q", i, got, want)
				}
			}
			enc, err := newBinaryEncoder(col, arr.DataType())
			if err != nil {
				t.Fatal(err)
			}
			if err := enc.bind(arr); err != nil {
				t.Fatal(err)
			}
			for i, want := range tt.wantBin {
				got := "NULL"
				if !enc.isNull(i) {
					got = hex.EncodeToString(enc.appendBinary(nil, i))
				}
				if got != want {
					t.Errorf("binary row %d: got %s, want %s", i, got, want)
				}
			}
		})
	}
}

func TestBytesEncodersRefuseOtherWidths(t *testing.T) {
	dt := &arrow.FixedSizeBinaryType{ByteWidth: 8}
	if _, err := newTextEncoder(sql.Column{Name: "c", Type: types.UUID}, dt); err == nil {
		t.Error("text encoder accepted fixed_size_binary(8) for uuid")
	}
	if _, err := newBinaryEncoder(sql.Column{Name: "c", Type: types.UUID}, dt); err == nil {
		t.Error("binary encoder accepted fixed_size_binary(8) for uuid")
	}
	if _, err := newTextEncoder(sql.Column{Name: "c", Type: types.Text}, arrow.BinaryTypes.Binary); err == nil {
		t.Error("text encoder accepted binary for text")
	}
}
