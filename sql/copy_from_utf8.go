package sql

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// checkCopyLineEncoding refuses a text or csv COPY line that is not valid
// UTF-8, as PostgreSQL's encoding check of each input line does, naming
// the bytes of the first bad sequence (at most one character's worth).
func checkCopyLineEncoding(line []byte) error {
	if utf8.Valid(line) {
		return nil
	}
	i := 0
	for i < len(line) {
		r, size := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	bad := line[i:min(len(line), i+utf8SequenceLength(line[i]))]
	hex := make([]string, len(bad))
	for j, b := range bad {
		hex[j] = fmt.Sprintf("0x%02x", b)
	}
	return pgerror.New(pgerror.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(hex, " "))
}

// utf8SequenceLength is the length of the UTF-8 sequence lead starts
// (pg_utf_mblen): 1 for a byte that cannot start one.
func utf8SequenceLength(lead byte) int {
	switch {
	case lead&0xe0 == 0xc0:
		return 2
	case lead&0xf0 == 0xe0:
		return 3
	case lead&0xf8 == 0xf0:
		return 4
	}
	return 1
}
