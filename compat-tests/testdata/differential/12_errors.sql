-- Error cases: PostgreSQL fails each of these; SQE must fail with the
-- same SQLSTATE.

-- name: err_int4_overflow_add error
SELECT 2147483647 + 1;

-- name: err_int8_overflow_mul error
SELECT 9223372036854775807 * 2;

-- name: err_int2_cast_overflow error
SELECT 40000::smallint;

-- name: err_int4_cast_overflow error
SELECT 3000000000::int;

-- name: err_int_column_overflow error
SELECT i4 + 1 FROM types.all_types WHERE id = 3;

-- name: err_bigint_column_overflow error
SELECT i8 * 2 FROM types.all_types WHERE id = 3;

-- name: err_negate_min_int error
SELECT -i4 FROM types.all_types WHERE id = 4;

-- name: err_abs_min_bigint error
SELECT abs(i8) FROM types.all_types WHERE id = 4;

-- name: err_count_plus_overflow error
SELECT count(*) + 9223372036854775807 FROM types.all_types;

-- name: err_float_overflow error
SELECT f8 * 10 FROM types.all_types WHERE id = 3;

-- name: err_float8_cast_to_int error
SELECT 1e10::float8::int;

-- name: err_numeric_precision_overflow error
SELECT 12345.678::numeric(5,2);

-- name: err_numeric_to_int_overflow error
SELECT n::int FROM types.all_types WHERE id = 3;

-- name: err_nan_to_int error
SELECT 'NaN'::float8::int;

-- name: err_div_zero_int error
SELECT 1 / 0;

-- name: err_div_zero_numeric error
SELECT 1.5 / 0;

-- name: err_div_zero_float error
SELECT 1.0::float8 / 0::float8;

-- name: err_mod_zero error
SELECT 10 % 0;

-- name: err_div_zero_column error
SELECT i4 / grp FROM types.all_types WHERE grp = 0;

-- name: err_div_zero_in_agg error
SELECT sum(l_quantity) / 0 FROM lineitem;

-- name: err_invalid_int_text error
SELECT 'abc'::int;

-- name: err_invalid_int_empty error
SELECT ''::int;

-- name: err_invalid_numeric_text error
SELECT '1.2.3'::numeric;

-- name: err_invalid_float_text error
SELECT 'one'::float8;

-- name: err_invalid_bool_text error
SELECT 'maybe'::boolean;

-- name: err_invalid_uuid error
SELECT 'not-a-uuid'::uuid;

-- name: err_invalid_json error
SELECT '{"a": }'::jsonb;

-- name: err_invalid_json_column error
SELECT t::jsonb FROM types.all_types WHERE id = 3;

-- name: err_invalid_date error
SELECT 'yesterday-ish'::date;

-- name: err_invalid_date_field error
SELECT '2024-13-01'::date;

-- name: err_invalid_timestamp error
SELECT 'noon'::timestamp;

-- name: err_invalid_bytea error
SELECT '\xZZ'::bytea;

-- name: err_text_column_to_int error
SELECT t::int FROM types.all_types WHERE id = 13;

-- name: err_undefined_function error
SELECT no_such_function(1);

-- name: err_operator_does_not_exist error
SELECT 1 + 'a'::text;

-- name: err_function_wrong_args error
SELECT length(42);

-- name: err_operator_date_plus_date error
SELECT DATE '2024-01-01' + DATE '2024-01-02';

-- name: err_bool_plus_int error
SELECT true + 1;

-- name: err_where_not_boolean error
SELECT 1 FROM region WHERE r_regionkey;

-- name: err_case_type_mismatch error
SELECT CASE WHEN true THEN 1 ELSE 'x'::text END;

-- name: err_coalesce_type_mismatch error
SELECT coalesce(1, 'a'::text);

-- name: err_union_type_mismatch error
SELECT 1 UNION SELECT 'a'::text;

-- name: err_in_list_type_mismatch error
SELECT 1 IN (1, 'a'::text);

-- name: err_scalar_subquery_many_rows error
SELECT (SELECT n_name FROM nation);

-- name: err_scalar_subquery_many_rows_where error
SELECT r_name FROM region WHERE r_regionkey = (SELECT n_regionkey FROM nation);

-- name: err_correlated_many_rows error
SELECT r_name, (SELECT n_name FROM nation WHERE n_regionkey = r_regionkey) FROM region;

-- name: err_undefined_column error
SELECT no_such_column FROM region;

-- name: err_undefined_table error
SELECT * FROM no_such_table;

-- name: err_group_by_missing error
SELECT n_name, count(*) FROM nation GROUP BY n_regionkey;

-- name: err_ambiguous_column error
SELECT n_name FROM nation a, nation b;

-- name: err_order_by_ordinal_out_of_range error
SELECT r_name FROM region ORDER BY 2;

-- name: err_aggregate_in_where error
SELECT r_name FROM region WHERE count(*) > 1;

-- name: err_nested_aggregate error
SELECT sum(count(*)) FROM region;

-- name: err_union_column_count error
SELECT 1, 2 UNION SELECT 1;

-- name: err_array_subscript_type error
SELECT (ARRAY[1, 2])['a'];

-- name: err_log_of_zero error
SELECT ln(0);

-- name: err_sqrt_negative error
SELECT sqrt(-1);

-- name: err_power_overflow error
SELECT power(10::float8, 400);

-- name: err_chr_zero error
SELECT chr(0);

-- name: err_repeat_count_type error
SELECT repeat('x', 'y');

-- name: err_substring_negative_length error
SELECT substr('abc', 1, -1);

-- name: err_generate_series_zero_step error
SELECT * FROM generate_series(1, 10, 0);

-- name: err_syntax error
SELECT FROM WHERE;

-- name: err_division_by_zero_window error
SELECT n_nationkey / (row_number() OVER (ORDER BY n_nationkey) - 1) FROM nation;

-- name: err_json_arrow_on_text error
SELECT js -> 'a' FROM types.all_types;

-- name: err_date_out_of_range error
SELECT DATE '9999-12-31' + 2147483647;

-- name: err_interval_invalid error
SELECT 'forever'::interval;

-- name: err_negative_limit error
SELECT 1 LIMIT -1;

-- name: err_ntile_zero error
SELECT ntile(0) OVER () FROM region;

-- name: err_lag_negative_not_error_but_type error
SELECT lag(r_name, 'x') OVER () FROM region;

-- name: err_concat_without_arguments error
SELECT concat();

-- name: err_array_to_string_boolean_delimiter error
SELECT array_to_string(ARRAY[1, 2], true);
