-- The table and psql commands behind the .golden files, run against
-- PostgreSQL 15 (UTF8, TimeZone UTC, DateStyle ISO). goldenCopyBatch in
-- copy_out_test.go holds the same rows as Arrow.
create table copy_golden (i bigint, t text, n numeric(12,2), d date, b boolean, f float8, ts timestamp);
insert into copy_golden values
 (1, 'plain', 120.50, '2024-01-15', true, 1.5, '2024-01-15 10:20:30.5'),
 (-2, E'tab\there\\back|pipe,"q"\nnl\rcr\b\f\v\x01;''', -0.05, '1999-12-31', false, 'NaN', '1970-01-01 00:00:00'),
 (3, NULL, NULL, NULL, NULL, NULL, NULL),
 (4, '', 0, '2000-01-01', true, -0.0, '2000-01-01 00:00:00.000001'),
 (5, 'x', 1e9, '0044-03-15 BC', false, 1e20, '2262-04-11 23:47:16'),
 (6, '\.', 7, '2024-02-29', true, 'Infinity', '1900-01-01 12:00:00'),
 (7, 'héllo wörld', 0.01, '2024-06-01', true, 0.1, '2024-06-01 00:00:00');
\copy (select * from copy_golden order by i) to 'text.golden'
\copy (select * from copy_golden order by i) to 'text_header_pipe.golden' with (format text, header, delimiter '|', null 'NULL')
\copy (select * from copy_golden order by i) to 'csv_header.golden' with (format csv, header)
\copy (select * from copy_golden order by i) to 'csv_custom.golden' with (format csv, delimiter ';', quote '''', escape '\', null 'x', force_quote (t, d))
\copy (select * from copy_golden order by i) to 'csv_force_all.golden' with (format csv, force_quote *, header)
\copy (select * from copy_golden order by i) to 'binary.golden' with (format binary)
\copy (select t from copy_golden order by i) to 'csv_single.golden' with (format csv)
