-- 9: due sources are claimed in the index's order (fresh first, then the longest due), so
-- that a claim reads the few rows it takes instead of sorting every due source. The index it
-- replaces served only the earliest due time, which this one serves too.
DROP INDEX IF EXISTS sources_due;
CREATE INDEX IF NOT EXISTS sources_claim ON sources (fresh DESC, next_due, id);
