//! The listener: a connection of its own that `LISTEN`s to the channels migration 8's
//! triggers notify, and passes what it hears on as [`StoreEvent`]s. It is a task on the
//! store's runtime and lives while its receiver does.
//!
//! A lost connection (PostgreSQL restarted, the backend terminated, the network cut) is opened
//! again, after a pause that grows from [`RETRY_FIRST`] to [`RETRY_MAX`] while connecting
//! fails; listening again, it says [`StoreEvent::Listening`] first, since what changed in
//! between was told to nobody. A connection that goes quiet without closing is found out by a
//! ping after [`PING_AFTER`] without a message.

use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio_postgres::{AsyncMessage, Config, NoTls, Notification};

use super::Postgres;
use crate::store::events::StoreEvent;
use crate::store::{BackendError, SourceId};

/// The channels migration 8 notifies: a source's id; and nothing.
const FEEDS: &str = "html2rss_feeds";
const RULES: &str = "html2rss_rules";

const RETRY_FIRST: Duration = Duration::from_millis(500);
const RETRY_MAX: Duration = Duration::from_secs(30);
const PING_AFTER: Duration = Duration::from_secs(30);
const PING_TIMEOUT: Duration = Duration::from_secs(10);

impl Postgres {
    /// Start a listener on the store's runtime.
    pub fn listen(&self) -> UnboundedReceiver<StoreEvent> {
        let mut config = (*self.config).clone();
        // So that an operator (and a test) tells it from the pool's connections.
        let name = format!("{} listener", config.get_application_name().unwrap_or("html2rss"));
        config.application_name(&name);
        let (events, receiver) = unbounded_channel();
        self.runtime().spawn(listen(config, events));
        receiver
    }
}

async fn listen(config: Config, events: UnboundedSender<StoreEvent>) {
    let mut pause = RETRY_FIRST;
    loop {
        match listen_once(&config, &events, &mut pause).await {
            Ok(()) => return,
            Err(error) => {
                if events.is_closed() {
                    return;
                }
                tracing::warn!(
                    "listening for changes on the database: {}; listening again in {pause:?}",
                    crate::store::reason(&*error)
                );
            }
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(RETRY_MAX);
    }
}

/// Listen on one connection until it fails (`Err`) or nobody receives the events (`Ok`).
/// `pause` goes back to the first once listening.
async fn listen_once(
    config: &Config,
    events: &UnboundedSender<StoreEvent>,
    pause: &mut Duration,
) -> Result<(), BackendError> {
    let (client, mut connection) = config.connect(NoTls).await?;
    // The connection is driven by a task of its own, so that a ping below can wait for its
    // answer; it ends when the client is dropped or the connection fails.
    let (messages_in, mut messages) = unbounded_channel();
    tokio::spawn(async move {
        let mut stream = futures_util::stream::poll_fn(|cx| connection.poll_message(cx));
        while let Some(message) = stream.next().await {
            let failed = message.is_err();
            if messages_in.send(message).is_err() || failed {
                break;
            }
        }
    });
    tokio::time::timeout(PING_TIMEOUT, client.batch_execute(&format!("LISTEN {FEEDS}; LISTEN {RULES}")))
        .await
        .map_err(|_| format!("no answer to LISTEN in {PING_TIMEOUT:?}"))??;
    *pause = RETRY_FIRST;
    if events.send(StoreEvent::Listening).is_err() {
        return Ok(());
    }
    loop {
        let message = tokio::select! {
            message = messages.recv() => message,
            () = tokio::time::sleep(PING_AFTER) => {
                if events.is_closed() {
                    return Ok(());
                }
                tokio::time::timeout(PING_TIMEOUT, client.simple_query(""))
                    .await
                    .map_err(|_| format!("no answer to a ping in {PING_TIMEOUT:?}"))??;
                continue;
            }
        };
        let event = match message {
            None => return Err("the connection closed".into()),
            Some(Err(error)) => return Err(error.into()),
            Some(Ok(AsyncMessage::Notification(notification))) => event(&notification),
            Some(Ok(_notice)) => continue,
        };
        if let Some(event) = event
            && events.send(event).is_err()
        {
            return Ok(());
        }
    }
}

fn event(notification: &Notification) -> Option<StoreEvent> {
    match notification.channel() {
        FEEDS => match notification.payload().parse() {
            Ok(id) => Some(StoreEvent::FeedChanged(SourceId(id))),
            Err(_) => {
                tracing::warn!("a notification on {FEEDS} names no source: {:?}", notification.payload());
                None
            }
        },
        RULES => Some(StoreEvent::RulesChanged),
        _ => None,
    }
}
