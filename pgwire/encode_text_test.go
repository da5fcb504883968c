package pgwire

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

// goldenCase is one line of testdata/pg15_text_output.tsv.
type goldenCase struct {
	kind, input, want string
}

func readGolden(t *testing.T) []goldenCase {
	t.Helper()
	f, err := os.Open("testdata/pg15_text_output.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []goldenCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			t.Fatalf("bad golden line %q", line)
		}
		cases = append(cases, goldenCase{parts[0], parts[1], parts[2]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// goldenColumn builds a one-value Arrow array and its column for a golden
// case.
func goldenColumn(t *testing.T, mem memory.Allocator, c goldenCase) (sql.Column, arrow.Array) {
	t.Helper()
	switch c.kind {
	case "float8":
		f, err := strconv.ParseFloat(c.input, 64)
		if err != nil {
			t.Fatal(err)
		}
		if c.input == "-0" {
			f = math.Copysign(0, -1)
		}
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		b.Append(f)
		return sql.Column{Name: "v", Type: types.Float8}, b.NewArray()
	case "float4":
		f, err := strconv.ParseFloat(c.input, 32)
		if err != nil {
			t.Fatal(err)
		}
		if c.input == "-0" {
			f = math.Copysign(0, -1)
		}
		b := array.NewFloat32Builder(mem)
		defer b.Release()
		b.Append(float32(f))
		return sql.Column{Name: "v", Type: types.Float4}, b.NewArray()
	case "numeric":
		unscaled, scaleStr, _ := strings.Cut(c.input, "|")
		scale, err := strconv.Atoi(scaleStr)
		if err != nil {
			t.Fatal(err)
		}
		n, ok := new(big.Int).SetString(unscaled, 10)
		if !ok {
			t.Fatalf("bad unscaled %q", unscaled)
		}
		typ := types.Numeric(38, int32(scale))
		b := array.NewDecimal128Builder(mem, typ.Arrow().(*arrow.Decimal128Type))
		defer b.Release()
		b.Append(int128(n))
		return sql.Column{Name: "v", Type: typ}, b.NewArray()
	case "date":
		d, err := strconv.ParseInt(c.input, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewDate32Builder(mem)
		defer b.Release()
		b.Append(arrow.Date32(d))
		return sql.Column{Name: "v", Type: types.Date}, b.NewArray()
	case "timestamp", "timestamptz":
		us, err := strconv.ParseInt(c.input, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		typ := types.Timestamp
		if c.kind == "timestamptz" {
			typ = types.TimestampTZ
		}
		b := array.NewTimestampBuilder(mem, typ.Arrow().(*arrow.TimestampType))
		defer b.Release()
		b.Append(arrow.Timestamp(us))
		return sql.Column{Name: "v", Type: typ}, b.NewArray()
	}
	t.Fatalf("unknown golden kind %q", c.kind)
	return sql.Column{}, nil
}

// int128 is n in 128-bit two's complement (decimal128.FromBigInt refuses
// the most negative value).
func int128(n *big.Int) decimal128.Num {
	m := new(big.Int).Mod(n, new(big.Int).Lsh(big.NewInt(1), 128))
	lo := new(big.Int).And(m, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi := new(big.Int).Rsh(m, 64).Uint64()
	return decimal128.New(int64(hi), lo)
}

// TestTextEncodingMatchesPostgres checks every encoder against values that
// PostgreSQL 15 printed for the same inputs.
func TestTextEncodingMatchesPostgres(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, c := range readGolden(t) {
		t.Run(c.kind+"/"+c.input, func(t *testing.T) {
			col, arr := goldenColumn(t, mem, c)
			defer arr.Release()
			if got := encodeOne(t, col, arr, 0); got != c.want {
				t.Errorf("%s %s: got %q, want %q", c.kind, c.input, got, c.want)
			}
		})
	}
}

func encodeOne(t *testing.T, col sql.Column, arr arrow.Array, i int) string {
	t.Helper()
	enc, err := newTextEncoder(col, arr.DataType())
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.bind(arr); err != nil {
		t.Fatal(err)
	}
	if enc.isNull(i) {
		return "<NULL>"
	}
	return string(enc.appendText(nil, i))
}

func TestTextEncodingSimpleTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	build := func(dt arrow.DataType, fill func(array.Builder)) arrow.Array {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		fill(b)
		return b.NewArray()
	}
	tests := []struct {
		name string
		col  sql.Column
		arr  arrow.Array
		want []string
	}{
		{"bool", sql.Column{Type: types.Bool}, build(arrow.FixedWidthTypes.Boolean, func(b array.Builder) {
			b.(*array.BooleanBuilder).AppendValues([]bool{true, false}, nil)
			b.AppendNull()
		}), []string{"t", "f", "<NULL>"}},
		{"int2", sql.Column{Type: types.Int2}, build(arrow.PrimitiveTypes.Int16, func(b array.Builder) {
			b.(*array.Int16Builder).AppendValues([]int16{32767, -32768, 0}, nil)
		}), []string{"32767", "-32768", "0"}},
		{"int2 from int8", sql.Column{Type: types.Int2}, build(arrow.PrimitiveTypes.Int8, func(b array.Builder) {
			b.(*array.Int8Builder).AppendValues([]int8{-128, 127}, nil)
		}), []string{"-128", "127"}},
		{"int4", sql.Column{Type: types.Int4}, build(arrow.PrimitiveTypes.Int32, func(b array.Builder) {
			b.(*array.Int32Builder).AppendValues([]int32{math.MaxInt32, math.MinInt32}, nil)
		}), []string{"2147483647", "-2147483648"}},
		{"int8", sql.Column{Type: types.Int8}, build(arrow.PrimitiveTypes.Int64, func(b array.Builder) {
			b.(*array.Int64Builder).AppendValues([]int64{math.MaxInt64, math.MinInt64}, nil)
			b.AppendNull()
		}), []string{"9223372036854775807", "-9223372036854775808", "<NULL>"}},
		{"text", sql.Column{Type: types.Text}, build(arrow.BinaryTypes.String, func(b array.Builder) {
			b.(*array.StringBuilder).AppendValues([]string{"héllo", "", "tab\there"}, nil)
			b.AppendNull()
		}), []string{"héllo", "", "tab\there", "<NULL>"}},
		{"varchar large string", sql.Column{Type: types.VarcharN(5)}, build(arrow.BinaryTypes.LargeString, func(b array.Builder) {
			b.(*array.LargeStringBuilder).Append("abc")
		}), []string{"abc"}},
		{"unknown null", sql.Column{Type: types.Unknown}, build(arrow.Null, func(b array.Builder) {
			b.AppendNull()
		}), []string{"<NULL>"}},
		{"unconstrained numeric keeps its scale", sql.Column{Type: types.T{OID: types.OIDNumeric, Scale: 1}}, build(types.T{OID: types.OIDNumeric, Scale: 1}.Arrow(), func(b array.Builder) {
			db := b.(*array.Decimal128Builder)
			db.Append(decimal128.FromI64(15))
			db.Append(decimal128.FromI64(-30))
			db.Append(decimal128.FromI64(0))
		}), []string{"1.5", "-3.0", "0.0"}},
		{"negative arrow scale", sql.Column{Type: types.T{OID: types.OIDNumeric}}, build(&arrow.Decimal128Type{Precision: 10, Scale: -2}, func(b array.Builder) {
			db := b.(*array.Decimal128Builder)
			db.Append(decimal128.FromI64(-15))
			db.Append(decimal128.FromI64(0))
		}), []string{"-1500", "0"}},
		{"numeric held in 64 bits", sql.Column{Type: types.Numeric(15, 2)}, build(types.Numeric(15, 2).Arrow(), func(b array.Builder) {
			db := b.(*array.Decimal64Builder)
			db.Append(decimal.Decimal64(15))
			db.Append(decimal.Decimal64(-999999999999999999))
			db.Append(decimal.Decimal64(0))
			db.AppendNull()
		}), []string{"0.15", "-9999999999999999.99", "0.00", "<NULL>"}},
		{"timestamp in milliseconds", sql.Column{Type: types.Timestamp}, build(&arrow.TimestampType{Unit: arrow.Millisecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(1705314600500)
		}), []string{"2024-01-15 10:30:00.5"}},
		{"timestamp in nanoseconds floors", sql.Column{Type: types.Timestamp}, build(&arrow.TimestampType{Unit: arrow.Nanosecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(-1)
		}), []string{"1969-12-31 23:59:59.999999"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer tt.arr.Release()
			for i, want := range tt.want {
				if got := encodeOne(t, tt.col, tt.arr, i); got != want {
					t.Errorf("row %d: got %q, want %q", i, got, want)
				}
			}
		})
	}
}

func TestTextEncoderRefusesMismatchedTypes(t *testing.T) {
	tests := []struct {
		name string
		t    types.T
		dt   arrow.DataType
	}{
		{"bool column in int64 array", types.Bool, arrow.PrimitiveTypes.Int64},
		{"text column in float64 array", types.Text, arrow.PrimitiveTypes.Float64},
		{"date column in timestamp array", types.Date, &arrow.TimestampType{Unit: arrow.Microsecond}},
		{"binary array", types.Text, arrow.BinaryTypes.Binary},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := newTextEncoder(sql.Column{Name: "c", Type: tt.t}, tt.dt); err == nil {
				t.Fatalf("expected an error for %s in %s", tt.t, tt.dt)
			}
		})
	}
}

// TestCivilFromDaysRoundTrip compares the date arithmetic with a direct
// count over four centuries on each side of the epoch.
func TestCivilFromDaysRoundTrip(t *testing.T) {
	y, m, d := int64(1570), 1, 1
	daysIn := func(y int64, m int) int {
		switch m {
		case 2:
			if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
				return 29
			}
			return 28
		case 4, 6, 9, 11:
			return 30
		}
		return 31
	}
	start := int64(-146097) // 1570-01-01 is 400 Gregorian years before 1970
	for days := start; days < -start; days++ {
		gy, gm, gd := types.CivilFromDays(days)
		if gy != y || gm != m || gd != d {
			t.Fatalf("day %d: got %d-%d-%d, want %d-%d-%d", days, gy, gm, gd, y, m, d)
		}
		d++
		if d > daysIn(y, m) {
			d, m = 1, m+1
			if m > 12 {
				m, y = 1, y+1
			}
		}
	}
}

// batchFixture is an 8192-row, 4-column batch: bigint, text, numeric(12,2)
// and timestamp, with some NULLs.
func batchFixture(mem memory.Allocator) ([]sql.Column, arrow.RecordBatch) {
	cols := []sql.Column{
		{Name: "id", Type: types.Int8},
		{Name: "region", Type: types.Text},
		{Name: "amount", Type: types.Numeric(12, 2)},
		{Name: "at", Type: types.Timestamp},
	}
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: true}
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	ids := b.Field(0).(*array.Int64Builder)
	regions := b.Field(1).(*array.StringBuilder)
	amounts := b.Field(2).(*array.Decimal64Builder)
	ats := b.Field(3).(*array.TimestampBuilder)
	for i := 0; i < 8192; i++ {
		ids.Append(int64(i))
		if i%10 == 0 {
			regions.AppendNull()
		} else {
			regions.Append([]string{"EU", "US", "APAC"}[i%3])
		}
		amounts.Append(decimal.Decimal64(int64(i*137 - 50000)))
		ats.Append(arrow.Timestamp(1705314600000000 + int64(i)*1_500_000))
	}
	return cols, b.NewRecordBatch()
}

func TestWriteBatchProducesDecodableDataRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	cols, rec := batchFixture(mem)
	defer rec.Release()

	var sink strings.Builder
	mw := newMessageWriter(&sink)
	if err := writeBatch(context.Background(), mw, newRowEncoder(cols, nil), rec); err != nil {
		t.Fatal(err)
	}
	if err := mw.flush(); err != nil {
		t.Fatal(err)
	}
	fe := pgproto3.NewFrontend(pgproto3.NewChunkReader(strings.NewReader(sink.String())), io.Discard)
	want := map[int][]string{
		0:    {"0", "", "-500.00", "2024-01-15 10:30:00"},
		1:    {"1", "US", "-498.63", "2024-01-15 10:30:01.5"},
		8191: {"8191", "US", "10721.67", "2024-01-15 13:54:46.5"},
	}
	for i := 0; i < 8192; i++ {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		dr, ok := msg.(*pgproto3.DataRow)
		if !ok || len(dr.Values) != 4 {
			t.Fatalf("row %d: got %#v", i, msg)
		}
		if (dr.Values[1] == nil) != (i%10 == 0) {
			t.Fatalf("row %d: region NULL = %v", i, dr.Values[1] == nil)
		}
		if w, ok := want[i]; ok {
			for c := range w {
				if c == 1 && i%10 == 0 {
					continue
				}
				if string(dr.Values[c]) != w[c] {
					t.Errorf("row %d col %d: got %q, want %q", i, c, dr.Values[c], w[c])
				}
			}
		}
	}
	if _, err := fe.Receive(); err == nil {
		t.Fatal("more messages than rows")
	}
}

