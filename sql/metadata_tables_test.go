package sql

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/grants"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestMetadataTablesColumns: each metadata table has Trino's columns, in
// Trino's order, with the PostgreSQL types chosen for them.
func TestMetadataTablesColumns(t *testing.T) {
	s := newTestSession(t)
	cases := []struct {
		table string
		cols  string
	}{
		{"snapshots", "committed_at timestamp with time zone, snapshot_id bigint, parent_id bigint, operation text, manifest_list text, summary jsonb"},
		{"history", "made_current_at timestamp with time zone, snapshot_id bigint, parent_id bigint, is_current_ancestor boolean"},
		{"refs", "name text, type text, snapshot_id bigint, max_reference_age_in_ms bigint, min_snapshots_to_keep integer, max_snapshot_age_in_ms bigint"},
		{"manifests", "path text, length bigint, partition_spec_id integer, added_snapshot_id bigint, added_data_files_count integer, " +
			"added_rows_count bigint, existing_data_files_count integer, existing_rows_count bigint, deleted_data_files_count integer, " +
			"deleted_rows_count bigint, partition_summaries jsonb"},
		{"files", "content integer, file_path text, file_format text, spec_id integer, partition jsonb, record_count bigint, " +
			"file_size_in_bytes bigint, column_sizes jsonb, value_counts jsonb, null_value_counts jsonb, nan_value_counts jsonb, " +
			"lower_bounds jsonb, upper_bounds jsonb, key_metadata bytea, split_offsets bigint[], equality_ids integer[], " +
			"sort_order_id integer, readable_metrics jsonb"},
		{"partitions", "partition jsonb, record_count bigint, file_count bigint, total_size bigint, data jsonb"},
	}
	for _, c := range cases {
		res := executeOne(t, context.Background(), s, `SELECT * FROM acdemo."orders$`+c.table+`"`)
		var got []string
		for _, col := range res.Columns() {
			got = append(got, col.Name+" "+col.Type.Name())
		}
		if strings.Join(got, ", ") != c.cols {
			t.Errorf("$%s columns:\n got %s\nwant %s", c.table, strings.Join(got, ", "), c.cols)
		}
	}
}

