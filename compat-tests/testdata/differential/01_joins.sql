-- Joins: inner, left, right, full, cross, self, USING/NATURAL, join
-- conditions with NULLs, semi and anti joins over TPC-H and all_types.

-- name: join_inner_nation_region ordered
SELECT n_name, r_name FROM nation JOIN region ON n_regionkey = r_regionkey ORDER BY n_name;

-- name: join_inner_count unordered
SELECT count(*) FROM orders o JOIN customer c ON o.o_custkey = c.c_custkey;

-- name: join_inner_where ordered
SELECT c_name, o_orderkey, o_totalprice FROM customer JOIN orders ON c_custkey = o_custkey
WHERE c_custkey < 10 ORDER BY o_orderkey;

-- name: join_three_tables ordered
SELECT r_name, count(*) AS suppliers FROM supplier JOIN nation ON s_nationkey = n_nationkey
JOIN region ON n_regionkey = r_regionkey GROUP BY r_name ORDER BY r_name;

-- name: join_using ordered
SELECT r_regionkey, r_name FROM region JOIN (SELECT n_regionkey AS r_regionkey, count(*) AS c FROM nation GROUP BY 1) x USING (r_regionkey) ORDER BY r_regionkey;

-- name: join_using_star ordered
SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) a(k, x) JOIN (VALUES (2, 'B'), (3, 'C'), (4, 'D')) b(k, y) USING (k) ORDER BY k;

-- name: full_join_using_star ordered
SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (NULL, 'n')) a(k, x) FULL JOIN (VALUES (2, 'B'), (3, 'C')) b(k, y) USING (k) ORDER BY k, x, y;

-- name: full_join_using_qualified ordered
SELECT k, a.k AS ak, b.k AS bk, x, y FROM (VALUES (1, 'a'), (2, 'b')) a(k, x) FULL JOIN (VALUES (2::bigint, 'B'), (3, 'C')) b(k, y) USING (k) ORDER BY k;

-- name: full_join_using_two_columns ordered
SELECT * FROM (VALUES (1, 1, 'a'), (1, 2, 'b')) a(k1, k2, x) FULL JOIN (VALUES (1, 2, 'B'), (2, 2, 'C')) b(k1, k2, y) USING (k1, k2) ORDER BY k1, k2;

-- name: natural_full_join ordered
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) a(k, x) NATURAL FULL JOIN (VALUES (2, 'B'), (3, 'C')) b(k, y) ORDER BY k;

-- name: full_join_using_where ordered
SELECT k, count(*) FROM (VALUES (1), (2), (2)) a(k) FULL JOIN (VALUES (2), (3)) b(k) USING (k) WHERE k > 1 GROUP BY k ORDER BY k;

-- name: join_natural ordered
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) a(k, x) NATURAL JOIN (VALUES (1, 'z'), (2, 'y')) b(k, y) ORDER BY k;

-- name: join_left_customers_without_orders unordered
SELECT count(*) FROM customer LEFT JOIN orders ON c_custkey = o_custkey WHERE o_orderkey IS NULL;

-- name: join_left_nulls ordered
SELECT a.k, b.v FROM (VALUES (1), (2), (3), (NULL)) a(k) LEFT JOIN (VALUES (1, 'one'), (3, 'three'), (NULL, 'null')) b(k, v) ON a.k = b.k ORDER BY a.k NULLS LAST;

-- name: join_left_filter_in_on ordered
SELECT n_name, s_suppkey FROM nation LEFT JOIN supplier ON s_nationkey = n_nationkey AND s_suppkey < 5 ORDER BY n_name, s_suppkey;

-- name: join_left_filter_in_where ordered
SELECT n_name, s_suppkey FROM nation LEFT JOIN supplier ON s_nationkey = n_nationkey WHERE s_suppkey < 5 ORDER BY n_name, s_suppkey;

-- name: join_left_count_per_customer ordered
SELECT c_custkey, count(o_orderkey) FROM customer LEFT JOIN orders ON c_custkey = o_custkey
WHERE c_custkey <= 12 GROUP BY c_custkey ORDER BY c_custkey;

