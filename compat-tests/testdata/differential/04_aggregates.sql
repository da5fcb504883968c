-- GROUP BY (columns, expressions, ordinals, aliases), HAVING and the
-- aggregate functions, over TPC-H and over all_types' NULLs and extremes.

-- name: agg_count_star ordered
SELECT count(*) FROM lineitem;

-- name: agg_basic_lineitem ordered
SELECT count(*), sum(l_quantity), min(l_quantity), max(l_quantity), sum(l_extendedprice), min(l_shipdate), max(l_shipdate) FROM lineitem;

-- name: agg_avg_numeric ordered
SELECT avg(l_quantity) FROM lineitem;

-- name: agg_avg_integer ordered
SELECT avg(l_linenumber), avg(p_size) FROM lineitem JOIN part ON p_partkey = l_partkey WHERE l_orderkey < 100;

-- name: agg_group_by_column ordered
SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2;

-- name: agg_group_by_ordinal ordered
SELECT l_shipmode, count(*) FROM lineitem GROUP BY 1 ORDER BY 1;

-- name: agg_group_by_alias ordered
SELECT l_shipmode AS mode, count(*) AS c FROM lineitem GROUP BY mode ORDER BY c DESC, mode;

-- name: agg_group_by_expression ordered
SELECT extract(year FROM o_orderdate) AS y, count(*) FROM orders GROUP BY extract(year FROM o_orderdate) ORDER BY y;

-- name: agg_group_by_expression_ordinal ordered
SELECT o_orderkey % 7, count(*) FROM orders GROUP BY 1 ORDER BY 1;

-- name: agg_group_by_case ordered
SELECT CASE WHEN o_totalprice > 200000 THEN 'big' WHEN o_totalprice > 100000 THEN 'mid' ELSE 'small' END AS size, count(*)
FROM orders GROUP BY 1 ORDER BY 1;

-- name: agg_group_by_not_selected ordered
SELECT count(*) FROM orders GROUP BY o_orderstatus ORDER BY 1;

-- name: agg_group_by_date_trunc ordered
SELECT date_trunc('year', o_orderdate)::date AS y, count(*) FROM orders GROUP BY 1 ORDER BY 1;

-- name: agg_having ordered
SELECT c_nationkey, count(*) FROM customer GROUP BY c_nationkey HAVING count(*) > 65 ORDER BY 1;

-- name: agg_having_not_selected_agg ordered
SELECT c_nationkey FROM customer GROUP BY c_nationkey HAVING sum(c_acctbal) > 300000 ORDER BY 1;

-- name: agg_having_without_group ordered
SELECT count(*) FROM nation HAVING count(*) > 10;

-- name: agg_having_false ordered
SELECT count(*) FROM nation HAVING count(*) > 100;

-- name: agg_having_column ordered
SELECT n_regionkey, count(*) FROM nation GROUP BY n_regionkey HAVING n_regionkey > 2 ORDER BY 1;

-- name: agg_count_distinct ordered
SELECT count(DISTINCT l_suppkey), count(DISTINCT l_shipmode), count(DISTINCT l_orderkey) FROM lineitem;

-- name: agg_sum_distinct ordered
SELECT sum(DISTINCT l_quantity), avg(DISTINCT l_quantity) FROM lineitem;

-- name: agg_count_distinct_grouped ordered
SELECT l_returnflag, count(DISTINCT l_partkey) FROM lineitem GROUP BY 1 ORDER BY 1;

-- name: agg_filter_clause ordered
SELECT count(*) FILTER (WHERE l_returnflag = 'R'), sum(l_quantity) FILTER (WHERE l_shipmode = 'AIR'), count(*) FROM lineitem;

-- name: agg_filter_grouped ordered
SELECT o_orderstatus, count(*) FILTER (WHERE o_orderpriority = '1-URGENT') FROM orders GROUP BY 1 ORDER BY 1;

-- name: agg_empty_input ordered
SELECT count(*), count(l_orderkey), sum(l_quantity), avg(l_quantity), min(l_shipdate), max(l_comment) FROM lineitem WHERE l_orderkey < 0;

-- name: agg_empty_input_grouped ordered
SELECT l_returnflag, count(*) FROM lineitem WHERE l_orderkey < 0 GROUP BY l_returnflag;

