-- Window functions: ranking, lag/lead, first/last/nth_value, aggregates
-- over frames (ROWS, RANGE, GROUPS), partitions and NULL ordering.

-- name: win_row_number ordered
SELECT n_name, row_number() OVER (ORDER BY n_name) FROM nation ORDER BY n_name;

-- name: win_row_number_partition ordered
SELECT n_regionkey, n_name, row_number() OVER (PARTITION BY n_regionkey ORDER BY n_name) FROM nation ORDER BY 1, 2;

-- name: win_rank_dense_rank ordered
SELECT l_quantity, rank() OVER w, dense_rank() OVER w, row_number() OVER (ORDER BY l_quantity, l_linenumber) FROM lineitem
WHERE l_orderkey = 7 WINDOW w AS (ORDER BY l_quantity) ORDER BY l_quantity, l_linenumber;

-- name: win_rank_ties ordered
SELECT x, rank() OVER (ORDER BY x), dense_rank() OVER (ORDER BY x), percent_rank() OVER (ORDER BY x), cume_dist() OVER (ORDER BY x)
FROM (VALUES (1), (2), (2), (3), (3), (3), (4)) t(x) ORDER BY x;

-- name: win_ntile ordered
SELECT n_nationkey, ntile(4) OVER (ORDER BY n_nationkey) FROM nation ORDER BY 1;

-- name: win_ntile_more_buckets_than_rows ordered
SELECT r_regionkey, ntile(8) OVER (ORDER BY r_regionkey) FROM region ORDER BY 1;

-- name: win_lag_lead ordered
SELECT n_nationkey, lag(n_nationkey) OVER (ORDER BY n_nationkey), lead(n_nationkey) OVER (ORDER BY n_nationkey) FROM nation ORDER BY 1;

-- name: win_lag_lead_offset_default ordered
SELECT n_nationkey, lag(n_name, 2, 'none') OVER (ORDER BY n_nationkey), lead(n_nationkey, 3, -1::bigint) OVER (ORDER BY n_nationkey) FROM nation ORDER BY 1;

-- name: win_lag_partition ordered
SELECT n_regionkey, n_nationkey, lag(n_nationkey) OVER (PARTITION BY n_regionkey ORDER BY n_nationkey) FROM nation ORDER BY 1, 2;

-- name: win_lead_with_nulls ordered
SELECT id, grp, lead(grp) OVER (ORDER BY id) FROM types.all_types WHERE id <= 15 ORDER BY id;

-- name: win_first_last_value ordered
SELECT n_regionkey, n_name, first_value(n_name) OVER w, last_value(n_name) OVER w FROM nation
WINDOW w AS (PARTITION BY n_regionkey ORDER BY n_name) ORDER BY 1, 2;

-- name: win_last_value_full_frame ordered
SELECT n_regionkey, n_name, last_value(n_name) OVER (PARTITION BY n_regionkey ORDER BY n_name ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM nation ORDER BY 1, 2;

-- name: win_nth_value ordered
SELECT n_regionkey, n_name, nth_value(n_name, 2) OVER (PARTITION BY n_regionkey ORDER BY n_name) FROM nation ORDER BY 1, 2;

-- name: win_nth_value_full ordered
SELECT n_regionkey, n_name, nth_value(n_name, 3) OVER (PARTITION BY n_regionkey ORDER BY n_name ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM nation ORDER BY 1, 2;

-- name: win_sum_running ordered
SELECT n_nationkey, sum(n_nationkey) OVER (ORDER BY n_nationkey) FROM nation ORDER BY 1;

-- name: win_sum_partition_total ordered
SELECT n_regionkey, n_nationkey, sum(n_nationkey) OVER (PARTITION BY n_regionkey) FROM nation ORDER BY 1, 2;

-- name: win_count_over_empty ordered
SELECT r_name, count(*) OVER () FROM region ORDER BY 1;

-- name: win_avg_partition ordered
SELECT c_nationkey, avg(c_acctbal) OVER (PARTITION BY c_nationkey) AS a FROM customer WHERE c_custkey <= 8 ORDER BY c_nationkey, a;

-- name: win_rows_moving_sum ordered
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM generate_series(1, 8) x ORDER BY x;

-- name: win_rows_unbounded_following ordered
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM generate_series(1, 6) x ORDER BY x;

-- name: win_rows_preceding_only ordered
SELECT x, count(*) OVER (ORDER BY x ROWS 2 PRECEDING), max(x) OVER (ORDER BY x ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) FROM generate_series(1, 6) x ORDER BY x;

-- name: win_range_default_with_ties ordered
SELECT x, sum(x) OVER (ORDER BY x) FROM (VALUES (1), (2), (2), (3)) t(x) ORDER BY x;

-- name: win_range_offset ordered
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM (VALUES (1), (2), (4), (7), (8)) t(x) ORDER BY x;

-- name: win_range_offset_following ordered
SELECT x, count(*) OVER (ORDER BY x RANGE BETWEEN CURRENT ROW AND 3 FOLLOWING) FROM (VALUES (1), (2), (4), (7), (8)) t(x) ORDER BY x;

-- name: win_groups_frame ordered
SELECT x, sum(x) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1), (1), (2), (3), (3)) t(x) ORDER BY x;

