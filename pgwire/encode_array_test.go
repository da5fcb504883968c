package pgwire

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

func TestArrayAndOIDText(t *testing.T) {
	bld := array.NewListBuilder(memory.DefaultAllocator, arrow.BinaryTypes.String)
	defer bld.Release()
	vb := bld.ValueBuilder().(*array.StringBuilder)
	rows := [][]*string{
		{ptr("a"), ptr("b c"), nil, ptr(""), ptr("NULL"), ptr(`q"\`), ptr("{x}")},
		{},
	}
	for _, r := range rows {
		bld.Append(true)
		for _, v := range r {
			if v == nil {
				vb.AppendNull()
			} else {
				vb.Append(*v)
			}
		}
	}
	bld.AppendNull()
	list := bld.NewArray()
	defer list.Release()

	enc, err := newTextEncoder(sql.Column{Name: "a", Type: types.TextArray}, list.DataType())
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.bind(list); err != nil {
		t.Fatal(err)
	}
	want := []string{`{a,"b c",NULL,"","NULL","q\"\\","{x}"}`, `{}`}
	for i, w := range want {
		if got := string(enc.appendText(nil, i)); got != w {
			t.Errorf("row %d: %s, want %s", i, got, w)
		}
	}
	if !enc.isNull(2) {
		t.Error("NULL array not NULL")
	}

	ub := array.NewUint32Builder(memory.DefaultAllocator)
	defer ub.Release()
	ub.AppendValues([]uint32{11, 4294967295}, nil)
	oids := ub.NewArray()
	defer oids.Release()
	oenc, err := newTextEncoder(sql.Column{Name: "oid", Type: types.OID}, oids.DataType())
	if err != nil {
		t.Fatal(err)
	}
	if err := oenc.bind(oids); err != nil {
		t.Fatal(err)
	}
	if got := string(oenc.appendText(nil, 1)); got != "4294967295" {
		t.Errorf("oid text %s", got)
	}
	benc, err := newBinaryEncoder(sql.Column{Name: "oid", Type: types.OID}, oids.DataType())
	if err != nil {
		t.Fatal(err)
	}
	if err := benc.bind(oids); err != nil {
		t.Fatal(err)
	}
	if got := benc.appendBinary(nil, 0); string(got) != "\x00\x00\x00\x0b" {
		t.Errorf("oid binary %x", got)
	}
}

func TestVectorText(t *testing.T) {
	bld := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Int16)
	defer bld.Release()
	bld.Append(true)
	bld.ValueBuilder().(*array.Int16Builder).AppendValues([]int16{1, 3}, nil)
	list := bld.NewArray()
	defer list.Release()
	enc, err := newTextEncoder(sql.Column{Name: "indkey", Type: types.Int2Vector}, list.DataType())
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.bind(list); err != nil {
		t.Fatal(err)
	}
	if got := string(enc.appendText(nil, 0)); got != "1 3" {
		t.Errorf("int2vector text %q, want \"1 3\"", got)
	}
}

func ptr(s string) *string { return &s }
