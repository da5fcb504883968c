-- array constants
-- SELECT id, '{1,2,NULL}'::int[], '{a,"b c","q\"\\",NULL,""}'::text[], '{}'::int[] FROM people
ERROR: type integer[] cannot be written for Trino (SQLSTATE 0A000);

-- array slices
-- SELECT id, (ARRAY[1, 2, 3])[2:], (ARRAY[1, 2, 3])[:dept], (ARRAY[1, 2, 3])[:], (ARRAY[1, 2, 3])[1:2] FROM people
ERROR: type integer[] cannot be written for Trino (SQLSTATE 0A000);

-- array comparisons
-- SELECT id, ARRAY[id] = ARRAY[1::bigint], ARRAY[name] < ARRAY['b'] FROM people
ERROR: operator = on bigint[] and bigint[] cannot be written as SQL for Trino (SQLSTATE 0A000);

-- untyped NULL
-- SELECT coalesce(NULL, name) FROM people
SELECT CASE WHEN (NULL IS NOT NULL) THEN CAST(NULL AS varchar) ELSE s2.c2 END AS c7 FROM (SELECT s1.c2 AS c2, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- pg_typeof
-- SELECT pg_typeof(id), pg_typeof(name), pg_typeof(1.5), pg_typeof(ARRAY[dept]) FROM people
SELECT 'bigint' AS c7, 'text' AS c8, 'numeric' AS c9, 'integer[]' AS c10 FROM (SELECT s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT 1 AS c, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- quote_ident
-- SELECT quote_ident(name) FROM people
ERROR: function quote_ident cannot be written as SQL for Trino (SQLSTATE 0A000);

-- AT TIME ZONE a named zone
-- SELECT TIMESTAMP '2024-03-10 02:30' AT TIME ZONE 'America/New_York', TIMESTAMPTZ '2024-03-15 10:00+00' AT TIME ZONE 'UTC' FROM people
ERROR: type timestamp with time zone cannot be written for Trino (SQLSTATE 0A000);

-- interval scaled
-- SELECT INTERVAL '1 mon 1 day' * dept, INTERVAL '3 hours' * 2, 2 * INTERVAL '1 day', INTERVAL '2 mon 3 hours' / 2 FROM people
ERROR: type interval cannot be written for Trino (SQLSTATE 0A000);

-- make_interval
-- SELECT make_interval(years => 1, days => 3, secs => 1.5) FROM people
ERROR: type interval cannot be written for Trino (SQLSTATE 0A000);

-- jsonb minus an index
-- SELECT '[1, 2, 3]'::jsonb - dept FROM people
ERROR: type jsonb cannot be written for Trino (SQLSTATE 0A000);

-- to_json
-- SELECT to_json(name), to_jsonb(id), to_json(ARRAY[dept]), to_json('x'::text) FROM people
ERROR: type json cannot be written for Trino (SQLSTATE 0A000);

-- json_each columns
-- SELECT key, value FROM json_each('{"a": [1, 2], "b": null}')
ERROR: type json cannot be written for Trino (SQLSTATE 0A000);

-- bytea text
-- SELECT decode(region, 'escape')::text, ARRAY[decode(name, 'escape')]::text FROM people
ERROR: cast from bytea to text cannot be written as SQL for Trino (SQLSTATE 0A000);

-- varchar casts
-- SELECT name::varchar(2), id::varchar(1) FROM people
ERROR: cast from text to character varying(2) cannot be written as SQL for Trino (SQLSTATE 0A000);

