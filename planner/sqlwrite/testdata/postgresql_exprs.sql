-- array constants
-- SELECT id, '{1,2,NULL}'::int[], '{a,"b c","q\"\\",NULL,""}'::text[], '{}'::int[] FROM people
SELECT s2.c1 AS c7, CAST(ARRAY[1, 2, CAST(NULL AS integer)] AS integer[]) AS c8, CAST(ARRAY['a', 'b c', E'q"\\', CAST(NULL AS text), ''] AS text[]) AS c9, CAST(ARRAY[] AS integer[]) AS c10 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- array slices
-- SELECT id, (ARRAY[1, 2, 3])[2:], (ARRAY[1, 2, 3])[:dept], (ARRAY[1, 2, 3])[:], (ARRAY[1, 2, 3])[1:2] FROM people
SELECT s2.c1 AS c7, (CAST(ARRAY[1, 2, 3] AS integer[]))[2:] AS c8, (CAST(ARRAY[1, 2, 3] AS integer[]))[:s2.c5] AS c9, (CAST(ARRAY[1, 2, 3] AS integer[]))[:] AS c10, (CAST(ARRAY[1, 2, 3] AS integer[]))[1:2] AS c11 FROM (SELECT s1.c1 AS c1, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- array comparisons
-- SELECT id, ARRAY[id] = ARRAY[1::bigint], ARRAY[name] < ARRAY['b'] FROM people
SELECT s2.c1 AS c7, (CAST(ARRAY[s2.c1] AS bigint[]) = CAST(ARRAY[CAST(1 AS bigint)] AS bigint[])) AS c8, (CAST(ARRAY[s2.c2] AS text[]) COLLATE "C" < CAST(ARRAY['b'] AS text[])) AS c9 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- untyped NULL
-- SELECT coalesce(NULL, name) FROM people
SELECT CASE WHEN (NULL IS NOT NULL) THEN CAST(NULL AS text) ELSE s2.c2 END AS c7 FROM (SELECT s1.c2 AS c2, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- pg_typeof
-- SELECT pg_typeof(id), pg_typeof(name), pg_typeof(1.5), pg_typeof(ARRAY[dept]) FROM people
SELECT 'bigint' AS c7, 'text' AS c8, 'numeric' AS c9, 'integer[]' AS c10 FROM (SELECT s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT 1 AS c, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- quote_ident
-- SELECT quote_ident(name) FROM people
SELECT quote_ident(s2.c2) AS c7 FROM (SELECT s1.c2 AS c2, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- AT TIME ZONE a named zone
-- SELECT TIMESTAMP '2024-03-10 02:30' AT TIME ZONE 'America/New_York', TIMESTAMPTZ '2024-03-15 10:00+00' AT TIME ZONE 'UTC' FROM people
SELECT CASE WHEN s2.__sqe_visible_1 THEN timezone('America/New_York', CAST('2024-03-10 02:30:00' AS timestamp(6))) END AS c7, CASE WHEN s2.__sqe_visible_1 THEN timezone('UTC', CAST('2024-03-15 10:00:00+00' AS timestamp with time zone)) END AS c8 FROM (SELECT s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT 1 AS c, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- interval scaled
-- SELECT INTERVAL '1 mon 1 day' * dept, INTERVAL '3 hours' * 2, 2 * INTERVAL '1 day', INTERVAL '2 mon 3 hours' / 2 FROM people
SELECT CASE WHEN s2.__sqe_visible_1 THEN (CAST('1 mon 1 day' AS interval) * CAST(s2.c5 AS double precision)) END AS c7, CASE WHEN s2.__sqe_visible_1 THEN (CAST('03:00:00' AS interval) * CAST('2' AS double precision)) END AS c8, CASE WHEN s2.__sqe_visible_1 THEN (CAST('1 day' AS interval) * CAST('2' AS double precision)) END AS c9, CASE WHEN s2.__sqe_visible_1 THEN (CAST('2 mons 03:00:00' AS interval) / CAST('2' AS double precision)) END AS c10 FROM (SELECT s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- make_interval
-- SELECT make_interval(years => 1, days => 3, secs => 1.5) FROM people
SELECT CASE WHEN s2.__sqe_visible_1 THEN make_interval((1), (0), (0), (3), (0), (0), CAST('1.5' AS double precision)) END AS c7 FROM (SELECT s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT 1 AS c, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- jsonb minus an index
-- SELECT '[1, 2, 3]'::jsonb - dept FROM people
SELECT CASE WHEN s2.__sqe_visible_1 THEN (CAST('[1, 2, 3]' AS jsonb) - s2.c5) END AS c7 FROM (SELECT s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- to_json
-- SELECT to_json(name), to_jsonb(id), to_json(ARRAY[dept]), to_json('x'::text) FROM people
SELECT to_json(s2.c2) AS c7, to_jsonb(s2.c1) AS c8, to_json(CAST(ARRAY[s2.c5] AS integer[])) AS c9, to_json(CAST('x' AS text)) AS c10 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- json_each columns
-- SELECT key, value FROM json_each('{"a": [1, 2], "b": null}')
SELECT s3.c3 AS c5, s3.c4 AS c6 FROM (SELECT s2.c1 AS c3, s2.c2 AS c4 FROM (SELECT (json_each(CAST('{"a": [1, 2], "b": null}' AS json))).key AS c1, (json_each(CAST('{"a": [1, 2], "b": null}' AS json))).value AS c2 FROM (SELECT 1 AS c) AS s1) AS s2) AS s3;

-- bytea text
-- SELECT decode(region, 'escape')::text, ARRAY[decode(name, 'escape')]::text FROM people
SELECT CASE WHEN s2.__sqe_visible_1 THEN CAST(decode(s2.c3, 'escape') AS text) END AS c7, CASE WHEN s2.__sqe_visible_1 THEN CAST(CAST(ARRAY[decode(s2.c2, 'escape')] AS bytea[]) AS text) END AS c8 FROM (SELECT s1.c2 AS c2, s1.c3 AS c3, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, "region" AS c3, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- varchar casts
-- SELECT name::varchar(2), id::varchar(1) FROM people
SELECT CASE WHEN s2.__sqe_visible_1 THEN CAST(s2.c2 AS varchar(2)) END AS c7, CASE WHEN s2.__sqe_visible_1 THEN CAST(s2.c1 AS varchar(1)) END AS c8 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

