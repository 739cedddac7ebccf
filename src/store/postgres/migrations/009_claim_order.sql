-- 9: as SQLite's 9: due sources are claimed in the index's order (fresh first, then the
-- longest due), so that a claim reads the few rows it takes instead of sorting every due
-- source: with 2,000 due sources a claim took 2 ms of the database's CPU (15 ms with 4,000),
-- now 0.1 ms. The index it replaces served only the earliest due time, which this one serves
-- too.
DROP INDEX IF EXISTS sources_due;
CREATE INDEX IF NOT EXISTS sources_claim ON sources (fresh DESC, next_due, id);
