package sqlwrite

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// ErrKeyedMask refuses a plan whose masks use the server's key
// (mask_hash): it must run where the key is, and the key is never
// written into SQL.
var ErrKeyedMask = errors.New("mask_hash is keyed by the server's key and must run in SQE")

// Catalogs maps an SQE catalog name to the name the other engine knows
// it by. An empty name leaves the catalog out of the table's name (a
// PostgreSQL database reads its own tables as schema.table).
type Catalogs map[string]string

// Write returns root, a bound and secured plan, as one SELECT statement in
// dialect d, with its tables' catalogs renamed through catalogs. Its
// result columns are root's, in order.
func Write(root planner.Node, d Dialect, catalogs Catalogs) (string, error) {
	return WriteWith(root, d, catalogs, Options{})
}

// Options widen what is written for an engine that promises more.
type Options struct {
	// SessionZone promises that the engine runs the statement in the
	// caller's TimeZone (PostgreSQL: it is set on the connection first),
	// so what reads the zone (a timestamp with time zone's fields, text
	// or date, date_trunc of a date) gives SQE's answer there too.
	SessionZone bool
}

// WriteWith is Write under opts.
func WriteWith(root planner.Node, d Dialect, catalogs Catalogs, opts Options) (sql string, err error) {
	defer func() {
		// A plan shape the writer mishandles is refused, never a crash:
		// under sqe.execution = 'auto' the statement then runs in SQE.
		if r := recover(); r != nil {
			sql, err = "", pgerror.Unsupported("this plan cannot be written as SQL for %s", d)
		}
	}()
	if len(root.Columns()) == 0 {
		return "", pgerror.Unsupported("a statement without result columns cannot be written as SQL")
	}
	w := &writer{d: d, catalogs: catalogs, sessionZone: opts.SessionZone && d == PostgreSQL, firstRead: firstRead(root)}
	r, err := w.node(root, true)
	if err != nil {
		return "", err
	}
	return r.sql, nil
}

type writer struct {
	d        Dialect
	catalogs Catalogs
	// sessionZone: the engine evaluates in the caller's time zone.
	sessionZone bool
	// aliases counts the derived tables written, to name them s1, s2...
	aliases int
	// visible counts the visibility columns written.
	visible int
	// ctes are the WITH queries written, by id, for their references.
	ctes map[planner.ColumnID]*rel
	// cteRefs counts the references written to each WITH query;
	// volatileCTEs are those whose rows are computed by random(), in
	// their own query or a WITH query they read; volatileCalls counts
	// the random() calls and such references written.
	cteRefs       map[planner.ColumnID]int
	volatileCTEs  map[planner.ColumnID]bool
	volatileCalls int
	// works are the recursive unions' work tables being written.
	works map[*planner.WorkTable]workTable
	// firstRead are the nodes the statement's first row request surely
	// reaches (sample.go).
	firstRead map[planner.Node]bool
	// outer names the enclosing rows' columns a correlated subquery
	// being written reads.
	outer map[planner.ColumnID]string
	// outerReads and colReads count the enclosing queries' columns and
	// the columns in scope written, to tell what an aggregate reads.
	outerReads, colReads int
	// outerVis are the visibility columns of the left rows of the LATERAL
	// joins whose right side is being written, which guard it too.
	outerVis []string
	// functions are writtenFunctions, built at the first function call.
	functions map[string]writtenFunction
	// translates are the masks' translate calls, by the replacements of
	// upper-case letters, lower-case letters and digits.
	translates map[[3]rune]func(string) string
}

// visibility is a column holding whether a row of a secured relation is
// visible; Nullable once an outer join may have filled it with NULL.
type visibility struct {
	name     string
	nullable bool
}

// rel is a node written as a SELECT statement.
type rel struct {
	sql string
	// cols are the node's columns; the statement outputs them as c<ID>,
	// followed by vis.
	cols []planner.Column
	vis  []visibility
	// order are the columns (of cols) the statement's rows are ordered
	// by, when the node is ordered; hiddenOrder marks an order by columns
	// the node does not output, which a node above cannot keep.
	order       []planner.SortKey
	hiddenOrder bool
}

