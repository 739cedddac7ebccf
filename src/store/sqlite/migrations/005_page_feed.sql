-- 5: the feed a source's page advertises (`<link rel="alternate">`), shown on the home page
-- ("this site already has a feed"). NULL: none, or the page was not read since.
ALTER TABLE sources ADD COLUMN page_feed TEXT;
