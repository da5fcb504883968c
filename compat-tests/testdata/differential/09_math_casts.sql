-- Math functions and casts between every type pair the suite stores,
-- including float specials, numeric scales and text round trips.

-- name: math_abs_sign ordered
SELECT abs(-5), abs(-5.5), abs(-2.5::float8), sign(-3), sign(0.0), sign(4::float8);

-- name: math_round ordered
SELECT round(2.5), round(-2.5), round(3.14159, 2), round(1234.5678, -2), round(2.5::float8), round(-0.5::float8);

-- name: math_trunc_ceil_floor ordered
SELECT trunc(2.7), trunc(-2.7), trunc(3.14159, 3), ceil(2.1), ceiling(-2.1), floor(2.9), floor(-2.1);

-- name: math_ceil_floor_float ordered
SELECT ceil(2.1::float8), floor(-2.1::float8), trunc(-2.9::float8);

-- name: math_mod ordered
SELECT mod(10, 3), mod(-10, 3), mod(10.5, 3), 10.5 % 3;

-- name: math_power_sqrt ordered
SELECT power(2, 10), power(2.0, 0.5), sqrt(16), sqrt(2::float8), cbrt(27::float8);

-- name: math_power_operator ordered
SELECT 2 ^ 0.5, 2.0 ^ 3;

-- name: math_exp_ln_log ordered
SELECT exp(1::float8), ln(10::float8), log(100::float8), log(2, 8), exp(0);

-- name: math_pi_degrees ordered
SELECT pi(), degrees(pi()), radians(180);

-- name: math_trig ordered
SELECT sin(0::float8), cos(0::float8), tan(0::float8), atan2(1, 1), asin(1), acos(1);

-- name: math_width_bucket ordered
SELECT width_bucket(5.35, 0.024, 10.06, 5), width_bucket(-1, 0, 10, 5), width_bucket(11, 0, 10, 5);

-- name: math_gcd_lcm ordered
SELECT gcd(12, 18), lcm(4, 6), factorial(10);

-- name: math_div ordered
SELECT div(9, 4), div(-9, 4), div(9.5, 2);

-- name: math_on_columns ordered
SELECT id, abs(i4), round(n, 1), trunc(n), sign(n) FROM types.all_types WHERE id > 10 AND id <= 20 ORDER BY id;

-- name: math_round_numeric_column_scale ordered
SELECT id, round(n, 2), round(n, 0), round(n) FROM types.all_types WHERE id BETWEEN 5 AND 12 ORDER BY id;

-- name: math_float_specials_arith ordered
SELECT id, f8 + 1, f8 * 2, f8 / 2 FROM types.all_types WHERE id BETWEEN 5 AND 10 ORDER BY id;

-- name: math_float_nan_compare ordered
SELECT 'NaN'::float8 = 'NaN'::float8, 'NaN'::float8 > 'Infinity'::float8, 'NaN'::float8 > 1, '-0'::float8 = '0'::float8;

-- name: math_float_inf_arith ordered
SELECT 'Infinity'::float8 + 1, 'Infinity'::float8 - 'Infinity'::float8, '-Infinity'::float8 * -1, 1 / 'Infinity'::float8;

-- name: math_float_output ordered
SELECT 0.1::float8 + 0.2::float8, 1e100::float8, 1.5e-10::float8, 100000000000000000000::float8, 123.456::float4, 1::float8 / 3;

-- name: math_float4_output ordered
SELECT 0.1::float4, 1::float4 / 3, 16777217::float4, 3.4e38::float4;

-- name: math_numeric_scale_arith ordered
SELECT 1.10 + 2.205, 1.10 * 2.205, 100.00 - 0.5, 0.1 * 0.1;

-- name: math_numeric_division ordered
SELECT 10.0 / 4, 1 / 3.0, 2.0 / 3;

