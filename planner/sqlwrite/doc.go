// Package sqlwrite writes a bound, secured plan as one SQL statement for
// another engine (PostgreSQL or Trino) to run. It reads only the plan:
// the user's text never reaches the other engine, and gate one and gate
// two have already been applied to the plan it is given.
//
// # Shape
//
// Every plan node becomes one SELECT over its inputs, written as derived
// tables; a column of the plan is named "c<ID>" after its ColumnID, so the
// statement's result columns are the plan root's columns, by position.
// Table names are mapped through the catalog map the caller gives
// (SQE catalog to the other engine's catalog).
//
// # Secured relations
//
// The secured relation of a table (its scan, the barrier filter with the
// row filters, any leakproof filters pushed below the masking projection,
// and the masking projection) is written as
//
//	(SELECT <mask or column> AS "c<ID>", ...,
//	        COALESCE(<filters>, FALSE) AS "__sqe_visible_<n>"
//	 FROM <table>) AS "s<k>"
//
// read by a SELECT whose WHERE keeps the rows where the visibility column
// holds. A mask that can raise an error is written CASE WHEN <filters>
// THEN <mask> END, so it is not computed on a hidden row. Raw stored
// values appear only inside the masks and the filters.
//
// The other engine's optimizer does not know SQE's barrier: it may
// evaluate an expression from above before the WHERE that drops hidden
// rows. So the visibility columns are carried up through every node until
// an aggregate (whose rows are built from visible rows only), and every
// expression that can raise an error (not Leakproof) is written
// CASE WHEN <visibility> THEN <expr> END, where <visibility> is the AND of
// the visibility columns in scope (in a LATERAL join's right side, the
// left row's too), each COALESCE(v, TRUE) when an outer
// join may have filled it with NULL (such a row is not hidden: it has no
// stored values). On a visible row the guard changes nothing. A grouped
// aggregate passes up the AND of its rows' visibility (bool_and), since
// the other engine may move a predicate on the grouping keys below it;
// a set operation's branches keep only their visible rows and pass up
// the AND of their visibility columns as one.
//
// # Fails closed
//
// Whatever the writer does not know exactly (a node type, a function, an
// operator or cast on given types, a type without an exact equivalent in
// the dialect) is an error with SQLSTATE 0A000 naming it; nothing is
// approximated. A plan whose masks use the server's key (mask_hash) is
// refused: it must run where the key is, and the key is never written
// into SQL. Error messages name constructs and types, never values.
//
// Written in both dialects: scans, secured relations, filters,
// projections, joins (semi and anti ones as EXISTS), GROUP BY with
// count, min and max, sorts and constant limits, one-row SELECTs and
// VALUES, WITH queries, UNION ALL, UNION, INTERSECT and EXCEPT (for
// Trino not over floating point columns), window functions (ranking,
// lag and lead, first_value and last_value, the aggregates above) and so
// DISTINCT ON, uncorrelated scalar, EXISTS and IN subqueries, Hive's text
// masks (mask.go); integer, text, boolean, date, timestamp, uuid and
// fixed numeric types; text compared and sorted by code point (COLLATE
// "C" in PostgreSQL), as SQE does; pg_typeof, whose answer the bound type
// fixes, as the text constant of its name; a NULL of no type tested for
// NULL (coalesce(NULL, x)). TABLESAMPLE of 0 or 100 percent, its
// arguments constants; invalid ones raise SQE's error in place of the
// statement (sample.go). random(), computed once per row as in SQE: in
// Trino, which may compute a WITH query at each reference, not in one
// read more than once.
//
// PostgreSQL's functions are SQE's, so for PostgreSQL much more is
// written (functions.go): its numeric, bytea, interval, json, jsonb,
// array and timestamp with time zone types, their literals and
// operators, the text, math and date functions that do not read the
// session's time zone or float formatting, the pattern operators,
// sum, avg, the boolean and bit aggregates, deviations, string_agg,
// GROUPING SETS, set-returning functions in the select list, and the
// window features Trino lacks (ntile, nth_value, FILTER, GROUPS, EXCLUDE,
// RANGE offsets over an integer key, or an interval over a date or
// timestamp key), array constants, subscripts and slices (either bound
// may be left out), arrays compared whose elements compare alike, casts
// of bytea to text (the engine's connection fixes its text) and to
// varchar(n), quote_ident, to_json and to_jsonb (not of floats, whose
// text may differ), json_each's columns in the select list, x AT TIME
// ZONE a constant UTC or Area/Location zone, and the interval arithmetic
// and make_interval calls whose PostgreSQL 15 arithmetic cannot part
// from SQE's (an integral factor; a constant interval divided without
// spilling a month fraction; constant arguments no part overflows with),
// LATERAL joins (CROSS, and LEFT ... ON TRUE: lateral.go), count of a
// row (count(DISTINCT (a, b))). Trino's functions differ from SQE's at
// edges (substr's negative start, concat's NULLs, LIKE's escape), so
// they are written only where the edge cannot occur.
// Trino folds the case of quoted identifiers, so a name differing from
// another only in case is not told apart there.
package sqlwrite
