-- 2: as SQLite's 2: skipping unchanged pages, telling failing from dead sources, caching feeds.
ALTER TABLE sources ADD COLUMN body_hash TEXT;
ALTER TABLE sources ADD COLUMN last_success BIGINT;
ALTER TABLE sources ADD COLUMN feed_version BIGINT NOT NULL DEFAULT 0;
