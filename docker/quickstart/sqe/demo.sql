-- spec/002's demo state, written through SQE (docker/quickstart/sqe/setup.sh).
CREATE SCHEMA IF NOT EXISTS acdemo;
CREATE TABLE IF NOT EXISTS acdemo.orders (id int NOT NULL, region text, ssn text);
INSERT INTO acdemo.orders
SELECT v.id, v.region, v.ssn
FROM (VALUES (1, 'EU', '111-11-1111'), (2, 'US', '222-22-2222'), (3, 'EU', '333-33-3333')) AS v (id, region, ssn)
WHERE NOT EXISTS (SELECT 1 FROM acdemo.orders);

-- Gate one: discovery for both roles, reading for engineer.
GRANT USAGE ON DATABASE sales_wh TO ROLE "analyst";
GRANT USAGE ON SCHEMA sales_wh.acdemo TO ROLE "analyst";
GRANT USAGE ON DATABASE sales_wh TO ROLE "engineer";
GRANT USAGE ON SCHEMA sales_wh.acdemo TO ROLE "engineer";
GRANT SELECT ON sales_wh.acdemo.orders TO ROLE "engineer";

-- Gate two: what engineers see.
CREATE OR REPLACE POLICY acdemo_mask_ssn
  ON TABLE sales_wh.acdemo.orders
  COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn;
CREATE OR REPLACE POLICY acdemo_rowfilter_eu
  ON TABLE sales_wh.acdemo.orders
  ROW FILTER TO ROLE engineer USING (region = 'EU');
