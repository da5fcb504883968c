-- PREPARE, EXECUTE and DEALLOCATE. The records run in order on one
-- connection, so a statement one record prepares is there for the next;
-- the last record drops them all.

-- name: prep_nation_by_key unordered
PREPARE diff_nation(int) AS SELECT n_nationkey, n_name, n_regionkey FROM nation WHERE n_nationkey = $1;

-- name: prep_execute_nation ordered
EXECUTE diff_nation(7);

-- name: prep_execute_untyped_literal ordered
EXECUTE diff_nation('3');

-- name: prep_execute_expression ordered
EXECUTE diff_nation(2 * 5);

-- name: prep_execute_numeric_rounds ordered
EXECUTE diff_nation(4.6);

-- name: prep_execute_null ordered
EXECUTE diff_nation(NULL);

-- name: prep_execute_bad_literal error
EXECUTE diff_nation('seven');

-- name: prep_execute_text_not_assignable error
EXECUTE diff_nation('7'::text);

-- name: prep_execute_too_few error
EXECUTE diff_nation;

-- name: prep_execute_too_many error
EXECUTE diff_nation(1, 2);

-- name: prep_execute_subquery error
EXECUTE diff_nation((SELECT 1));

-- name: prep_execute_column error
EXECUTE diff_nation(n_nationkey);

-- name: prep_execute_aggregate error
EXECUTE diff_nation(sum(1));

-- name: prep_duplicate error
PREPARE diff_nation AS SELECT 1;

-- name: prep_execute_missing error
EXECUTE diff_nowhere;

-- name: prep_deallocate_missing error
DEALLOCATE diff_nowhere;

-- name: prep_unreferenced_parameter error
PREPARE diff_gap AS SELECT 1 WHERE $2 = 1;

-- name: prep_unknown_type error
PREPARE diff_badtype(no_such_type) AS SELECT 1;

-- name: prep_missing_table error
PREPARE diff_missing AS SELECT * FROM no_such_table;

-- name: prep_untyped_select_list unordered
PREPARE diff_echo AS SELECT $1 AS echoed;

-- name: prep_execute_untyped_select_list ordered
EXECUTE diff_echo('hello');

-- name: prep_aggregate unordered
PREPARE diff_count(int) AS SELECT count(*), sum(n_regionkey) FROM nation WHERE n_regionkey < $1;

-- name: prep_execute_aggregate_result ordered
EXECUTE diff_count(3);

-- name: prep_catalog_view ordered
SELECT name, statement, parameter_types, from_sql FROM pg_prepared_statements WHERE name LIKE 'diff%' ORDER BY name;

-- name: prep_catalog_view_types_text ordered
SELECT name, parameter_types::text FROM pg_prepared_statements WHERE name LIKE 'diff%' ORDER BY name;

-- name: prep_deallocate unordered
DEALLOCATE PREPARE diff_echo;

-- name: prep_execute_after_deallocate error
EXECUTE diff_echo('x');

-- name: prep_deallocate_all unordered
DEALLOCATE ALL;

-- name: prep_catalog_view_empty ordered
SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'diff%';
