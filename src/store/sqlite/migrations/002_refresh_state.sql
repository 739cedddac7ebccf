-- 2: what the updater needs to skip unchanged pages, tell failing from dead sources, and let
-- the server cache rendered feeds.

-- SHA-256 of the last page body that was extracted: an identical body is not extracted again.
ALTER TABLE sources ADD COLUMN body_hash TEXT;
-- The last fetch that succeeded (Unix seconds): a source failing since long ago is unhealthy.
ALTER TABLE sources ADD COLUMN last_success INTEGER;
-- Bumped by every merge that changes what the feed shows (an item, the page's title or date).
ALTER TABLE sources ADD COLUMN feed_version INTEGER NOT NULL DEFAULT 0;
