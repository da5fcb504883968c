-- WITH, WITH RECURSIVE, UNION/INTERSECT/EXCEPT [ALL] and VALUES.

-- name: cte_simple ordered
WITH r AS (SELECT r_regionkey, r_name FROM region) SELECT r_name FROM r ORDER BY r_regionkey;

-- name: cte_two ordered
WITH a AS (SELECT n_regionkey k, count(*) c FROM nation GROUP BY 1), b AS (SELECT k, c * 2 AS c2 FROM a)
SELECT k, c2 FROM b ORDER BY k;

-- name: cte_used_twice ordered
WITH t AS (SELECT n_nationkey, n_regionkey FROM nation)
SELECT x.n_nationkey, y.n_nationkey FROM t x JOIN t y ON x.n_regionkey = y.n_regionkey AND x.n_nationkey + 5 = y.n_nationkey ORDER BY 1, 2;

-- name: cte_random_read_twice_equal ordered
WITH r AS (SELECT random() AS x) SELECT a.x = b.x FROM r a, r b;

-- name: cte_random_not_materialized_still_once ordered
WITH r AS NOT MATERIALIZED (SELECT random() AS x) SELECT a.x = b.x FROM r a, r b;

-- name: cte_random_rows_read_twice_equal ordered
WITH r AS (SELECT n_nationkey, random() AS x FROM nation)
SELECT count(*), bool_and(a.x = b.x) FROM r a JOIN r b ON a.n_nationkey = b.n_nationkey;

-- name: cte_random_in_two_subqueries_equal ordered
WITH r AS (SELECT random() AS x) SELECT (SELECT x FROM r) = (SELECT x FROM r);

-- name: cte_read_in_from_and_scalar_subquery ordered
WITH rev AS (SELECT o_custkey, sum(o_totalprice) AS total FROM orders GROUP BY o_custkey)
SELECT c_custkey, c_name, total FROM customer, rev WHERE c_custkey = o_custkey AND total = (SELECT max(total) FROM rev) ORDER BY c_custkey;

-- name: cte_not_materialized_read_twice ordered
WITH t AS NOT MATERIALIZED (SELECT n_nationkey, n_regionkey FROM nation)
SELECT count(*) FROM t a JOIN t b ON a.n_regionkey = b.n_regionkey WHERE a.n_nationkey < 5;

-- name: cte_materialized_filter_on_one_reference ordered
WITH t AS MATERIALIZED (SELECT n_nationkey, n_name FROM nation) SELECT a.n_name, (SELECT count(*) FROM t) FROM t a WHERE a.n_nationkey = 3;

-- name: cte_chain_read_twice ordered
WITH a AS (SELECT n_regionkey, n_nationkey FROM nation), b AS (SELECT n_regionkey, count(*) AS c FROM a GROUP BY 1)
SELECT b1.n_regionkey, b1.c, b2.c, (SELECT count(*) FROM a) FROM b b1 JOIN b b2 ON b1.n_regionkey = b2.n_regionkey ORDER BY 1;

-- name: cte_read_twice_in_union ordered
WITH t AS (SELECT r_regionkey k, r_name FROM region) SELECT k FROM t WHERE k < 2 UNION ALL SELECT k + 10 FROM t WHERE k > 2 ORDER BY 1;

-- name: cte_read_twice_in_exists_and_in ordered
WITH t AS (SELECT n_nationkey, n_regionkey FROM nation)
SELECT r_name FROM region WHERE EXISTS (SELECT 1 FROM t WHERE t.n_regionkey = r_regionkey AND t.n_nationkey > 20) AND r_regionkey IN (SELECT n_regionkey FROM t) ORDER BY 1;

-- name: cte_read_twice_in_correlated_subquery ordered
WITH t AS (SELECT n_nationkey, n_regionkey, n_name FROM nation)
SELECT n_name, (SELECT count(*) FROM t u WHERE u.n_regionkey = t.n_regionkey) FROM t WHERE n_nationkey < 4 ORDER BY 1;

