package sqlwrite

import (
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// writtenSetReturning reports whether the set-returning function name is
// written in a PostgreSQL select list, where its rules (the functions run
// in lockstep, the shorter results padded with NULLs) are ProjectSet's.
func writtenSetReturning(name string) bool {
	switch name {
	case "generate_series", "unnest", "regexp_split_to_table", "string_to_table", "json_array_elements",
		"json_array_elements_text", "jsonb_array_elements", "jsonb_array_elements_text", "json_object_keys",
		"jsonb_object_keys":
		return true
	}
	return false
}

// jsonEach names the set-returning functions of (key, value) rows.
func jsonEach(name string) bool {
	switch name {
	case "json_each", "json_each_text", "jsonb_each", "jsonb_each_text":
		return true
	}
	return false
}

// projectSet writes set-returning functions over each row of the input,
// for PostgreSQL. Their arguments are guarded as any expression that can
// fail: a hidden row gives them NULL, for which they return no row.
func (w *writer) projectSet(p *planner.ProjectSet, top bool) (*rel, error) {
	if w.d != PostgreSQL {
		return nil, pgerror.Unsupported("plan node ProjectSet cannot be written as SQL for %s", w.d)
	}
	in, a, s, err := w.from(p.Input)
	if err != nil {
		return nil, err
	}
	cols := p.Columns()
	if err := w.checkTypes(cols); err != nil {
		return nil, err
	}
	items := make([]string, 0, len(cols))
	for _, c := range in.cols {
		items = append(items, s.cols[c.ID])
	}
	for _, f := range p.Funcs {
		name, field := f.Name, ""
		if base, column, isColumn := strings.Cut(f.Name, "."); isColumn && jsonEach(base) && (column == "key" || column == "value") {
			// One column of json_each and its kin, bound as a call of
			// its own: PostgreSQL's calls of one value in the select list
			// also give the same rows in lockstep.
			name, field = base, column
		} else if !writtenSetReturning(f.Name) {
			return nil, pgerror.Unsupported("set-returning function %s cannot be written as SQL", f.Name)
		}
		args := make([]string, len(f.Args))
		for i, e := range f.Args {
			if args[i], err = w.guarded(e, s); err != nil {
				return nil, err
			}
		}
		call := name + "(" + strings.Join(args, ", ") + ")"
		if field != "" {
			call = "(" + call + ")." + field
		}
		items = append(items, call)
	}
	list, vis := selectList(items, cols, in.vis, a, top)
	return &rel{sql: list + " FROM (" + in.sql + ") AS " + a, cols: cols, vis: vis}, nil
}