-- name: win_frame_exclude_current ordered
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW) FROM generate_series(1, 5) x ORDER BY x;

-- name: win_range_dates ordered
SELECT d, count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '3 days' PRECEDING AND CURRENT ROW) FROM (VALUES (DATE '2024-01-01'), (DATE '2024-01-02'), (DATE '2024-01-05'), (DATE '2024-01-09')) t(d) ORDER BY d;

-- name: win_multiple_windows ordered
SELECT n_nationkey, row_number() OVER (ORDER BY n_nationkey DESC), sum(n_nationkey) OVER (PARTITION BY n_regionkey ORDER BY n_nationkey) FROM nation ORDER BY 1;

-- name: win_named_window_refine ordered
SELECT n_nationkey, sum(n_nationkey) OVER (w ORDER BY n_nationkey) FROM nation WINDOW w AS (PARTITION BY n_regionkey) ORDER BY 1;

-- name: win_order_by_desc_nulls ordered
SELECT id, grp, row_number() OVER (ORDER BY grp DESC NULLS LAST, id) FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: win_order_nulls_first ordered
SELECT id, grp, rank() OVER (ORDER BY grp NULLS FIRST) FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: win_partition_by_nullable ordered
SELECT id, grp, count(*) OVER (PARTITION BY grp) FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: win_over_aggregate ordered
SELECT n_regionkey, count(*), sum(count(*)) OVER (ORDER BY n_regionkey) FROM nation GROUP BY n_regionkey ORDER BY 1;

-- name: win_rank_of_aggregate ordered
SELECT o_orderpriority, count(*), rank() OVER (ORDER BY count(*) DESC) FROM orders GROUP BY 1 ORDER BY 1;

-- name: win_in_subquery_filter ordered
SELECT * FROM (SELECT o_custkey, o_orderkey, row_number() OVER (PARTITION BY o_custkey ORDER BY o_totalprice DESC, o_orderkey) rn FROM orders WHERE o_custkey < 20) s WHERE rn <= 2 ORDER BY 1, 3;

-- name: win_top_per_group ordered
SELECT l_shipmode, l_orderkey, l_linenumber, l_extendedprice FROM (
  SELECT l_shipmode, l_orderkey, l_linenumber, l_extendedprice, rank() OVER (PARTITION BY l_shipmode ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber) r FROM lineitem) s
WHERE r = 1 ORDER BY 1;

-- name: win_running_total_lineitem ordered
SELECT l_orderkey, l_linenumber, sum(l_quantity) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) FROM lineitem WHERE l_orderkey <= 5 ORDER BY 1, 2;

