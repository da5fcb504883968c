package sql

import (
	"context"
	"errors"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// runCopy runs COPY ... TO STDOUT. Its rows come from a SELECT bound and
// planned like any other (SELECT cols FROM table, or the inner query), so
// both access gates apply exactly as they do to a query; the result only
// adds the format pgwire needs to frame the rows as COPY data. COPY FROM
// STDIN is copy_from.go's; the server-file forms are refused.
func (s *Session) runCopy(ctx context.Context, c *pg_query.CopyStmt, query string) (Result, error) {
	if c.Filename != "" || c.IsProgram {
		return nil, serverFileError(c, s.superuser)
	}
	if c.IsFrom {
		return s.copyFrom(ctx, c, query)
	}
	if c.Relation != nil {
		return s.copyTable(ctx, c, query)
	}
	return s.copyQuery(ctx, c, query)
}

// serverFileError refuses COPY to or from a file or program of the
// server. Non-superusers get PostgreSQL's privilege error; superusers are
// told it is not there yet.
func serverFileError(c *pg_query.CopyStmt, superuser bool) error {
	if superuser {
		if c.IsProgram {
			return pgerror.Unsupported("COPY to or from an external program is not supported")
		}
		return pgerror.Unsupported("COPY to or from a server file is not supported")
	}
	hint := "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone."
	switch {
	case c.IsProgram:
		return pgerror.New(pgerror.InsufficientPrivilege, "must be superuser or have privileges of the pg_execute_server_program role to COPY to or from an external program").WithHint("%s", hint)
	case c.IsFrom:
		return pgerror.New(pgerror.InsufficientPrivilege, "must be superuser or have privileges of the pg_read_server_files role to COPY from a file").WithHint("%s", hint)
	}
	return pgerror.New(pgerror.InsufficientPrivilege, "must be superuser or have privileges of the pg_write_server_files role to COPY to a file").WithHint("%s", hint)
}

// copyTable runs COPY table [(cols)] TO STDOUT. As in PostgreSQL the
// table is resolved (and its privileges checked) before the options, and
// the column list after them.
func (s *Session) copyTable(ctx context.Context, c *pg_query.CopyStmt, query string) (Result, error) {
	all, err := s.bindSelect(ctx, selectFrom(c.Relation, nil), query, nil)
	if err != nil {
		// PostgreSQL opens the table without a parse position.
		return nil, withoutPosition(err)
	}
	opts, err := parseCopyOptions(c.Options)
	if err != nil {
		return nil, err
	}
	tableCols := planColumns(all.Root)
	names, err := copyColumnNames(c.Attlist, tableCols, c.Relation.Relname)
	if err != nil {
		return nil, err
	}
	sel := selectFrom(c.Relation, names)
	if names == nil {
		names = columnNames(tableCols)
	}
	if err := opts.resolveForceQuote(tableCols, names, c.Relation.Relname); err != nil {
		return nil, err
	}
	p, err := s.plan(ctx, sel, query, nil)
	if err != nil {
		return nil, withoutPosition(err)
	}
	return s.newCopyResult(ctx, p.Root, opts)
}

// copyQuery runs COPY (query) TO STDOUT.
func (s *Session) copyQuery(ctx context.Context, c *pg_query.CopyStmt, query string) (Result, error) {
	opts, err := parseCopyOptions(c.Options)
	if err != nil {
		return nil, err
	}
	sel := c.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerror.Unsupported("COPY of this statement is not supported yet")
	}
	if sel.IntoClause != nil {
		return nil, pgerror.Unsupported("COPY (SELECT INTO) is not supported")
	}
	p, err := s.plan(ctx, sel, query, nil)
	if err != nil {
		return nil, err
	}
	cols := planColumns(p.Root)
	if err := opts.resolveForceQuote(cols, columnNames(cols), ""); err != nil {
		return nil, err
	}
	return s.newCopyResult(ctx, p.Root, opts)
}

// selectFrom builds SELECT names FROM rel (SELECT * when names is nil) as
// a parse tree, so identifiers need no quoting and nothing is re-parsed.
func selectFrom(rel *pg_query.RangeVar, names []string) *pg_query.SelectStmt {
	var targets []*pg_query.Node
	if names == nil {
		star := pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeAStarNode()}, rel.Location)
		targets = append(targets, pg_query.MakeResTargetNodeWithVal(star, rel.Location))
	}
	for _, n := range names {
		ref := pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(n)}, -1)
		targets = append(targets, pg_query.MakeResTargetNodeWithVal(ref, -1))
	}
	return &pg_query.SelectStmt{
		TargetList:  targets,
		FromClause:  []*pg_query.Node{{Node: &pg_query.Node_RangeVar{RangeVar: rel}}},
		LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
		Op:          pg_query.SetOperation_SETOP_NONE,
	}
}

// copyColumnNames checks COPY's column list against the table's columns
// (CopyGetAttnums): nil for no list.
func copyColumnNames(attlist []*pg_query.Node, cols []Column, relname string) ([]string, error) {
	if len(attlist) == 0 {
		return nil, nil
	}
	names := listNames(attlist)
	if _, err := columnIndexes(names, cols, relname); err != nil {
		return nil, err
	}
	return names, nil
}

func listNames(nodes []*pg_query.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.GetString_().GetSval()
	}
	return out
}

func columnNames(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// columnIndexes finds each name among cols (the first column of that
// name), with PostgreSQL's errors for a missing or repeated one. relname
// is empty for a query's columns.
func columnIndexes(names []string, cols []Column, relname string) ([]int, error) {
	out := make([]int, 0, len(names))
	for _, name := range names {
		idx := -1
		for i, c := range cols {
			if c.Name == name {
				idx = i
				break
			}
		}
		if idx < 0 {
			if relname != "" {
				return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, relname)
			}
			return nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" does not exist", name)
		}
		for _, seen := range out {
			if seen == idx {
				return nil, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" specified more than once", name)
			}
		}
		out = append(out, idx)
	}
	return out, nil
}

// resolveForceQuote turns FORCE_QUOTE into one flag per copied column.
// all are the columns names are looked up in (the table's, or the
// query's); copied are the names of the columns COPY writes.
func (o *copyOptions) resolveForceQuote(all []Column, copied []string, relname string) error {
	if o.forceQuoteAll {
		o.format.ForceQuote = make([]bool, len(copied))
		for i := range o.format.ForceQuote {
			o.format.ForceQuote[i] = true
		}
		return nil
	}
	if len(o.forceQuote) == 0 {
		return nil
	}
	idx, err := columnIndexes(o.forceQuote, all, relname)
	if err != nil {
		return err
	}
	o.format.ForceQuote = make([]bool, len(copied))
	for _, i := range idx {
		pos := -1
		if relname == "" {
			// A query's columns are copied as they are, in order.
			pos = i
		} else {
			for j, name := range copied {
				if name == all[i].Name {
					pos = j
					break
				}
			}
		}
		if pos < 0 {
			return pgerror.New(pgerror.InvalidColumnReference, "FORCE_QUOTE column \"%s\" not referenced by COPY", all[i].Name)
		}
		o.format.ForceQuote[pos] = true
	}
	return nil
}

// withoutPosition drops the cursor position of a user-facing error.
func withoutPosition(err error) error {
	var pe *pgerror.Error
	if errors.As(err, &pe) && pe.Position != 0 {
		return pe.WithPosition(0)
	}
	return err
}
