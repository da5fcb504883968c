package pgwire

import (
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/types"
)

// json and jsonb are held as text (jsonb already in jsonb_out's form), so
// their text output is the string itself; json's binary form is its text
// too, jsonb's the text after a version byte.

// stringFamily is the family an Arrow utf8 column prints as: json and
// jsonb, or plain text.
func stringFamily(t types.T) types.Family {
	if t.Family() == types.FamilyJSON {
		return types.FamilyJSON
	}
	return types.FamilyString
}

// jsonbVersion is the first byte of jsonb_send's output.
const jsonbVersion = 1

type jsonbBinary struct{ arrayOf[*array.String] }

func (e *jsonbBinary) appendBinary(dst []byte, i int) []byte {
	dst = append(dst, jsonbVersion)
	return append(dst, e.arr.Value(i)...)
}
