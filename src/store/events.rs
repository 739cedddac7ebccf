//! What the processes sharing a store change, told to each of them as it happens: on
//! PostgreSQL the database notifies a listening connection when a feed or the rules change
//! (migration 8, `postgres/listen.rs`). SQLite has no such thing and needs none: one process
//! owns the file and knows what it changed.

use tokio::sync::mpsc::UnboundedReceiver;

use super::{Backend, SourceId, Store};

/// A change to the store, told to every process that listens, the one that made it included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreEvent {
    /// The listener is listening: at start, and again after its connection was lost. Changes
    /// committed before were told to nobody, so whatever was read before may be stale.
    Listening,
    /// The source's feed changed (what its [`super::FeedStamp`] holds), or it was deleted.
    FeedChanged(SourceId),
    /// A rule was added, replaced or deleted.
    RulesChanged,
}

impl Store {
    /// Listen for the changes of every process on the store: `None` on SQLite. Each call opens
    /// a connection of its own, kept (and opened again when it drops) while the receiver lives.
    pub fn events(&self) -> Option<UnboundedReceiver<StoreEvent>> {
        match &*self.backend {
            Backend::Sqlite(_) => None,
            Backend::Postgres(db) => Some(db.listen()),
        }
    }
}