-- name: join_right ordered
SELECT a.k, b.k, b.v FROM (VALUES (1), (2)) a(k) RIGHT JOIN (VALUES (2, 'x'), (5, 'y')) b(k, v) ON a.k = b.k ORDER BY b.k;

-- name: join_right_tpch unordered
SELECT r_name, n_name FROM nation RIGHT JOIN region ON n_regionkey = r_regionkey AND n_name LIKE 'A%';

-- name: join_full ordered
SELECT a.k AS ak, b.k AS bk FROM (VALUES (1), (2), (3)) a(k) FULL JOIN (VALUES (2), (3), (4)) b(k) ON a.k = b.k ORDER BY coalesce(a.k, b.k);

-- name: join_full_nulls unordered
SELECT a.k, b.k FROM (VALUES (1), (NULL)) a(k) FULL OUTER JOIN (VALUES (1), (NULL)) b(k) ON a.k = b.k;

-- name: join_full_counts unordered
SELECT count(*), count(c_custkey), count(o_orderkey) FROM (SELECT * FROM customer WHERE c_custkey < 50) c FULL JOIN (SELECT * FROM orders WHERE o_orderkey < 200) o ON c_custkey = o_custkey;

-- name: join_cross_count unordered
SELECT count(*) FROM region CROSS JOIN nation;

-- name: join_cross_values ordered
SELECT x, y FROM (VALUES (1), (2)) a(x) CROSS JOIN (VALUES ('a'), ('b')) b(y) ORDER BY x, y;

-- name: join_comma ordered
SELECT r_name, n_name FROM region, nation WHERE r_regionkey = n_regionkey AND r_name = 'ASIA' ORDER BY n_name;

-- name: join_self ordered
SELECT a.n_name, b.n_name FROM nation a JOIN nation b ON a.n_regionkey = b.n_regionkey AND a.n_nationkey < b.n_nationkey
WHERE a.n_regionkey = 0 ORDER BY 1, 2;

-- name: join_non_equi ordered
SELECT a.x, b.y FROM (VALUES (1), (5), (10)) a(x) JOIN (VALUES (3), (7)) b(y) ON a.x < b.y ORDER BY 1, 2;

-- name: join_non_equi_left ordered
SELECT a.x, b.y FROM (VALUES (1), (5), (10)) a(x) LEFT JOIN (VALUES (3), (7)) b(y) ON a.x > b.y ORDER BY 1, 2;

-- name: join_or_condition unordered
SELECT n_name FROM nation JOIN region ON n_regionkey = r_regionkey OR n_nationkey = r_regionkey;

-- name: join_expression_key ordered
SELECT a.x, b.y FROM (VALUES (1), (2), (3)) a(x) JOIN (VALUES (2), (4), (6)) b(y) ON a.x * 2 = b.y ORDER BY 1;

-- name: join_lineitem_orders_agg ordered
SELECT o_orderpriority, count(*), sum(l_quantity) FROM orders JOIN lineitem ON l_orderkey = o_orderkey
GROUP BY o_orderpriority ORDER BY o_orderpriority;

-- name: join_partsupp_part ordered
SELECT p_partkey, p_name, min(ps_supplycost) FROM part JOIN partsupp ON ps_partkey = p_partkey
WHERE p_partkey <= 10 GROUP BY p_partkey, p_name ORDER BY p_partkey;

-- name: join_four_way ordered
SELECT n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue
FROM customer JOIN orders ON c_custkey = o_custkey JOIN lineitem ON l_orderkey = o_orderkey JOIN nation ON c_nationkey = n_nationkey
WHERE o_orderdate >= DATE '1994-01-01' AND o_orderdate < DATE '1995-01-01' GROUP BY n_name ORDER BY revenue DESC;

-- name: join_types_self_nulls unordered
SELECT a.id, b.id FROM types.all_types a JOIN types.all_types b ON a.grp = b.grp AND a.id < b.id WHERE a.id < 12;

-- name: join_is_not_distinct unordered
SELECT a.k, b.v FROM (VALUES (1), (NULL)) a(k) JOIN (VALUES (1, 'one'), (NULL, 'null')) b(k, v) ON a.k IS NOT DISTINCT FROM b.k;

-- name: join_text_keys unordered
SELECT a.t, b.id FROM types.all_types a JOIN types.all_types b ON a.t = b.vc;

