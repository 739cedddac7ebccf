-- 3: full text for items. The per-source switch (`sources.full_text`) is in 1; this is what the
-- updater tried for each item, so that a page that fails is not fetched at every refresh for
-- ever, and the admin page can say how many failed.

-- Attempts to read the item's article page (0: never tried).
ALTER TABLE items ADD COLUMN article_attempts INTEGER NOT NULL DEFAULT 0;
-- Why the last attempt gave no content; NULL after a success or before any attempt.
ALTER TABLE items ADD COLUMN article_error TEXT;
