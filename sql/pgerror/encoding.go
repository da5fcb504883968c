package pgerror

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// CheckUTF8 returns PostgreSQL's error for text that is not valid UTF-8
// (22021, naming the bytes of the first bad sequence, at most one
// character's worth), or nil.
func CheckUTF8(text string) error {
	if utf8.ValidString(text) {
		return nil
	}
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	bad := text[i:min(len(text), i+utf8SequenceLength(text[i]))]
	hex := make([]string, len(bad))
	for j, c := range []byte(bad) {
		hex[j] = fmt.Sprintf("0x%02x", c)
	}
	return New(CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(hex, " "))
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