-- name: join_lateral ordered
SELECT r_name, x.n_name FROM region, LATERAL (SELECT n_name FROM nation WHERE n_regionkey = r_regionkey ORDER BY n_name LIMIT 2) x ORDER BY 1, 2;

-- name: join_lateral_left ordered
SELECT v.k, x.c FROM (VALUES (0), (1), (99)) v(k) LEFT JOIN LATERAL (SELECT count(*) AS c FROM nation WHERE n_regionkey = v.k) x ON true ORDER BY 1;

-- name: join_subquery_both_sides ordered
SELECT x.k, x.c, y.c FROM (SELECT n_regionkey AS k, count(*) c FROM nation GROUP BY 1) x JOIN (SELECT s_nationkey % 5 AS k, count(*) c FROM supplier GROUP BY 1) y ON x.k = y.k ORDER BY 1;

-- name: join_on_true ordered
SELECT r_name FROM region JOIN (VALUES (1)) v(x) ON true ORDER BY 1;

-- name: join_on_false unordered
SELECT count(*) FROM region JOIN nation ON false;

-- name: join_left_on_false ordered
SELECT r_name, n_name FROM region LEFT JOIN nation ON false ORDER BY 1;

-- name: join_duplicate_keys unordered
SELECT a.k, b.v FROM (VALUES (1), (1), (2)) a(k) JOIN (VALUES (1, 'x'), (1, 'y')) b(k, v) ON a.k = b.k;

-- name: join_mixed_types_int_bigint unordered
SELECT count(*) FROM types.all_types a JOIN types.all_types b ON a.i4 = b.i8;

-- name: join_numeric_int unordered
SELECT a.id, b.id FROM types.all_types a JOIN types.all_types b ON a.n = b.i4;

-- name: join_date_keys unordered
SELECT count(*) FROM lineitem JOIN orders ON l_orderkey = o_orderkey AND l_shipdate = o_orderdate + 1;

-- name: join_semi_exists ordered
SELECT n_name FROM nation WHERE EXISTS (SELECT 1 FROM supplier WHERE s_nationkey = n_nationkey AND s_acctbal > 9000) ORDER BY 1;

-- name: join_anti_not_exists ordered
SELECT c_custkey FROM customer WHERE NOT EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey) AND c_custkey < 30 ORDER BY 1;

-- name: join_semi_in ordered
SELECT r_name FROM region WHERE r_regionkey IN (SELECT n_regionkey FROM nation WHERE n_name LIKE 'C%') ORDER BY 1;

-- name: join_anti_not_in ordered
SELECT n_name FROM nation WHERE n_nationkey NOT IN (SELECT s_nationkey FROM supplier WHERE s_acctbal > 5000) ORDER BY 1;

-- name: join_not_in_with_null unordered
SELECT x FROM (VALUES (1), (2), (3)) v(x) WHERE x NOT IN (SELECT k FROM (VALUES (1), (NULL)) w(k));

-- name: join_in_with_null unordered
SELECT x FROM (VALUES (1), (2), (NULL)) v(x) WHERE x IN (SELECT k FROM (VALUES (1), (NULL)) w(k));

-- name: join_not_in_null_probe unordered
SELECT x FROM (VALUES (1), (NULL)) v(x) WHERE x NOT IN (SELECT k FROM (VALUES (2), (3)) w(k));

-- name: join_not_in_empty unordered
SELECT x FROM (VALUES (1), (NULL)) v(x) WHERE x NOT IN (SELECT k FROM (VALUES (2)) w(k) WHERE false);

-- name: join_not_exists_null_keys unordered
SELECT x FROM (VALUES (1), (2), (NULL)) v(x) WHERE NOT EXISTS (SELECT 1 FROM (VALUES (1), (NULL)) w(k) WHERE w.k = v.x);

-- name: join_in_select_list ordered
SELECT x, x IN (SELECT k FROM (VALUES (1), (NULL)) w(k)) AS in_w, x NOT IN (SELECT k FROM (VALUES (1), (NULL)) w(k)) AS not_in_w FROM (VALUES (1), (2), (NULL)) v(x) ORDER BY x NULLS FIRST;

