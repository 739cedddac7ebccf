-- 4: dates from article pages, for items whose list page shows none. Such an item is dated
-- the time it was first seen; the updater then reads its article page (once, or a few times
-- when the page fails) for its publication date.

-- Where the item's date comes from: 'page' (its list page), 'first-seen' (the list page gave
-- none), 'article' (its article page). Items stored before this migration count as 'page':
-- they were served with the date they have, and keep it.
ALTER TABLE items ADD COLUMN date_origin TEXT NOT NULL DEFAULT 'page';
-- Attempts to read a 'first-seen' item's article page for its date (0: never tried).
ALTER TABLE items ADD COLUMN date_attempts INTEGER NOT NULL DEFAULT 0;
