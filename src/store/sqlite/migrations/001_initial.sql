-- 1: the initial schema. Times are Unix seconds (UTC) unless a column says otherwise.

CREATE TABLE rules (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    url_patterns  TEXT    NOT NULL,  -- JSON array of the rule's <url> patterns
    xml           TEXT    NOT NULL,  -- the rule file as uploaded
    created       INTEGER NOT NULL,
    updated       INTEGER NOT NULL
);

CREATE TABLE sources (
    id                   INTEGER PRIMARY KEY,
    url                  TEXT    NOT NULL UNIQUE,
    engine               TEXT,              -- engine of the last extraction (kebab-case name)
    confidence           REAL,
    rule_id              INTEGER REFERENCES rules (id) ON DELETE SET NULL,
    full_text            INTEGER NOT NULL DEFAULT 0,
    update_interval      INTEGER NOT NULL,  -- seconds
    title                TEXT,              -- the page's, from the last extraction
    page_date            TEXT,              -- RFC 3339 with the page's offset
    encoding             TEXT,
    last_fetch           INTEGER,
    last_duration_ms     INTEGER,
    last_change          INTEGER,           -- last time an item was added or changed
    next_due             INTEGER NOT NULL,
    http_status          INTEGER,
    error                TEXT,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    health               TEXT    NOT NULL DEFAULT 'ok',
    fresh                INTEGER NOT NULL DEFAULT 1,  -- inserted, no fetch recorded yet
    etag                 TEXT,
    last_modified        TEXT,
    item_count           INTEGER NOT NULL DEFAULT 0,
    created              INTEGER NOT NULL
);

CREATE INDEX sources_due ON sources (fresh, next_due);

CREATE TABLE items (
    id          INTEGER PRIMARY KEY,
    source_id   INTEGER NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    guid        TEXT    NOT NULL,
    subject     TEXT,
    title       TEXT    NOT NULL,
    link        TEXT,
    date        TEXT    NOT NULL,  -- RFC 3339 with the page's offset; first_seen for undated items
    date_ts     INTEGER NOT NULL,  -- `date` in Unix seconds, for ordering
    description TEXT,
    content     TEXT,
    author      TEXT,
    position    INTEGER NOT NULL,  -- index on the page when last seen
    first_seen  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL,
    UNIQUE (source_id, guid)
);

CREATE INDEX items_newest ON items (source_id, date_ts DESC, position);

CREATE TABLE templates (
    site       TEXT PRIMARY KEY,  -- host the template was trained for
    xml        TEXT NOT NULL,     -- the learned template, written as a mapping rule
    confidence REAL NOT NULL,
    trained_at INTEGER NOT NULL
);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