-- name: join_types_anti_not_in unordered
SELECT id FROM types.all_types WHERE i4 NOT IN (SELECT i2 FROM types.all_types WHERE i2 IS NOT NULL);

-- name: join_in_list_nulls unordered
SELECT id FROM types.all_types WHERE grp IN (1, NULL);

-- name: join_tpch_q4_style ordered
SELECT o_orderpriority, count(*) AS order_count FROM orders
WHERE o_orderdate >= DATE '1993-07-01' AND o_orderdate < DATE '1993-10-01'
  AND EXISTS (SELECT * FROM lineitem WHERE l_orderkey = o_orderkey AND l_commitdate < l_receiptdate)
GROUP BY o_orderpriority ORDER BY o_orderpriority;

-- name: join_tpch_q16_style ordered
SELECT p_brand, p_type, p_size, count(DISTINCT ps_suppkey) AS supplier_cnt
FROM partsupp, part WHERE p_partkey = ps_partkey AND p_brand <> 'Brand#45' AND p_type NOT LIKE 'MEDIUM POLISHED%'
  AND p_size IN (49, 14, 23, 45, 19, 3, 36, 9)
  AND ps_suppkey NOT IN (SELECT s_suppkey FROM supplier WHERE s_comment LIKE '%Customer%Complaints%')
GROUP BY p_brand, p_type, p_size ORDER BY supplier_cnt DESC, p_brand, p_type, p_size LIMIT 20;

-- name: join_tpch_q21_style ordered
SELECT s_name, count(*) AS numwait FROM supplier, lineitem l1, orders, nation
WHERE s_suppkey = l1.l_suppkey AND o_orderkey = l1.l_orderkey AND o_orderstatus = 'F' AND l1.l_receiptdate > l1.l_commitdate
  AND EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey)
  AND NOT EXISTS (SELECT * FROM lineitem l3 WHERE l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey AND l3.l_receiptdate > l3.l_commitdate)
  AND s_nationkey = n_nationkey AND n_name = 'SAUDI ARABIA'
GROUP BY s_name ORDER BY numwait DESC, s_name LIMIT 10;

-- name: join_tpch_q22_style ordered
SELECT cntrycode, count(*) AS numcust, sum(c_acctbal) AS totacctbal FROM (
  SELECT substring(c_phone FROM 1 FOR 2) AS cntrycode, c_acctbal FROM customer
  WHERE substring(c_phone FROM 1 FOR 2) IN ('13', '31', '23', '29', '30', '18', '17')
    AND c_acctbal > (SELECT avg(c_acctbal) FROM customer WHERE c_acctbal > 0.00 AND substring(c_phone FROM 1 FOR 2) IN ('13', '31', '23', '29', '30', '18', '17'))
    AND NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey)) AS custsale
GROUP BY cntrycode ORDER BY cntrycode;

-- name: join_tpch_q2_style ordered
SELECT s_acctbal, s_name, n_name, p_partkey, p_mfgr FROM part, supplier, partsupp, nation, region
WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND p_size = 15 AND p_type LIKE '%BRASS'
  AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = 'EUROPE'
  AND ps_supplycost = (SELECT min(ps_supplycost) FROM partsupp, supplier, nation, region
    WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND s_nationkey = n_nationkey AND n_regionkey = r_regionkey AND r_name = 'EUROPE')
ORDER BY s_acctbal DESC, n_name, s_name, p_partkey LIMIT 10;

