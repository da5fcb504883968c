package compattests

import (
	"testing"
)

// TestViewsThroughPsql creates, reads, describes and drops a view with
// psql, as a user would. The expected output is PostgreSQL 15's for the
// same script, except where SQE differs by design: the owner is "sqe"
// and the view definition is SQE's normalised text of the query.
//
// Not parallel: the schema it makes must be gone before the parallel
// tests list schemas.
func TestViewsThroughPsql(t *testing.T) {
	script := `CREATE SCHEMA wire_views;
CREATE TABLE wire_views.t (id bigint, name text);
INSERT INTO wire_views.t VALUES (1, 'one'), (2, 'two'), (3, 'three');
CREATE VIEW wire_views.v AS SELECT id, name FROM wire_views.t WHERE id > 1;
CREATE OR REPLACE VIEW wire_views.v AS SELECT id, name, id * 2 AS twice FROM wire_views.t WHERE id > 1;
SELECT * FROM wire_views.v ORDER BY id;
\dv wire_views.*
\d+ wire_views.v
DROP TABLE wire_views.v;
DROP VIEW IF EXISTS wire_views.nope, wire_views.v;
DROP SCHEMA wire_views CASCADE;
`
	t.Cleanup(func() {
		runPsql(t, shared.server, psqlRun{password: shared.token, args: []string{"-c", "DROP SCHEMA IF EXISTS wire_views CASCADE"}})
	})
	res := runPsql(t, shared.server, psqlRun{password: shared.token, stdin: script, continueOnError: true})
	wantOut := `CREATE SCHEMA
CREATE TABLE
INSERT 0 3
CREATE VIEW
CREATE VIEW
 id | name  | twice 
----+-------+-------
  2 | two   |     4
  3 | three |     6
(2 rows)

        List of relations
   Schema   | Name | Type | Owner 
------------+------+------+-------
 wire_views | v    | view | sqe
(1 row)

                            View "wire_views.v"
 Column |  Type  | Collation | Nullable | Default | Storage  | Description 
--------+--------+-----------+----------+---------+----------+-------------
 id     | bigint |           |          |         | plain    | 
 name   | text   |           |          |         | extended | 
 twice  | bigint |           |          |         | plain    | 
View definition:
 SELECT id, name, id * 2 AS twice FROM wire_views.t WHERE id > 1;

DROP VIEW
DROP SCHEMA
`
	wantErr := `ERROR:  "v" is not a table
HINT:  Use DROP VIEW to remove a view.
NOTICE:  view "nope" does not exist, skipping
NOTICE:  drop cascades to table wire_views.t
`
	if res.stdout != wantOut {
		t.Errorf("stdout:\n%s\nwant:\n%s", res.stdout, wantOut)
	}
	if res.stderr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", res.stderr, wantErr)
	}
}