-- name: agg_nulls_ignored ordered
SELECT count(*), count(grp), count(b), count(i2), count(f8), count(n), count(t), count(u), count(by), count(js) FROM types.all_types;

-- name: agg_sum_ints_types ordered
SELECT sum(i2), sum(i4) FROM types.all_types WHERE id > 10;

-- name: agg_sum_bigint_large ordered
SELECT sum(i8) FROM types.all_types WHERE id > 4;

-- name: agg_sum_bigint_extremes ordered
SELECT sum(i8) FROM types.all_types;

-- name: agg_minmax_ints ordered
SELECT min(i2), max(i2), min(i4), max(i4), min(i8), max(i8) FROM types.all_types;

-- name: agg_minmax_floats ordered
SELECT min(f4), max(f4), min(f8), max(f8) FROM types.all_types;

-- name: agg_minmax_numeric ordered
SELECT min(n), max(n), sum(n) FROM types.all_types;

-- name: agg_avg_numeric_types ordered
SELECT avg(n) FROM types.all_types WHERE id > 10;

-- name: agg_float_sum_finite ordered
SELECT sum(f8), avg(f8) FROM types.all_types WHERE id > 10;

-- name: agg_float_sum_special ordered
SELECT sum(f8) FROM types.all_types WHERE id IN (5, 6);

-- name: agg_float_sum_inf ordered
SELECT sum(f8) FROM types.all_types WHERE id IN (6, 20);

-- name: agg_float4_sum ordered
SELECT sum(f4) FROM types.all_types WHERE id > 10;

-- name: agg_minmax_text ordered
SELECT min(t), max(t), min(vc), max(vc) FROM types.all_types;

-- name: agg_minmax_dates ordered
SELECT min(d), max(d), min(ts), max(ts), min(tstz), max(tstz) FROM types.all_types;

-- name: agg_minmax_uuid ordered
SELECT min(u::text), max(u::text) FROM types.all_types;

-- name: agg_bool_and_or ordered
SELECT bool_and(b), bool_or(b), every(b) FROM types.all_types;

-- name: agg_bool_grouped ordered
SELECT grp, bool_and(b), bool_or(b) FROM types.all_types GROUP BY grp ORDER BY grp NULLS FIRST;

-- name: agg_group_by_null_key ordered
SELECT grp, count(*) FROM types.all_types GROUP BY grp ORDER BY grp NULLS LAST;

-- name: agg_group_by_bool ordered
SELECT b, count(*) FROM types.all_types GROUP BY b ORDER BY b NULLS FIRST;

-- name: agg_group_by_float_specials ordered
SELECT f8, count(*) FROM types.all_types WHERE id <= 10 GROUP BY f8 ORDER BY f8;

-- name: agg_group_by_two_nullable unordered
SELECT grp, b, count(*) FROM types.all_types GROUP BY grp, b;

-- name: agg_string_agg ordered
SELECT string_agg(r_name, ',' ORDER BY r_name) FROM region;

-- name: agg_string_agg_desc ordered
SELECT n_regionkey, string_agg(n_name, '|' ORDER BY n_name DESC) FROM nation GROUP BY 1 ORDER BY 1;

-- name: agg_string_agg_nulls ordered
SELECT string_agg(t, ';' ORDER BY id) FROM types.all_types WHERE id BETWEEN 1 AND 14;

-- name: agg_array_agg ordered
SELECT array_agg(r_regionkey ORDER BY r_regionkey DESC) FROM region;

-- name: agg_array_agg_text ordered
SELECT n_regionkey, array_agg(n_name ORDER BY n_name) FROM nation GROUP BY 1 ORDER BY 1;

-- name: agg_array_agg_nulls ordered
SELECT array_agg(grp ORDER BY id) FROM types.all_types WHERE id <= 12;

-- name: agg_stddev_variance ordered
SELECT stddev(l_quantity), variance(l_quantity), stddev_pop(l_quantity), var_pop(l_quantity) FROM lineitem WHERE l_orderkey < 1000;

-- name: agg_stddev_float ordered
SELECT stddev_samp(f8), var_samp(f8) FROM types.all_types WHERE id > 10;

-- name: agg_stddev_single_row ordered
SELECT stddev(x), variance(x), stddev_pop(x) FROM (VALUES (1.0)) t(x);

