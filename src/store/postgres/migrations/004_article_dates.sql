-- 4: as SQLite's 4: dates from article pages for items whose list page shows none.
ALTER TABLE items ADD COLUMN date_origin TEXT NOT NULL DEFAULT 'page';
ALTER TABLE items ADD COLUMN date_attempts BIGINT NOT NULL DEFAULT 0;
