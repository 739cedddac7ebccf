-- 5: as SQLite's 5: the feed a source's page advertises.
ALTER TABLE sources ADD COLUMN page_feed TEXT;
