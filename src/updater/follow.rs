//! What the other servers on a shared store change, applied in this one as the store tells it
//! ([`crate::store::Store::events`]): a changed or deleted feed's kept stamps are dropped
//! ([`super::FeedChanges`]), so the web server reads the feed anew at its next request; the
//! uploaded rules are loaded again when they change. When the store's listener was away,
//! everything is treated so once. This process's own changes are told too; dropping a stamp
//! or loading the rules once more costs a read.

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;

use super::RefreshContext;
use crate::store::StoreEvent;

/// Apply the store's events until it tells no more.
pub async fn follow_store(ctx: Arc<RefreshContext>, mut events: UnboundedReceiver<StoreEvent>) {
    while let Some(event) = events.recv().await {
        match event {
            StoreEvent::FeedChanged(id) => ctx.changes.touch(id),
            StoreEvent::RulesChanged => reload_rules(&ctx).await,
            StoreEvent::Listening => {
                ctx.changes.touch_all();
                reload_rules(&ctx).await;
            }
        }
    }
}

async fn reload_rules(ctx: &Arc<RefreshContext>) {
    let task = ctx.clone();
    match tokio::task::spawn_blocking(move || task.reload_rules()).await {
        Ok(Ok(_)) => {}
        Ok(Err(error)) => tracing::warn!("cannot load the rules another server changed: {error}"),
        Err(error) => tracing::warn!("loading the rules another server changed stopped: {error}"),
    }
}
