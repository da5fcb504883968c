package sql

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// copyFuzzColumns are the columns FuzzCopyFromDecoders parses into: the
// types with their own fast paths and a few through the general one.
var copyFuzzTypes = []struct {
	name     string
	typ      types.T
	nullable bool
}{
	{"id", types.Int4, false},
	{"big", types.Int8, true},
	{"amount", types.Numeric(10, 2), true},
	{"note", types.Text, true},
	{"code", types.VarcharN(4), true},
	{"ok", types.Bool, true},
	{"ratio", types.Float8, true},
	{"day", types.Date, true},
	{"at", types.TimestampTZ, true},
	{"raw", types.Bytea, true},
	{"tags", types.TextArray, true},
}

// FuzzCopyFromDecoders feeds arbitrary bytes to the COPY FROM parsers
// (text, csv, binary; with and without a header line) over columns of
// many types. Every outcome is rows or an error with a SQLSTATE other
// than XX000 whose CONTEXT names the line; never a panic, and every
// column holds one value per row parsed.
func FuzzCopyFromDecoders(f *testing.F) {
	for _, s := range copyFuzzSeeds() {
		f.Add(s.mode, s.data)
	}
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		format := CopyFormat{Mode: CopyText, Delimiter: '\t', Null: `\N`, Header: mode&4 != 0}
		switch mode % 4 {
		case 1:
			format = CopyFormat{Mode: CopyCSV, Delimiter: ',', Quote: '"', Escape: '"', Header: mode&4 != 0}
		case 2:
			format = CopyFormat{Mode: CopyBinary}
		}
		zone := time.FixedZone("fuzz", 3600)
		cols := make([]*copyColumn, len(copyFuzzTypes))
		for i, c := range copyFuzzTypes {
			cols[i] = newCopyColumn(c.name, c.typ, c.typ.Arrow(), c.nullable, zone)
			defer cols[i].bld.Release()
		}
		parse := newTextCopyParser(bytes.NewReader(data), &format, mode&8 != 0, cols, "t").parseBatch
		if format.Mode == CopyBinary {
			parse = newBinaryCopyParser(bytes.NewReader(data), cols, "t").parseBatch
		}
		rows := 0
		for {
			n, err := parse()
			if err != nil {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code == pgerror.InternalError || len(pe.Code) != 5 {
					t.Fatalf("error without a user SQLSTATE: %v", err)
				}
				if !strings.HasPrefix(pe.Where, "COPY t, line ") {
					t.Fatalf("error %q does not name the line: CONTEXT %q", pe.Message, pe.Where)
				}
				return
			}
			if n == 0 {
				checkCopyTextValid(t, cols)
				return
			}
			rows += n
			for _, c := range cols {
				if c.bld.Len() != rows {
					t.Fatalf("column %s holds %d values after %d rows", c.name, c.bld.Len(), rows)
				}
			}
		}
	})
}

// TestCopyBinaryLyingFieldLength declares a 1 GiB field and sends three
// bytes of it: the parser reports the short input and allocates for what
// arrived, not for what was declared.
func TestCopyBinaryLyingFieldLength(t *testing.T) {
	data := binaryCopySeed(false)
	// The first row's id field: length 4, value 7. Claim 1 GiB instead.
	at := len(binaryCopySignature) + 8 + 2
	data = append(binary.BigEndian.AppendUint32(data[:at:at], 1<<30), 1, 2, 3)
	col := newCopyColumn("id", types.Int4, types.Int4.Arrow(), false, time.UTC)
	defer col.bld.Release()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := newBinaryCopyParser(bytes.NewReader(data), []*copyColumn{col, col, col, col, col, col, col, col, col, col, col}, "t").parseBatch()
	runtime.ReadMemStats(&after)
	if pe := pgerror.From(err); pe.Code != "22P04" || pe.Message != "unexpected EOF in COPY data" || pe.Where != "COPY t, line 1, column id" {
		t.Fatalf("got %v (CONTEXT %q)", err, pe.Where)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("allocated %d MiB for a field of 3 bytes", grew>>20)
	}
}

