package pgwire_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestCopyFromBadInput sends malformed COPY FROM STDIN data in each format
// to acdemo.inbox (id bigint NOT NULL, note text, amount numeric(12,2),
// day date): each is refused with its SQLSTATE and a CONTEXT naming the
// line, the rows before the bad one are not committed, and the session
// carries on.
func TestCopyFromBadInput(t *testing.T) {
	target := startSQE(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn := connectPgx(t, ctx, target)

	const good = "1\tone\t1.50\t2024-01-02\n2\t\\N\t\\N\t\\N\n"
	if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(good), "COPY acdemo.inbox FROM STDIN"); err != nil {
		t.Fatalf("good input: %v", err)
	}
	count := func() int64 {
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM acdemo.inbox").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count()
	if before != 2 {
		t.Fatalf("%d rows after the good input, want 2", before)
	}

	tests := []struct {
		name    string
		options string
		data    []byte
		code    string
		where   string // the CONTEXT's start
	}{
		{"text: missing columns", "", []byte(good + "3\tthree\n"), "22P04", "COPY inbox, line 3: "},
		{"text: extra column", "", []byte("3\tthree\t1\t2024-01-01\tmore\n"), "22P04", "COPY inbox, line 1: "},
		{"text: empty line", "", []byte(good + "\n"), "22P04", "COPY inbox, line 3: "},
		{"text: invalid bigint", "", []byte(good + good + "x\tthree\t1\t2024-01-01\n"), "22P02", "COPY inbox, line 5, column id: "},
		{"text: numeric overflow", "", []byte("3\tthree\t1234567890123\t2024-01-01\n"), "22003", "COPY inbox, line 1, column amount: "},
		{"text: invalid date", "", []byte("3\tthree\t1\t2024-02-30\n"), "22008", "COPY inbox, line 1, column day: "},
		{"text: invalid UTF-8", "", []byte("3\tn\xffte\t1\t2024-01-01\n"), "22021", "COPY inbox, line 1"},
		{"text: NULL in a NOT NULL column", "", []byte(good + "\\N\tthree\t1\t2024-01-01\n"), "23502", "COPY inbox, line 3: "},
		{"csv: unterminated quoted field", "(FORMAT csv)", []byte("3,\"three,1,2024-01-01\n"), "22P04", "COPY inbox, line 1: "},
		{"csv: wrong column count", "(FORMAT csv)", []byte("3,three,1,2024-01-01\n4,four\n"), "22P04", "COPY inbox, line 2: "},
		{"csv: header mismatch", "(FORMAT csv, HEADER MATCH)", []byte("id,name,amount,day\n3,three,1,2024-01-01\n"), "22P04", "COPY inbox, line 1: "},
		{"binary: bad signature", "(FORMAT binary)", []byte("PGCOPY\n\xff\r\n\x01\x00\x00\x00\x00\x00\x00\x00\x00"), "22P04", "COPY inbox, line 1"},
		{"binary: truncated header", "(FORMAT binary)", []byte("PGCOPY\n\xff"), "22P04", "COPY inbox, line 1"},
		{"binary: wrong field count", "(FORMAT binary)", binaryCopy(2, nil, []byte{0, 0, 0, 0, 0, 0, 0, 3}), "22P04", "COPY inbox, line 2"},
		{"binary: truncated field", "(FORMAT binary)", binaryCopy(4, []byte{0, 0, 0, 8, 0, 0}), "22P04", "COPY inbox, line 2, column amount"},
		{"binary: field length that lies", "(FORMAT binary)", binaryCopy(4, []byte{0x7f, 0xff, 0xff, 0xff, 1, 2, 3}), "22P04", "COPY inbox, line 2, column id"},
		{"binary: negative field length", "(FORMAT binary)", binaryCopy(4, []byte{0xff, 0xff, 0xff, 0xf0}), "22P04", "COPY inbox, line 2, column id"},
		{"binary: bigint of 3 bytes", "(FORMAT binary)", binaryCopy(4, []byte{0, 0, 0, 3, 1, 2, 3}), "22P03", "COPY inbox, line 2, column id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := conn.PgConn().CopyFrom(ctx, bytes.NewReader(tt.data), "COPY acdemo.inbox FROM STDIN "+tt.options)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want SQLSTATE %s", err, tt.code)
			}
			if pe.Code != tt.code || !strings.HasPrefix(pe.Where, tt.where) {
				t.Fatalf("got %s %q (CONTEXT %q), want %s with CONTEXT %q...", pe.Code, pe.Message, pe.Where, tt.code, tt.where)
			}
			if n := count(); n != before {
				t.Fatalf("%d rows after the refused COPY, want %d", n, before)
			}
		})
	}
}

// binaryCopy is COPY BINARY data: the header, one good row of inbox, then
// a row of fields fields whose first field is first (the rest NULL), and
// any rows after.
func binaryCopy(fields uint16, first []byte, after ...[]byte) []byte {
	out := []byte("PGCOPY\n\xff\r\n\x00")
	out = binary.BigEndian.AppendUint32(out, 0)
	out = binary.BigEndian.AppendUint32(out, 0)
	out = binary.BigEndian.AppendUint16(out, 4)
	out = binary.BigEndian.AppendUint32(out, 8)
	out = binary.BigEndian.AppendUint64(out, 9)
	for range 3 {
		out = binary.BigEndian.AppendUint32(out, 0xffffffff)
	}
	out = binary.BigEndian.AppendUint16(out, fields)
	out = append(out, first...)
	if first != nil {
		for range int(fields) - 1 {
			out = binary.BigEndian.AppendUint32(out, 0xffffffff)
		}
	}
	for _, a := range after {
		out = append(out, a...)
	}
	return out
}
