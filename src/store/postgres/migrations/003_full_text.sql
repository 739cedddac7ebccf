-- 3: as SQLite's 3: what the updater tried for each item's full text.
ALTER TABLE items ADD COLUMN article_attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE items ADD COLUMN article_error TEXT;
