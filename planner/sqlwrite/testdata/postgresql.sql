-- select masked (optimized=false)
-- SELECT id, ssn FROM people
SELECT s2.c1 AS c7, s2.c6 AS c8 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- select masked (optimized=true)
-- SELECT id, ssn FROM people
SELECT s2.c1 AS c7, s2.c6 AS c8 FROM (SELECT s1.c1 AS c1, s1.c6 AS c6, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2;

-- guarded division (optimized=false)
-- SELECT id FROM people WHERE 1/(id-2) > 0
SELECT s3.c1 AS c7 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c3 AS c3, s2.c6 AS c6, s2.c5 AS c5, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE CASE WHEN s2.__sqe_visible_1 THEN ((CAST(1 AS bigint) / (s2.c1 - CAST(2 AS bigint))) > CAST(0 AS bigint)) END) AS s3;

-- guarded division (optimized=true)
-- SELECT id FROM people WHERE 1/(id-2) > 0
SELECT s3.c1 AS c7 FROM (SELECT s2.c1 AS c1, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE CASE WHEN s2.__sqe_visible_1 THEN ((CAST(1 AS bigint) / (s2.c1 - CAST(2 AS bigint))) > CAST(0 AS bigint)) END) AS s3;

-- order and limit (optimized=false)
-- SELECT id, ssn FROM people WHERE id > 1 ORDER BY name DESC LIMIT 3 OFFSET 1
SELECT s6.c7 AS c7, s6.c8 AS c8 FROM (SELECT s5.c7 AS c7, s5.c8 AS c8, s5.c9 AS c9, s5.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s4.c7 AS c7, s4.c8 AS c8, s4.c9 AS c9, s4.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s3.c1 AS c7, s3.c6 AS c8, s3.c2 AS c9, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c3 AS c3, s2.c6 AS c6, s2.c5 AS c5, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE (s2.c1 > CAST(1 AS bigint))) AS s3) AS s4 ORDER BY s4.c9 COLLATE "C" DESC NULLS FIRST) AS s5 ORDER BY s5.c9 COLLATE "C" DESC NULLS FIRST OFFSET 1 ROWS FETCH FIRST 3 ROWS ONLY) AS s6 ORDER BY s6.c9 COLLATE "C" DESC NULLS FIRST;

-- order and limit (optimized=true)
-- SELECT id, ssn FROM people WHERE id > 1 ORDER BY name DESC LIMIT 3 OFFSET 1
SELECT s6.c7 AS c7, s6.c8 AS c8 FROM (SELECT s5.c7 AS c7, s5.c8 AS c8, s5.c9 AS c9, s5.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s4.c7 AS c7, s4.c8 AS c8, s4.c9 AS c9, s4.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s3.c1 AS c7, s3.c6 AS c8, s3.c2 AS c9, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c6 AS c6, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c6 AS c6, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE (s2.c1 > CAST(1 AS bigint))) AS s3) AS s4 ORDER BY s4.c9 COLLATE "C" DESC NULLS FIRST) AS s5 ORDER BY s5.c9 COLLATE "C" DESC NULLS FIRST OFFSET 1 ROWS FETCH FIRST 3 ROWS ONLY) AS s6 ORDER BY s6.c9 COLLATE "C" DESC NULLS FIRST;

-- join an open table (optimized=false)
-- SELECT p.name, d.title FROM people p JOIN dept d ON p.dept = d.dept
SELECT s4.c2 AS c9, s4.c8 AS c10 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c3 AS c3, s2.c6 AS c6, s2.c5 AS c5, s3.c7 AS c7, s3.c8 AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 INNER JOIN (SELECT "dept" AS c7, "title" AS c8 FROM "remote_lake"."hr"."dept") AS s3 ON (s2.c5 = s3.c7)) AS s4;

-- join an open table (optimized=true)
-- SELECT p.name, d.title FROM people p JOIN dept d ON p.dept = d.dept
SELECT s4.c2 AS c9, s4.c8 AS c10 FROM (SELECT s2.c7 AS c7, s2.c8 AS c8, s3.c2 AS c2, s3.c5 AS c5, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c7, "title" AS c8 FROM "remote_lake"."hr"."dept") AS s2 INNER JOIN (SELECT s1.c2 AS c2, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s3 ON (s3.c5 = s2.c7)) AS s4;

