-- 6: as SQLite's 6: each source's feed as last rendered, in every format. The body is bytes,
-- not TEXT: it holds a NUL where the self link goes, and PostgreSQL text cannot hold one.
CREATE TABLE renders (
    source_id BIGINT NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    format TEXT NOT NULL,
    feed_version BIGINT NOT NULL,
    update_interval BIGINT NOT NULL,
    item_limit BIGINT NOT NULL,
    last_modified BIGINT NOT NULL,
    etag TEXT NOT NULL,
    body BYTEA NOT NULL,
    PRIMARY KEY (source_id, format)
);