// TestMetadataTablesValues reads every metadata table of a partitioned
// table written in three commits.
func TestMetadataTablesValues(t *testing.T) {
	s := newTestSession(t)
	for _, q := range []string{
		"CREATE TABLE acdemo.m (id bigint, region text, amount numeric(12,2)) WITH (partitioning = 'region')",
		"INSERT INTO acdemo.m VALUES (1, 'EU', 10.50), (2, 'US', 20.00)",
		"INSERT INTO acdemo.m VALUES (3, 'EU', 30.25)",
		"INSERT INTO acdemo.m VALUES (4, NULL, NULL)",
	} {
		if _, _, err := run(t, s, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	cases := []struct {
		sql  string
		rows []string
	}{
		{`SELECT count(*), count(parent_id), min(operation), max(operation) FROM acdemo."m$snapshots"`, []string{"3|2|append|append"}},
		{`SELECT summary->>'added-records', summary->>'total-records', summary->>'added-data-files' FROM acdemo."m$snapshots" ORDER BY committed_at`,
			[]string{"2|2|2", "1|3|1", "1|4|1"}},
		{`SELECT count(*) FROM acdemo."m$snapshots" c JOIN acdemo."m$snapshots" p ON c.parent_id = p.snapshot_id AND c.committed_at >= p.committed_at`, []string{"2"}},
		{`SELECT count(*) FROM acdemo."m$snapshots" WHERE manifest_list LIKE '%.avro'`, []string{"3"}},
		{`SELECT count(*), bool_and(is_current_ancestor), count(parent_id) FROM acdemo."m$history"`, []string{"3|true|2"}},
		{`SELECT h.snapshot_id = s.snapshot_id, h.made_current_at = s.committed_at FROM acdemo."m$history" h JOIN acdemo."m$snapshots" s USING (snapshot_id) LIMIT 1`,
			[]string{"true|true"}},
		{`SELECT name, type, min_snapshots_to_keep, max_snapshot_age_in_ms, max_reference_age_in_ms FROM acdemo."m$refs"`, []string{"main|BRANCH|NULL|NULL|NULL"}},
		{`SELECT r.snapshot_id = (SELECT snapshot_id FROM acdemo."m$snapshots" ORDER BY committed_at DESC LIMIT 1) FROM acdemo."m$refs" r`, []string{"true"}},
		{`SELECT count(*), sum(added_data_files_count), sum(added_rows_count), sum(existing_rows_count), sum(deleted_rows_count), min(partition_spec_id) FROM acdemo."m$manifests"`,
			[]string{"3|4|4|0|0|0"}},
		{`SELECT added_rows_count, partition_summaries->0->>'field', partition_summaries->0->>'lower_bound', partition_summaries->0->>'upper_bound', partition_summaries->0->>'contains_null'
			FROM acdemo."m$manifests" ORDER BY added_rows_count, 3`,
			[]string{"1|region|EU|EU|false", "1|region|NULL|NULL|true", "2|region|EU|US|false"}},
		{`SELECT partition->>'region', record_count, content, file_format, spec_id, lower_bounds->>'amount', upper_bounds->>'id',
			null_value_counts->>'region', value_counts->>'amount', readable_metrics->'amount'->>'upper_bound', column_sizes ? 'id',
			file_path LIKE '%.parquet', cardinality(split_offsets) > 0, key_metadata IS NULL, equality_ids IS NULL
			FROM acdemo."m$files" ORDER BY 6`,
			[]string{
				"EU|1|0|PARQUET|0|10.50|1|0|1|10.50|true|true|true|true|true",
				"US|1|0|PARQUET|0|20.00|2|0|1|20.00|true|true|true|true|true",
				"EU|1|0|PARQUET|0|30.25|3|0|1|30.25|true|true|true|true|true",
				"NULL|1|0|PARQUET|0|NULL|4|1|1|NULL|true|true|true|true|true",
			}},
		{`SELECT partition, record_count, file_count, total_size > 0, data->'amount'->>'min', data->'amount'->>'max', data->'id'->>'null_count', data->'region'->>'max'
			FROM acdemo."m$partitions" ORDER BY record_count DESC, 5`,
			[]string{`{"region": "EU"}|2|2|true|10.50|30.25|0|EU`, `{"region": "US"}|1|1|true|20.00|20.00|0|US`, `{"region": null}|1|1|true|NULL|NULL|0|NULL`}},
		{`SELECT partition, record_count, file_count FROM acdemo."orders$partitions"`, []string{"{}|3|1"}},
		{`SELECT partition_summaries FROM acdemo."orders$manifests"`, []string{"[]"}},
	}
	for _, c := range cases {
		rows, _, err := run(t, s, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if !slices.Equal(rows, c.rows) {
			t.Errorf("%s:\n got %q\nwant %q", c.sql, rows, c.rows)
		}
	}
}

// TestMetadataTablesRefuseWrites: metadata tables are read-only, and a
// name with an unknown kind is an ordinary (missing) table.
func TestMetadataTablesRefuseWrites(t *testing.T) {
	s := newTestSession(t)
	for _, c := range []struct{ sql, code string }{
		{`INSERT INTO acdemo."orders$files" (content) VALUES (0)`, pgerror.WrongObjectType},
		{`UPDATE acdemo."orders$snapshots" SET operation = 'x'`, pgerror.WrongObjectType},
		{`DELETE FROM acdemo."orders$history"`, pgerror.WrongObjectType},
		{`MERGE INTO acdemo."orders$refs" r USING acdemo.orders o ON false WHEN NOT MATCHED THEN DO NOTHING`, pgerror.WrongObjectType},
		{`SELECT * FROM acdemo."orders$nope"`, pgerror.UndefinedTable},
		{`SELECT * FROM acdemo."missing$files"`, pgerror.UndefinedTable},
		{`SELECT * FROM pg_catalog."pg_class$files"`, pgerror.UndefinedTable},
		{`SELECT * FROM acdemo."orders$files$files"`, pgerror.UndefinedTable},
	} {
		_, _, err := run(t, s, c.sql)
		if got := pgerror.Code(err); got != c.code {
			t.Errorf("%s: %v (%s), want %s", c.sql, err, got, c.code)
		}
	}
	if _, _, err := run(t, s, "SELECT count(*) FROM acdemo.orders"); err != nil {
		t.Fatal(err)
	}
}

// metadataTableNames are the kinds of metadata table.
var metadataTableNames = []string{"snapshots", "history", "refs", "manifests", "files", "partitions"}

// TestMetadataTablesGateOne: a caller who may not open the table is told
// that none of its metadata tables exists, never that it is refused.
func TestMetadataTablesGateOne(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, dave := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "dave")
	if _, _, err := run(t, carol, "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst"); err != nil {
		t.Fatal(err)
	}
	for _, kind := range metadataTableNames {
		for _, table := range []string{"orders", "sales", "missing"} {
			q := `SELECT * FROM acdemo."` + table + `$` + kind + `"`
			_, _, err := run(t, dave, q)
			want := `relation "acdemo.` + table + `$` + kind + `" does not exist`
			if pgerror.Code(err) != pgerror.UndefinedTable || pgerror.From(err).Message != want {
				t.Errorf("dave: %s: %v, want 42P01 %s", q, err, want)
			}
		}
	}
}

// TestMetadataTablesGateTwo reads every metadata table of a partitioned
// table as callers under a mask, a row filter, a column restriction and
// a tag mask, and scans every value they see for what their policies
// hide; an unrestricted caller sees all of it.
func TestMetadataTablesGateTwo(t *testing.T) {
	e, _ := newGatedEngine(t)
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol := open("carol", "sqe_admin")
	for _, q := range []string{
		"CREATE TABLE acdemo.p (id bigint, region text, ssn text) WITH (partitioning = 'region, ssn')",
		"INSERT INTO acdemo.p VALUES (1, 'EU', '111-11-1111'), (2, 'US', '222-22-2222')",
		"INSERT INTO acdemo.p VALUES (3, 'EU', '333-33-3333')",
		"GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst",
		"GRANT SELECT ON sales_wh.acdemo.p TO ROLE analyst",
		"CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer, ROLE auditor ON COLUMN ssn",
		"CREATE POLICY eu ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')",
		"CREATE POLICY p_mask_ssn ON TABLE acdemo.p COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer, ROLE auditor ON COLUMN ssn",
		"CREATE POLICY p_eu ON TABLE acdemo.p ROW FILTER TO ROLE engineer USING (region = 'EU')",
		"DENY SELECT (ssn) ON TABLE acdemo.orders TO USER frank",
		"DENY SELECT (ssn) ON TABLE acdemo.p TO USER frank",
		"ALTER TABLE acdemo.orders SET TAGS (ssn = ('PII'))",
		"ALTER TABLE acdemo.p SET TAGS (ssn = ('PII'))",
		"CREATE POLICY pii ON TAG PII COLUMN MASK MASK TO USER gina",
	} {
		if _, _, err := run(t, carol, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	ssns := []string{"111-11-1111", "222-22-2222", "333-33-3333"}
	// US is the hidden row's region: as a value in JSON, in a path, or a
	// cell of its own.
	us := []string{`"US"`, "=US", "|US|", "|US", "US|"}
	callers := []struct {
		s      *Session
		absent []string // nothing seen holds these
		// counts says whether record counts are shown.
		counts bool
	}{
		{s: open("erin", "analyst", "auditor"), absent: ssns, counts: true},
		{s: open("bob", "analyst", "engineer"), absent: append(slices.Clone(ssns), us...), counts: false},
		{s: open("frank", "analyst"), absent: append(slices.Clone(ssns), `"ssn"`, "ssn="), counts: true},
		{s: open("gina", "analyst"), absent: ssns, counts: true},
	}
	for _, c := range callers {
		who := c.s.identity.User
		for _, table := range []string{"orders", "p"} {
			for _, kind := range metadataTableNames {
				q := `SELECT * FROM acdemo."` + table + `$` + kind + `"`
				rows, _, err := run(t, c.s, q)
				if err != nil {
					t.Errorf("%s: %s: %v", who, q, err)
					continue
				}
				if len(rows) == 0 {
					t.Errorf("%s: %s: no rows", who, q)
				}
				text := "|" + strings.Join(rows, "|\n|") + "|"
				for _, secret := range c.absent {
					if strings.Contains(text, secret) {
						t.Errorf("%s: %s: %q shown:\n%s", who, q, secret, text)
					}
				}
			}
		}
		// Row counts, and the statistics of the hidden column.
		checks := []struct {
			sql   string
			shown bool
		}{
			{`SELECT record_count FROM acdemo."orders$files" WHERE record_count IS NOT NULL`, c.counts},
			{`SELECT value_counts FROM acdemo."orders$files" WHERE value_counts IS NOT NULL`, c.counts},
			{`SELECT record_count FROM acdemo."p$partitions" WHERE record_count IS NOT NULL`, c.counts},
			{`SELECT added_rows_count FROM acdemo."p$manifests" WHERE added_rows_count IS NOT NULL`, c.counts},
			{`SELECT 1 FROM acdemo."orders$snapshots" WHERE summary ? 'total-records'`, c.counts},
			{`SELECT 1 FROM acdemo."orders$snapshots" WHERE summary ? 'total-files-size'`, true},
			{`SELECT 1 FROM acdemo."orders$files" WHERE lower_bounds ? 'ssn' OR upper_bounds ? 'ssn' OR column_sizes ? 'ssn' OR null_value_counts ? 'ssn'`, false},
			{`SELECT 1 FROM acdemo."orders$files" WHERE readable_metrics->'ssn'->>'lower_bound' IS NOT NULL`, false},
			{`SELECT 1 FROM acdemo."p$files" WHERE partition->>'ssn' IS NOT NULL OR file_path IS NOT NULL`, false},
			{`SELECT 1 FROM acdemo."p$partitions" WHERE partition->>'ssn' IS NOT NULL OR data->'ssn'->>'max' IS NOT NULL`, false},
			// Other columns keep their statistics, unless a row filter
			// applies.
			{`SELECT 1 FROM acdemo."orders$files" WHERE lower_bounds->>'id' = '1'`, c.counts},
			{`SELECT 1 FROM acdemo."p$files" WHERE partition->>'region' = 'EU'`, c.counts},
		}
		for _, ch := range checks {
			rows, _, err := run(t, c.s, ch.sql)
			if err != nil {
				t.Errorf("%s: %s: %v", who, ch.sql, err)
				continue
			}
			if (len(rows) > 0) != ch.shown {
				t.Errorf("%s: %s: rows %q, want shown=%v", who, ch.sql, rows, ch.shown)
			}
		}
	}
	// Under the row filter the partitions differ only by hidden values:
	// one row, with no counts.
	bob := open("bob", "analyst", "engineer")
	if rows, _, err := run(t, bob, `SELECT partition, record_count, file_count FROM acdemo."p$partitions"`); err != nil ||
		!slices.Equal(rows, []string{`{"ssn": null, "region": null}|NULL|3`}) {
		t.Errorf("bob: p$partitions: %q, %v", rows, err)
	}
	// The restricted column is not even named.
	frank := open("frank", "analyst")
	if rows, _, err := run(t, frank, `SELECT partition FROM acdemo."p$partitions" ORDER BY 1`); err != nil ||
		!slices.Equal(rows, []string{`{"region": "EU"}`, `{"region": "US"}`}) {
		t.Errorf("frank: p$partitions: %q, %v", rows, err)
	}
	// An unrestricted caller sees every statistic, raw values included.
	alice := open("alice", "analyst")
	for _, c := range []struct {
		sql  string
		rows []string
	}{
		{`SELECT record_count, lower_bounds->>'ssn', upper_bounds->>'region', value_counts->>'ssn' FROM acdemo."orders$files"`, []string{"3|111-11-1111|US|3"}},
		{`SELECT partition->>'region', partition->>'ssn', record_count, file_path LIKE '%ssn=' || (partition->>'ssn') || '/%' FROM acdemo."p$files" ORDER BY 2`,
			[]string{"EU|111-11-1111|1|true", "US|222-22-2222|1|true", "EU|333-33-3333|1|true"}},
		{`SELECT sum(record_count), count(*) FROM acdemo."p$partitions"`, []string{"3|3"}},
		{`SELECT summary->>'total-records' FROM acdemo."p$snapshots" ORDER BY committed_at`, []string{"2", "3"}},
	} {
		rows, _, err := run(t, alice, c.sql)
		if err != nil || !slices.Equal(rows, c.rows) {
			t.Errorf("alice: %s: %q, %v; want %q", c.sql, rows, err, c.rows)
		}
	}
}

// TestMetadataTablesFollowTheirTable: policies decide what a metadata
// table shows through its table alone. A policy on a table of the
// metadata table's name cannot be written through SQL, and one in the
// store (as Ranger may hold it) neither filters nor masks the metadata
// table: what it shows follows orders' policies, which already decided
// it.
func TestMetadataTablesFollowTheirTable(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, alice := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "alice", "analyst")
	if _, _, err := run(t, carol, "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE POLICY x ON TABLE acdemo."orders$files" ROW FILTER TO ROLE analyst USING (false)`,
		`GRANT SELECT ON sales_wh.acdemo."orders$files" TO ROLE analyst`,
		`DENY SELECT (file_path) ON acdemo."orders$files" TO USER alice`,
		`ALTER TABLE acdemo."orders$files" SET TAGS (file_path = ('PII'))`,
	} {
		if _, _, err := run(t, carol, q); pgerror.Code(err) != pgerror.WrongObjectType {
			t.Errorf("%s: %v, want 42809", q, err)
		}
	}
	analyst := []policy.Grantee{{Kind: grants.GranteeRole, Name: "analyst"}}
	byName, err := policy.RowFilter("files_none", policy.Target{Database: "acdemo", Table: "orders$files"}, analyst, "false")
	if err != nil {
		t.Fatal(err)
	}
	masked, err := policy.ColumnMask("files_path", policy.Target{Database: "acdemo", Table: "orders$files", Column: "file_path"}, analyst, "MASK_NULL", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []ranger.Policy{byName, masked} {
		if err := e.cfg.Policies.PutPolicy(context.Background(), p, true); err != nil {
			t.Fatal(err)
		}
	}
	const q = `SELECT record_count, file_path IS NOT NULL, lower_bounds->>'region' FROM acdemo."orders$files"`
	if rows, _, err := run(t, alice, q); err != nil || !slices.Equal(rows, []string{"3|true|EU"}) {
		t.Errorf("alice, policies on orders$files: %q, %v", rows, err)
	}
}