-- name: math_numeric_column_division ordered
SELECT id, n / 3 FROM types.all_types WHERE id BETWEEN 5 AND 12 ORDER BY id;

-- name: math_integer_column_arith ordered
SELECT id, i2 + i2, i4 * 2, i8 - 1 FROM types.all_types WHERE id > 10 ORDER BY id;

-- name: math_int_float_mix ordered
SELECT id, i4 + f8, i4 * f4 FROM types.all_types WHERE id > 10 AND id <= 25 ORDER BY id;

-- name: math_numeric_float_mix ordered
SELECT 1.5 + 1.5::float8, 2.5::numeric * 2::float4;

-- name: math_random_range ordered
SELECT random() >= 0 AND random() < 1;

-- name: math_sum_tpch_expression ordered
SELECT sum(l_extendedprice * l_discount) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24;

-- name: cast_int_to_text ordered
SELECT 42::text, (-7)::text, 9223372036854775807::text;

-- name: cast_text_to_int ordered
SELECT '42'::int, ' 7 '::int, '-0'::int, '+5'::bigint, '32767'::smallint;

-- name: cast_numeric_to_int_rounding ordered
SELECT 2.5::int, 3.5::int, -2.5::int, 2.4999::bigint, 1.5::smallint;

-- name: cast_float_to_int_rounding ordered
SELECT 2.5::float8::int, 3.5::float8::int, -2.5::float8::int, 0.5::float4::int;

-- name: cast_int_to_numeric_scale ordered
SELECT 5::numeric(10,2), 3.14159::numeric(5,3), 2.5::numeric(3,0), 123.456::numeric(6,1);

-- name: cast_text_to_numeric ordered
SELECT '1.50'::numeric, '-0.0010'::numeric, '1e3'::numeric, '  12.5  '::numeric;

-- name: cast_float_to_text ordered
SELECT 1.5::float8::text, 'NaN'::float8::text, '-Infinity'::float8::text, 1e20::float8::text, 0.000001::float8::text;

-- name: cast_text_to_float ordered
SELECT 'NaN'::float8, 'infinity'::float8, '-inf'::float8, '1e-5'::float8, '  3.0  '::float4;

-- name: cast_numeric_to_float ordered
SELECT 1.1::float8, 0.3333333333333333333::float8, 99999999999999.9999::float8;

-- name: cast_float_to_numeric ordered
SELECT 1.1::float8::numeric, 0.1::float4::numeric, 1e15::float8::numeric, 2.5e-5::float8::numeric;

-- name: cast_bool ordered
SELECT 'true'::bool, 'f'::bool, 'yes'::bool, 'off'::bool, '1'::bool;

-- name: cast_int_bool ordered
SELECT 1::bool, 0::bool, true::int;

-- name: cast_date_text ordered
SELECT '2024-03-15'::date, DATE '2024-03-15'::text, ' 2024-3-5 '::date;

-- name: cast_date_compact_and_epoch ordered
SELECT '20240315'::date, 'epoch'::date;

-- name: cast_timestamp_text ordered
SELECT '2024-03-15 10:20:30.5'::timestamp, '2024-03-15T10:20:30'::timestamp, TIMESTAMP '2024-03-15 10:20:30'::text;

-- name: cast_timestamptz ordered
SELECT '2024-03-15 10:20:30+02'::timestamptz, '2024-03-15 10:20:30'::timestamptz, '2024-03-15 10:20:30-05:30'::timestamptz::text;

-- name: cast_date_timestamp ordered
SELECT DATE '2024-03-15'::timestamp, TIMESTAMP '2024-03-15 23:59:59'::date, DATE '2024-03-15'::timestamptz, TIMESTAMPTZ '2024-03-15 23:59:59+00'::date;

-- name: cast_uuid ordered
SELECT 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid, '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid, 'a0eebc999c0b4ef8bb6d6bb9bd380a11'::uuid::text;