// TestWriteBatchDoesNotAllocate asserts the no-allocation promise that the
// benchmark reports.
func TestWriteBatchDoesNotAllocate(t *testing.T) {
	mem := memory.NewGoAllocator()
	cols, rec := batchFixture(mem)
	defer rec.Release()
	mw := newMessageWriter(io.Discard)
	enc := newRowEncoder(cols, nil)
	if err := writeBatch(context.Background(), mw, enc, rec); err != nil { // warm up buffers
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		if err := writeBatch(context.Background(), mw, enc, rec); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0 {
		t.Fatalf("writeBatch allocated %.0f times per batch, want 0", allocs)
	}
}

func BenchmarkEncodeBatch(b *testing.B) {
	mem := memory.NewGoAllocator()
	cols, rec := batchFixture(mem)
	defer rec.Release()
	mw := newMessageWriter(io.Discard)
	enc := newRowEncoder(cols, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := writeBatch(context.Background(), mw, enc, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rec.NumRows())*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestWriteBatchStopsWhenCancelled: a cancelled statement stops sending at
// the first flush, not after the whole batch, so a client reading slowly
// gets its cancel answered within one buffer of rows.
func TestWriteBatchStopsWhenCancelled(t *testing.T) {
	mem := memory.NewGoAllocator()
	cols, rec := batchFixture(mem)
	defer rec.Release()
	var sink strings.Builder
	mw := newMessageWriter(&sink)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := writeBatch(ctx, mw, newRowEncoder(cols, nil), rec)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("writeBatch = %v, want context.Canceled", err)
	}
	var whole strings.Builder
	all := newMessageWriter(&whole)
	if err := writeBatch(context.Background(), all, newRowEncoder(cols, nil), rec); err != nil {
		t.Fatal(err)
	}
	if err := all.flush(); err != nil {
		t.Fatal(err)
	}
	if sink.Len() == 0 || sink.Len() > flushThreshold+1024 || sink.Len() >= whole.Len() {
		t.Fatalf("sent %d bytes before stopping; the whole batch is %d, one buffer %d", sink.Len(), whole.Len(), flushThreshold)
	}
}
