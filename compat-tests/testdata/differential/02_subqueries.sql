-- Subqueries: scalar, correlated, in FROM, SELECT and WHERE, ANY/ALL,
-- EXISTS, and the empty and NULL cases.

-- name: subq_scalar_select ordered
SELECT (SELECT count(*) FROM nation) AS n, (SELECT max(r_name) FROM region) AS r;

-- name: subq_scalar_where ordered
SELECT n_name FROM nation WHERE n_regionkey = (SELECT r_regionkey FROM region WHERE r_name = 'EUROPE') ORDER BY 1;

-- name: subq_scalar_empty_is_null ordered
SELECT (SELECT n_name FROM nation WHERE n_nationkey = -1) IS NULL AS empty;

-- name: subq_scalar_arith ordered
SELECT r_name, (SELECT count(*) FROM nation WHERE n_regionkey = r_regionkey) * 10 AS c FROM region ORDER BY 1;

-- name: subq_correlated_select ordered
SELECT c_custkey, (SELECT count(*) FROM orders WHERE o_custkey = c_custkey) AS orders FROM customer WHERE c_custkey <= 10 ORDER BY 1;

-- name: subq_correlated_max ordered
SELECT c_custkey, (SELECT max(o_totalprice) FROM orders WHERE o_custkey = c_custkey) FROM customer WHERE c_custkey <= 10 ORDER BY 1;

-- name: subq_correlated_where ordered
SELECT o_orderkey, o_totalprice FROM orders o1 WHERE o_custkey < 300 AND o_totalprice > (SELECT avg(o_totalprice) * 1.8 FROM orders o2 WHERE o2.o_custkey = o1.o_custkey) ORDER BY 1 LIMIT 15;

-- name: subq_correlated_exists_two_levels ordered
SELECT r_name FROM region r WHERE EXISTS (SELECT 1 FROM nation n WHERE n.n_regionkey = r.r_regionkey AND EXISTS (SELECT 1 FROM supplier s WHERE s.s_nationkey = n.n_nationkey AND s.s_acctbal < 0)) ORDER BY 1;

-- name: subq_correlated_outer_ref_in_select ordered
SELECT n_name, (SELECT r_name || '/' || n_name FROM region WHERE r_regionkey = n_regionkey) FROM nation WHERE n_nationkey < 6 ORDER BY n_nationkey;

-- name: subq_from ordered
SELECT k, c FROM (SELECT n_regionkey AS k, count(*) AS c FROM nation GROUP BY n_regionkey) AS s WHERE c >= 5 ORDER BY k;

-- name: subq_from_nested ordered
SELECT max(c) FROM (SELECT k, count(*) AS c FROM (SELECT n_regionkey AS k FROM nation) a GROUP BY k) b;

-- name: subq_from_limit ordered
SELECT * FROM (SELECT n_name FROM nation ORDER BY n_name LIMIT 3) s ORDER BY n_name DESC;

-- name: subq_from_values_alias ordered
SELECT t.a + t.b FROM (VALUES (1, 2), (3, 4)) AS t(a, b) ORDER BY 1;

-- name: subq_in_list ordered
SELECT n_name FROM nation WHERE n_regionkey IN (SELECT r_regionkey FROM region WHERE r_name IN ('ASIA', 'AFRICA')) ORDER BY 1;

-- name: subq_any ordered
SELECT n_name FROM nation WHERE n_nationkey = ANY (SELECT s_nationkey FROM supplier WHERE s_acctbal > 9500) ORDER BY 1;

-- name: subq_any_lt ordered
SELECT x FROM (VALUES (1), (5), (10)) v(x) WHERE x < ANY (SELECT y FROM (VALUES (3), (6)) w(y)) ORDER BY 1;

-- name: subq_all_gt ordered
SELECT x FROM (VALUES (1), (5), (10)) v(x) WHERE x > ALL (SELECT y FROM (VALUES (3), (6)) w(y)) ORDER BY 1;

-- name: subq_all_with_null ordered
SELECT x, x > ALL (SELECT y FROM (VALUES (3), (NULL)) w(y)) FROM (VALUES (1), (5)) v(x) ORDER BY 1;

-- name: subq_all_empty ordered
SELECT x FROM (VALUES (1), (5)) v(x) WHERE x > ALL (SELECT 1 WHERE false) ORDER BY 1;

-- name: subq_any_empty ordered
SELECT count(*) FROM (VALUES (1), (5)) v(x) WHERE x = ANY (SELECT 1 WHERE false);

-- name: subq_exists_uncorrelated ordered
SELECT count(*) FROM region WHERE EXISTS (SELECT 1 FROM nation WHERE n_name = 'CHINA');

-- name: subq_not_exists_uncorrelated ordered
SELECT count(*) FROM region WHERE NOT EXISTS (SELECT 1 FROM nation WHERE n_name = 'ATLANTIS');

-- name: subq_exists_in_select ordered
SELECT r_name, EXISTS (SELECT 1 FROM nation WHERE n_regionkey = r_regionkey AND n_name LIKE '%A') FROM region ORDER BY 1;

-- name: subq_in_having ordered
SELECT n_regionkey, count(*) FROM nation GROUP BY n_regionkey HAVING count(*) = (SELECT max(c) FROM (SELECT count(*) c FROM nation GROUP BY n_regionkey) x) ORDER BY 1;

-- name: subq_scalar_in_order_by ordered
SELECT r_name FROM region ORDER BY (SELECT count(*) FROM nation WHERE n_regionkey = r_regionkey), r_name;

