-- union all
-- SELECT id FROM people UNION ALL SELECT dept FROM dept
SELECT s5.c7 AS c12 FROM (SELECT s2.c1 AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s5 WHERE s5.__sqe_visible_1 UNION ALL SELECT s6.c11 AS c12 FROM (SELECT CAST(s4.c10 AS bigint) AS c11 FROM (SELECT s3.c8 AS c10 FROM (SELECT "dept" AS c8 FROM "remote_lake"."hr"."dept") AS s3) AS s4) AS s6;

-- union
-- SELECT region FROM people UNION SELECT title FROM dept
SELECT s6.c11 AS c11 FROM (SELECT s4.c7 AS c11, s4.__sqe_visible_1 AS __sqe_visible_2 FROM (SELECT s2.c3 AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c3 AS c3, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "region" AS c3, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s4 WHERE s4.__sqe_visible_1 UNION ALL SELECT s5.c10 AS c11, TRUE AS __sqe_visible_2 FROM (SELECT s3.c9 AS c10 FROM (SELECT "title" AS c9 FROM "remote_lake"."hr"."dept") AS s3) AS s5) AS s6 GROUP BY 1;

-- intersect
-- SELECT dept, ssn FROM people INTERSECT SELECT dept, title FROM dept
SELECT s4.c7 AS c13, s4.c8 AS c14 FROM (SELECT s2.c5 AS c7, s2.c6 AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s4 WHERE s4.__sqe_visible_1 INTERSECT DISTINCT SELECT s5.c11 AS c13, s5.c12 AS c14 FROM (SELECT s3.c9 AS c11, s3.c10 AS c12 FROM (SELECT "dept" AS c9, "title" AS c10 FROM "remote_lake"."hr"."dept") AS s3) AS s5;

-- intersect all
-- SELECT dept FROM people INTERSECT ALL SELECT dept FROM dept
SELECT s4.c7 AS c11 FROM (SELECT s2.c5 AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s4 WHERE s4.__sqe_visible_1 INTERSECT ALL SELECT s5.c10 AS c11 FROM (SELECT s3.c8 AS c10 FROM (SELECT "dept" AS c8 FROM "remote_lake"."hr"."dept") AS s3) AS s5;

-- except
-- SELECT dept FROM people EXCEPT SELECT dept FROM dept
SELECT s4.c7 AS c11 FROM (SELECT s2.c5 AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s4 WHERE s4.__sqe_visible_1 EXCEPT DISTINCT SELECT s5.c10 AS c11 FROM (SELECT s3.c8 AS c10 FROM (SELECT "dept" AS c8 FROM "remote_lake"."hr"."dept") AS s3) AS s5;

-- except all
-- SELECT dept FROM dept EXCEPT ALL SELECT dept FROM people
SELECT s4.c3 AS c11 FROM (SELECT s1.c1 AS c3 FROM (SELECT "dept" AS c1 FROM "remote_lake"."hr"."dept") AS s1) AS s4 EXCEPT ALL SELECT s5.c10 AS c11 FROM (SELECT s3.c8 AS c10, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c8 AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c8, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s2 WHERE s2.__sqe_visible_1) AS s3) AS s5 WHERE s5.__sqe_visible_1;

-- guarded above union all
-- SELECT * FROM (SELECT id FROM people UNION ALL SELECT dept FROM dept) u WHERE 12 / (id - 2) > 0
SELECT s9.c13 AS c14 FROM (SELECT s8.c13 AS c13, s8.__sqe_visible_2 AS __sqe_visible_2 FROM (SELECT s7.c12 AS c13, s7.__sqe_visible_2 AS __sqe_visible_2 FROM (SELECT s5.c7 AS c12, s5.__sqe_visible_1 AS __sqe_visible_2 FROM (SELECT s2.c1 AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s5 WHERE s5.__sqe_visible_1 UNION ALL SELECT s6.c11 AS c12, TRUE AS __sqe_visible_2 FROM (SELECT CAST(s4.c10 AS bigint) AS c11 FROM (SELECT s3.c8 AS c10 FROM (SELECT "dept" AS c8 FROM "remote_lake"."hr"."dept") AS s3) AS s4) AS s6) AS s7) AS s8 WHERE CASE WHEN s8.__sqe_visible_2 THEN ((CAST(12 AS bigint) / (s8.c13 - CAST(2 AS bigint))) > CAST(0 AS bigint)) END) AS s9;

-- guarded above union
-- SELECT x FROM (SELECT id AS x FROM people UNION SELECT dept FROM dept) t WHERE 12 / (x - 2) > 0
SELECT s10.c13 AS c14 FROM (SELECT s9.c13 AS c13, s9.__sqe_visible_3 AS __sqe_visible_3 FROM (SELECT s8.c12 AS c13, s8.__sqe_visible_3 AS __sqe_visible_3 FROM (SELECT s7.c12 AS c12, bool_and(s7.__sqe_visible_2) AS __sqe_visible_3 FROM (SELECT s5.c7 AS c12, s5.__sqe_visible_1 AS __sqe_visible_2 FROM (SELECT s2.c1 AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s5 WHERE s5.__sqe_visible_1 UNION ALL SELECT s6.c11 AS c12, TRUE AS __sqe_visible_2 FROM (SELECT CAST(s4.c10 AS bigint) AS c11 FROM (SELECT s3.c8 AS c10 FROM (SELECT "dept" AS c8 FROM "remote_lake"."hr"."dept") AS s3) AS s4) AS s6) AS s7 GROUP BY 1) AS s8) AS s9 WHERE CASE WHEN s9.__sqe_visible_3 THEN ((CAST(12 AS bigint) / (s9.c13 - CAST(2 AS bigint))) > CAST(0 AS bigint)) END) AS s10;

-- ranking
-- SELECT id, row_number() OVER (ORDER BY id), rank() OVER (PARTITION BY dept ORDER BY name), dense_rank() OVER (ORDER BY dept NULLS FIRST) FROM people
SELECT s5.c1 AS c10, s5.c7 AS c11, s5.c8 AS c12, s5.c9 AS c13 FROM (SELECT s4.c1 AS c1, s4.c2 AS c2, s4.c5 AS c5, s4.c7 AS c7, s4.c8 AS c8, dense_rank() OVER (ORDER BY s4.c5 ASC NULLS FIRST) AS c9, s4.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s3.c1 AS c1, s3.c2 AS c2, s3.c5 AS c5, s3.c7 AS c7, rank() OVER (PARTITION BY s3.c5 ORDER BY s3.c2 COLLATE "C" ASC NULLS LAST) AS c8, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c5 AS c5, row_number() OVER (ORDER BY s2.c1 ASC NULLS LAST) AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3) AS s4) AS s5;

-- window aggregates
-- SELECT id, count(*) OVER (PARTITION BY dept), max(name) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM people
SELECT s4.c1 AS c9, s4.c7 AS c10, s4.c8 AS c11 FROM (SELECT s3.c1 AS c1, s3.c2 AS c2, s3.c5 AS c5, s3.c7 AS c7, max(s3.c2 COLLATE "C") OVER (ORDER BY s3.c1 ASC NULLS LAST ROWS BETWEEN CAST(1 AS bigint) PRECEDING AND CAST(1 AS bigint) FOLLOWING) AS c8, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c5 AS c5, count(*) OVER (PARTITION BY s2.c5) AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3) AS s4;

-- lag and lead
-- SELECT id, lag(name) OVER (ORDER BY id), lead(id, 2, -1) OVER (ORDER BY id) FROM people
SELECT s3.c1 AS c9, s3.c7 AS c10, s3.c8 AS c11 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, lag(s2.c2) OVER (ORDER BY s2.c1 ASC NULLS LAST) AS c7, lead(s2.c1, 2, CAST(-1 AS bigint)) OVER (ORDER BY s2.c1 ASC NULLS LAST) AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3;

-- frame values
-- SELECT id, first_value(ssn) OVER (ORDER BY name DESC), last_value(id) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM people
SELECT s4.c1 AS c9, s4.c7 AS c10, s4.c8 AS c11 FROM (SELECT s3.c1 AS c1, s3.c2 AS c2, s3.c6 AS c6, s3.c7 AS c7, last_value(s3.c1) OVER (ORDER BY s3.c1 ASC NULLS LAST ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS c8, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c6 AS c6, first_value(s2.c6) OVER (ORDER BY s2.c2 COLLATE "C" DESC NULLS FIRST) AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c6 AS c6, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3) AS s4;

-- guarded window arguments
-- SELECT id, min(12 / (id - 2)) OVER (PARTITION BY 10 / (id - 2) ORDER BY id) FROM people
SELECT s3.c1 AS c8, s3.c7 AS c9 FROM (SELECT s2.c1 AS c1, min(CASE WHEN s2.__sqe_visible_1 THEN (CAST(12 AS bigint) / (s2.c1 - CAST(2 AS bigint))) END) OVER (PARTITION BY CASE WHEN s2.__sqe_visible_1 THEN (CAST(10 AS bigint) / (s2.c1 - CAST(2 AS bigint))) END ORDER BY s2.c1 ASC NULLS LAST) AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3;

-- distinct on
-- SELECT DISTINCT ON (dept) dept, id FROM people ORDER BY dept, id DESC
SELECT s6.c7 AS c7, s6.c8 AS c8 FROM (SELECT s5.c7 AS c7, s5.c8 AS c8, s5.c9 AS c9, s5.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s4.c7 AS c7, s4.c8 AS c8, s4.c9 AS c9, s4.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s3.c7 AS c7, s3.c8 AS c8, row_number() OVER (PARTITION BY s3.c7 ORDER BY s3.c7 ASC NULLS LAST, s3.c8 DESC NULLS FIRST) AS c9, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c5 AS c7, s2.c1 AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3) AS s4 WHERE (s4.c9 = CAST(1 AS bigint))) AS s5 ORDER BY s5.c7 ASC NULLS LAST, s5.c8 DESC NULLS FIRST) AS s6 ORDER BY s6.c7 ASC NULLS LAST, s6.c8 DESC NULLS FIRST;

-- scalar subquery
-- SELECT id, (SELECT max(12 / (id - 2)) FROM people) FROM people
SELECT s2.c1 AS c15, CASE WHEN s2.__sqe_visible_1 THEN (SELECT s5.c13 AS c14 FROM (SELECT max(CASE WHEN s4.__sqe_visible_2 THEN (CAST(12 AS bigint) / (s4.c7 - CAST(2 AS bigint))) END) AS c13 FROM (SELECT s3.c7 AS c7, s3.__sqe_visible_2 AS __sqe_visible_2 FROM (SELECT "id" AS c7, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_2 FROM "remote_lake"."hr"."people") AS s3 WHERE s3.__sqe_visible_2) AS s4) AS s5) END AS c16 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- exists and in subqueries
-- SELECT title, EXISTS (SELECT 1 FROM people WHERE 10 / (id - 2) > 1), dept IN (SELECT dept FROM people) FROM dept
SELECT s1.c2 AS c17, EXISTS (SELECT 1 AS c9 FROM (SELECT s3.c3 AS c3, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c3 AS c3, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c3, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s2 WHERE s2.__sqe_visible_1) AS s3 WHERE CASE WHEN s3.__sqe_visible_1 THEN ((CAST(10 AS bigint) / (s3.c3 - CAST(2 AS bigint))) > CAST(1 AS bigint)) END) AS s4) AS c18, ((s1.c1) IN (SELECT s6.c14 AS c16 FROM (SELECT s5.c14 AS c14, s5.__sqe_visible_2 AS __sqe_visible_2 FROM (SELECT "dept" AS c14, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_2 FROM "remote_lake"."hr"."people") AS s5 WHERE s5.__sqe_visible_2) AS s6)) AS c19 FROM (SELECT "dept" AS c1, "title" AS c2 FROM "remote_lake"."hr"."dept") AS s1;

-- sample of a computed 100 percent
-- SELECT count(*) FROM people TABLESAMPLE BERNOULLI (50 * 2) REPEATABLE (1 + 2)
SELECT s3.c7 AS c8 FROM (SELECT count(*) AS c7 FROM (SELECT s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT 1 AS c, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3;

-- sample of 0 percent
-- SELECT id FROM people TABLESAMPLE SYSTEM (0)
SELECT s3.c1 AS c7 FROM (SELECT s2.c1 AS c1, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE FALSE) AS s3;

-- random
-- SELECT random() >= 0 AND random() < 1
SELECT ((random() >= CAST('0' AS double precision)) AND (random() < CAST('1' AS double precision))) AS c1 FROM (SELECT 1 AS c) AS s1;

-- random in a WITH query read once
-- WITH r AS (SELECT id, random() AS x FROM people) SELECT id, x FROM r
WITH w9 AS MATERIALIZED (SELECT s2.c1 AS c7, random() AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) SELECT s3.c10 AS c12, s3.c11 AS c13 FROM (SELECT w9.c7 AS c10, w9.c8 AS c11, w9.__sqe_visible_1 AS __sqe_visible_2 FROM w9) AS s3;

-- random in a WITH query read twice
-- WITH r AS (SELECT random() AS x) SELECT a.x FROM r a, r b
WITH w2 AS MATERIALIZED (SELECT random() AS c1 FROM (SELECT 1 AS c) AS s1) SELECT s4.c3 AS c5 FROM (SELECT s2.c3 AS c3 FROM (SELECT w2.c1 AS c3 FROM w2) AS s2 INNER JOIN (SELECT 1 AS c FROM w2) AS s3 ON TRUE) AS s4;

-- lateral over a secured relation
-- SELECT p.id, x.title, x.q FROM people p CROSS JOIN LATERAL (SELECT d.title, 10 / (p.id - 2) AS q FROM dept d WHERE d.dept = p.dept ORDER BY d.title LIMIT 1) x
SELECT s10.c1 AS c13, s10.c11 AS c14, s10.c12 AS c15 FROM (SELECT s2.c1 AS c1, s2.c5 AS c5, s9.c11 AS c11, s9.c12 AS c12, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 CROSS JOIN LATERAL (SELECT s8.c9 AS c11, s8.c10 AS c12 FROM (SELECT s7.c9 AS c9, s7.c10 AS c10 FROM (SELECT s6.c9 AS c9, s6.c10 AS c10 FROM (SELECT s5.c8 AS c9, CASE WHEN s2.__sqe_visible_1 THEN (CAST(10 AS bigint) / (s2.c1 - CAST(2 AS bigint))) END AS c10 FROM (SELECT s4.c8 AS c8 FROM (SELECT s3.c7 AS c7, s3.c8 AS c8 FROM (SELECT "dept" AS c7, "title" AS c8 FROM "remote_lake"."hr"."dept") AS s3 WHERE (s3.c7 = s2.c5)) AS s4) AS s5) AS s6 ORDER BY s6.c9 COLLATE "C" ASC NULLS LAST) AS s7 ORDER BY s7.c9 COLLATE "C" ASC NULLS LAST FETCH FIRST 1 ROWS ONLY) AS s8 ORDER BY s8.c9 COLLATE "C" ASC NULLS LAST) AS s9) AS s10;

-- left lateral reading a secured relation
-- SELECT d.title, x.ssn, x.n FROM dept d LEFT JOIN LATERAL (SELECT max(p.ssn) AS ssn, count(*) AS n FROM people p WHERE p.dept = d.dept) x ON true WHERE 10 / (d.dept - 2) > 0
SELECT s9.c2 AS c15, s9.c13 AS c16, s9.c14 AS c17 FROM (SELECT s8.c1 AS c1, s8.c2 AS c2, s8.c13 AS c13, s8.c14 AS c14 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s7.c13 AS c13, s7.c14 AS c14 FROM (SELECT "dept" AS c1, "title" AS c2 FROM "remote_lake"."hr"."dept") AS s1 LEFT JOIN LATERAL (SELECT s6.c11 AS c13, s6.c12 AS c14 FROM (SELECT s5.c9 AS c11, s5.c10 AS c12 FROM (SELECT max(s4.c8 COLLATE "C") AS c9, count(*) AS c10 FROM (SELECT s3.c8 AS c8, s3.c7 AS c7, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c8 AS c8, s2.c7 AS c7, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c8, "dept" AS c7, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s2 WHERE s2.__sqe_visible_1) AS s3 WHERE (s3.c7 = s1.c1)) AS s4) AS s5) AS s6) AS s7 ON TRUE) AS s8 WHERE ((10 / (s8.c1 - 2)) > 0)) AS s9;

-- left lateral over VALUES
-- SELECT v.a, x.n FROM (VALUES (10), (30)) v(a) LEFT JOIN LATERAL (SELECT count(*) AS n FROM people p WHERE p.dept = v.a) x ON true
SELECT s10.c2 AS c12, s10.c11 AS c13 FROM (SELECT s3.c2 AS c2, s9.c11 AS c11 FROM (SELECT s2.c1 AS c2 FROM (SELECT s1.c1 AS c1 FROM (VALUES (10), (30)) AS s1(c1)) AS s2) AS s3 LEFT JOIN LATERAL (SELECT s8.c10 AS c11 FROM (SELECT s7.c9 AS c10 FROM (SELECT count(*) AS c9 FROM (SELECT s5.c7 AS c7, s5.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s4.c7 AS c7, s4.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c7, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s4 WHERE s4.__sqe_visible_1) AS s5 WHERE (s5.c7 = s3.c2)) AS s6) AS s7) AS s8) AS s9 ON TRUE) AS s10;

-- count of distinct rows
-- SELECT count(DISTINCT (region, name)), count((ssn, dept)) FROM people
SELECT s3.c7 AS c9, s3.c8 AS c10 FROM (SELECT count(DISTINCT ROW(s2.c3, s2.c2)) AS c7, count(ROW(s2.c6, s2.c5)) AS c8 FROM (SELECT s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3;

