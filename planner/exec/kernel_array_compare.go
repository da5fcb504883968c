package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// compareLists evaluates l op r for arrays (=, <>, <, ...), ordering them
// as PostgreSQL's array_cmp does and as sorting does (comparator): element
// by element, NULL elements equal to each other and after the others,
// then a prefix before the longer array. Both sides are joined into one
// array so the sort's comparator serves both.
func compareLists(l, r arrow.Array, bits []byte, test func(int) bool) error {
	both, err := concatArrays([]arrow.Array{l, r})
	if err != nil {
		return fmt.Errorf("compare arrays: %w", err)
	}
	defer both.Release()
	c, err := comparator(both, false, false)
	if err != nil {
		return err
	}
	n := l.Len()
	for i := 0; i < n; i++ {
		if l.IsValid(i) && r.IsValid(i) && test(c(i, n+i)) {
			bitutil.SetBit(bits, i)
		}
	}
	return nil
}