-- name: win_moving_avg ordered
SELECT o_orderkey, avg(o_totalprice) OVER (ORDER BY o_orderkey ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM orders WHERE o_orderkey < 40 ORDER BY 1;

-- name: win_min_max_frame ordered
SELECT x, min(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), max(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM (VALUES (5), (3), (9), (1)) t(x) ORDER BY x;

-- name: win_percent_rank_partition ordered
SELECT n_regionkey, n_nationkey, percent_rank() OVER (PARTITION BY n_regionkey ORDER BY n_nationkey) FROM nation ORDER BY 1, 2;

-- name: win_cume_dist ordered
SELECT r_regionkey, cume_dist() OVER (ORDER BY r_regionkey) FROM region ORDER BY 1;

-- name: win_lag_float_specials ordered
SELECT id, f8, lag(f8) OVER (ORDER BY id) FROM types.all_types WHERE id <= 10 ORDER BY id;

-- name: win_sum_float_frame ordered
SELECT id, sum(f8) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM types.all_types WHERE id BETWEEN 11 AND 20 ORDER BY id;

-- name: win_count_column_nulls ordered
SELECT id, count(grp) OVER (ORDER BY id) FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: win_first_value_nulls ordered
SELECT id, first_value(grp) OVER (ORDER BY id) FROM types.all_types WHERE id <= 5 ORDER BY id;

-- name: win_string_agg_window ordered
SELECT r_regionkey, string_agg(r_name, ',') OVER (ORDER BY r_regionkey) FROM region ORDER BY 1;

-- name: win_row_number_no_order unordered
SELECT count(*), max(rn) FROM (SELECT row_number() OVER () AS rn FROM nation) s;

-- name: win_window_and_distinct ordered
SELECT DISTINCT n_regionkey, count(*) OVER (PARTITION BY n_regionkey) FROM nation ORDER BY 1;

-- name: win_lead_default_expression ordered
SELECT x, lead(x, 1, x * 100) OVER (ORDER BY x) FROM generate_series(1, 4) x ORDER BY x;

-- name: win_dense_rank_text ordered
SELECT t, dense_rank() OVER (ORDER BY t) FROM types.all_types WHERE id BETWEEN 13 AND 30 AND t IS NOT NULL ORDER BY t, 2;

-- name: win_rank_multiple_keys ordered
SELECT c_nationkey, c_mktsegment, rank() OVER (ORDER BY c_nationkey, c_mktsegment) FROM (SELECT DISTINCT c_nationkey, c_mktsegment FROM customer WHERE c_nationkey < 3) s ORDER BY 1, 2;

-- name: win_frame_exclude_group_ties ordered
SELECT n_regionkey, n_nationkey, count(*) OVER (ORDER BY n_regionkey GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP), max(n_nationkey) OVER (ORDER BY n_nationkey % 5, n_nationkey ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW), sum(n_nationkey) OVER (ORDER BY n_regionkey RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES) FROM nation ORDER BY 1, 2;

-- name: win_groups_frame_partitioned ordered
SELECT c_nationkey, c_mktsegment, count(*), sum(count(*)) OVER (PARTITION BY c_nationkey ORDER BY c_mktsegment GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM customer WHERE c_nationkey < 4 GROUP BY 1, 2 ORDER BY 1, 2;

-- name: win_range_timestamps ordered
SELECT o_orderdate, count(*) OVER (ORDER BY o_orderdate RANGE BETWEEN INTERVAL '1 month' PRECEDING AND CURRENT ROW), min(o_orderkey) OVER (ORDER BY o_orderdate::timestamp DESC RANGE BETWEEN '2 days' PRECEDING AND '12 hours' FOLLOWING) FROM orders WHERE o_custkey < 30 ORDER BY 1, 2, 3;

-- name: win_aggregates_over_frames ordered
SELECT n_nationkey, array_agg(n_name) OVER w, bool_or(n_regionkey = 0) OVER w, stddev_pop(n_nationkey::float8) OVER w, jsonb_agg(n_regionkey) OVER w FROM nation WHERE n_nationkey < 8 WINDOW w AS (ORDER BY n_nationkey ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY 1;

-- name: win_aggregate_filter ordered
SELECT n_nationkey, count(*) FILTER (WHERE n_regionkey = 1) OVER (ORDER BY n_nationkey), string_agg(n_name, ',') FILTER (WHERE n_nationkey % 3 = 0) OVER (PARTITION BY n_regionkey ORDER BY n_nationkey ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM nation ORDER BY 1;
