-- TABLESAMPLE where PostgreSQL's answer does not depend on its random
-- numbers: 0 and 100 percent, and the errors.

-- name: sample_bernoulli_all ordered
SELECT count(*) FROM lineitem TABLESAMPLE BERNOULLI (100);

-- name: sample_system_all ordered
SELECT count(*) FROM lineitem TABLESAMPLE SYSTEM (100) REPEATABLE (3);

-- name: sample_bernoulli_none ordered
SELECT count(*) FROM lineitem TABLESAMPLE BERNOULLI (0);

-- name: sample_system_none ordered
SELECT count(*) FROM orders TABLESAMPLE SYSTEM (0) REPEATABLE (1);

-- name: sample_all_rows_where ordered
SELECT n_nationkey, n_name FROM nation AS n TABLESAMPLE BERNOULLI (100) WHERE n.n_regionkey = 1 ORDER BY n_nationkey;

-- name: sample_all_rows_join ordered
SELECT r_name, count(*) FROM nation TABLESAMPLE BERNOULLI (100) JOIN region TABLESAMPLE SYSTEM (100) ON n_regionkey = r_regionkey GROUP BY r_name ORDER BY r_name;

-- name: sample_percent_string ordered
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI ('100');

-- name: sample_percent_expression ordered
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI (50 * 2);

-- name: sample_too_large error
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI (100.5);

-- name: sample_negative error
SELECT count(*) FROM nation TABLESAMPLE SYSTEM (-1);

-- name: sample_nan error
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI ('NaN');

-- name: sample_null error
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI (NULL);

-- name: sample_repeatable_null error
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI (10) REPEATABLE (NULL);

-- name: sample_unknown_method error
SELECT count(*) FROM nation TABLESAMPLE system_rows (10);

-- name: sample_two_arguments error
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI (10, 20);

-- name: sample_bad_percent error
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI ('ten');

-- name: sample_column_argument error
SELECT count(*) FROM nation TABLESAMPLE BERNOULLI (n_nationkey);

-- name: sample_cte error
WITH c AS (SELECT * FROM nation) SELECT count(*) FROM c TABLESAMPLE BERNOULLI (10);

-- name: sample_subquery_syntax error
SELECT count(*) FROM (SELECT * FROM nation) s TABLESAMPLE BERNOULLI (10);

-- name: sample_prepared unordered
PREPARE diff_sample(real) AS SELECT count(*) FROM nation TABLESAMPLE BERNOULLI ($1);

-- name: sample_prepared_all ordered
EXECUTE diff_sample(100);

-- name: sample_prepared_none ordered
EXECUTE diff_sample(0);

-- name: sample_prepared_out_of_range error
EXECUTE diff_sample(200);

-- name: sample_prepared_deallocate unordered
DEALLOCATE diff_sample;