-- name: cte_column_names ordered
WITH t(a, b) AS (VALUES (1, 'x'), (2, 'y')) SELECT b, a FROM t ORDER BY a;

-- name: cte_in_subquery ordered
SELECT (WITH x AS (SELECT 41 AS v) SELECT v + 1 FROM x);

-- name: cte_materialized ordered
WITH t AS MATERIALIZED (SELECT r_name FROM region) SELECT count(*) FROM t;

-- name: cte_not_materialized ordered
WITH t AS NOT MATERIALIZED (SELECT r_name FROM region) SELECT r_name FROM t WHERE r_name LIKE 'A%' ORDER BY 1;

-- name: cte_shadowing_table ordered
WITH region AS (SELECT 'shadow' AS r_name) SELECT r_name FROM region;

-- name: cte_recursive_count ordered
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 10) SELECT n FROM t ORDER BY n;

-- name: cte_recursive_sum ordered
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 100) SELECT sum(n), count(*) FROM t;

-- name: cte_recursive_fib ordered
WITH RECURSIVE fib(i, a, b) AS (SELECT 1, 0::bigint, 1::bigint UNION ALL SELECT i + 1, b, a + b FROM fib WHERE i < 30) SELECT i, a FROM fib ORDER BY i;

-- name: cte_recursive_union_distinct ordered
WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT (n * 3) % 7 FROM t) SELECT n FROM t ORDER BY n;

-- name: cte_recursive_strings ordered
WITH RECURSIVE s(str, n) AS (SELECT 'a'::text, 1 UNION ALL SELECT str || chr(97 + n), n + 1 FROM s WHERE n < 5) SELECT str FROM s ORDER BY n;

-- name: cte_recursive_tree ordered
WITH RECURSIVE tree(id, parent, depth, path) AS (
  SELECT id, parent, 0, id::text FROM (VALUES (1, NULL::int), (2, 1), (3, 1), (4, 2), (5, 4), (6, 3)) e(id, parent) WHERE parent IS NULL
  UNION ALL
  SELECT e.id, e.parent, t.depth + 1, t.path || '>' || e.id FROM (VALUES (1, NULL::int), (2, 1), (3, 1), (4, 2), (5, 4), (6, 3)) e(id, parent) JOIN tree t ON e.parent = t.id)
SELECT id, depth, path FROM tree ORDER BY path;

-- name: cte_recursive_dates ordered
WITH RECURSIVE d(day) AS (SELECT DATE '2024-01-28' UNION ALL SELECT day + 1 FROM d WHERE day < DATE '2024-02-02') SELECT day FROM d ORDER BY day;

-- name: cte_recursive_with_join ordered
WITH RECURSIVE r(k, name) AS (SELECT r_regionkey, r_name::text FROM region WHERE r_regionkey = 0
  UNION ALL SELECT r_regionkey, r_name::text FROM region JOIN r ON r_regionkey = r.k + 1)
SELECT k, name FROM r ORDER BY k;

-- name: cte_recursive_then_aggregate ordered
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 20) SELECT n % 3, count(*), sum(n) FROM t GROUP BY 1 ORDER BY 1;

-- name: cte_with_window ordered
WITH t AS (SELECT n_regionkey k, n_name, row_number() OVER (PARTITION BY n_regionkey ORDER BY n_name) rn FROM nation)
SELECT k, n_name FROM t WHERE rn = 1 ORDER BY k;

-- name: setop_union ordered
SELECT n_regionkey FROM nation UNION SELECT r_regionkey FROM region ORDER BY 1;

-- name: setop_union_all_count ordered
SELECT count(*) FROM (SELECT n_regionkey FROM nation UNION ALL SELECT r_regionkey FROM region) s;

-- name: setop_union_all_order ordered
SELECT 1 AS x, 'a' AS y UNION ALL SELECT 2, 'b' UNION ALL SELECT 1, 'a' ORDER BY x, y;

-- name: setop_union_nulls ordered
SELECT NULL::int AS x UNION SELECT NULL UNION SELECT 1 ORDER BY 1 NULLS FIRST;

