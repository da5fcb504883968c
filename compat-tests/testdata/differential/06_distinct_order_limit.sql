-- DISTINCT, DISTINCT ON, ORDER BY (directions, NULLS FIRST/LAST, the
-- ordering of every type's values), LIMIT, OFFSET and FETCH FIRST.

-- name: distinct_single ordered
SELECT DISTINCT l_shipmode FROM lineitem ORDER BY 1;

-- name: distinct_multi ordered
SELECT DISTINCT l_returnflag, l_linestatus FROM lineitem ORDER BY 1, 2;

-- name: distinct_nulls ordered
SELECT DISTINCT grp FROM types.all_types ORDER BY 1 NULLS FIRST;

-- name: distinct_count_subquery ordered
SELECT count(*) FROM (SELECT DISTINCT o_custkey FROM orders) s;

-- name: distinct_expression ordered
SELECT DISTINCT o_orderkey % 5 AS m FROM orders ORDER BY m;

-- name: distinct_floats_specials ordered
SELECT DISTINCT f8 FROM types.all_types WHERE id <= 10 ORDER BY 1;

-- name: distinct_on_first_per_group ordered
SELECT DISTINCT ON (n_regionkey) n_regionkey, n_name FROM nation ORDER BY n_regionkey, n_name;

-- name: distinct_on_last_per_group ordered
SELECT DISTINCT ON (n_regionkey) n_regionkey, n_name FROM nation ORDER BY n_regionkey, n_name DESC;

-- name: distinct_on_expression ordered
SELECT DISTINCT ON (o_custkey % 10) o_custkey % 10 AS k, o_orderkey FROM orders ORDER BY o_custkey % 10, o_totalprice DESC, o_orderkey;

-- name: distinct_on_nulls ordered
SELECT DISTINCT ON (grp) grp, id FROM types.all_types ORDER BY grp NULLS FIRST, id;

-- name: distinct_on_two_keys ordered
SELECT DISTINCT ON (l_returnflag, l_linestatus) l_returnflag, l_linestatus, l_orderkey, l_linenumber FROM lineitem ORDER BY l_returnflag, l_linestatus, l_orderkey, l_linenumber;

-- name: order_asc_desc ordered
SELECT n_regionkey, n_name FROM nation ORDER BY n_regionkey DESC, n_name ASC;

-- name: order_nulls_default_asc ordered
SELECT id, grp FROM types.all_types WHERE id <= 14 ORDER BY grp, id;

-- name: order_nulls_default_desc ordered
SELECT id, grp FROM types.all_types WHERE id <= 14 ORDER BY grp DESC, id;

-- name: order_nulls_first_asc ordered
SELECT id, grp FROM types.all_types WHERE id <= 14 ORDER BY grp NULLS FIRST, id;

-- name: order_nulls_last_desc ordered
SELECT id, grp FROM types.all_types WHERE id <= 14 ORDER BY grp DESC NULLS LAST, id;

-- name: order_by_floats ordered
SELECT id, f8 FROM types.all_types ORDER BY f8, id;

-- name: order_by_float4 ordered
SELECT id, f4 FROM types.all_types ORDER BY f4 DESC, id;

-- name: order_by_numeric ordered
SELECT id, n FROM types.all_types ORDER BY n NULLS FIRST, id;

-- name: order_by_text_c_collation ordered
SELECT id, t FROM types.all_types ORDER BY t, id;

-- name: order_by_varchar_desc ordered
SELECT id, vc FROM types.all_types ORDER BY vc DESC NULLS LAST, id;

-- name: order_by_bool ordered
SELECT id, b FROM types.all_types ORDER BY b, id;

-- name: order_by_date ordered
SELECT id, d FROM types.all_types ORDER BY d DESC, id;

-- name: order_by_timestamp ordered
SELECT id, ts FROM types.all_types ORDER BY ts, id;

-- name: order_by_timestamptz ordered
SELECT id, tstz FROM types.all_types ORDER BY tstz, id;

-- name: order_by_uuid ordered
SELECT id, u FROM types.all_types ORDER BY u, id;

-- name: order_by_bytea ordered
SELECT id, by FROM types.all_types ORDER BY by, id;

-- name: order_by_int2 ordered
SELECT id, i2 FROM types.all_types ORDER BY i2 DESC, id;

-- name: order_by_bigint ordered
SELECT id, i8 FROM types.all_types ORDER BY i8, id;

-- name: order_by_expression ordered
SELECT n_name FROM nation ORDER BY length(n_name), n_name;

-- name: order_by_not_selected ordered
SELECT n_name FROM nation ORDER BY n_regionkey, n_nationkey;

-- name: order_by_alias_expression ordered
SELECT n_nationkey * -1 AS neg FROM nation ORDER BY neg;

-- name: order_by_case ordered
SELECT r_name FROM region ORDER BY CASE WHEN r_name = 'EUROPE' THEN 0 ELSE 1 END, r_name;

-- name: limit_basic ordered
SELECT o_orderkey FROM orders ORDER BY o_orderkey LIMIT 5;

-- name: limit_offset ordered
SELECT o_orderkey FROM orders ORDER BY o_orderkey LIMIT 5 OFFSET 10;

-- name: offset_only ordered
SELECT n_nationkey FROM nation ORDER BY n_nationkey OFFSET 20;

-- name: offset_beyond_end ordered
SELECT n_nationkey FROM nation ORDER BY n_nationkey OFFSET 100;

-- name: limit_zero ordered
SELECT n_nationkey FROM nation LIMIT 0;

-- name: limit_null ordered
SELECT r_regionkey FROM region ORDER BY 1 LIMIT NULL;

-- name: limit_all ordered
SELECT r_regionkey FROM region ORDER BY 1 LIMIT ALL;

-- name: fetch_first ordered
SELECT o_orderkey FROM orders ORDER BY o_totalprice DESC, o_orderkey FETCH FIRST 3 ROWS ONLY;

-- name: fetch_first_default_one ordered
SELECT o_orderkey FROM orders ORDER BY o_orderkey FETCH FIRST ROW ONLY;

-- name: fetch_with_offset ordered
SELECT o_orderkey FROM orders ORDER BY o_orderkey OFFSET 2 ROWS FETCH NEXT 2 ROWS ONLY;

-- name: fetch_with_ties unordered
SELECT l_orderkey, l_quantity FROM lineitem WHERE l_orderkey < 100 ORDER BY l_quantity DESC FETCH FIRST 2 ROWS WITH TIES;

-- name: limit_expression ordered
SELECT r_regionkey FROM region ORDER BY 1 LIMIT 1 + 1;

-- name: limit_in_subquery_then_order ordered
SELECT * FROM (SELECT o_orderkey, o_totalprice FROM orders ORDER BY o_totalprice DESC, o_orderkey LIMIT 10) s ORDER BY o_orderkey;

-- name: limit_large_sort ordered
SELECT l_orderkey, l_linenumber FROM lineitem ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 7;

-- name: order_by_multiple_directions_large ordered
SELECT l_shipmode, l_orderkey, l_linenumber FROM lineitem WHERE l_orderkey < 300 ORDER BY l_shipmode DESC, l_orderkey, l_linenumber DESC;

-- name: distinct_order_by_expression ordered
SELECT DISTINCT n_regionkey, n_regionkey * 2 FROM nation ORDER BY 2 DESC;

-- name: order_by_ordinal_and_nulls ordered
SELECT grp, b FROM types.all_types WHERE id <= 12 ORDER BY 1 NULLS FIRST, 2 DESC NULLS FIRST;