func colName(id planner.ColumnID) string { return "c" + strconv.Itoa(int(id)) }

// from writes the input node n and names it: the derived table's alias
// and the scope its columns are read in by the node above.
func (w *writer) from(n planner.Node) (in *rel, alias string, s *scope, err error) {
	if in, err = w.node(n, false); err != nil {
		return nil, "", nil, err
	}
	alias = w.alias()
	s = &scope{}
	s.from(in, alias)
	return in, alias, s, nil
}

func (w *writer) alias() string {
	w.aliases++
	return "s" + strconv.Itoa(w.aliases)
}

// scope maps the columns an expression may read to their SQL text.
type scope struct {
	cols map[planner.ColumnID]string
	vis  []string
}

// from adds r's columns, read through the derived table alias a.
func (s *scope) from(r *rel, a string) {
	if s.cols == nil {
		s.cols = map[planner.ColumnID]string{}
	}
	for _, c := range r.cols {
		s.cols[c.ID] = a + "." + colName(c.ID)
	}
	for _, v := range r.vis {
		ref := a + "." + v.name
		if v.nullable {
			ref = "COALESCE(" + ref + ", TRUE)"
		}
		s.vis = append(s.vis, ref)
	}
}

// columnsOf is in's columns as s reads them, for a node passing them on.
func (s *scope) columnsOf(in *rel) []string {
	items := make([]string, len(in.cols))
	for i, c := range in.cols {
		items[i] = s.cols[c.ID]
	}
	return items
}

// guarded writes e, behind the visibility of the rows in scope (and of
// the LATERAL joins' left rows it is computed for) when it can raise an
// error.
func (w *writer) guarded(e planner.Expr, s *scope) (string, error) {
	sql, err := w.expr(e, s)
	vis := s.vis
	if len(w.outerVis) > 0 {
		vis = append(append([]string(nil), w.outerVis...), vis...)
	}
	if err != nil || e.Leakproof() || len(vis) == 0 {
		return sql, err
	}
	return "CASE WHEN " + strings.Join(vis, " AND ") + " THEN " + sql + " END", nil
}

// selectList writes the output columns of a level: exprs as cols, then
// the visibility columns of ins (all but at the top).
func selectList(items []string, cols []planner.Column, vis []visibility, from string, top bool) (string, []visibility) {
	var b strings.Builder
	b.WriteString("SELECT ")
	n := 0
	sep := func() {
		if n > 0 {
			b.WriteString(", ")
		}
		n++
	}
	for i, it := range items {
		sep()
		b.WriteString(it + " AS " + colName(cols[i].ID))
	}
	var out []visibility
	if !top {
		for _, v := range vis {
			sep()
			b.WriteString(from + "." + v.name + " AS " + v.name)
		}
		out = vis
	}
	if n == 0 {
		// A node without columns (count(*) over a relation) still has rows.
		b.WriteString("1 AS c")
	}
	return b.String(), out
}

// orderBy writes ORDER BY keys over the columns of s.
func (w *writer) orderBy(keys []planner.SortKey, s *scope) (string, error) {
	if len(keys) == 0 {
		return "", nil
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		e, err := w.guarded(k.Expr, s)
		if err != nil {
			return "", err
		}
		if w.d == PostgreSQL && isText(k.Expr.Type()) {
			e += ` COLLATE "C"`
		}
		if k.Desc {
			e += " DESC"
		} else {
			e += " ASC"
		}
		if k.NullsFirst {
			e += " NULLS FIRST"
		} else {
			e += " NULLS LAST"
		}
		parts[i] = e
	}
	return " ORDER BY " + strings.Join(parts, ", "), nil
}

// ordered returns the order of in that a node keeping its rows' order
// writes, refusing an order by columns in no longer outputs.
func ordered(in *rel, what string) ([]planner.SortKey, error) {
	if in.hiddenOrder {
		return nil, pgerror.Unsupported("%s over rows ordered by a column it does not read", what)
	}
	return in.order, nil
}

