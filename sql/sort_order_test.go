package sql

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

func TestParseSortOrder(t *testing.T) {
	tests := []struct {
		spec string
		want []storage.SortField
		code string
	}{
		{spec: "id", want: []storage.SortField{{Column: "id", NullsFirst: true}}},
		{spec: "  ", want: nil},
		{spec: "id, ts DESC", want: []storage.SortField{{Column: "id", NullsFirst: true}, {Column: "ts", Descending: true}}},
		{spec: "ID asc nulls last,ts desc NULLS FIRST", want: []storage.SortField{{Column: "id"}, {Column: "ts", Descending: true, NullsFirst: true}}},
		{spec: `"Mixed Case" DESC, "a""b"`, want: []storage.SortField{{Column: "Mixed Case", Descending: true}, {Column: `a"b`, NullsFirst: true}}},
		{spec: "identity(id) desc", want: []storage.SortField{{Column: "id", Descending: true}}},
		{spec: "IDENTITY(\"Id\")", want: []storage.SortField{{Column: "Id", NullsFirst: true}}},
		{spec: "bucket(16, id)", code: pgerror.FeatureNotSupported},
		{spec: "day(ts) DESC", code: pgerror.FeatureNotSupported},
		{spec: "id, id DESC", code: pgerror.DuplicateColumn},
		{spec: "id sideways", code: pgerror.InvalidParameterValue},
		{spec: "id nulls", code: pgerror.InvalidParameterValue},
		{spec: "id nulls first last", code: pgerror.InvalidParameterValue},
		{spec: "id,", code: pgerror.InvalidParameterValue},
		{spec: "identity(id", code: pgerror.InvalidParameterValue},
		{spec: "1id", code: pgerror.InvalidParameterValue},
	}
	for _, tc := range tests {
		got, err := parseSortOrder(tc.spec)
		if tc.code != "" {
			if pgerror.Code(err) != tc.code {
				t.Errorf("%q: got %v, %v; want SQLSTATE %s", tc.spec, got, err, tc.code)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v, %v; want %v", tc.spec, got, err, tc.want)
		}
	}
}

// TestSortOrderDDL runs the statements that set a table's sort order and
// their refusals.
func TestSortOrderDDL(t *testing.T) {
	s, cat := newWriteSession(t)
	steps := []struct {
		query string
		code  string
		table string              // the table whose order is then checked
		want  []storage.SortField // its order
	}{
		{query: "CREATE TABLE w.a (id bigint, ts timestamp, v text) WITH (sort_order = 'id, ts DESC NULLS FIRST')",
			table: "a", want: []storage.SortField{{Column: "id", NullsFirst: true}, {Column: "ts", Descending: true, NullsFirst: true}}},
		{query: "CREATE TABLE w.b (id bigint, v text) WITH (sorted_by = 'v DESC')",
			table: "b", want: []storage.SortField{{Column: "v", Descending: true}}},
		{query: "CREATE TABLE w.c (id bigint) WITH (sort_order = 'nope')", code: pgerror.UndefinedColumn},
		{query: "CREATE TABLE w.c (id bigint) WITH (sort_order = 'truncate(4, id)')", code: pgerror.FeatureNotSupported},
		{query: "CREATE TABLE w.c (id bigint) WITH (sort_order = 'id', sorted_by = 'id')", code: pgerror.SyntaxError},
		{query: "CREATE TABLE w.c (id bigint, xs int[]) WITH (sort_order = 'xs')", code: pgerror.FeatureNotSupported},
		{query: "ALTER TABLE w.a SET SORT ORDER (v, id DESC)",
			table: "a", want: []storage.SortField{{Column: "v", NullsFirst: true}, {Column: "id", Descending: true}}},
		{query: "ALTER TABLE w.a SET SORT ORDER (nope)", code: pgerror.UndefinedColumn},
		{query: "ALTER TABLE w.nope SET SORT ORDER (id)", code: pgerror.UndefinedTable},
		{query: "ALTER TABLE w.a SET SORT ORDER (bucket(4, id))", code: pgerror.FeatureNotSupported},
		{query: "ALTER TABLE w.a SET SORT ORDER NONE", table: "a", want: nil},
		{query: "ALTER TABLE w.a SET (sort_order = 'ts')", table: "a", want: []storage.SortField{{Column: "ts", NullsFirst: true}}},
		{query: "ALTER TABLE w.a RESET (sort_order)", table: "a", want: nil},
		{query: "ALTER TABLE w.b SET SORT ORDER UNSORTED", table: "b", want: nil},
		{query: "ALTER TABLE w.b SET SORT ORDER (v)", table: "b", want: []storage.SortField{{Column: "v", NullsFirst: true}}},
		{query: "ALTER TABLE w.b DROP COLUMN v", code: pgerror.DependentObjectsStillExist},
		{query: "BEGIN; ALTER TABLE w.b SET SORT ORDER NONE", code: pgerror.ActiveSQLTransaction},
		{query: "ROLLBACK", table: "b", want: []storage.SortField{{Column: "v", NullsFirst: true}}},
	}
	ctx := storage.WithPrincipal(context.Background(), storage.Principal{User: "loader"})
	for _, st := range steps {
		_, _, err := run(t, s, st.query)
		if pgerror.Code(err) != st.code && (st.code != "" || err != nil) {
			t.Fatalf("%s: %v, want SQLSTATE %q", st.query, err, st.code)
		}
		if st.table == "" {
			continue
		}
		tbl, err := cat.LoadTable(ctx, "w", st.table)
		if err != nil {
			t.Fatal(err)
		}
		if got := tbl.SortOrder(); !slices.Equal(got, st.want) {
			t.Errorf("%s: order %v, want %v", st.query, got, st.want)
		}
	}
}

// sortedTableRows is how many rows the write tests write: enough for the
// engine's sort to return several batches, between which files roll.
const sortedTableRows = 30_000

// scrambledIDs is a SELECT of sortedTableRows rows (id, v) whose ids, 0
// to sortedTableRows - 1, come in no order.
const scrambledIDs = "SELECT ((g * 7919) % 30000)::bigint AS id, 'v' || g AS v FROM generate_series(0, 29999) g"

// fileRanges reads every data file of w.name and returns, ordered by
// their first id, each file's first and last id, failing t unless each
// file's ids are in order (desc: descending).
func fileRanges(t *testing.T, cat storage.Catalog, name string, desc bool) [][2]int64 {
	t.Helper()
	ctx := storage.WithPrincipal(context.Background(), storage.Principal{User: "loader"})
	tbl, err := cat.LoadTable(ctx, "w", name)
	if err != nil {
		t.Fatal(err)
	}
	rw, err := tbl.BeginRewrite(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	var out [][2]int64
	rows := 0
	for i := range rw.Files() {
		batches, err := rw.ReadFile(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, b := range batches {
			col := b.Column(0).(*array.Int64)
			for j := range col.Len() {
				ids = append(ids, col.Value(j))
			}
			b.Release()
		}
		rows += len(ids)
		sorted := slices.IsSorted(ids)
		if desc {
			sorted = slices.IsSortedFunc(ids, func(a, b int64) int { return int(b - a) })
		}
		if !sorted {
			t.Errorf("%s: file %d of %d rows is not in order", name, i, len(ids))
		}
		out = append(out, [2]int64{ids[0], ids[len(ids)-1]})
	}
	if rows != sortedTableRows {
		t.Errorf("%s: %d rows in the files, want %d", name, rows, sortedTableRows)
	}
	slices.SortFunc(out, func(a, b [2]int64) int { return int(min(a[0], a[1]) - min(b[0], b[1])) })
	return out
}

// checkDisjoint fails t unless the files' id ranges do not overlap and
// there are several of them.
func checkDisjoint(t *testing.T, name string, ranges [][2]int64) {
	t.Helper()
	if len(ranges) < 2 {
		t.Errorf("%s: %d data files, want several", name, len(ranges))
	}
	for i := 1; i < len(ranges); i++ {
		prevHi := max(ranges[i-1][0], ranges[i-1][1])
		if lo := min(ranges[i][0], ranges[i][1]); lo <= prevHi {
			t.Errorf("%s: file ids %v overlap %v", name, ranges[i], ranges[i-1])
		}
	}
}

// TestSortedWrites writes rows in no order into sorted tables by every
// write path and checks that the files hold disjoint, ordered ranges of
// the key, and that a lookup of one key reads one row group.
func TestSortedWrites(t *testing.T) {
	s, cat := newWriteSession(t)
	const props = `"write.target-file-size-bytes" = 20000, "write.parquet.row-group-limit" = 1000`
	var copyData strings.Builder
	for g := range sortedTableRows {
		fmt.Fprintf(&copyData, "%d\tv%d\n", g*7919%sortedTableRows, g)
	}
	tests := []struct {
		name  string
		setup []string
		copy  bool // load copyData with COPY w.<name> FROM STDIN
		desc  bool
	}{
		{name: "insert_select", setup: []string{
			"CREATE TABLE w.insert_select (id bigint NOT NULL, v text) WITH (sort_order = 'id', " + props + ")",
			"INSERT INTO w.insert_select " + scrambledIDs,
		}},
		{name: "ctas", setup: []string{
			"CREATE TABLE w.ctas WITH (sort_order = 'id DESC', " + props + ") AS " + scrambledIDs,
		}, desc: true},
		{name: "copy", setup: []string{
			"CREATE TABLE w.copy (id bigint NOT NULL, v text) WITH (sorted_by = 'id', " + props + ")",
		}, copy: true},
		{name: "in_block", setup: []string{
			"CREATE TABLE w.in_block (id bigint NOT NULL, v text) WITH (sort_order = 'id', " + props + ")",
			"BEGIN; INSERT INTO w.in_block " + scrambledIDs + "; COMMIT",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, q := range tc.setup {
				if _, _, err := run(t, s, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if tc.copy {
				if err := loadCopy(t, s, "COPY w."+tc.name+" FROM STDIN", copyData.String()); err != nil {
					t.Fatalf("COPY: %v", err)
				}
			}
			checkDisjoint(t, tc.name, fileRanges(t, cat, tc.name, tc.desc))
			// The scan under the lookup reads one row group of 1,000 rows.
			rows, _, err := run(t, s, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT v FROM w."+tc.name+" WHERE id = 12345")
			if err != nil {
				t.Fatal(err)
			}
			if plan := strings.Join(rows, "\n"); !strings.Contains(plan, "rows=1000 ") {
				t.Errorf("lookup does not read one row group:\n%s", plan)
			}
			if rows, _, err := run(t, s, "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM w."+tc.name); err != nil || rows[0] != "30000|30000|0|29999" {
				t.Errorf("rows: %v %v", rows, err)
			}
		})
	}
}

// TestRewriteDataFilesSortsTable sets a sort order on a table written in
// no order and checks that rewrite_data_files leaves its files sorted
// and disjoint.
func TestRewriteDataFilesSortsTable(t *testing.T) {
	s, cat := newWriteSession(t)
	for _, q := range []string{
		`CREATE TABLE w.r (id bigint NOT NULL, v text) WITH ("write.target-file-size-bytes" = 20000, "write.parquet.row-group-limit" = 1000)`,
		"INSERT INTO w.r " + scrambledIDs + " WHERE g < 15000",
		"INSERT INTO w.r " + scrambledIDs + " WHERE g >= 15000",
		"ALTER TABLE w.r SET SORT ORDER (id)",
		"CALL system.rewrite_data_files('w.r')",
	} {
		if _, _, err := run(t, s, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	checkDisjoint(t, "r", fileRanges(t, cat, "r", false))
	// Sorted and disjoint, the table has nothing more to rewrite.
	rows, _, err := run(t, s, "CALL system.rewrite_data_files('w.r')")
	if err != nil || len(rows) != 1 || !strings.HasPrefix(rows[0], "0|0|") {
		t.Fatalf("second rewrite: %v %v", rows, err)
	}
}

// TestExplainInsertShowsSort checks that EXPLAIN of an INSERT into a
// sorted table shows the Sort under the write, and that one of a single
// row, one with RETURNING (which answers in the order given) or one into
// an unsorted table has none.
func TestExplainInsertShowsSort(t *testing.T) {
	s, _ := newWriteSession(t)
	if _, _, err := run(t, s, "CREATE TABLE w.e (id bigint, v text) WITH (sort_order = 'v DESC, id')"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		sort  string // the Sort line, "" for none
	}{
		{"EXPLAIN (COSTS OFF) INSERT INTO w.e SELECT g, 'x' FROM generate_series(1, 10) g", "Sort "},
		{"EXPLAIN (COSTS OFF) INSERT INTO w.e VALUES (1, 'a'), (2, 'b')", "Sort "},
		{"EXPLAIN (COSTS OFF) INSERT INTO w.e VALUES (1, 'a')", ""},
		{"EXPLAIN (COSTS OFF) INSERT INTO w.e VALUES (1, 'a'), (2, 'b') RETURNING id", ""},
		{"EXPLAIN (COSTS OFF) INSERT INTO w.items (id) SELECT g FROM generate_series(1, 10) g", ""},
	}
	for _, tc := range tests {
		rows, _, err := run(t, s, tc.query)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		plan := strings.Join(rows, "\n")
		if !strings.HasPrefix(plan, "Insert sales_wh.w.") {
			t.Errorf("%s: no Insert line:\n%s", tc.query, plan)
		}
		if got := strings.Contains(plan, "\n  Sort "); got != (tc.sort != "") {
			t.Errorf("%s: Sort shown = %v:\n%s", tc.query, got, plan)
		}
		if tc.sort != "" && !strings.Contains(plan, " DESC, ") {
			t.Errorf("%s: sort keys not v DESC, id:\n%s", tc.query, plan)
		}
	}
	if rows, _, err := run(t, s, "SELECT count(*) FROM w.e"); err != nil || rows[0] != "0" {
		t.Errorf("EXPLAIN wrote rows: %v %v", rows, err)
	}
}