// checkCopyTextValid fails if a text column took a value that is not
// UTF-8: PostgreSQL refuses such input.
func checkCopyTextValid(t *testing.T, cols []*copyColumn) {
	t.Helper()
	for _, c := range cols {
		b, ok := c.bld.(*array.StringBuilder)
		if !ok {
			continue
		}
		a := b.NewStringArray()
		for i := range a.Len() {
			if !utf8.ValidString(a.Value(i)) {
				t.Fatalf("column %s took %q, which is not UTF-8", c.name, a.Value(i))
			}
		}
		a.Release()
	}
}

type copyFuzzSeed struct {
	mode uint8
	data []byte
}

func copyFuzzSeeds() []copyFuzzSeed {
	text := "1\t2\t3.50\tnote\tab\tt\t0.5\t2024-01-31\t2024-01-31 12:00:00+00\t\\\\x0102\t{a,b}\n"
	csv := `1,2,3.50,"no,te",ab,t,0.5,2024-01-31,2024-01-31 12:00:00+00,\x0102,"{a,""b c""}"` + "\n"
	header := "id\tbig\tamount\tnote\tcode\tok\tratio\tday\tat\traw\ttags\n"
	return []copyFuzzSeed{
		{0, []byte(text)},
		{0, []byte(text + text + "\\.\n")},
		{0, []byte(strings.ReplaceAll(text, "\t2\t", "\t\\N\t"))},
		{0, []byte("\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\n")}, // NULL in NOT NULL id
		{0, []byte("1\t2\n")},                                                  // too few columns
		{0, []byte(text[:len(text)-1] + "\textra\n")},                          // too many
		{0, []byte(strings.Replace(text, "3.50", "3.5.0", 1))},                 // invalid numeric
		{0, []byte(strings.Replace(text, "ab", "abcdef", 1))},                  // too long for varchar(4)
		{0, []byte(strings.Replace(text, "2024-01-31", "2024-02-30", 1))},
		{0, []byte(strings.Replace(text, "note", "n\xffte", 1))},
		{0, []byte(strings.Replace(text, "{a,b}", "{a,b", 1))},
		{0, []byte("1\t2\t3\\")},
		{4, []byte(header + text)},
		{12, []byte(header + text)},
		{12, []byte("id\tbig\n" + text)},
		{1, []byte(csv)},
		{1, []byte(`1,2,3,"unterminated` + "\n")},
		{1, []byte(csv + "\\.\n" + csv)},
		{5, []byte("id,big,amount,note,code,ok,ratio,day,at,raw,tags\n" + csv)},
		{2, binaryCopySeed(true)},
		{2, binaryCopySeed(false)},
		{2, append(binaryCopySignature[:len(binaryCopySignature):len(binaryCopySignature)], 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)}, // 2 fields
		{2, []byte("PGCOPY\n\xff\r\n\x01")},
	}
}

// binaryCopySeed is a COPY BINARY stream of one row: id 7 and every other
// column NULL, with the trailer or without.
func binaryCopySeed(trailer bool) []byte {
	out := append([]byte(nil), binaryCopySignature...)
	out = binary.BigEndian.AppendUint32(out, 0) // flags
	out = binary.BigEndian.AppendUint32(out, 0) // header extension
	out = binary.BigEndian.AppendUint16(out, uint16(len(copyFuzzTypes)))
	out = binary.BigEndian.AppendUint32(out, 4)
	out = binary.BigEndian.AppendUint32(out, 7)
	for range copyFuzzTypes[1:] {
		out = binary.BigEndian.AppendUint32(out, 0xffffffff)
	}
	if trailer {
		out = binary.BigEndian.AppendUint16(out, 0xffff)
	}
	return out
}
