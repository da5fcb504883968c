-- Conditional and comparison expressions: CASE, COALESCE, NULLIF,
-- GREATEST, LEAST, IS [NOT] DISTINCT FROM, BETWEEN, IN, boolean logic.

-- name: expr_case_searched ordered
SELECT id, CASE WHEN grp = 0 THEN 'zero' WHEN grp = 1 THEN 'one' ELSE 'other' END FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: expr_case_simple ordered
SELECT id, CASE grp WHEN 0 THEN 'zero' WHEN 1 THEN 'one' END FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: expr_case_null_when ordered
SELECT CASE NULL WHEN NULL THEN 'matched' ELSE 'not matched' END;

-- name: expr_case_types ordered
SELECT CASE WHEN true THEN 1 ELSE 2.5 END, CASE WHEN false THEN 1 ELSE 2.5 END;

-- name: expr_case_nested ordered
SELECT x, CASE WHEN x < 3 THEN CASE WHEN x = 1 THEN 'a' ELSE 'b' END ELSE 'c' END FROM generate_series(1, 4) x ORDER BY x;

-- name: expr_case_short_circuit ordered
SELECT x, CASE WHEN x = 0 THEN 0 ELSE 10 / x END FROM (VALUES (0), (2), (5)) t(x) ORDER BY x;

-- name: expr_coalesce ordered
SELECT id, coalesce(grp, -1), coalesce(t, vc, 'none') FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: expr_coalesce_all_null ordered
SELECT coalesce(NULL::int, NULL::int), coalesce(NULL, 'x'), coalesce(1, 2);

-- name: expr_coalesce_mixed_types ordered
SELECT coalesce(i2, i4, i8) FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: expr_nullif ordered
SELECT nullif(1, 1), nullif(1, 2), nullif('a', 'b'), nullif(NULL::int, 1);

-- name: expr_nullif_column ordered
SELECT id, nullif(grp, 0), nullif(t, '') FROM types.all_types WHERE id <= 12 ORDER BY id;

-- name: expr_greatest_least ordered
SELECT greatest(1, 5, 3), least(1, 5, 3), greatest('b', 'a', 'c'), least(2.5, 1, 3::bigint);

-- name: expr_greatest_least_nulls ordered
SELECT greatest(1, NULL, 3), least(NULL, 2), greatest(NULL::int, NULL);

-- name: expr_greatest_columns ordered
SELECT id, greatest(i2, i4), least(i4, i8) FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: expr_greatest_dates ordered
SELECT greatest(DATE '2024-01-01', DATE '2023-06-30'), least(TIMESTAMP '2024-01-01 10:00', TIMESTAMP '2024-01-01 09:00');

-- name: expr_is_distinct_from ordered
SELECT a, b, a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b, a = b FROM (VALUES (1, 1), (1, 2), (1, NULL), (NULL, NULL)) t(a, b) ORDER BY a NULLS LAST, b NULLS LAST;

-- name: expr_is_distinct_text ordered
SELECT count(*) FROM types.all_types WHERE t IS DISTINCT FROM vc;

-- name: expr_between ordered
SELECT n_nationkey FROM nation WHERE n_nationkey BETWEEN 5 AND 9 ORDER BY 1;

-- name: expr_not_between ordered
SELECT n_nationkey FROM nation WHERE n_nationkey NOT BETWEEN 2 AND 22 ORDER BY 1;

-- name: expr_between_reversed ordered
SELECT count(*) FROM nation WHERE n_nationkey BETWEEN 9 AND 5;

-- name: expr_between_symmetric ordered
SELECT count(*) FROM nation WHERE n_nationkey BETWEEN SYMMETRIC 9 AND 5;

-- name: expr_between_null ordered
SELECT 5 BETWEEN NULL AND 10, 5 BETWEEN 6 AND NULL, NULL BETWEEN 1 AND 2;

-- name: expr_between_dates ordered
SELECT count(*) FROM orders WHERE o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1995-01-31';

