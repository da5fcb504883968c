package pgwire

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql"
)

// copySignature opens a binary COPY: the 11-byte signature, the flags
// field and the length of the (empty) header extension.
var copySignature = [19]byte{'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff, '\r', '\n', 0}

// copyEncoder writes rows as COPY data in text, csv or binary format.
// Values come from the same encoders as DataRows (the text output and
// binary send forms), chosen at the first batch and kept while the Arrow
// types stay the same; text and csv then escape or quote them.
type copyEncoder struct {
	f       sql.CopyFormat
	text    []textEncoder
	bin     []binaryEncoder
	dtypes  []arrow.DataType
	value   []byte         // one value's text, before escaping
	started bool           // binary: the signature has been written
	zone    *time.Location // timestamptz text is printed in it; nil: UTC
}

func newCopyEncoder(f sql.CopyFormat) *copyEncoder {
	e := &copyEncoder{f: f, dtypes: make([]arrow.DataType, len(f.Columns)), value: make([]byte, 0, 64)}
	if f.Mode == sql.CopyBinary {
		e.bin = make([]binaryEncoder, len(f.Columns))
	} else {
		e.text = make([]textEncoder, len(f.Columns))
	}
	return e
}

// bind prepares the encoders for rec.
func (e *copyEncoder) bind(rec arrow.RecordBatch) error {
	cols := e.f.Columns
	if int(rec.NumCols()) != len(cols) {
		return fmt.Errorf("batch has %d columns, COPY describes %d", rec.NumCols(), len(cols))
	}
	for c := range cols {
		arr := rec.Column(c)
		same := e.dtypes[c] != nil && arrow.TypeEqual(e.dtypes[c], arr.DataType())
		var err error
		if e.bin != nil {
			if !same {
				if e.bin[c], err = newBinaryEncoder(cols[c], arr.DataType()); err != nil {
					return err
				}
			}
			err = e.bin[c].bind(arr)
		} else {
			if !same {
				if e.text[c], err = newTextEncoderIn(cols[c], arr.DataType(), zoneOrUTC(e.zone)); err != nil {
					return err
				}
			}
			err = e.text[c].bind(arr)
		}
		if err != nil {
			return fmt.Errorf("column %q: %w", cols[c].Name, err)
		}
		e.dtypes[c] = arr.DataType()
	}
	return nil
}

// appendRow appends row i of the bound batch as one COPY line (text, csv)
// or tuple (binary).
func (e *copyEncoder) appendRow(dst []byte, i int) []byte {
	if e.bin != nil {
		return e.appendBinaryRow(dst, i)
	}
	single := len(e.text) == 1
	for c, enc := range e.text {
		if c > 0 {
			dst = append(dst, e.f.Delimiter)
		}
		if enc.isNull(i) {
			dst = append(dst, e.f.Null...)
			continue
		}
		e.value = enc.appendText(e.value[:0], i)
		if e.f.Mode == sql.CopyCSV {
			dst = e.appendCSV(dst, e.value, e.f.ForceQuote != nil && e.f.ForceQuote[c], single)
		} else {
			dst = e.appendEscaped(dst, e.value)
		}
	}
	return append(dst, '\n')
}

func (e *copyEncoder) appendBinaryRow(dst []byte, i int) []byte {
	if !e.started {
		e.started = true
		dst = append(dst, copySignature[:]...)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(e.bin)))
	for _, enc := range e.bin {
		if enc.isNull(i) {
			dst = binary.BigEndian.AppendUint32(dst, 0xffffffff)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = enc.appendBinary(dst, i)
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}

// appendTrailer appends the end of a binary COPY (a field count of -1),
// after the signature when no row carried it.
func (e *copyEncoder) appendTrailer(dst []byte) []byte {
	if !e.started {
		e.started = true
		dst = append(dst, copySignature[:]...)
	}
	return append(dst, 0xff, 0xff)
}

// appendHeaderLine appends the column names as a text or csv line.
func (e *copyEncoder) appendHeaderLine(dst []byte) []byte {
	cols := e.f.Columns
	for c, col := range cols {
		if c > 0 {
			dst = append(dst, e.f.Delimiter)
		}
		if e.f.Mode == sql.CopyCSV {
			dst = e.appendCSV(dst, []byte(col.Name), false, len(cols) == 1)
		} else {
			dst = e.appendEscaped(dst, []byte(col.Name))
		}
	}
	return append(dst, '\n')
}

// appendEscaped appends a value in text format (CopyAttributeOutText):
// backslash, the delimiter and control characters are escaped, the usual
// ones in C notation so a dump survives newline conversion.
func (e *copyEncoder) appendEscaped(dst, v []byte) []byte {
	delim := e.f.Delimiter
	start := 0
	for i, c := range v {
		switch {
		case c < 0x20:
			var esc byte
			switch c {
			case '\b':
				esc = 'b'
			case '\f':
				esc = 'f'
			case '\n':
				esc = 'n'
			case '\r':
				esc = 'r'
			case '\t':
				esc = 't'
			case '\v':
				esc = 'v'
			default:
				if c != delim {
					continue
				}
				// A control-character delimiter is escaped as itself.
				dst = append(dst, v[start:i]...)
				dst = append(dst, '\\')
				start = i
				continue
			}
			dst = append(dst, v[start:i]...)
			dst = append(dst, '\\', esc)
			start = i + 1
		case c == '\\' || c == delim:
			dst = append(dst, v[start:i]...)
			dst = append(dst, '\\')
			start = i
		}
	}
	return append(dst, v[start:]...)
}

// appendCSV appends a value in csv format (CopyAttributeOutCSV): quoted
// when forced, when it equals the NULL string, when it holds the
// delimiter, the quote or a line break, or when it is a lone \. that
// would read back as the end of data; inside quotes the quote and escape
// characters are escaped.
func (e *copyEncoder) appendCSV(dst, v []byte, quote, single bool) []byte {
	q, esc := e.f.Quote, e.f.Escape
	if !quote && string(v) == e.f.Null {
		quote = true
	}
	if !quote {
		if single && string(v) == `\.` {
			quote = true
		} else {
			for _, c := range v {
				if c == e.f.Delimiter || c == q || c == '\n' || c == '\r' {
					quote = true
					break
				}
			}
		}
	}
	if !quote {
		return append(dst, v...)
	}
	dst = append(dst, q)
	start := 0
	for i, c := range v {
		if c == q || c == esc {
			dst = append(dst, v[start:i]...)
			dst = append(dst, esc)
			start = i
		}
	}
	dst = append(dst, v[start:]...)
	return append(dst, q)
}
