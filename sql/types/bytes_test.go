package types

import (
	"bytes"
	"errors"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The expected values and error codes are PostgreSQL 15's uuid_in and
// byteain answers for the same input.
func TestParseUUIDAndBytea(t *testing.T) {
	uuid := []byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}
	tests := []struct {
		in       string
		typ      T
		want     []byte
		wantCode string
		out      string
	}{
		{"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", UUID, uuid, "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", UUID, uuid, "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}", UUID, uuid, "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"a0eebc999c0b4ef8bb6d6bb9bd380a11", UUID, uuid, "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11", UUID, uuid, "", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1", UUID, nil, "22P02", ""},
		{"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-", UUID, nil, "22P02", ""},
		{"{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", UUID, nil, "22P02", ""},
		{"a0eeb-c99-9c0b-4ef8-bb6d-6bb9bd380a11", UUID, nil, "22P02", ""},
		{" a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", UUID, nil, "22P02", ""},
		{`\x0102ff`, Bytea, []byte{1, 2, 0xff}, "", `\x0102ff`},
		{`\x 01 0A`, Bytea, []byte{1, 10}, "", `\x010a`},
		{`abc`, Bytea, []byte("abc"), "", `\x616263`},
		{`a\\b\001\377`, Bytea, []byte{'a', '\\', 'b', 1, 0xff}, "", `\x615c6201ff`},
		{``, Bytea, []byte{}, "", `\x`},
		{`\x0g`, Bytea, nil, "22023", ""},
		{`\x012`, Bytea, nil, "22023", ""},
		{`a\9`, Bytea, nil, "22P02", ""},
		{`a\400`, Bytea, nil, "22P02", ""},
		{`a\`, Bytea, nil, "22P02", ""},
	}
	for _, tt := range tests {
		t.Run(tt.typ.Name()+" "+tt.in, func(t *testing.T) {
			v, err := ParseText(tt.in, tt.typ)
			if tt.wantCode != "" {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != tt.wantCode {
					t.Fatalf("got %v, %v; want error %s", v, err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := v.([]byte)
			if !bytes.Equal(got, tt.want) {
				t.Fatalf("got %x, want %x", got, tt.want)
			}
			var out []byte
			if tt.typ.OID == OIDUUID {
				out = AppendUUID(nil, got)
			} else {
				out = AppendByteaHex(nil, got)
			}
			if string(out) != tt.out {
				t.Errorf("output %q, want %q", out, tt.out)
			}
		})
	}
}

func TestDecodeBinaryUUIDAndBytea(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		typ     T
		wantErr bool
	}{
		{"uuid", bytes.Repeat([]byte{7}, 16), UUID, false},
		{"uuid short", bytes.Repeat([]byte{7}, 15), UUID, true},
		{"bytea", []byte{0, 1, 2}, Bytea, false},
		{"bytea empty", []byte{}, Bytea, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := DecodeBinary(tt.data, tt.typ)
			if tt.wantErr {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != pgerror.InvalidBinaryRepresentation {
					t.Fatalf("got %v, want 22P03", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := v.([]byte)
			if !bytes.Equal(got, tt.data) {
				t.Fatalf("got %x, want %x", got, tt.data)
			}
			if len(tt.data) > 0 && &got[0] == &tt.data[0] {
				t.Error("decoded value aliases the message buffer")
			}
		})
	}
}

func TestUUIDAndByteaTypes(t *testing.T) {
	tests := []struct {
		typ    T
		name   string
		family Family
		length int16
		elem   T
	}{
		{UUID, "uuid", FamilyUUID, 16, T{}},
		{Bytea, "bytea", FamilyBytes, -1, T{}},
		{T{OID: OIDUUIDArray}, "uuid[]", FamilyArray, -1, UUID},
		{T{OID: OIDByteaArray}, "bytea[]", FamilyArray, -1, Bytea},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.typ.Name() != tt.name || tt.typ.Family() != tt.family || tt.typ.Len() != tt.length {
				t.Errorf("got %s %v %d", tt.typ.Name(), tt.typ.Family(), tt.typ.Len())
			}
			back, err := FromArrow(tt.typ.Arrow())
			if err != nil || (tt.elem == T{} && back != tt.typ) {
				t.Errorf("FromArrow(%s) = %v, %v", tt.typ.Arrow(), back, err)
			}
			if tt.elem != (T{}) {
				arr, ok := ArrayOf(tt.elem)
				if !ok || arr != tt.typ {
					t.Errorf("ArrayOf(%s) = %v, %v", tt.elem, arr, ok)
				}
			}
		})
	}
}
