-- The write mix: an INSERT into one table and an UPDATE of another, each
-- its own commit.
\set id random(1, 1000)
INSERT INTO load.events (client, seq, note, at) VALUES (:client_id, :id, 'load', now());
UPDATE load.counters SET hits = hits + 1 WHERE id = :id;
