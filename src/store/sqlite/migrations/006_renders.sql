-- 6: each source's feed as last rendered, in every format, so that `/rss` reads one row instead
-- of rendering its items. The body is a template: a NUL where the self link goes (it depends
-- on the reader's address). A render is good while the source's feed_version, its update
-- interval (the `ttl`) and the number of items per feed are the ones it was made with.
-- Sources stored before this migration have none until a refresh or a request renders them.
CREATE TABLE renders (
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    format TEXT NOT NULL,
    feed_version INTEGER NOT NULL,
    update_interval INTEGER NOT NULL,
    item_limit INTEGER NOT NULL,
    last_modified INTEGER NOT NULL,
    etag TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (source_id, format)
);