-- name: join_tpch_q7_style ordered
SELECT supp_nation, cust_nation, l_year, sum(volume) AS revenue FROM (
  SELECT n1.n_name AS supp_nation, n2.n_name AS cust_nation, extract(year FROM l_shipdate) AS l_year, l_extendedprice * (1 - l_discount) AS volume
  FROM supplier, lineitem, orders, customer, nation n1, nation n2
  WHERE s_suppkey = l_suppkey AND o_orderkey = l_orderkey AND c_custkey = o_custkey AND s_nationkey = n1.n_nationkey AND c_nationkey = n2.n_nationkey
    AND ((n1.n_name = 'FRANCE' AND n2.n_name = 'GERMANY') OR (n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE'))
    AND l_shipdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31') AS shipping
GROUP BY supp_nation, cust_nation, l_year ORDER BY supp_nation, cust_nation, l_year;

-- name: join_tpch_q9_style ordered
SELECT nation, o_year, sum(amount) AS sum_profit FROM (
  SELECT n_name AS nation, extract(year FROM o_orderdate) AS o_year, l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity AS amount
  FROM part, supplier, lineitem, partsupp, orders, nation
  WHERE s_suppkey = l_suppkey AND ps_suppkey = l_suppkey AND ps_partkey = l_partkey AND p_partkey = l_partkey AND o_orderkey = l_orderkey
    AND s_nationkey = n_nationkey AND p_name LIKE '%green%') AS profit
GROUP BY nation, o_year ORDER BY nation, o_year DESC LIMIT 15;

-- name: join_tpch_q11_style ordered
SELECT ps_partkey, sum(ps_supplycost * ps_availqty) AS value FROM partsupp, supplier, nation
WHERE ps_suppkey = s_suppkey AND s_nationkey = n_nationkey AND n_name = 'GERMANY'
GROUP BY ps_partkey HAVING sum(ps_supplycost * ps_availqty) > (
  SELECT sum(ps_supplycost * ps_availqty) * 0.001 FROM partsupp, supplier, nation WHERE ps_suppkey = s_suppkey AND s_nationkey = n_nationkey AND n_name = 'GERMANY')
ORDER BY value DESC, ps_partkey LIMIT 10;

-- name: join_tpch_q13_style ordered
SELECT c_count, count(*) AS custdist FROM (
  SELECT c_custkey, count(o_orderkey) AS c_count FROM customer LEFT OUTER JOIN orders ON c_custkey = o_custkey AND o_comment NOT LIKE '%special%requests%'
  GROUP BY c_custkey) AS c_orders
GROUP BY c_count ORDER BY custdist DESC, c_count DESC;

-- name: join_tpch_q15_style ordered
WITH revenue AS (SELECT l_suppkey AS supplier_no, sum(l_extendedprice * (1 - l_discount)) AS total_revenue FROM lineitem
  WHERE l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1996-04-01' GROUP BY l_suppkey)
SELECT s_suppkey, s_name, total_revenue FROM supplier, revenue
WHERE s_suppkey = supplier_no AND total_revenue = (SELECT max(total_revenue) FROM revenue) ORDER BY s_suppkey;

-- name: join_tpch_q17_style ordered
SELECT sum(l_extendedprice) / 7.0 AS avg_yearly FROM lineitem, part
WHERE p_partkey = l_partkey AND p_brand = 'Brand#23' AND p_container = 'MED BOX'
  AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey);

-- name: join_tpch_q19_style ordered
SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue FROM lineitem, part
WHERE (p_partkey = l_partkey AND p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5 AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON')
   OR (p_partkey = l_partkey AND p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10 AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON');

-- name: join_tpch_q20_style ordered
SELECT s_name, s_address FROM supplier, nation
WHERE s_suppkey IN (SELECT ps_suppkey FROM partsupp WHERE ps_partkey IN (SELECT p_partkey FROM part WHERE p_name LIKE 'forest%')
    AND ps_availqty > (SELECT 0.5 * sum(l_quantity) FROM lineitem WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey AND l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'))
  AND s_nationkey = n_nationkey AND n_name = 'CANADA'
ORDER BY s_name;

-- name: join_tpch_q8_style ordered
SELECT o_year, sum(CASE WHEN nation = 'BRAZIL' THEN volume ELSE 0 END) / sum(volume) AS mkt_share FROM (
  SELECT extract(year FROM o_orderdate) AS o_year, l_extendedprice * (1 - l_discount) AS volume, n2.n_name AS nation
  FROM part, supplier, lineitem, orders, customer, nation n1, nation n2, region
  WHERE p_partkey = l_partkey AND s_suppkey = l_suppkey AND l_orderkey = o_orderkey AND o_custkey = c_custkey AND c_nationkey = n1.n_nationkey
    AND n1.n_regionkey = r_regionkey AND r_name = 'AMERICA' AND s_nationkey = n2.n_nationkey
    AND o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31' AND p_type = 'ECONOMY ANODIZED STEEL') AS all_nations
GROUP BY o_year ORDER BY o_year;
