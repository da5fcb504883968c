package planner

import (
	"context"

	"github.com/apache/iceberg-go"
)

// Remote is a plan another engine runs. SQL was written from Input, the
// bound and secured plan, and is what the engine is sent; Input is shown
// by EXPLAIN and checked as any plan is, but never run here. The rows come
// back as Input's columns.
type Remote struct {
	Input Node
	// Engine names the engine; Dialect is the dialect SQL is written in.
	Engine, Dialect string
	SQL             string
	// ShowSQL lets EXPLAIN print SQL: administrators only, as the
	// statement holds the masks and row filters the caller is under.
	ShowSQL bool
	// Reason says why the statement runs there (the session's setting,
	// or the bytes its scans read).
	Reason string
	Runner RemoteRunner
}

// RemoteRunner runs a written statement on the engine.
type RemoteRunner interface {
	// RunRemote runs sql, whose result columns are cols, and streams its
	// rows as batches of cols' Arrow types; closing the stream before its
	// end, or ctx, cancels it on the engine.
	RunRemote(ctx context.Context, sql string, cols []Column) (RecordStream, error)
}

func (r *Remote) Columns() []Column { return r.Input.Columns() }
func (r *Remote) Inputs() []Node    { return []Node{r.Input} }

// SharedTable is a Table that another engine reading the same catalog
// may hold too. Only a table whose Shared holds (a stored table at its
// current version, nothing staged) is written into SQL for another
// engine: a past version, a metadata table or a catalog relation is read
// by SQE alone.
type SharedTable interface {
	Table
	Shared() bool
}

// ScanSizer is a Table that can say, from its metadata, how many bytes of
// data files a scan of it reads.
type ScanSizer interface {
	Table
	// ScanBytes is the size of the data files a scan pruned by filter
	// (nil: none) reads; ok is false when the metadata cannot tell.
	ScanBytes(ctx context.Context, filter iceberg.BooleanExpression) (n int64, ok bool)
}

// ScanBytes is how many bytes of data files the scans of n (and of its
// subqueries) read, after pruning by what each scan pushed down; ok is
// false when a table cannot tell (not an Iceberg table, or its metadata
// could not be read).
func ScanBytes(ctx context.Context, n Node) (total int64, ok bool) {
	ok = true
	trees := []Node{n}
	for i := 0; i < len(trees) && ok; i++ {
		walk(trees[i], func(x Node) {
			if exprs, known := nodeExprs(x); known {
				for _, e := range exprs {
					anyExpr(e, func(y Expr) bool {
						if sq, isSub := y.(*Subquery); isSub {
							trees = append(trees, sq.Plan)
						}
						return false
					})
				}
			}
			s, isScan := x.(*Scan)
			if !isScan || !ok {
				return
			}
			sz, sized := s.Table.(ScanSizer)
			if !sized {
				ok = false
				return
			}
			b, known := sz.ScanBytes(ctx, s.PushedFilter())
			if !known {
				ok = false
				return
			}
			total += b
		})
	}
	return total, ok
}