-- name: agg_count_expression ordered
SELECT count(l_quantity > 40 OR NULL) FROM lineitem;

-- name: agg_nested_expression ordered
SELECT l_returnflag, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) FROM lineitem GROUP BY 1 ORDER BY 1;

-- name: agg_arith_on_aggregates ordered
SELECT max(l_quantity) - min(l_quantity), sum(l_quantity) / count(*) FROM lineitem;

-- name: agg_tpch_q1 ordered
SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
  sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, avg(l_quantity) AS avg_qty, avg(l_discount) AS avg_disc, count(*) AS count_order
FROM lineitem WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90 days' GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus;

-- name: agg_min_by_group_orders ordered
SELECT o_orderpriority, min(o_orderdate), max(o_orderdate), min(o_totalprice), max(o_totalprice) FROM orders GROUP BY 1 ORDER BY 1;

-- name: agg_many_groups unordered
SELECT o_custkey, count(*) FROM orders GROUP BY o_custkey HAVING count(*) > 25;

-- name: agg_count_distinct_multi ordered
SELECT count(DISTINCT (l_returnflag, l_linestatus)) FROM lineitem;

-- name: agg_distinct_on_nullable ordered
SELECT count(DISTINCT grp), count(DISTINCT b), count(DISTINCT t) FROM types.all_types;

-- name: agg_group_by_text_expr ordered
SELECT upper(substr(t, 1, 1)), count(*) FROM types.all_types WHERE t IS NOT NULL GROUP BY 1 ORDER BY 1;

-- name: agg_group_by_having_alias_expr ordered
SELECT n_regionkey * 10 AS k, count(*) FROM nation GROUP BY n_regionkey * 10 HAVING count(*) >= 5 ORDER BY k;

-- name: agg_bit_and_or ordered
SELECT bit_and(i4), bit_or(i4) FROM types.all_types WHERE id > 10;

-- name: agg_sum_int_overflow_promotes ordered
SELECT sum(i4), sum(i4::bigint) FROM types.all_types WHERE id IN (3, 10);

-- name: agg_grouping_sets ordered
SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY GROUPING SETS ((l_returnflag), (l_linestatus), ()) ORDER BY 1 NULLS LAST, 2 NULLS LAST;

-- name: agg_rollup ordered
SELECT n_regionkey, count(*) FROM nation GROUP BY ROLLUP (n_regionkey) ORDER BY 1 NULLS LAST;

-- name: agg_cube ordered
SELECT l_returnflag, l_linestatus, count(*) FROM lineitem GROUP BY CUBE (l_returnflag, l_linestatus) ORDER BY 1 NULLS LAST, 2 NULLS LAST;

-- name: agg_percentile_cont ordered
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY l_quantity) FROM lineitem;

-- name: agg_percentile_disc ordered
SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY o_totalprice) FROM orders;

-- name: agg_mode ordered
SELECT mode() WITHIN GROUP (ORDER BY l_shipmode) FROM lineitem;

-- name: agg_corr ordered
SELECT corr(l_quantity, l_extendedprice), covar_pop(l_quantity, l_extendedprice), regr_slope(l_extendedprice, l_quantity) FROM lineitem WHERE l_orderkey < 500;

-- name: agg_json_agg ordered
SELECT json_agg(r_name ORDER BY r_regionkey) FROM region;

-- name: agg_jsonb_object_agg ordered
SELECT jsonb_object_agg(r_name, r_regionkey) FROM region;

-- name: agg_group_by_uuid ordered
SELECT u, count(*) FROM types.all_types WHERE id <= 10 GROUP BY u ORDER BY u NULLS FIRST;

-- name: agg_group_by_bytea ordered
SELECT by, count(*) FROM types.all_types WHERE id <= 10 GROUP BY by ORDER BY by NULLS FIRST;

-- name: agg_group_by_date ordered
SELECT d, count(*) FROM types.all_types WHERE id <= 10 GROUP BY d ORDER BY d NULLS FIRST;

-- name: agg_group_by_timestamptz ordered
SELECT tstz, count(*) FROM types.all_types WHERE id <= 10 GROUP BY tstz ORDER BY tstz NULLS FIRST;

-- name: agg_group_by_numeric ordered
SELECT n, count(*) FROM types.all_types WHERE id <= 12 GROUP BY n ORDER BY n NULLS FIRST;
