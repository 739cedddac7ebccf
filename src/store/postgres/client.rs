//! A synchronous client over tokio-postgres, for the store's synchronous API.
//!
//! The connections run as tasks on one small runtime that the store owns; a call sends its
//! query to its connection's task and blocks the calling thread until the answer is back
//! (`futures_executor::block_on`: the client's side of a query is only channels, so it needs
//! no runtime). The `postgres` crate does the same with a runtime per connection, driven by
//! the calling thread, which tokio refuses on an async worker thread; the web server reads
//! small rows on its workers (as from SQLite), so that would not do.

use std::future::Future;

use tokio_postgres::types::ToSql;
use tokio_postgres::{Error, GenericClient, Row, Statement, ToStatement};

use crate::store::BackendError;

/// A client (or a transaction) whose calls block.
pub(crate) struct Blocking<C>(C);

pub(crate) type Conn = Blocking<tokio_postgres::Client>;
pub(crate) type Tx<'a> = Blocking<tokio_postgres::Transaction<'a>>;

pub(crate) type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

fn wait<F: Future>(future: F) -> F::Output {
    futures_executor::block_on(future)
}

/// Open a connection whose task runs on `runtime`.
pub(crate) fn connect(config: &tokio_postgres::Config, runtime: &tokio::runtime::Handle) -> Result<Conn, BackendError> {
    let config = config.clone();
    let tasks = runtime.clone();
    let opened = runtime.spawn(async move {
        let (client, connection) = config.connect(tokio_postgres::NoTls).await?;
        // Ends when the client is dropped or the server closes the connection.
        tasks.spawn(async move {
            if let Err(error) = connection.await {
                tracing::warn!("postgres connection: {error}");
            }
        });
        Ok::<_, Error>(client)
    });
    Ok(Blocking(wait(opened)??))
}

impl<C: GenericClient> Blocking<C> {
    pub fn query<T: ?Sized + ToStatement + Sync + Send>(&self, sql: &T, params: Params) -> Result<Vec<Row>, Error> {
        wait(self.0.query(sql, params))
    }

    pub fn query_one<T: ?Sized + ToStatement + Sync + Send>(&self, sql: &T, params: Params) -> Result<Row, Error> {
        wait(self.0.query_one(sql, params))
    }

    pub fn query_opt<T: ?Sized + ToStatement + Sync + Send>(
        &self,
        sql: &T,
        params: Params,
    ) -> Result<Option<Row>, Error> {
        wait(self.0.query_opt(sql, params))
    }

    pub fn execute<T: ?Sized + ToStatement + Sync + Send>(&self, sql: &T, params: Params) -> Result<u64, Error> {
        wait(self.0.execute(sql, params))
    }

    pub fn prepare(&self, sql: &str) -> Result<Statement, Error> {
        wait(self.0.prepare(sql))
    }

    pub fn batch_execute(&self, sql: &str) -> Result<(), Error> {
        wait(self.0.batch_execute(sql))
    }
}

impl Conn {
    pub fn transaction(&mut self) -> Result<Tx<'_>, Error> {
        wait(self.0.transaction()).map(Blocking)
    }

    /// A query without parameters nor a prepared statement (one round trip).
    pub fn simple_query(&self, sql: &str) -> Result<(), Error> {
        wait(self.0.simple_query(sql)).map(drop)
    }

    pub fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

impl Tx<'_> {
    pub fn commit(self) -> Result<(), Error> {
        wait(self.0.commit())
    }
}
