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

// TestJSONEncoders checks json and jsonb against PostgreSQL 15's output:
// json_send is the text, jsonb_send a version byte 1 and then the text
// (jsonb_send('{"a": 1}') = \x017b2261223a20317d).
func TestJSONEncoders(t *testing.T) {
	tests := []struct {
		name     string
		typ      types.T
		value    string
		wantText string
		wantBin  string
	}{
		{"json", types.JSON, `{"a":1}`, `{"a":1}`, "7b2261223a317d"},
		{"jsonb", types.JSONB, `{"a": 1}`, `{"a": 1}`, "017b2261223a20317d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := array.NewStringBuilder(memory.NewGoAllocator())
			b.Append(tt.value)
			arr := b.NewArray()
			b.Release()
			defer arr.Release()
			col := sql.Column{Name: "c", Type: tt.typ}
			if got := encodeOne(t, col, arr, 0); got != tt.wantText {
				t.Errorf("text: got %q, want %q", got, tt.wantText)
			}
			enc, err := newBinaryEncoder(col, arr.DataType())
			if err != nil {
				t.Fatal(err)
			}
			if err := enc.bind(arr); err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(enc.appendBinary(nil, 0)); got != tt.wantBin {
				t.Errorf("binary: got %s, want %s", got, tt.wantBin)
			}
		})
	}
	// A json column must not be carried by a non-text Arrow type.
	if _, err := newTextEncoder(sql.Column{Name: "c", Type: types.JSONB}, arrow.PrimitiveTypes.Int64); err == nil {
		t.Error("text encoder accepted int64 for jsonb")
	}
}
