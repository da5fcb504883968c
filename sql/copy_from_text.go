package sql

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// copyLineReader splits COPY text or csv data into logical lines as
// PostgreSQL's CopyReadLine does: a newline escaped by a backslash (text)
// or inside quotes (csv) belongs to the line. The line returned is valid
// until the next call and has its end of line removed.
type copyLineReader struct {
	in      *bufio.Reader
	csv     bool
	quote   byte
	escape  byte
	line    []byte
	lineNo  int64
	crlf    bool // the data's lines end in \r\n (decided by the first line)
	decided bool
}

func newCopyLineReader(src io.Reader, f CopyFormat) *copyLineReader {
	return &copyLineReader{in: bufio.NewReaderSize(src, 256<<10), csv: f.Mode == CopyCSV, quote: f.Quote, escape: f.Escape}
}

// next returns the next line, or io.EOF at the end of the data (the end
// of input, or the end marker \. on a line of its own).
func (r *copyLineReader) next() ([]byte, error) {
	r.line = r.line[:0]
	inQuote := false
	for {
		chunk, err := r.in.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return nil, &copySourceError{err: err}
		}
		start := len(r.line)
		r.line = append(r.line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		atEOF := errors.Is(err, io.EOF)
		if atEOF && len(r.line) == 0 {
			return nil, io.EOF
		}
		if r.csv {
			inQuote = r.scanQuotes(r.line[start:], inQuote)
			if inQuote && !atEOF {
				continue
			}
		} else if !atEOF && escapedNewline(r.line) {
			continue
		}
		r.lineNo++
		line := r.line
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
			cr := len(line) > 0 && line[len(line)-1] == '\r'
			if !r.decided {
				r.crlf, r.decided = cr, true
			}
			if cr && r.crlf {
				line = line[:len(line)-1]
			} else if cr != r.crlf && !r.csv {
				if cr {
					return nil, pgerror.New(codeBadCopyFileFormat, "literal carriage return found in data").
						WithHint("Use \"\\r\" to represent carriage return.")
				}
				return nil, pgerror.New(codeBadCopyFileFormat, "literal newline found in data").
					WithHint("Use \"\\n\" to represent newline.")
			}
		}
		if len(line) == 2 && line[0] == '\\' && line[1] == '.' {
			return nil, io.EOF
		}
		if r.csv && inQuote {
			return nil, pgerror.New(codeBadCopyFileFormat, "unterminated CSV quoted field")
		}
		return line, nil
	}
}

// copySourceError is a failure to read the data (the client sent
// CopyFail, or went away), as opposed to bad data.
type copySourceError struct{ err error }

func (e *copySourceError) Error() string { return e.err.Error() }
func (e *copySourceError) Unwrap() error { return e.err }

// scanQuotes follows csv quoting through b, starting inside quotes or not,
// and says whether b ends inside quotes.
func (r *copyLineReader) scanQuotes(b []byte, inQuote bool) bool {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inQuote && c == r.escape && r.escape != r.quote && i+1 < len(b) && (b[i+1] == r.quote || b[i+1] == r.escape):
			i++
		case c == r.quote:
			inQuote = !inQuote
		}
	}
	return inQuote
}

// escapedNewline reports whether a text line's final newline follows an
// odd number of backslashes, which makes it part of the data.
func escapedNewline(line []byte) bool {
	n := len(line)
	if n == 0 || line[n-1] != '\n' {
		return false
	}
	i := n - 2
	if i >= 0 && line[i] == '\r' {
		i--
	}
	count := 0
	for ; i >= 0 && line[i] == '\\'; i-- {
		count++
	}
	return count%2 == 1
}

// copyField is one field of a line: its bytes (unescaped), whether it
// is NULL, and whether it was quoted (csv).
type copyField struct {
	value  []byte
	null   bool
	quoted bool
	raw    []byte // as it appeared in the line
}

