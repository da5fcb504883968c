-- The read mix: a point lookup, an aggregate, and the catalog queries a
-- BI tool sends when it lists tables and columns.
\set id random(1, 100000)
SELECT id, category, price, qty FROM load.items WHERE id = :id;
SELECT category, count(*), sum(qty), avg(price) FROM load.items GROUP BY category ORDER BY category;
SELECT c.relname, a.attname, t.typname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid JOIN pg_catalog.pg_type t ON t.oid = a.atttypid WHERE n.nspname = 'load' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum;
SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'load' ORDER BY table_name, ordinal_position;