-- name: setop_intersect ordered
SELECT n_nationkey FROM nation INTERSECT SELECT s_nationkey FROM supplier WHERE s_acctbal > 8000 ORDER BY 1;

-- name: setop_intersect_all ordered
SELECT x FROM (VALUES (1), (1), (1), (2), (NULL), (NULL)) a(x) INTERSECT ALL SELECT x FROM (VALUES (1), (1), (3), (NULL)) b(x) ORDER BY 1;

-- name: setop_except ordered
SELECT n_nationkey FROM nation EXCEPT SELECT s_nationkey FROM supplier WHERE s_acctbal > 0 ORDER BY 1;

-- name: setop_except_all ordered
SELECT x FROM (VALUES (1), (1), (1), (2), (NULL), (NULL)) a(x) EXCEPT ALL SELECT x FROM (VALUES (1), (3), (NULL)) b(x) ORDER BY 1;

-- name: setop_except_nulls ordered
SELECT x FROM (VALUES (1), (NULL)) a(x) EXCEPT SELECT x FROM (VALUES (NULL::int)) b(x) ORDER BY 1;

-- name: setop_precedence ordered
SELECT 1 UNION SELECT 2 INTERSECT SELECT 2 ORDER BY 1;

-- name: setop_parenthesised ordered
(SELECT 1 UNION SELECT 2) INTERSECT SELECT 2 ORDER BY 1;

-- name: setop_union_type_widening ordered
SELECT 1 AS v UNION ALL SELECT 2.5 UNION ALL SELECT 3::bigint ORDER BY 1;

-- name: setop_union_text ordered
SELECT r_name FROM region UNION SELECT 'ZZZ' UNION SELECT 'AAA' ORDER BY 1;

-- name: setop_union_limit ordered
SELECT n_name FROM nation UNION SELECT r_name FROM region ORDER BY 1 DESC LIMIT 4;

-- name: setop_union_in_from ordered
SELECT count(*), count(DISTINCT x) FROM (SELECT n_regionkey x FROM nation UNION ALL SELECT r_regionkey FROM region) s;

-- name: setop_union_multi_column ordered
SELECT n_regionkey, n_name FROM nation WHERE n_regionkey = 1 UNION SELECT r_regionkey, r_name FROM region WHERE r_regionkey = 1 ORDER BY 2;

-- name: setop_types_union unordered
SELECT grp FROM types.all_types UNION SELECT i2 FROM types.all_types WHERE i2 BETWEEN -5 AND 5;

-- name: setop_except_empty ordered
SELECT r_name FROM region EXCEPT SELECT r_name FROM region ORDER BY 1;

-- name: setop_intersect_types unordered
SELECT t FROM types.all_types INTERSECT SELECT vc FROM types.all_types;

-- name: setop_union_all_column_name ordered
SELECT a FROM (SELECT 1 AS a UNION ALL SELECT 2) s ORDER BY a DESC;

-- name: values_simple ordered
VALUES (1, 'one'), (2, 'two'), (3, NULL);

-- name: values_order_by ordered
VALUES (3, 'c'), (1, 'a'), (2, 'b') ORDER BY 1 DESC;

-- name: values_mixed_numeric ordered
VALUES (1), (2.50), (-3) ORDER BY 1;

-- name: values_in_from_with_names ordered
SELECT x, y, x * y FROM (VALUES (1, 2), (3, 4), (5, NULL)) AS t(x, y) ORDER BY x;

-- name: values_limit ordered
VALUES (1), (2), (3) LIMIT 2;

-- name: values_null_first_row ordered
SELECT * FROM (VALUES (NULL), (1)) t(x) ORDER BY x NULLS LAST;

-- name: values_union ordered
VALUES (1) UNION VALUES (1), (2) ORDER BY 1;

-- name: values_join ordered
SELECT v.name, n_name FROM (VALUES ('first', 0), ('second', 1)) v(name, k) JOIN nation ON n_nationkey = v.k ORDER BY 1;

-- name: values_dates ordered
SELECT d + 1 FROM (VALUES (DATE '2024-02-28'), (DATE '2023-12-31')) t(d) ORDER BY 1;