-- name: expr_between_text ordered
SELECT n_name FROM nation WHERE n_name BETWEEN 'C' AND 'G' ORDER BY 1;

-- name: expr_in_list ordered
SELECT n_name FROM nation WHERE n_nationkey IN (1, 3, 5, 100) ORDER BY 1;

-- name: expr_not_in_list ordered
SELECT r_name FROM region WHERE r_name NOT IN ('ASIA', 'EUROPE') ORDER BY 1;

-- name: expr_in_list_with_null ordered
SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, NULL), NULL IN (1, 2);

-- name: expr_in_list_text_column ordered
SELECT id FROM types.all_types WHERE t IN ('apple', 'Banana', '') ORDER BY id;

-- name: expr_in_list_mixed_numeric ordered
SELECT id FROM types.all_types WHERE n IN (0, 1.5, -1.5, 0.5) ORDER BY id;

-- name: expr_three_valued_and_or ordered
SELECT a, b, a AND b, a OR b, NOT a FROM (VALUES (true, true), (true, false), (true, NULL), (false, NULL), (NULL::bool, NULL::bool)) t(a, b) ORDER BY a NULLS LAST, b NULLS LAST;

-- name: expr_is_true_false_unknown ordered
SELECT id, b IS TRUE, b IS NOT TRUE, b IS FALSE, b IS UNKNOWN FROM types.all_types WHERE id <= 8 ORDER BY id;

-- name: expr_where_null_bool ordered
SELECT count(*) FROM types.all_types WHERE b;

-- name: expr_where_not_bool ordered
SELECT count(*) FROM types.all_types WHERE NOT b;

-- name: expr_comparisons_mixed ordered
SELECT 1 = 1.0, 2 > 1.5, 3::smallint < 4::bigint, 1.0::float8 = 1::numeric, 'abc' < 'abd', 'a' < 'B';

-- name: expr_comparison_null ordered
SELECT 1 = NULL, NULL <> NULL, NULL::text < 'a';

-- name: expr_row_comparison ordered
SELECT (1, 2) < (1, 3), (1, 2) = (1, 2), (1, NULL) = (1, 2), (2, NULL) > (1, 5);

-- name: expr_arith_precedence ordered
SELECT 2 + 3 * 4, (2 + 3) * 4, 10 - 2 - 3, 100 / 10 / 5, -2 * 3 + 1;

-- name: expr_power_precedence ordered
SELECT -2 ^ 2, 2 ^ 3 ^ 2;

-- name: expr_integer_division ordered
SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3, 7 % -3;

-- name: expr_numeric_arith ordered
SELECT 1.5 + 2.25, 1.5 * 2.25, 10.0 - 0.001, 2.50 * 4;

-- name: expr_mixed_int_float ordered
SELECT 1 + 1.5::float8, 3 * 0.5::float4, 10 / 4::float8;

-- name: expr_unary_minus_columns ordered
SELECT id, -i4, -n, -f8 FROM types.all_types WHERE id BETWEEN 5 AND 14 ORDER BY id;

-- name: expr_null_arith ordered
SELECT 1 + NULL, NULL * 2, NULL::numeric / 3, -NULL::int;

-- name: expr_bool_to_text ordered
SELECT true::text, false::text, (1 < 2)::text;

-- name: expr_boolean_ops_columns ordered
SELECT id, b AND grp > 1, b OR grp IS NULL FROM types.all_types WHERE id <= 14 ORDER BY id;

-- name: expr_case_in_where ordered
SELECT n_name FROM nation WHERE CASE WHEN n_regionkey = 1 THEN true ELSE n_nationkey < 3 END ORDER BY 1;

-- name: expr_coalesce_in_group ordered
SELECT coalesce(grp, 99), count(*) FROM types.all_types GROUP BY 1 ORDER BY 1;

-- name: expr_between_columns ordered
SELECT id FROM types.all_types WHERE i2 BETWEEN grp AND i4 ORDER BY id;
