//! A synchronous client over tokio-postgres, for the store's synchronous API.
//!
//! The connections run as tasks on one small runtime that the store owns; a call sends its
//! query to its connection's task and blocks the calling thread until the answer is back
//! (`futures_executor::block_on`: the client's side of a query is only channels, so it needs
//! no runtime). The `postgres` crate does the same with a runtime per connection, driven by
//! the calling thread, which tokio refuses on an async worker thread; the web server reads
//! small rows on its workers (as from SQLite), so that would not do.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;

use futures_util::future::try_join;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Error, GenericClient, Row, Statement};

use crate::store::BackendError;

/// A connection's prepared statements by their SQL: a statement prepared once runs in one
/// round trip after, instead of two (prepare, then run) every time.
type Statements = RefCell<HashMap<String, Statement>>;

/// A pooled connection whose calls block.
pub(crate) struct Conn {
    client: Client,
    statements: Statements,
}

/// A transaction of a [`Conn`]; dropped without `commit`, it rolls back. Its `BEGIN` is sent
/// with its first statement and its `COMMIT` may go with its last ([`Tx::execute_and_commit`]),
/// in one round trip each (pipelined: the client sends both before it reads an answer): under
/// many concurrent refreshes a refresh waits on its round trips more than on the database.
pub(crate) struct Tx<'a> {
    client: &'a Client,
    statements: &'a Statements,
    begun: Cell<bool>,
    done: bool,
}

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
    Ok(Conn { client: wait(opened)??, statements: RefCell::default() })
}

/// Queries on a connection or in a transaction, with prepared statements kept per connection
/// (statements prepared by the protocol outlive a transaction that rolls back).
pub(crate) trait Sql {
    fn parts(&self) -> (&impl GenericClient, &Statements);

    /// Wait for a request's answer (a transaction sends its `BEGIN` first).
    fn send<T>(&self, request: impl Future<Output = Result<T, Error>>) -> Result<T, Error> {
        wait(request)
    }

    fn statement(&self, sql: &str) -> Result<Statement, Error> {
        let (client, statements) = self.parts();
        if let Some(statement) = statements.borrow().get(sql) {
            return Ok(statement.clone());
        }
        let statement = wait(client.prepare(sql))?;
        statements.borrow_mut().insert(sql.to_string(), statement.clone());
        Ok(statement)
    }

    fn query(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, Error> {
        let statement = self.statement(sql)?;
        self.send(self.parts().0.query(&statement, params))
    }

    fn query_one(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Row, Error> {
        let statement = self.statement(sql)?;
        self.send(self.parts().0.query_one(&statement, params))
    }

    fn query_opt(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Option<Row>, Error> {
        let statement = self.statement(sql)?;
        self.send(self.parts().0.query_opt(&statement, params))
    }

    fn execute(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64, Error> {
        let statement = self.statement(sql)?;
        self.send(self.parts().0.execute(&statement, params))
    }

    /// Two queries in one round trip (pipelined): a row that may be missing, and rows.
    fn query_opt_and_query(
        &self,
        (first, first_params): (&str, &[&(dyn ToSql + Sync)]),
        (second, second_params): (&str, &[&(dyn ToSql + Sync)]),
    ) -> Result<(Option<Row>, Vec<Row>), Error> {
        let (first, second) = (self.statement(first)?, self.statement(second)?);
        let client = self.parts().0;
        self.send(try_join(client.query_opt(&first, first_params), client.query(&second, second_params)))
    }

    /// Statements without parameters, not kept (migrations).
    fn batch_execute(&self, sql: &str) -> Result<(), Error> {
        self.send(self.parts().0.batch_execute(sql))
    }
}

impl Sql for Conn {
    fn parts(&self) -> (&impl GenericClient, &Statements) {
        (&self.client, &self.statements)
    }
}

impl Sql for Tx<'_> {
    fn parts(&self) -> (&impl GenericClient, &Statements) {
        (self.client, self.statements)
    }

    fn send<T>(&self, request: impl Future<Output = Result<T, Error>>) -> Result<T, Error> {
        if self.begun.replace(true) {
            return wait(request);
        }
        wait(try_join(self.client.batch_execute("BEGIN"), request)).map(|(_, answer)| answer)
    }
}

impl Conn {
    /// A transaction; `&mut`, so that nothing else runs on the connection meanwhile.
    pub fn transaction(&mut self) -> Result<Tx<'_>, Error> {
        Ok(Tx { client: &self.client, statements: &self.statements, begun: Cell::new(false), done: false })
    }

    /// A query without parameters nor a prepared statement (one round trip).
    pub fn simple_query(&self, sql: &str) -> Result<(), Error> {
        wait(self.client.simple_query(sql)).map(drop)
    }

    pub fn is_closed(&self) -> bool {
        self.client.is_closed()
    }
}

impl Tx<'_> {
    pub fn commit(mut self) -> Result<(), Error> {
        self.done = true;
        if !self.begun.get() {
            return Ok(());
        }
        wait(self.client.batch_execute("COMMIT"))
    }

    /// Run a last statement and commit, in one round trip. When the statement fails, the
    /// database takes the `COMMIT` for a `ROLLBACK`, and its error is the answer.
    pub fn execute_and_commit(mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64, Error> {
        let statement = self.statement(sql)?;
        let begin = (!self.begun.replace(true)).then(|| self.client.batch_execute("BEGIN"));
        self.done = true;
        let last = try_join(self.client.execute(&statement, params), self.client.batch_execute("COMMIT"));
        match begin {
            Some(begin) => wait(try_join(begin, last)).map(|(_, (count, _))| count),
            None => wait(last).map(|(count, _)| count),
        }
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.begun.get() && !self.done {
            // A connection that cannot roll back is broken, and the pool replaces it.
            let _ = wait(self.client.batch_execute("ROLLBACK"));
        }
    }
}
