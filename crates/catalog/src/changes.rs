//! Change notifications of a PostgreSQL catalogue: every write that bumps
//! the generation also sends `NOTIFY errdex_catalogue`, delivered when its
//! transaction commits; a web node listening drops its caches at once
//! instead of polling.

use crate::backend::pg_error;
use crate::{PgUrl, Result};
use postgres::fallible_iterator::FallibleIterator;
use std::time::Duration;

/// The channel a catalogue write notifies.
pub const CHANNEL: &str = "errdex_catalogue";

/// A connection listening for the catalogue's changes.
pub struct Changes {
    client: postgres::Client,
    at: String,
}

impl Changes {
    /// Connects and starts listening.
    pub fn listen(url: &PgUrl) -> Result<Changes> {
        let mut client = url.client()?;
        let at = url.at().to_string();
        client
            .batch_execute(&format!("LISTEN {CHANNEL}"))
            .map_err(|e| pg_error(&at, e))?;
        Ok(Changes { client, at })
    }

    /// Waits up to `timeout` for a change; true when one (or several, taken
    /// together) came. An error means the connection is gone.
    pub fn wait(&mut self, timeout: Duration) -> Result<bool> {
        self.next(timeout).map_err(|e| pg_error(&self.at, e))
    }

    fn next(&mut self, timeout: Duration) -> std::result::Result<bool, postgres::Error> {
        let got = {
            let mut notes = self.client.notifications();
            let got = notes.timeout_iter(timeout).next()?.is_some();
            // Several writes since: one refresh covers them all.
            let mut rest = notes.iter();
            while rest.next()?.is_some() {}
            got
        };
        if !got {
            // No news may mean a dead connection: make it say so.
            self.client.batch_execute("SELECT 1")?;
        }
        Ok(got)
    }
}