// splitText splits a text-format line into fields, undoing the backslash
// escapes (CopyReadAttributesText). Field values point into scratch, which
// it returns grown.
func splitText(line []byte, f *CopyFormat, fields []copyField, scratch []byte) ([]copyField, []byte) {
	fields = fields[:0]
	scratch = scratch[:0]
	null := f.Null
	pos := 0
	for {
		start := pos
		end := bytes.IndexByte(line[pos:], f.Delimiter)
		last := end < 0
		if last {
			end = len(line)
		} else {
			end += pos
		}
		// A delimiter after an odd run of backslashes is data: find the
		// real end of the field.
		for !last && trailingBackslashes(line[start:end])%2 == 1 {
			next := bytes.IndexByte(line[end+1:], f.Delimiter)
			if next < 0 {
				end, last = len(line), true
				break
			}
			end += 1 + next
		}
		raw := line[start:end]
		fld := copyField{raw: raw}
		if string(raw) == null {
			fld.null = true
		} else if bytes.IndexByte(raw, '\\') < 0 {
			fld.value = raw
		} else {
			from := len(scratch)
			scratch = unescapeText(scratch, raw)
			fld.value = scratch[from:]
		}
		fields = append(fields, fld)
		if last {
			return fields, scratch
		}
		pos = end + 1
	}
}

func trailingBackslashes(b []byte) int {
	n := 0
	for i := len(b) - 1; i >= 0 && b[i] == '\\'; i-- {
		n++
	}
	return n
}

// unescapeText appends raw with text format's backslash escapes undone.
func unescapeText(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			dst = append(dst, c)
			continue
		}
		i++
		c = raw[i]
		switch {
		case c >= '0' && c <= '7':
			v := int(c - '0')
			for k := 0; k < 2 && i+1 < len(raw) && raw[i+1] >= '0' && raw[i+1] <= '7'; k++ {
				i++
				v = v*8 + int(raw[i]-'0')
			}
			dst = append(dst, byte(v))
		case c == 'x' && i+1 < len(raw) && isHex(raw[i+1]):
			i++
			v := hexVal(raw[i])
			if i+1 < len(raw) && isHex(raw[i+1]) {
				i++
				v = v*16 + hexVal(raw[i])
			}
			dst = append(dst, byte(v))
		case c == 'b':
			dst = append(dst, '\b')
		case c == 'f':
			dst = append(dst, '\f')
		case c == 'n':
			dst = append(dst, '\n')
		case c == 'r':
			dst = append(dst, '\r')
		case c == 't':
			dst = append(dst, '\t')
		case c == 'v':
			dst = append(dst, '\v')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// splitCSV splits a csv line into fields (CopyReadAttributesCSV): quoted
// parts may hold the delimiter, newlines and, escaped, the quote; only an
// unquoted field equal to the NULL string is NULL.
func splitCSV(line []byte, f *CopyFormat, fields []copyField, scratch []byte) ([]copyField, []byte) {
	fields = fields[:0]
	scratch = scratch[:0]
	pos := 0
	for {
		from := len(scratch)
		start := pos
		quoted, inQuote := false, false
		for pos < len(line) {
			c := line[pos]
			if inQuote {
				switch {
				case c == f.Escape && pos+1 < len(line) && line[pos+1] == f.Quote:
					scratch = append(scratch, f.Quote)
					pos += 2
					continue
				case c == f.Escape && f.Escape != f.Quote && pos+1 < len(line) && line[pos+1] == f.Escape:
					scratch = append(scratch, f.Escape)
					pos += 2
					continue
				case c == f.Quote:
					inQuote = false
					pos++
					continue
				}
				scratch = append(scratch, c)
				pos++
				continue
			}
			if c == f.Delimiter {
				break
			}
			if c == f.Quote {
				inQuote, quoted = true, true
				pos++
				continue
			}
			scratch = append(scratch, c)
			pos++
		}
		raw := line[start:pos]
		fld := copyField{raw: raw, value: scratch[from:], quoted: quoted}
		if !quoted && string(raw) == f.Null {
			fld.null = true
		}
		fields = append(fields, fld)
		if pos >= len(line) {
			return fields, scratch
		}
		pos++ // the delimiter
	}
}
