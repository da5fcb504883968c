package exec

import "github.com/apache/arrow-go/v18/arrow"

// groupedOutput is a grouping operator's finished result, handed out in
// slices of outputBatchRows; the hash aggregate and the grouping-sets
// aggregate share it.
type groupedOutput struct {
	out arrow.RecordBatch
	pos int64
}

// nextSlice returns the next slice of the result, or nil after the last.
func (g *groupedOutput) nextSlice() arrow.RecordBatch {
	if g.pos >= g.out.NumRows() {
		return nil
	}
	end := min(g.pos+outputBatchRows, g.out.NumRows())
	b := g.out.NewSlice(g.pos, end)
	g.pos = end
	return b
}

// releaseOutput drops the result.
func (g *groupedOutput) releaseOutput() {
	if g.out != nil {
		g.out.Release()
		g.out = nil
	}
}