-- left join guarded (optimized=false)
-- SELECT d.title, 10 / p.dept FROM dept d LEFT JOIN people p ON p.dept = d.dept
SELECT s4.c2 AS c9, CASE WHEN COALESCE(s4.__sqe_visible_1, TRUE) THEN (10 / s4.c7) END AS c10 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s3.c3 AS c3, s3.c4 AS c4, s3.c5 AS c5, s3.c8 AS c8, s3.c7 AS c7, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c1, "title" AS c2 FROM "remote_lake"."hr"."dept") AS s2 LEFT JOIN (SELECT s1.c3 AS c3, s1.c4 AS c4, s1.c5 AS c5, s1.c8 AS c8, s1.c7 AS c7, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c3, "name" AS c4, "region" AS c5, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c8, "dept" AS c7, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s3 ON (s3.c7 = s2.c1)) AS s4;

-- left join guarded (optimized=true)
-- SELECT d.title, 10 / p.dept FROM dept d LEFT JOIN people p ON p.dept = d.dept
SELECT s4.c2 AS c9, CASE WHEN COALESCE(s4.__sqe_visible_1, TRUE) THEN (10 / s4.c7) END AS c10 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s3.c7 AS c7, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c1, "title" AS c2 FROM "remote_lake"."hr"."dept") AS s2 LEFT JOIN (SELECT s1.c7 AS c7, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "dept" AS c7, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s3 ON (s3.c7 = s2.c1)) AS s4;

-- aggregate (optimized=false)
-- SELECT region, count(*), count(DISTINCT ssn), max(name) FROM people GROUP BY region HAVING count(*) > 1
SELECT s4.c7 AS c11, s4.c8 AS c12, s4.c9 AS c13, s4.c10 AS c14 FROM (SELECT s3.c7 AS c7, s3.c8 AS c8, s3.c9 AS c9, s3.c10 AS c10, s3.__sqe_visible_2 AS __sqe_visible_2 FROM (SELECT s2.c3 AS c7, count(*) AS c8, count(DISTINCT s2.c6) AS c9, max(s2.c2 COLLATE "C") AS c10, bool_and(s2.__sqe_visible_1) AS __sqe_visible_2 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 GROUP BY 1) AS s3 WHERE (s3.c8 > CAST(1 AS bigint))) AS s4;

