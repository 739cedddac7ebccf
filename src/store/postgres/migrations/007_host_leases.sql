-- 7: host leases, so that politeness to a site holds across every server on the database: one
-- request at a time per host (the lease's holder), and the host's delay, `Retry-After` and
-- back-off after the request (`not_before`). Times are PostgreSQL's own clock
-- (`clock_timestamp()`), not the servers': servers whose clocks disagree still take turns.
-- A lease runs out at `expires`, so a server that dies holding one blocks its host only that
-- long. SQLite's 7 is empty: one process owns a SQLite file, and keeps politeness in memory.
CREATE TABLE host_leases (
    host TEXT PRIMARY KEY,
    -- NULL: nobody holds the host.
    holder TEXT,
    expires TIMESTAMPTZ NOT NULL,
    not_before TIMESTAMPTZ NOT NULL,
    -- Consecutive requests that found the host in trouble (network error, timeout, 429, 5xx).
    failures BIGINT NOT NULL DEFAULT 0
);
