-- The all_types table read back: every column's text output (extremes,
-- float specials, unicode, quotes, empty strings), filters and
-- comparisons on each type.

-- name: types_select_star ordered
SELECT * FROM types.all_types ORDER BY id;

-- name: types_count ordered
SELECT count(*) FROM types.all_types;

-- name: types_bool_column ordered
SELECT id, b, NOT b FROM types.all_types ORDER BY id;

-- name: types_int_columns ordered
SELECT id, i2, i4, i8 FROM types.all_types ORDER BY id;

-- name: types_float_columns ordered
SELECT id, f4, f8 FROM types.all_types ORDER BY id;

-- name: types_numeric_column ordered
SELECT id, n FROM types.all_types ORDER BY id;

-- name: types_text_columns ordered
SELECT id, t, vc FROM types.all_types ORDER BY id;

-- name: types_date_time_columns ordered
SELECT id, d, ts, tstz FROM types.all_types ORDER BY id;

-- name: types_uuid_bytea_columns ordered
SELECT id, u, by FROM types.all_types ORDER BY id;

-- name: types_json_column ordered
SELECT id, js FROM types.all_types ORDER BY id;

-- name: types_filter_bool ordered
SELECT id FROM types.all_types WHERE b = false ORDER BY id;

-- name: types_filter_int2 ordered
SELECT id FROM types.all_types WHERE i2 > 50 ORDER BY id;

-- name: types_filter_int8_extremes ordered
SELECT id FROM types.all_types WHERE i8 >= 9223372036854775807 OR i8 <= -9223372036854775808 ORDER BY id;

-- name: types_filter_float_nan ordered
SELECT id FROM types.all_types WHERE f8 = 'NaN' ORDER BY id;

-- name: types_filter_float_gt ordered
SELECT id FROM types.all_types WHERE f8 > 1e300 ORDER BY id;

-- name: types_filter_float_negzero ordered
SELECT id FROM types.all_types WHERE f8 = 0 ORDER BY id;

-- name: types_filter_float4_literal ordered
SELECT id FROM types.all_types WHERE f4 = 0.1 ORDER BY id;

-- name: types_filter_float4_cast ordered
SELECT id FROM types.all_types WHERE f4 = 0.1::float4 ORDER BY id;

-- name: types_filter_numeric ordered
SELECT id FROM types.all_types WHERE n > 100 ORDER BY id;

-- name: types_filter_numeric_exact ordered
SELECT id FROM types.all_types WHERE n = 0.0001 OR n = -0.0001 ORDER BY id;

-- name: types_filter_text_empty ordered
SELECT id FROM types.all_types WHERE t = '' ORDER BY id;

-- name: types_filter_text_quote ordered
SELECT id FROM types.all_types WHERE vc = 'O''Reilly' OR t LIKE 'It''s%' ORDER BY id;

-- name: types_filter_text_unicode ordered
SELECT id FROM types.all_types WHERE t = 'Zürich ☃ 日本語' ORDER BY id;

-- name: types_filter_text_gt ordered
SELECT id FROM types.all_types WHERE t > 'Z' ORDER BY id;

-- name: types_filter_date ordered
SELECT id FROM types.all_types WHERE d < DATE '2000-01-01' ORDER BY id;

-- name: types_filter_timestamp ordered
SELECT id FROM types.all_types WHERE ts >= TIMESTAMP '2021-06-01 00:00:00' AND ts < TIMESTAMP '2022-01-01' ORDER BY id;

-- name: types_filter_timestamptz ordered
SELECT id FROM types.all_types WHERE tstz > TIMESTAMPTZ '2021-06-01 00:00:00+02' AND tstz < TIMESTAMPTZ '9999-01-01 00:00:00+00' ORDER BY id;

-- name: types_filter_uuid ordered
SELECT id FROM types.all_types WHERE u = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' ORDER BY id;

-- name: types_filter_uuid_range ordered
SELECT id FROM types.all_types WHERE u > '80000000-0000-0000-0000-000000000000' ORDER BY id;

-- name: types_filter_bytea ordered
SELECT id FROM types.all_types WHERE by = '\xdeadbeef' ORDER BY id;

