package pgwire

import (
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

// TestNumericBinary checks numeric_send's layout; the expected bytes are
// what PostgreSQL 15 sends for the same value and scale.
func TestNumericBinary(t *testing.T) {
	tests := []struct {
		unscaled string
		scale    int32
		want     string // hex: ndigits weight sign dscale digits...
	}{
		{"0", 2, "0000000000000002"},
		{"12050", 2, "000200000000000200781388"},                 // 120.50
		{"7500", 2, "0001000000000002004b"},                      // 75.00
		{"-12345", 3, "0002000040000003000c0d7a"},                // -12.345
		{"1234567890001", 4, "0004000200000004000109291a850001"}, // 123456789.0001
		{"5", 2, "0001ffff0000000201f4"},                         // 0.05
		{"10000", 0, "00010001000000000001"},                     // 10000
		{"1", 38, "0001fff6000000260064"},                        // 1e-38: digit 100 at weight -10
		{"12", -3, "0002000100000000000107d0"},                   // 12000 held as 12 with scale -3: digits 1, 2000
		{"-1", 0, "00010000400000000001"},                        // -1
		{"99999999999999999999999999999999999999", 0, ""},        // 38 nines: only checked to round-trip below
	}
	for _, tt := range tests {
		v, ok := new(big.Int).SetString(tt.unscaled, 10)
		if !ok {
			t.Fatalf("bad test value %s", tt.unscaled)
		}
		n := decimal128.FromBigInt(v)
		got := appendNumericBinary(nil, n.HighBits(), n.LowBits(), tt.scale)
		if tt.want != "" && hex.EncodeToString(got) != tt.want {
			t.Errorf("%s scale %d: got %x, want %s", tt.unscaled, tt.scale, got, tt.want)
		}
		if back := decodeNumericBinary(t, got); back.Cmp(scaledRat(v, tt.scale)) != 0 {
			t.Errorf("%s scale %d: decodes to %s", tt.unscaled, tt.scale, back.RatString())
		}
	}
}

func scaledRat(v *big.Int, scale int32) *big.Rat {
	r := new(big.Rat).SetInt(v)
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(scale))), nil))
	if scale >= 0 {
		return r.Quo(r, p)
	}
	return r.Mul(r, p)
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// decodeNumericBinary is numeric_recv, for round-trip checks.
func decodeNumericBinary(t *testing.T, b []byte) *big.Rat {
	t.Helper()
	u16 := func(i int) int { return int(b[i])<<8 | int(b[i+1]) }
	ndigits, weight, sign := u16(0), int(int16(u16(2))), u16(4)
	if len(b) != 8+2*ndigits {
		t.Fatalf("numeric of %d bytes has %d digits", len(b), ndigits)
	}
	r := new(big.Rat)
	for i := 0; i < ndigits; i++ {
		d := u16(8 + 2*i)
		if d >= 10000 {
			t.Fatalf("digit %d out of range", d)
		}
		exp := weight - i
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10000), big.NewInt(int64(abs32(int32(exp)))), nil))
		term := new(big.Rat).SetInt64(int64(d))
		if exp >= 0 {
			term.Mul(term, p)
		} else {
			term.Quo(term, p)
		}
		r.Add(r, term)
	}
	if sign == numericNegative {
		r.Neg(r)
	}
	return r
}