-- aggregate (optimized=true)
-- SELECT region, count(*), count(DISTINCT ssn), max(name) FROM people GROUP BY region HAVING count(*) > 1
SELECT s4.c7 AS c11, s4.c8 AS c12, s4.c9 AS c13, s4.c10 AS c14 FROM (SELECT s3.c7 AS c7, s3.c8 AS c8, s3.c9 AS c9, s3.c10 AS c10, s3.__sqe_visible_2 AS __sqe_visible_2 FROM (SELECT s2.c3 AS c7, count(*) AS c8, count(DISTINCT s2.c6) AS c9, max(s2.c2 COLLATE "C") AS c10, bool_and(s2.__sqe_visible_1) AS __sqe_visible_2 FROM (SELECT s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 GROUP BY 1) AS s3 WHERE (s3.c8 > CAST(1 AS bigint))) AS s4;

-- count (optimized=false)
-- SELECT count(*) FROM people
SELECT s3.c7 AS c8 FROM (SELECT count(*) AS c7 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3;

-- count (optimized=true)
-- SELECT count(*) FROM people
SELECT s3.c7 AS c8 FROM (SELECT count(*) AS c7 FROM (SELECT s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT 1 AS c, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3;

-- sort only (optimized=false)
-- SELECT name, ssn FROM people ORDER BY name
SELECT s3.c7 AS c7, s3.c8 AS c8 FROM (SELECT s2.c2 AS c7, s2.c6 AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3 ORDER BY s3.c7 COLLATE "C" ASC NULLS LAST;

-- sort only (optimized=true)
-- SELECT name, ssn FROM people ORDER BY name
SELECT s3.c7 AS c7, s3.c8 AS c8 FROM (SELECT s2.c2 AS c7, s2.c6 AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c2 AS c2, s1.c6 AS c6, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2) AS s3 ORDER BY s3.c7 COLLATE "C" ASC NULLS LAST;

-- full join (optimized=false)
-- SELECT d.title, p.id / 2 FROM people p FULL JOIN dept d ON p.dept = d.dept
SELECT s4.c8 AS c9, CASE WHEN COALESCE(s4.__sqe_visible_1, TRUE) THEN (s4.c1 / CAST(2 AS bigint)) END AS c10 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c3 AS c3, s2.c6 AS c6, s2.c5 AS c5, s3.c7 AS c7, s3.c8 AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 FULL JOIN (SELECT "dept" AS c7, "title" AS c8 FROM "remote_lake"."hr"."dept") AS s3 ON (s2.c5 = s3.c7)) AS s4;

-- full join (optimized=true)
-- SELECT d.title, p.id / 2 FROM people p FULL JOIN dept d ON p.dept = d.dept
SELECT s4.c8 AS c9, CASE WHEN COALESCE(s4.__sqe_visible_1, TRUE) THEN (s4.c1 / CAST(2 AS bigint)) END AS c10 FROM (SELECT s2.c1 AS c1, s2.c5 AS c5, s3.c7 AS c7, s3.c8 AS c8, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 FULL JOIN (SELECT "dept" AS c7, "title" AS c8 FROM "remote_lake"."hr"."dept") AS s3 ON (s2.c5 = s3.c7)) AS s4;

-- negative integers (optimized=false)
-- SELECT id - -5, -dept FROM people WHERE dept > -1
SELECT CASE WHEN s3.__sqe_visible_1 THEN (s3.c1 - CAST(-5 AS bigint)) END AS c7, CASE WHEN s3.__sqe_visible_1 THEN (- s3.c5) END AS c8 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c3 AS c3, s2.c6 AS c6, s2.c5 AS c5, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE (s2.c5 > (-1))) AS s3;

-- negative integers (optimized=true)
-- SELECT id - -5, -dept FROM people WHERE dept > -1
SELECT CASE WHEN s3.__sqe_visible_1 THEN (s3.c1 - CAST(-5 AS bigint)) END AS c7, CASE WHEN s3.__sqe_visible_1 THEN (- s3.c5) END AS c8 FROM (SELECT s2.c1 AS c1, s2.c5 AS c5, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE (s2.c5 > (-1))) AS s3;

-- semi join (optimized=true)
-- SELECT id FROM people WHERE dept IN (SELECT dept FROM dept WHERE title <> 'x')
SELECT s6.c1 AS c10 FROM (SELECT s4.c1 AS c1, s4.c5 AS c5, s4.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s4 WHERE EXISTS (SELECT 1 FROM (SELECT s3.c7 AS c7 FROM (SELECT s2.c7 AS c7, s2.c8 AS c8 FROM (SELECT "dept" AS c7, "title" AS c8 FROM "remote_lake"."hr"."dept") AS s2 WHERE (s2.c8 <> 'x')) AS s3) AS s5 WHERE (s4.c5 = s5.c7))) AS s6;

-- anti join (optimized=true)
-- SELECT id FROM people p WHERE NOT EXISTS (SELECT 1 FROM dept d WHERE d.dept = p.dept AND 100 / d.dept > 1)
SELECT s5.c1 AS c10 FROM (SELECT s3.c1 AS c1, s3.c5 AS c5, s3.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s3 WHERE NOT EXISTS (SELECT 1 FROM (SELECT s2.c7 AS c7 FROM (SELECT "dept" AS c7 FROM "remote_lake"."hr"."dept") AS s2 WHERE ((100 / s2.c7) > 1)) AS s4 WHERE (s4.c7 = s3.c5))) AS s5;

-- quoting (optimized=false)
-- SELECT name FROM people WHERE name = 'O''Brien\ "q"'
SELECT s3.c2 AS c7 FROM (SELECT s2.c1 AS c1, s2.c2 AS c2, s2.c3 AS c3, s2.c6 AS c6, s2.c5 AS c5, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c1 AS c1, s1.c2 AS c2, s1.c3 AS c3, s1.c6 AS c6, s1.c5 AS c5, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "id" AS c1, "name" AS c2, "region" AS c3, CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS text) ELSE 'xxx-xx-xxxx' END AS c6, "dept" AS c5, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE (s2.c2 = E'O''Brien\\ "q"')) AS s3;

-- quoting (optimized=true)
-- SELECT name FROM people WHERE name = 'O''Brien\ "q"'
SELECT s3.c2 AS c7 FROM (SELECT s2.c2 AS c2, s2.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT s1.c2 AS c2, s1.__sqe_visible_1 AS __sqe_visible_1 FROM (SELECT "name" AS c2, COALESCE(("region" = 'EU'), FALSE) AS __sqe_visible_1 FROM "remote_lake"."hr"."people") AS s1 WHERE s1.__sqe_visible_1) AS s2 WHERE (s2.c2 = E'O''Brien\\ "q"')) AS s3;

