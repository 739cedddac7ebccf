//! Feeds rendered when they change: after a refresh that changed a source's feed (its items,
//! title, update interval), the feed is written in every format and kept in the store, so that
//! readers are served a stored render, never a render of their own. A source stored before
//! renders were kept gets its renders from its next refresh or from the first request for it.

use sha2::{Digest, Sha256};

use super::Schedule;
use crate::feed::{FeedMeta, FeedTemplate, Format};
use crate::store::{SourceId, Store, StoreError, StoredRender};

/// Write the source's feed (its newest `item_limit` items) in every format, without its self
/// link ([`FeedTemplate`]), and keep the renders when the feed did not move on meanwhile.
/// `None` for an unknown source.
pub fn render_stored(store: &Store, id: SourceId, item_limit: usize) -> Result<Option<Vec<StoredRender>>, StoreError> {
    let Some(feed) = store.feed(id, item_limit)? else { return Ok(None) };
    let source = &feed.source;
    let last_modified = source.last_change.unwrap_or(source.created);
    let update_interval = source.settings.update_interval;
    let meta = FeedMeta {
        self_url: None,
        updated: last_modified.fixed_offset(),
        ttl_minutes: Some(Schedule::ttl_minutes(update_interval)),
    };
    let renders: Vec<StoredRender> = [Format::Rss, Format::Atom, Format::Json]
        .into_iter()
        .map(|format| {
            let body = FeedTemplate::write(&feed.page, format, &meta).text().to_string();
            StoredRender {
                format,
                feed_version: source.feed_version,
                update_interval,
                item_limit,
                last_modified,
                etag: hex::encode(&Sha256::digest(body.as_bytes())[..16]),
                body,
            }
        })
        .collect();
    // Not kept when the feed moved on since it was read: the render is still right for the
    // version it says, and the next refresh or request writes the new one.
    store.put_renders(id, &renders)?;
    Ok(Some(renders))
}

/// After a refresh: render the feed when its kept renders are not of its current version.
pub fn keep_renders(store: &Store, id: SourceId, item_limit: usize) -> Result<(), StoreError> {
    if !store.renders_current(id, item_limit)? {
        render_stored(store, id, item_limit)?;
    }
    Ok(())
}
