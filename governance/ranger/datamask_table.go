package ranger

import (
	"maps"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// MaskColumn is one column of a table in EvalDataMasks.
type MaskColumn struct {
	Name string
	// Tags are the column's tags when the request's TagsGiven is set, as
	// Request.Tags would be for the column alone.
	Tags []ResourceTag
}

// EvalDataMasks answers EvalDataMask for every column of one table in one
// call: req names the table (every resource level above the column) and
// the caller, columns the columns. The answers come in the order of
// columns and are those EvalDataMask gives each column's own request. It
// is cheaper than a call per column: the caller's roles are resolved once,
// and the resource mask policies are matched against the table once, so
// that each column tries only those of its table.
func (e *Evaluator) EvalDataMasks(req *Request, columns []MaskColumn) ([]DataMaskResult, error) {
	if z := e.evaluatorFor(req); z != e {
		return z.EvalDataMasks(req, columns)
	}
	out := make([]DataMaskResult, len(columns))
	s, ok := e.newMaskSearch(req)
	if !ok {
		for i := range out {
			out[i] = DataMaskResult{PolicyID: -1}
		}
		return out, nil
	}
	level, err := e.columnLevel(req.Resource)
	if err != nil {
		return nil, err
	}
	// A policy that does not match the table matches none of its columns:
	// the levels they share are matched alike.
	var onTable []*compiledPolicy
	for _, p := range e.masks {
		if p.matchType(req) != MatchNone {
			onTable = append(onTable, p)
		}
	}
	col := *req
	col.Resource = maps.Clone(req.Resource)
	name := []string{""}
	col.Resource[level] = name
	for i, c := range columns {
		name[0] = c.Name
		if req.TagsGiven {
			col.Tags = c.Tags
		}
		if out[i], err = s.find(&col, onTable); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// columnLevel is the data-mask resource level right below the levels the
// table request names ("column" for hive).
func (e *Evaluator) columnLevel(table Resource) (string, error) {
	found := ""
	for name, lvl := range e.maskLevels {
		if _, named := table[name]; named {
			continue
		}
		if _, parentNamed := table[lvl.parent]; !parentNamed {
			continue
		}
		if found != "" {
			return "", pgerror.New(pgerror.InternalError, "data masks: both %q and %q lie below the table %v", found, name, table)
		}
		found = name
	}
	if found == "" {
		return "", pgerror.New(pgerror.InternalError, "data masks: no resource level lies below the table %v", table)
	}
	return found, nil
}