-- name: types_filter_bytea_empty ordered
SELECT id FROM types.all_types WHERE by = '\x'::bytea ORDER BY id;

-- name: types_filter_null_all ordered
SELECT id FROM types.all_types WHERE grp IS NULL AND b IS NULL ORDER BY id;

-- name: types_filter_not_null_all ordered
SELECT count(*) FROM types.all_types WHERE b IS NOT NULL AND i2 IS NOT NULL AND f8 IS NOT NULL AND t IS NOT NULL AND d IS NOT NULL AND u IS NOT NULL;

-- name: types_text_length_ops ordered
SELECT id, length(vc), vc || '!' FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: types_bytea_encode ordered
SELECT id, encode(by, 'hex'), encode(by, 'base64') FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: types_bytea_length ordered
SELECT id, length(by), octet_length(by) FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: types_bytea_concat ordered
SELECT '\x01'::bytea || '\x02'::bytea, by || '\xff'::bytea FROM types.all_types WHERE id = 5;

-- name: types_decode ordered
SELECT decode('414243', 'hex'), decode('QUJD', 'base64'), encode('abc'::bytea, 'escape');

-- name: types_uuid_text_ops ordered
SELECT id, upper(u::text), substr(u::text, 1, 8) FROM types.all_types WHERE id <= 10 ORDER BY id;

-- name: types_pg_typeof_stored ordered
SELECT pg_typeof(id), pg_typeof(b), pg_typeof(i4), pg_typeof(i8), pg_typeof(f4), pg_typeof(f8), pg_typeof(n), pg_typeof(t), pg_typeof(d), pg_typeof(ts), pg_typeof(tstz), pg_typeof(u), pg_typeof(by) FROM types.all_types WHERE id = 1;

-- name: types_pg_typeof_smallint_varchar ordered
SELECT pg_typeof(i2), pg_typeof(vc) FROM types.all_types WHERE id = 1;

-- name: types_pg_typeof_expressions ordered
SELECT pg_typeof(1), pg_typeof(1.5), pg_typeof('a'::text), pg_typeof(1::bigint + 1), pg_typeof(1 + 1.5), pg_typeof(1::float4 + 1), pg_typeof(now()), pg_typeof(DATE '2024-01-01' - 1);

-- name: types_smallint_overflow_widening error
SELECT i2 + i2 FROM types.all_types WHERE id = 3;

-- name: types_float4_arith_output ordered
SELECT id, f4 * 2, f4 + f4 FROM types.all_types WHERE id BETWEEN 11 AND 20 ORDER BY id;

-- name: types_numeric_arith_output ordered
SELECT id, n + 1, n * 2, n - n FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: types_numeric_extreme_arith error
SELECT n * 10000 FROM types.all_types WHERE id = 3 AND (n * 10000)::numeric(18,4) IS NOT NULL;

-- name: types_timestamptz_output_zone ordered
SELECT tstz::text FROM types.all_types WHERE id IN (2, 5, 6) ORDER BY id;

-- name: types_distinct_all_columns ordered
SELECT count(*) FROM (SELECT DISTINCT b, i2, i4, i8, f4, f8, n, t, vc, d, ts, tstz, u, by, js FROM types.all_types) s;

-- name: types_in_subquery_uuid ordered
SELECT id FROM types.all_types WHERE u IN (SELECT u FROM types.all_types WHERE id IN (3, 4)) ORDER BY id;

-- name: types_join_on_uuid unordered
SELECT a.id, b.id FROM types.all_types a JOIN types.all_types b ON a.u = b.u WHERE a.id <> b.id;

-- name: types_join_on_bytea unordered
SELECT a.id, b.id FROM types.all_types a JOIN types.all_types b ON a.by = b.by AND a.id < b.id;

-- name: types_join_on_float unordered
SELECT a.id, b.id FROM types.all_types a JOIN types.all_types b ON a.f8 = b.f8 AND a.id < b.id;

-- name: types_join_on_timestamptz unordered
SELECT a.id, b.id FROM types.all_types a JOIN types.all_types b ON a.tstz = b.tstz AND a.id < b.id;

-- name: types_union_all_columns unordered
SELECT id, t FROM types.all_types WHERE id < 5 UNION ALL SELECT id, vc FROM types.all_types WHERE id < 5;