-- name: cast_bytea ordered
SELECT '\x4142'::bytea, 'abc'::bytea, '\x'::bytea, 'a\\b'::bytea;

-- name: cast_varchar_truncate ordered
SELECT 'abcdef'::varchar(3), 'ab'::varchar(5), 'abc'::char(5) || '|', length('ab'::char(4));

-- name: cast_columns_to_text ordered
SELECT id, b::text, i2::text, f4::text, n::text, d::text, ts::text, tstz::text, u::text, by::text FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: cast_columns_between_ints ordered
SELECT id, i2::int8, i4::int2, i8::numeric FROM types.all_types WHERE id > 10 ORDER BY id;

-- name: cast_columns_float_numeric ordered
SELECT id, f8::numeric(30,10), n::float8, f4::float8 FROM types.all_types WHERE id > 10 AND id <= 30 ORDER BY id;

-- name: cast_numeric_column_to_int ordered
SELECT id, n::int, n::bigint FROM types.all_types WHERE id > 4 AND id <= 30 ORDER BY id;

-- name: cast_text_column_to_int ordered
SELECT id, vc, substr(vc, 2)::int FROM types.all_types WHERE vc LIKE 'v%' ORDER BY id;

-- name: cast_json_text ordered
SELECT '{"b":1,  "a":2}'::json, '{"b":1,  "a":2}'::jsonb, '[1, 2]'::jsonb::text;

-- name: cast_interval ordered
SELECT '1 day 2 hours'::interval, '90 minutes'::interval, INTERVAL '1 year 2 months', '-1 day'::interval::text;

-- name: cast_pg_style_and_function ordered
SELECT CAST('12' AS integer), int4 '12', numeric '1.5', text 'x', CAST(1.99 AS int);

-- name: cast_bool_to_text_and_back ordered
SELECT id, b::text::bool FROM types.all_types WHERE id <= 8 ORDER BY id;

-- name: cast_time ordered
SELECT '10:20:30'::time, TIME '23:59:59.999999', '10:20'::time::text, TIMESTAMP '2024-01-01 12:34:56'::time;

-- name: cast_smallint_arith_type ordered
SELECT 32767::smallint + 1, (-32768)::smallint - 1;

-- name: cast_int_division_types ordered
SELECT 5::smallint / 2::smallint, 5::bigint / 2, 5 / 2::numeric;

-- name: cast_float4_largest ordered
SELECT 3.4028235e+38::real, '3.4028235e+38'::real, 3.4028235e+38::float8::real;

-- name: cast_float4_widening ordered
SELECT 0.1::real::float8, '0.1'::real::float8, 1.5e-45::real;

-- name: cast_float4_text_overflow error
SELECT '3.5e38'::real;

-- name: cast_float8_to_float4_underflow error
SELECT 1e-46::float8::real;

-- name: literal_int_min_is_integer ordered
SELECT pg_typeof(-2147483648), -2147483648, pg_typeof(-2147483649), pg_typeof(2147483648), -2147483648 + 1;

-- name: literal_int_min_minus_one_overflows error
SELECT -2147483648 - 1;

-- name: numeric_product_past_38_digits ordered
SELECT 1234567890123456789012345678.1234567890::numeric(38,10) * 1234567890123456789012345678.1234567890::numeric(38,10), 99999999999999999999.99::numeric(22,2) * 99999999999999999999.99::numeric(22,2);

-- name: math_pg_size_pretty ordered
SELECT pg_size_pretty(0::bigint), pg_size_pretty(10239::bigint), pg_size_pretty(10240::bigint), pg_size_pretty(-10240::bigint), pg_size_pretty(20971519::bigint), pg_size_pretty(20971520::bigint), pg_size_pretty(1073741824::bigint), pg_size_pretty(1125899906842624::bigint), pg_size_pretty(9223372036854775807), pg_size_pretty(-9223372036854775807), pg_size_pretty(NULL::bigint);