// TestBinaryEncoders covers each type's wire form, including a PostgreSQL
// type narrower than the Arrow type that holds it.
func TestBinaryEncoders(t *testing.T) {
	mem := memory.NewGoAllocator()
	build := func(dt arrow.DataType, fill func(array.Builder)) arrow.Array {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		fill(b)
		return b.NewArray()
	}
	tests := []struct {
		name string
		typ  types.T
		arr  arrow.Array
		want []string // hex per row, "NULL" for null
	}{
		{"bool", types.Bool, build(arrow.FixedWidthTypes.Boolean, func(b array.Builder) {
			b.(*array.BooleanBuilder).AppendValues([]bool{true, false}, nil)
			b.AppendNull()
		}), []string{"01", "00", "NULL"}},
		{"int2 from int64", types.Int2, build(arrow.PrimitiveTypes.Int64, func(b array.Builder) {
			b.(*array.Int64Builder).AppendValues([]int64{7, -2}, nil)
		}), []string{"0007", "fffe"}},
		{"int4 from int32", types.Int4, build(arrow.PrimitiveTypes.Int32, func(b array.Builder) {
			b.(*array.Int32Builder).AppendValues([]int32{-8}, nil)
		}), []string{"fffffff8"}},
		{"int8 from int16", types.Int8, build(arrow.PrimitiveTypes.Int16, func(b array.Builder) {
			b.(*array.Int16Builder).AppendValues([]int16{-1}, nil)
		}), []string{"ffffffffffffffff"}},
		{"float4", types.Float4, build(arrow.PrimitiveTypes.Float32, func(b array.Builder) {
			b.(*array.Float32Builder).AppendValues([]float32{1.5}, nil)
		}), []string{"3fc00000"}},
		{"float8", types.Float8, build(arrow.PrimitiveTypes.Float64, func(b array.Builder) {
			b.(*array.Float64Builder).AppendValues([]float64{-2.25}, nil)
		}), []string{"c002000000000000"}},
		{"text", types.Text, build(arrow.BinaryTypes.String, func(b array.Builder) {
			b.(*array.StringBuilder).AppendValues([]string{"héllo", ""}, nil)
		}), []string{hex.EncodeToString([]byte("héllo")), ""}},
		{"numeric", types.Numeric(12, 2), build(&arrow.Decimal64Type{Precision: 12, Scale: 2}, func(b array.Builder) {
			b.(*array.Decimal64Builder).Append(decimal.Decimal64(12050))
		}), []string{"000200000000000200781388"}},
		{"date", types.Date, build(arrow.FixedWidthTypes.Date32, func(b array.Builder) {
			b.(*array.Date32Builder).AppendValues([]arrow.Date32{10957, 10956, 19737}, nil)
		}), []string{"00000000", "ffffffff", "0000224c"}},
		{"timestamp micros", types.Timestamp, build(&arrow.TimestampType{Unit: arrow.Microsecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1711102272345678, 0}, nil)
		}), []string{"0002b73bcfe6364e", "fffca2fec4c82000"}},
		{"timestamptz nanos", types.TimestampTZ, build(&arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, func(b array.Builder) {
			b.(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1711102272345678999}, nil)
		}), []string{"0002b73bcfe6364e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer tt.arr.Release()
			enc, err := newBinaryEncoder(sql.Column{Name: "c", Type: tt.typ}, tt.arr.DataType())
			if err != nil {
				t.Fatal(err)
			}
			if err := enc.bind(tt.arr); err != nil {
				t.Fatal(err)
			}
			for i, want := range tt.want {
				got := "NULL"
				if !enc.isNull(i) {
					got = hex.EncodeToString(enc.appendBinary(nil, i))
				}
				if got != want {
					t.Errorf("row %d: got %s, want %s", i, got, want)
				}
			}
		})
	}
}

func TestBinaryEncoderRefusesMismatchedTypes(t *testing.T) {
	tests := []struct {
		typ types.T
		dt  arrow.DataType
	}{
		{types.Int4, arrow.BinaryTypes.String},
		{types.Text, arrow.PrimitiveTypes.Int64},
		{types.Date, arrow.PrimitiveTypes.Float64},
		{types.Int8, arrow.BinaryTypes.Binary},
	}
	for _, tt := range tests {
		if _, err := newBinaryEncoder(sql.Column{Name: "c", Type: tt.typ}, tt.dt); err == nil {
			t.Errorf("%s in %s: no error", tt.typ, tt.dt)
		}
	}
}

// TestBinaryRowsDoNotAllocate keeps the per-row path allocation-free, as
// the text path is.
func TestBinaryRowsDoNotAllocate(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "amount", Type: &arrow.Decimal64Type{Precision: 12, Scale: 2}},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "region", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).Append(1)
	b.Field(1).(*array.Decimal64Builder).Append(decimal.Decimal64(-31025))
	b.Field(2).(*array.Date32Builder).Append(19804)
	b.Field(3).(*array.StringBuilder).Append("EU")
	rec := b.NewRecordBatch()
	defer rec.Release()
	cols := []sql.Column{{Name: "id", Type: types.Int8}, {Name: "amount", Type: types.Numeric(12, 2)},
		{Name: "day", Type: types.Date}, {Name: "region", Type: types.Text}}
	enc := newRowEncoder(cols, []int16{formatBinary, formatBinary, formatText, formatBinary})
	if err := enc.bind(rec); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(100, func() {
		var err error
		if _, err = enc.appendRow(buf[:0], 0); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per row", allocs)
	}
}