-- name: subq_case_with_subquery ordered
SELECT n_name, CASE WHEN n_nationkey IN (SELECT s_nationkey FROM supplier WHERE s_acctbal > 9000) THEN 'rich' ELSE 'other' END FROM nation ORDER BY n_nationkey LIMIT 8;

-- name: subq_correlated_in ordered
SELECT c_custkey FROM customer c WHERE c_custkey <= 30 AND 'F' IN (SELECT o_orderstatus FROM orders o WHERE o.o_custkey = c.c_custkey) ORDER BY 1;

-- name: subq_correlated_not_in ordered
SELECT c_custkey FROM customer c WHERE c_custkey <= 30 AND 'F' NOT IN (SELECT o_orderstatus FROM orders o WHERE o.o_custkey = c.c_custkey) ORDER BY 1;

-- name: subq_row_comparison ordered
SELECT n_name FROM nation WHERE (n_regionkey, n_nationkey) IN (SELECT 1, 1 UNION ALL SELECT 2, 8) ORDER BY 1;

-- name: subq_derived_join ordered
SELECT a.k, a.c, b.total FROM (SELECT o_custkey AS k, count(*) AS c FROM orders GROUP BY 1) a
JOIN (SELECT o_custkey AS k, sum(o_totalprice) AS total FROM orders GROUP BY 1) b ON a.k = b.k ORDER BY a.c DESC, a.k LIMIT 5;

-- name: subq_scalar_agg_of_types ordered
SELECT (SELECT count(*) FROM types.all_types WHERE b), (SELECT count(*) FROM types.all_types WHERE NOT b), (SELECT count(*) FROM types.all_types WHERE b IS NULL);

-- name: subq_correlated_types ordered
SELECT id, (SELECT count(*) FROM types.all_types b WHERE b.grp = a.grp) FROM types.all_types a WHERE id <= 12 ORDER BY id;

-- name: subq_correlated_min_date ordered
SELECT n_name, (SELECT min(o_orderdate) FROM orders JOIN customer ON o_custkey = c_custkey WHERE c_nationkey = n_nationkey) FROM nation ORDER BY n_nationkey LIMIT 5;

-- name: subq_nested_scalar ordered
SELECT (SELECT (SELECT 1 + 1) * 3);

-- name: subq_in_with_expressions ordered
SELECT x FROM generate_series(1, 10) x WHERE x % 3 IN (SELECT y % 3 FROM generate_series(4, 4) y) ORDER BY 1;

-- name: subq_not_in_with_nulls_types unordered
SELECT id FROM types.all_types WHERE grp NOT IN (SELECT grp FROM types.all_types WHERE id > 40);

-- name: subq_correlated_limit ordered
SELECT r_name, (SELECT n_name FROM nation WHERE n_regionkey = r_regionkey ORDER BY n_name DESC LIMIT 1) FROM region ORDER BY 1;

-- name: subq_exists_with_limit_zero ordered
SELECT count(*) FROM region WHERE EXISTS (SELECT 1 FROM nation LIMIT 0);

-- name: subq_correlated_having ordered
SELECT c_nationkey, count(*) FROM customer c GROUP BY c_nationkey
HAVING count(*) > (SELECT count(*) / 30 FROM customer) ORDER BY 1;

-- name: subq_any_array ordered
SELECT n_name FROM nation WHERE n_nationkey = ANY (ARRAY[1, 3, 5]) ORDER BY 1;

-- name: subq_all_array ordered
SELECT n_name FROM nation WHERE n_nationkey <> ALL (ARRAY[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]) ORDER BY 1;

-- name: subq_scalar_agg_null_key ordered
SELECT c_custkey, n_nationkey, (SELECT count(*) FROM supplier WHERE s_nationkey = n_nationkey) AS sups,
  (SELECT sum(s_acctbal) FROM supplier WHERE s_nationkey = n_nationkey) AS total
FROM customer LEFT JOIN nation ON n_nationkey = c_nationkey AND n_regionkey = 1 WHERE c_custkey <= 20 ORDER BY 1;

-- name: subq_scalar_agg_empty_groups ordered
SELECT c_custkey, coalesce((SELECT sum(o_totalprice) FROM orders WHERE o_custkey = c_custkey), 0) > 0 AS spent,
  (SELECT count(o_orderkey) FROM orders WHERE o_custkey = c_custkey) AS n,
  (SELECT min(o_orderdate) FROM orders WHERE o_custkey = c_custkey) AS first
FROM customer WHERE c_custkey BETWEEN 1 AND 30 ORDER BY 1;

-- name: subq_scalar_count_zero_in_where ordered
SELECT count(*) FROM customer WHERE (SELECT count(*) FROM orders WHERE o_custkey = c_custkey) = 0;

-- name: subq_scalar_agg_two_keys ordered
SELECT ps_partkey, ps_suppkey, ps_availqty FROM partsupp
WHERE ps_partkey < 60 AND ps_availqty > (SELECT 100 * sum(l_quantity) FROM lineitem WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey)
ORDER BY 1, 2;

-- name: subq_scalar_agg_having_empty ordered
SELECT r_name, (SELECT count(*) FROM nation WHERE n_regionkey = r_regionkey AND n_nationkey > 100 HAVING count(*) = 0) AS none FROM region ORDER BY 1;

-- name: subq_scalar_agg_text_filtered ordered
SELECT n_name, (SELECT min(s_name) FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal > 9000) AS rich FROM nation ORDER BY 1;
