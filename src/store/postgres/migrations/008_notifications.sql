-- 8: notifications, so that every server on the database hears at once what another one
-- changed (`listen.rs`). A source whose feed changed (what its stamp holds: version, update
-- interval, last change, item count, full text) or that was deleted is named on the channel
-- `html2rss_feeds` (its id); any change of the rules is told on `html2rss_rules`. They are
-- sent when the transaction commits, so a listener that hears one reads the change. SQLite's
-- 8 is empty: one process owns a SQLite file, and knows what it changed.
CREATE FUNCTION html2rss_feed_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('html2rss_feeds', OLD.id::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER sources_feed_changed AFTER UPDATE ON sources FOR EACH ROW
    WHEN (OLD.feed_version IS DISTINCT FROM NEW.feed_version
          OR OLD.update_interval IS DISTINCT FROM NEW.update_interval
          OR OLD.last_change IS DISTINCT FROM NEW.last_change
          OR OLD.item_count IS DISTINCT FROM NEW.item_count
          OR OLD.full_text IS DISTINCT FROM NEW.full_text)
    EXECUTE FUNCTION html2rss_feed_changed();

CREATE TRIGGER sources_deleted AFTER DELETE ON sources FOR EACH ROW
    EXECUTE FUNCTION html2rss_feed_changed();

CREATE FUNCTION html2rss_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('html2rss_rules', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER rules_changed AFTER INSERT OR UPDATE OR DELETE ON rules FOR EACH STATEMENT
    EXECUTE FUNCTION html2rss_rules_changed();