func (w *writer) node(n planner.Node, top bool) (*rel, error) {
	switch x := n.(type) {
	case *planner.Scan:
		if x.Guard != nil {
			return w.secured(n, top)
		}
		return w.scan(x, top)
	case *planner.Filter:
		// A filter that can raise an error is written above the secured
		// relation, guarded, rather than in it.
		if securedChain(x) && (x.Barrier || x.Pred.Leakproof()) {
			return w.secured(n, top)
		}
		return w.filter(x, top)
	case *planner.Project:
		if x.Masking {
			return w.secured(n, top)
		}
		return w.project(x, top)
	case *planner.Join:
		return w.join(x, top)
	case *planner.Lateral:
		return w.lateral(x, top)
	case *planner.Aggregate:
		return w.aggregate(x, top)
	case *planner.Sort:
		return w.sort(x, top)
	case *planner.Limit:
		return w.limit(x, top)
	case *planner.RowCount:
		// A count the files' record counts answer here: the engine
		// counts the rows of its input.
		return w.node(x.Input, top)
	case *planner.Gather:
		return w.node(x.Input, top)
	case planner.OneRow:
		return w.oneRow(), nil
	case *planner.Values:
		return w.values(x, top)
	case *planner.ProjectSet:
		return w.projectSet(x, top)
	case *planner.Sample:
		return w.sample(x, top)
	case *planner.RecursiveUnion:
		return w.recursiveUnion(x, top)
	case *planner.WorkTable:
		return w.workTableScan(x)
	case *planner.CTE:
		return w.cte(x, top)
	case *planner.CTEScan:
		return w.cteScan(x, top)
	case *planner.Append:
		return w.appendRows(x, top)
	case *planner.SetOp:
		return w.setOp(x, top)
	case *planner.Window:
		return w.window(x, top)
	}
	return nil, pgerror.Unsupported("plan node %s cannot be written as SQL", nodeName(n))
}

// nodeName names a node type for an error message.
func nodeName(n planner.Node) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", n), "*planner.")
}

// securedChain reports a filter over a secured relation's scan through
// filters only: the barrier and the leakproof filters pushed below or
// beside it.
func securedChain(f *planner.Filter) bool {
	var n planner.Node = f
	for {
		switch x := n.(type) {
		case *planner.Filter:
			n = x.Input
		case *planner.Scan:
			return x.Guard != nil
		default:
			return false
		}
	}
}

func (w *writer) tableName(s *planner.Scan) (string, error) {
	if v, ok := s.Table.(planner.PastTable); ok && v.PastVersion() != "" {
		return "", pgerror.Unsupported("a past version of a table cannot be written as SQL")
	}
	if st, ok := s.Table.(planner.SharedTable); !ok || !st.Shared() {
		// A metadata table, a catalog relation or a transaction block's
		// own view: another engine's table of that name holds other rows.
		return "", pgerror.Unsupported("%s is read by SQE alone and cannot be written as SQL", s.Table.QualifiedName().Name)
	}
	qn := s.Table.QualifiedName()
	remote, ok := w.catalogs[qn.Catalog]
	if !ok {
		return "", pgerror.Unsupported("catalog %q has no name in the other engine", qn.Catalog)
	}
	parts := []string{qn.Schema, qn.Name}
	if remote != "" {
		parts = append([]string{remote}, parts...)
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		q, err := quoteIdent(p)
		if err != nil {
			return "", err
		}
		out[i] = q
	}
	return strings.Join(out, "."), nil
}

// checkTypes refuses columns of a type without an exact equivalent in
// the dialect.
func (w *writer) checkTypes(cols []planner.Column) error {
	for _, c := range cols {
		if _, err := w.d.typeName(c.Type); err != nil {
			return err
		}
	}
	return nil
}

// rawScope maps a scan's columns to its table's column names.
func (w *writer) rawScope(s *planner.Scan) (*scope, error) {
	if err := w.checkTypes(s.Cols); err != nil {
		return nil, err
	}
	sc := &scope{cols: map[planner.ColumnID]string{}}
	tcols := s.Table.Columns()
	for i, c := range s.Cols {
		q, err := quoteIdent(tcols[s.TableColumns[i]].Name)
		if err != nil {
			return nil, err
		}
		sc.cols[c.ID] = q
	}
	return sc, nil
}

