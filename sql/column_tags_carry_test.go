package sql

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// loadTestTable loads schema.name as the session's catalog has it.
func loadTestTable(t *testing.T, s *Session, schema, name string) *storage.Table {
	t.Helper()
	_, tbl, err := s.findTable(s.callerContext(context.Background()), &pg_query.RangeVar{Schemaname: schema, Relname: name})
	if err != nil {
		t.Fatalf("load %s.%s: %v", schema, name, err)
	}
	return tbl
}

// setTagsProperty sets the column tags property of schema.name to value
// (SQL cannot set sqe.* properties).
func setTagsProperty(t *testing.T, s *Session, schema, name, value string) {
	t.Helper()
	tbl := loadTestTable(t, s, schema, name)
	_, err := tbl.Alter(s.callerContext(context.Background()), func(a *storage.Alteration) error {
		return a.SetProperties(map[string]string{propColumnTags: value})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// setColumnTags tags the columns of schema.name (column → tags).
func setColumnTags(t *testing.T, s *Session, schema, name string, tags map[string][]string) {
	t.Helper()
	doc := columnTagsDoc{}
	for _, f := range loadTestTable(t, s, schema, name).Schema().Fields() {
		doc.add(storage.FieldID(f.Metadata.ToMap()), f.Name, tags[f.Name])
	}
	v, err := doc.encode()
	if err != nil {
		t.Fatal(err)
	}
	setTagsProperty(t, s, schema, name, v)
}

// renderColumnTags renders the tags of schema.name's columns in column
// order as "col:TAG,TAG col2:TAG", untagged columns left out.
func renderColumnTags(t *testing.T, s *Session, schema, name string) string {
	t.Helper()
	tbl := loadTestTable(t, s, schema, name)
	doc, err := readColumnTags(tbl.Properties())
	if err != nil {
		t.Fatalf("tags of %s.%s: %v", schema, name, err)
	}
	byCol := tagsByColumn(doc, tbl.Schema())
	var parts []string
	for i, f := range tbl.Schema().Fields() {
		if tags := byCol[i]; len(tags) > 0 {
			parts = append(parts, f.Name+":"+strings.Join(tags, ","))
		}
	}
	return strings.Join(parts, " ")
}

// TestColumnTagsFollowData checks that CREATE TABLE AS, SELECT INTO and
// INSERT ... SELECT tag the columns they fill with the tags of the
// columns the values come from.
func TestColumnTagsFollowData(t *testing.T) {
	s := newTestSession(t)
	setColumnTags(t, s, "acdemo", "orders", map[string][]string{"ssn": {"PII"}})
	steps := []struct {
		query string
		code  string // expected SQLSTATE, "" for success
		// sourceTags, when set, retags acdemo.orders before the query.
		sourceTags map[string][]string
		// table (schema.name) and the tags it must have after the query.
		table, want string
	}{
		{query: "CREATE SCHEMA c"},
		{query: "CREATE TABLE c.copy AS SELECT id, ssn, upper(ssn) AS u, region FROM acdemo.orders",
			table: "c.copy", want: "ssn:PII u:PII"},
		{query: "SELECT id, region INTO c.plain FROM acdemo.orders", table: "c.plain", want: ""},
		{query: "CREATE TABLE c.nodata (x) AS SELECT 'a' || ssn FROM acdemo.orders WITH NO DATA", table: "c.nodata", want: "x:PII"},
		{query: "ALTER TABLE c.copy RENAME COLUMN ssn TO ssn_copy", table: "c.copy", want: "ssn_copy:PII u:PII"},
		// INSERT ... SELECT tags the target column by its field id.
		{query: "CREATE TABLE c.other (id bigint, note text)"},
		{query: "INSERT INTO c.other SELECT id, region FROM acdemo.orders", table: "c.other", want: ""},
		{query: "INSERT INTO c.other SELECT id, ssn FROM acdemo.orders", table: "c.other", want: "note:PII"},
		{query: "ALTER TABLE c.other RENAME COLUMN note TO memo", table: "c.other", want: "memo:PII"},
		{query: "CREATE TABLE c.renamed (id bigint, n text); ALTER TABLE c.renamed RENAME COLUMN n TO m"},
		{query: "INSERT INTO c.renamed (m, id) SELECT CASE WHEN id > 1 THEN ssn END, id FROM acdemo.orders",
			table: "c.renamed", want: "m:PII"},
		// INSERT ... VALUES reading a table through a subquery.
		{query: "INSERT INTO c.plain (id, region) VALUES (9, (SELECT max(ssn) FROM acdemo.orders))",
			table: "c.plain", want: "region:PII"},
		// Tags are added to the target's, never replace them.
		{query: "INSERT INTO c.other SELECT id, region FROM acdemo.orders", sourceTags: map[string][]string{"ssn": {"PII"}, "region": {"GEO"}},
			table: "c.other", want: "memo:GEO,PII"},
		{query: "CREATE TABLE c.agg AS SELECT region, max(ssn) AS m, count(*) AS n FROM acdemo.orders GROUP BY region",
			table: "c.agg", want: "region:GEO m:PII"},
		{query: "CREATE VIEW c.v AS SELECT id, ssn AS s FROM acdemo.orders"},
		{query: "CREATE TABLE c.fromview AS SELECT s FROM c.v", table: "c.fromview", want: "s:PII"},
		// Inside a block, INSERT may not add tags (they would be
		// committed at once), but may write what adds none.
		{query: "CREATE TABLE c.blk (id bigint, s text)"},
		{query: "BEGIN; INSERT INTO c.blk (id) SELECT id FROM acdemo.orders; INSERT INTO c.other SELECT id, ssn FROM acdemo.orders"},
		{query: "INSERT INTO c.blk SELECT id, ssn FROM acdemo.orders", code: pgerror.FeatureNotSupported},
		{query: "ROLLBACK", table: "c.blk", want: ""},
		{query: "SELECT count(*) FROM c.blk", table: "c.other", want: "memo:GEO,PII"},
	}
	for _, st := range steps {
		if st.sourceTags != nil {
			setColumnTags(t, s, "acdemo", "orders", st.sourceTags)
		}
		_, _, err := run(t, s, st.query)
		if code := pgerror.Code(err); (st.code == "" && err != nil) || (st.code != "" && code != st.code) {
			t.Fatalf("%s: error %v, want SQLSTATE %q", st.query, err, st.code)
		}
		if st.table == "" {
			continue
		}
		schema, name, _ := strings.Cut(st.table, ".")
		if got := renderColumnTags(t, s, schema, name); got != st.want {
			t.Errorf("%s: tags of %s %q, want %q", st.query, st.table, got, st.want)
		}
	}
}

// TestUntaggedCopiesWriteNoTags checks that copying untagged columns
// leaves the target's properties alone.
func TestUntaggedCopiesWriteNoTags(t *testing.T) {
	s := newTestSession(t)
	setColumnTags(t, s, "acdemo", "orders", map[string][]string{"ssn": {"PII"}})
	runDDLScript(t, s, []ddlStep{
		{query: "CREATE SCHEMA c"},
		{query: "CREATE TABLE c.plain AS SELECT id, region FROM acdemo.orders"},
		{query: "CREATE TABLE c.other (id bigint, note text)"},
	})
	before := loadTestTable(t, s, "c", "other").Properties()
	runDDLScript(t, s, []ddlStep{{query: "INSERT INTO c.other SELECT id, region FROM acdemo.orders", tags: []string{"INSERT 0 3"}}})
	for _, name := range []string{"plain", "other"} {
		if v, ok := loadTestTable(t, s, "c", name).Properties()[propColumnTags]; ok {
			t.Errorf("c.%s has %s = %s", name, propColumnTags, v)
		}
	}
	if after := loadTestTable(t, s, "c", "other").Properties(); !maps.Equal(after, before) {
		t.Errorf("INSERT changed the properties from %v to %v", before, after)
	}
}

// TestUnreadableTagsFailClosed checks that tags that cannot be read fail
// the statement rather than let a copy go out untagged.
func TestUnreadableTagsFailClosed(t *testing.T) {
	s := newTestSession(t)
	runDDLScript(t, s, []ddlStep{
		{query: "CREATE SCHEMA c"},
		{query: "CREATE TABLE c.broken (x text); INSERT INTO c.broken VALUES ('a')"},
		{query: "CREATE TABLE c.target (x text)"},
	})
	setTagsProperty(t, s, "c", "broken", "not json")
	setColumnTags(t, s, "acdemo", "orders", map[string][]string{"ssn": {"PII"}})
	runDDLScript(t, s, []ddlStep{
		{query: "CREATE TABLE c.copy AS SELECT x FROM c.broken", code: pgerror.ObjectNotInPrerequisiteState},
		{query: "SELECT * FROM c.copy", code: pgerror.UndefinedTable},
		{query: "INSERT INTO c.target SELECT x FROM c.broken", code: pgerror.ObjectNotInPrerequisiteState},
		{query: "SELECT count(*) FROM c.target", rows: []string{"0"}},
		// A target whose tags cannot be read cannot receive new ones.
		{query: "INSERT INTO c.broken SELECT ssn FROM acdemo.orders", code: pgerror.ObjectNotInPrerequisiteState},
		{query: "SELECT count(*) FROM c.broken", rows: []string{"1"}},
	})
}

// opaqueNode is a plan node the lineage does not know.
type opaqueNode struct{ in planner.Node }

func (o opaqueNode) Columns() []planner.Column { return o.in.Columns() }
func (o opaqueNode) Inputs() []planner.Node    { return []planner.Node{o.in} }

// TestCarriedTagsUnknownLineage checks that a query whose lineage is
// unknown is refused only when a table it reads has tags.
func TestCarriedTagsUnknownLineage(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	runDDLScript(t, s, []ddlStep{{query: "CREATE SCHEMA c"}, {query: "CREATE TABLE c.plain (x text)"}})
	setColumnTags(t, s, "acdemo", "orders", map[string][]string{"ssn": {"PII", "SSN"}})
	scanOf := func(schema, name, column string) planner.Node {
		tbl, err := s.catalog.ResolveTable(ctx, planner.TableName{Schema: schema, Name: name})
		if err != nil {
			t.Fatal(err)
		}
		idx := slices.IndexFunc(tbl.Columns(), func(c planner.TableColumn) bool { return c.Name == column })
		return &planner.Scan{Table: tbl, TableColumns: []int{idx}, Cols: []planner.Column{{ID: 1, Name: column, Type: tbl.Columns()[idx].Type}}}
	}
	tests := []struct {
		name string
		root planner.Node
		code string
		want string // tags of each output column, "|" between columns
	}{
		{name: "known lineage", root: scanOf("acdemo", "orders", "ssn"), want: "PII,SSN"},
		{name: "untagged column of a tagged table", root: scanOf("acdemo", "orders", "id"), want: ""},
		{name: "unknown lineage over a tagged table", root: opaqueNode{scanOf("acdemo", "orders", "id")}, code: pgerror.FeatureNotSupported},
		{name: "unknown lineage over untagged tables", root: opaqueNode{scanOf("c", "plain", "x")}, want: "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tags, err := carriedTags(tt.root)
			if pgerror.Code(err) != cmpCode(tt.code) {
				t.Fatalf("error %v, want SQLSTATE %q", err, tt.code)
			}
			if err != nil {
				return
			}
			got := "none"
			if tags != nil {
				cols := make([]string, len(tags))
				for i, c := range tags {
					cols[i] = strings.Join(c, ",")
				}
				got = strings.Join(cols, "|")
			}
			if got != tt.want {
				t.Errorf("tags %q, want %q", got, tt.want)
			}
		})
	}
}

// cmpCode is the SQLSTATE pgerror.Code reports for an expected code, ""
// meaning success.
func cmpCode(code string) string {
	if code == "" {
		return pgerror.SuccessfulCompletion
	}
	return code
}
