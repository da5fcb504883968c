package sql

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// binaryCopySignature starts COPY BINARY data.
var binaryCopySignature = []byte("PGCOPY\n\xff\r\n\x00")

// binaryCopyParser reads COPY BINARY data: the file header, then tuples of
// length-prefixed fields in each type's binary (receive) form, then the
// trailer, a field count of -1.
type binaryCopyParser struct {
	in       *bufio.Reader
	cols     []*copyColumn
	relname  string
	started  bool
	done     bool
	lineNo   int64
	buf      []byte
	fieldBuf [4]byte
}

func newBinaryCopyParser(src io.Reader, cols []*copyColumn, relname string) *binaryCopyParser {
	return &binaryCopyParser{in: bufio.NewReaderSize(src, 256<<10), cols: cols, relname: relname}
}

func badCopy(format string, args ...any) *pgerror.Error {
	return pgerror.New(codeBadCopyFileFormat, format, args...)
}

// read fills b, reporting a short input as PostgreSQL does.
func (p *binaryCopyParser) read(b []byte) error {
	if _, err := io.ReadFull(p.in, b); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return badCopy("unexpected EOF in COPY data")
		}
		return err
	}
	return nil
}

func (p *binaryCopyParser) readHeader() error {
	sig := make([]byte, len(binaryCopySignature))
	if _, err := io.ReadFull(p.in, sig); err != nil || !bytes.Equal(sig, binaryCopySignature) {
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			return err
		}
		return badCopy("COPY file signature not recognized")
	}
	var word [4]byte
	if err := p.read(word[:]); err != nil {
		return badCopy("invalid COPY file header (missing flags)")
	}
	flags := binary.BigEndian.Uint32(word[:])
	if flags&(1<<16) != 0 {
		return badCopy("invalid COPY file header (WITH OIDS)")
	}
	if flags&^(1<<16)>>16 != 0 {
		return badCopy("unrecognized critical flags in COPY file header")
	}
	if err := p.read(word[:]); err != nil {
		return badCopy("invalid COPY file header (missing length)")
	}
	ext := int64(int32(binary.BigEndian.Uint32(word[:])))
	if ext < 0 {
		return badCopy("invalid COPY file header (missing length)")
	}
	if _, err := io.CopyN(io.Discard, p.in, ext); err != nil {
		return badCopy("invalid COPY file header (wrong length)")
	}
	return nil
}

// parseBatch parses up to a batch of tuples and returns how many; 0 at
// the trailer.
func (p *binaryCopyParser) parseBatch() (int, error) {
	if !p.started {
		p.started = true
		if err := p.readHeader(); err != nil {
			return 0, p.context(err, "")
		}
	}
	n, size := 0, 0
	for !p.done && n < copyBatchRows && size < copyBatchBytes {
		var count [2]byte
		if _, err := io.ReadFull(p.in, count[:1]); err != nil {
			if errors.Is(err, io.EOF) {
				// No trailer: PostgreSQL takes the end of data as the end.
				p.done = true
				break
			}
			return 0, err
		}
		if err := p.read(count[1:]); err != nil {
			return 0, p.context(err, "")
		}
		p.lineNo++
		fields := int16(binary.BigEndian.Uint16(count[:]))
		if fields == -1 {
			p.done = true
			if _, err := p.in.ReadByte(); err == nil {
				return 0, p.context(badCopy("received copy data after EOF marker"), "")
			}
			break
		}
		if int(fields) != len(p.cols) {
			return 0, p.context(badCopy("row field count is %d, expected %d", fields, len(p.cols)), "")
		}
		for _, c := range p.cols {
			if err := p.read(p.fieldBuf[:]); err != nil {
				return 0, p.context(err, c.name)
			}
			length := int32(binary.BigEndian.Uint32(p.fieldBuf[:]))
			if length == -1 {
				if !c.nullable {
					return 0, p.context(pgerror.New(pgerror.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint", c.name, p.relname), "")
				}
				c.bld.AppendNull()
				continue
			}
			if length < 0 {
				return 0, p.context(badCopy("invalid field size"), c.name)
			}
			field, err := p.readField(int(length))
			if err != nil {
				return 0, p.context(err, c.name)
			}
			if err := c.appendBinary(field); err != nil {
				return 0, p.context(err, c.name)
			}
			size += int(length)
		}
		n++
	}
	return n, nil
}

// readField reads a field of the declared length into the reused buffer.
// The buffer grows with the data as it arrives, not with the length a
// client declares: a field that claims 2 GiB and stops short costs what
// was sent.
func (p *binaryCopyParser) readField(length int) ([]byte, error) {
	if length <= cap(p.buf) {
		field := p.buf[:length]
		return field, p.read(field)
	}
	buf := bytes.NewBuffer(p.buf[:0])
	if _, err := io.CopyN(buf, p.in, int64(length)); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, badCopy("unexpected EOF in COPY data")
		}
		return nil, err
	}
	p.buf = buf.Bytes()
	return p.buf, nil
}

// context puts PostgreSQL's CONTEXT on err: the tuple, and the column
// when one is being read.
func (p *binaryCopyParser) context(err error, column string) error {
	pe := pgerror.From(err)
	if pe.Code == pgerror.InternalError {
		return err
	}
	if column != "" {
		return pe.WithWhere("COPY %s, line %d, column %s", p.relname, max(p.lineNo, 1), column)
	}
	return pe.WithWhere("COPY %s, line %d", p.relname, max(p.lineNo, 1))
}