// scan writes the scan of a table no policy applies to.
func (w *writer) scan(s *planner.Scan, top bool) (*rel, error) {
	table, err := w.tableName(s)
	if err != nil {
		return nil, err
	}
	sc, err := w.rawScope(s)
	if err != nil {
		return nil, err
	}
	items := make([]string, len(s.Cols))
	for i, c := range s.Cols {
		items[i] = sc.cols[c.ID]
	}
	list, _ := selectList(items, s.Cols, nil, "", top)
	return &rel{sql: list + " FROM " + table, cols: s.Cols}, nil
}

// secured writes a secured relation: the masking projection (if any)
// over filters (the barrier among them) over the guarded scan.
func (w *writer) secured(top0 planner.Node, top bool) (*rel, error) {
	n := top0
	var mask *planner.Project
	if p, ok := n.(*planner.Project); ok {
		mask, n = p, p.Input
	}
	var filters []*planner.Filter
	for {
		f, ok := n.(*planner.Filter)
		if !ok {
			break
		}
		filters, n = append(filters, f), f.Input
	}
	s, ok := n.(*planner.Scan)
	if !ok || s.Guard == nil {
		return nil, pgerror.Unsupported("a secured relation over %s cannot be written as SQL", nodeName(n))
	}
	barriers := 0
	for _, f := range filters {
		switch {
		case f.Barrier:
			barriers++
		case !f.Pred.Leakproof():
			return nil, pgerror.Unsupported("a filter that can raise an error below a masking projection cannot be written as SQL")
		}
	}
	if (s.Guard.Policy != nil) != (barriers == 1) || barriers > 1 {
		return nil, pgerror.Unsupported("a secured relation without its one barrier filter cannot be written as SQL")
	}
	for _, c := range s.Cols {
		for _, h := range s.Guard.Hidden {
			if c.ID == h && mask == nil {
				return nil, pgerror.Unsupported("a masked column read without its mask cannot be written as SQL")
			}
		}
	}
	table, err := w.tableName(s)
	if err != nil {
		return nil, err
	}
	raw, err := w.rawScope(s)
	if err != nil {
		return nil, err
	}
	var conds []string
	for i := len(filters) - 1; i >= 0; i-- {
		c, err := w.expr(filters[i].Pred, raw)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	filter := strings.Join(conds, " AND ")
	cols := s.Cols
	var items []string
	if mask != nil {
		cols = mask.Cols
		if err := w.checkTypes(cols); err != nil {
			return nil, err
		}
		for _, e := range mask.Exprs {
			sql, err := w.expr(e, raw)
			if err != nil {
				return nil, err
			}
			if filter != "" && !e.Leakproof() {
				sql = "CASE WHEN " + filter + " THEN " + sql + " END"
			}
			items = append(items, sql)
		}
	} else {
		for _, c := range s.Cols {
			items = append(items, raw.cols[c.ID])
		}
	}
	if filter == "" {
		list, _ := selectList(items, cols, nil, "", top)
		return &rel{sql: list + " FROM " + table, cols: cols}, nil
	}
	w.visible++
	v := visibility{name: "__sqe_visible_" + strconv.Itoa(w.visible)}
	inner, _ := selectList(items, cols, nil, "", true)
	inner += ", COALESCE(" + filter + ", FALSE) AS " + v.name + " FROM " + table
	a := w.alias()
	outer := make([]string, len(cols))
	for i, c := range cols {
		outer[i] = a + "." + colName(c.ID)
	}
	list, vis := selectList(outer, cols, []visibility{v}, a, top)
	return &rel{
		sql:  list + " FROM (" + inner + ") AS " + a + " WHERE " + a + "." + v.name,
		cols: cols, vis: vis,
	}, nil
}

func (w *writer) filter(f *planner.Filter, top bool) (*rel, error) {
	in, a, s, err := w.from(f.Input)
	if err != nil {
		return nil, err
	}
	order, err := ordered(in, "a filter")
	if err != nil {
		return nil, err
	}
	pred, err := w.guarded(f.Pred, s)
	if err != nil {
		return nil, err
	}
	items := s.columnsOf(in)
	ob, err := w.orderBy(order, s)
	if err != nil {
		return nil, err
	}
	list, vis := selectList(items, in.cols, in.vis, a, top)
	return &rel{
		sql:  list + " FROM (" + in.sql + ") AS " + a + " WHERE " + pred + ob,
		cols: in.cols, vis: vis, order: order,
	}, nil
}

func (w *writer) project(p *planner.Project, top bool) (*rel, error) {
	if err := w.checkTypes(p.Cols); err != nil {
		return nil, err
	}
	in, a, s, err := w.from(p.Input)
	if err != nil {
		return nil, err
	}
	order, err := ordered(in, "a projection")
	if err != nil {
		return nil, err
	}
	items := make([]string, len(p.Exprs))
	for i, e := range p.Exprs {
		if items[i], err = w.guarded(e, s); err != nil {
			return nil, err
		}
	}
	ob, err := w.orderBy(order, s)
	if err != nil {
		return nil, err
	}
	list, vis := selectList(items, p.Cols, in.vis, a, top)
	out := &rel{sql: list + " FROM (" + in.sql + ") AS " + a + ob, cols: p.Cols, vis: vis}
	// The order passes up when each key is output as is.
	for _, k := range order {
		found := false
		for i, e := range p.Exprs {
			if ref, ok := e.(*planner.ColRef); ok && sameCol(k.Expr, ref.ID) {
				out.order = append(out.order, planner.SortKey{
					Expr: &planner.ColRef{ID: p.Cols[i].ID, Name: p.Cols[i].Name, Typ: p.Cols[i].Type},
					Desc: k.Desc, NullsFirst: k.NullsFirst,
				})
				found = true
				break
			}
		}
		if !found {
			out.order, out.hiddenOrder = nil, true
			break
		}
	}
	return out, nil
}

func sameCol(e planner.Expr, id planner.ColumnID) bool {
	ref, ok := e.(*planner.ColRef)
	return ok && ref.ID == id
}

func (w *writer) sort(x *planner.Sort, top bool) (*rel, error) {
	in, a, s, err := w.from(x.Input)
	if err != nil {
		return nil, err
	}
	for _, k := range x.Keys {
		if _, ok := k.Expr.(*planner.ColRef); !ok {
			return nil, pgerror.Unsupported("a sort key that is not a column cannot be written as SQL")
		}
	}
	items := s.columnsOf(in)
	ob, err := w.orderBy(x.Keys, s)
	if err != nil {
		return nil, err
	}
	list, vis := selectList(items, in.cols, in.vis, a, top)
	return &rel{sql: list + " FROM (" + in.sql + ") AS " + a + ob, cols: in.cols, vis: vis, order: x.Keys}, nil
}

func (w *writer) limit(l *planner.Limit, top bool) (*rel, error) {
	// A computed count or offset (a constant expression, evaluated once)
	// and WITH TIES are PostgreSQL's as SQE's.
	if (l.CountExpr != nil || l.OffsetExpr != nil) && w.d != PostgreSQL {
		return nil, pgerror.Unsupported("a computed LIMIT or OFFSET cannot be written as SQL for %s", w.d)
	}
	if l.WithTies && w.d != PostgreSQL {
		return nil, pgerror.Unsupported("FETCH FIRST WITH TIES cannot be written as SQL for %s", w.d)
	}
	if len(w.outerVis) > 0 && ((l.CountExpr != nil && !onlyConstants(l.CountExpr)) || (l.OffsetExpr != nil && !onlyConstants(l.OffsetExpr))) {
		// It may read a LATERAL join's left row, and fail (a negative
		// count) on one its secured relation hides; it cannot be guarded.
		return nil, pgerror.Unsupported("a LIMIT or OFFSET reading an enclosing query's row cannot be written as SQL")
	}
	in, a, s, err := w.from(l.Input)
	if err != nil {
		return nil, err
	}
	order, err := ordered(in, "a limit")
	if err != nil {
		return nil, err
	}
	items := s.columnsOf(in)
	ob, err := w.orderBy(order, s)
	if err != nil {
		return nil, err
	}
	// A computed value is parenthesized, as PostgreSQL's grammar wants
	// it there; Trino takes integers only.
	offset, count := "", ""
	switch {
	case l.OffsetExpr != nil:
		if offset, err = w.expr(l.OffsetExpr, s); err != nil {
			return nil, err
		}
		offset = "(" + offset + ")"
	case l.Offset > 0:
		offset = strconv.FormatInt(l.Offset, 10)
	}
	switch {
	case l.CountExpr != nil:
		if count, err = w.expr(l.CountExpr, s); err != nil {
			return nil, err
		}
		count = "(" + count + ")"
	case l.Count >= 0:
		count = strconv.FormatInt(l.Count, 10)
	}
	if offset != "" {
		ob += " OFFSET " + offset + " ROWS"
	}
	if count != "" {
		ties := " ROWS ONLY"
		if l.WithTies {
			ties = " ROWS WITH TIES"
		}
		ob += " FETCH FIRST " + count + ties
	}
	list, vis := selectList(items, in.cols, in.vis, a, top)
	return &rel{sql: list + " FROM (" + in.sql + ") AS " + a + ob, cols: in.cols, vis: vis, order: order}, nil
}

func (w *writer) join(j *planner.Join, top bool) (*rel, error) {
	l, err := w.node(j.Left, false)
	if err != nil {
		return nil, err
	}
	r, err := w.node(j.Right, false)
	if err != nil {
		return nil, err
	}
	la, ra := w.alias(), w.alias()
	s := &scope{}
	s.from(l, la)
	s.from(r, ra)
	on := "TRUE"
	if j.On != nil {
		if on, err = w.guarded(j.On, s); err != nil {
			return nil, err
		}
	}
	cols := j.Columns()
	items := make([]string, len(cols))
	for i, c := range cols {
		items[i] = s.cols[c.ID]
	}
	if j.Kind.Existence() {
		list, _ := selectList(items, cols, nil, "", true)
		var vis []visibility
		if !top {
			for _, v := range l.vis {
				list += ", " + la + "." + v.name + " AS " + v.name
			}
			vis = l.vis
		}
		not := ""
		if j.Kind == planner.AntiJoin {
			not = "NOT "
		}
		return &rel{
			sql:  list + " FROM (" + l.sql + ") AS " + la + " WHERE " + not + "EXISTS (SELECT 1 FROM (" + r.sql + ") AS " + ra + " WHERE " + on + ")",
			cols: cols, vis: vis,
		}, nil
	}
	kind := map[planner.JoinKind]string{planner.InnerJoin: "INNER", planner.LeftJoin: "LEFT", planner.RightJoin: "RIGHT", planner.FullJoin: "FULL"}[j.Kind]
	lvis := append([]visibility(nil), l.vis...)
	rvis := append([]visibility(nil), r.vis...)
	if j.Kind == planner.LeftJoin || j.Kind == planner.FullJoin {
		for i := range rvis {
			rvis[i].nullable = true
		}
	}
	if j.Kind == planner.RightJoin || j.Kind == planner.FullJoin {
		for i := range lvis {
			lvis[i].nullable = true
		}
	}
	list, _ := selectList(items, cols, nil, "", true)
	var vis []visibility
	if !top {
		for _, v := range l.vis {
			list += ", " + la + "." + v.name + " AS " + v.name
		}
		for _, v := range r.vis {
			list += ", " + ra + "." + v.name + " AS " + v.name
		}
		vis = append(lvis, rvis...)
	}
	return &rel{
		sql:  list + " FROM (" + l.sql + ") AS " + la + " " + kind + " JOIN (" + r.sql + ") AS " + ra + " ON " + on,
		cols: cols, vis: vis,
	}, nil
}

// aggregate writes a GROUP BY. Its rows are built from visible rows only,
// so the visibility columns of its input do not pass above it.
func (w *writer) aggregate(x *planner.Aggregate, top bool) (*rel, error) {
	if x.Sets != nil && (w.d != PostgreSQL || !distinctSets(x.Sets, len(x.Groups))) {
		return nil, pgerror.Unsupported("GROUPING SETS cannot be written as SQL for %s", w.d)
	}
	if err := w.checkTypes(x.Columns()); err != nil {
		return nil, err
	}
	in, a, s, err := w.from(x.Input)
	if err != nil {
		return nil, err
	}
	var items, groups []string
	for i, g := range x.Groups {
		e, err := w.guarded(g, s)
		if err != nil {
			return nil, err
		}
		items = append(items, e)
		groups = append(groups, strconv.Itoa(i+1))
	}
	for _, ag := range x.Aggs {
		outerReads, colReads := w.outerReads, w.colReads
		e, err := w.aggCall(ag, s)
		if err != nil {
			return nil, err
		}
		if w.outerReads > outerReads && w.colReads == colReads {
			// PostgreSQL computes an aggregate whose arguments read only
			// an enclosing query's columns in that query (or refuses it
			// in a LATERAL subquery); SQE computes it here.
			return nil, pgerror.Unsupported("an aggregate over an enclosing query's columns alone cannot be written as SQL")
		}
		items = append(items, e)
	}
	var groupBy string
	if x.Sets != nil {
		keys := items[:len(x.Groups)]
		groupBy, items = groupingSets(x.Sets, keys), append(items, setIndex(x.Sets, keys))
	} else if len(groups) > 0 {
		groupBy = strings.Join(groups, ", ")
	}
	cols := x.Columns()
	list, _ := selectList(items, cols, nil, "", true)
	// The other engine may move a predicate on the grouping keys from
	// above the GROUP BY to below it, past a secured relation's WHERE. A
	// grouped aggregate over rows carrying visibility columns outputs
	// their AND over each group's rows as its own: an aggregate, which
	// holds for every group (each has a row, and its rows are visible),
	// and which a predicate guarded by it cannot be moved below.
	var vis []visibility
	if groupBy != "" && len(s.vis) > 0 && !top {
		w.visible++
		v := visibility{name: "__sqe_visible_" + strconv.Itoa(w.visible)}
		list += ", bool_and(" + strings.Join(s.vis, " AND ") + ") AS " + v.name
		vis = []visibility{v}
	}
	sql := list + " FROM (" + in.sql + ") AS " + a
	if groupBy != "" {
		sql += " GROUP BY " + groupBy
	}
	return &rel{sql: sql, cols: cols, vis: vis}, nil
}

// distinctSets reports whether no two grouping sets group by the same
// keys (PostgreSQL's GROUPING() tells sets apart only by their keys) and
// GROUPING() can take every key (at most 31).
func distinctSets(sets [][]int, groups int) bool {
	seen := map[uint64]bool{}
	for _, set := range sets {
		if groups > 31 {
			return false
		}
		var mask uint64
		for _, g := range set {
			mask |= 1 << uint(g)
		}
		if seen[mask] {
			return false
		}
		seen[mask] = true
	}
	return true
}

// groupingSets writes GROUPING SETS over the written grouping keys.
func groupingSets(sets [][]int, keys []string) string {
	parts := make([]string, len(sets))
	for i, set := range sets {
		exprs := make([]string, len(set))
		for j, g := range set {
			exprs[j] = keys[g]
		}
		parts[i] = "(" + strings.Join(exprs, ", ") + ")"
	}
	return "GROUPING SETS (" + strings.Join(parts, ", ") + ")"
}

// setIndex writes the index of the grouping set a row belongs to (the
// aggregate's SetCol), from PostgreSQL's GROUPING() of every key: a bit
// per key, the first key's the highest, set when the row's set leaves
// the key out.
func setIndex(sets [][]int, keys []string) string {
	if len(keys) == 0 {
		return "0"
	}
	var b strings.Builder
	b.WriteString("CASE GROUPING(" + strings.Join(keys, ", ") + ")")
	for i, set := range sets {
		mask := 1<<uint(len(keys)) - 1
		for _, g := range set {
			mask &^= 1 << uint(len(keys)-1-g)
		}
		b.WriteString(" WHEN " + strconv.Itoa(mask) + " THEN " + strconv.Itoa(i))
	}
	b.WriteString(" END")
	return b.String()
}
