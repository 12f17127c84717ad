//! Where a catalogue lives: a SQLite file, or a PostgreSQL database named
//! by a `postgres://` URL (parsed once, its password never shown).

use crate::backend::{one_line, Conn};
use crate::{CatalogError, Result};
use std::ffi::OsStr;
use std::path::PathBuf;
use std::str::FromStr;

/// Where a catalogue lives.
#[derive(Clone, Debug)]
pub enum Location {
    /// A SQLite file (created when first written).
    Sqlite(PathBuf),
    /// A PostgreSQL database.
    Postgres(PgUrl),
}

impl Location {
    /// A `postgres://` or `postgresql://` URL as PostgreSQL (refused when
    /// malformed), anything else as the path of a SQLite file.
    pub fn parse(text: &OsStr) -> Result<Location> {
        match text.to_str() {
            Some(s) if PgUrl::is_url(s) => Ok(Location::Postgres(PgUrl::parse(s)?)),
            _ => Ok(Location::Sqlite(PathBuf::from(text))),
        }
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Self {
        Location::Sqlite(path)
    }
}

impl From<&std::path::Path> for Location {
    fn from(path: &std::path::Path) -> Self {
        Location::Sqlite(path.to_path_buf())
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(p) => write!(f, "{}", p.display()),
            Location::Postgres(u) => write!(f, "{u}"),
        }
    }
}

/// A valid PostgreSQL connection URL. It shows as
/// `postgres://USER@HOST:PORT/DB`, never with its password.
#[derive(Clone)]
pub struct PgUrl {
    config: Box<postgres::Config>,
    at: String,
    shown: String,
}

impl PgUrl {
    /// Whether `s` is meant as a PostgreSQL URL.
    pub fn is_url(s: &str) -> bool {
        s.starts_with("postgres://") || s.starts_with("postgresql://")
    }

    /// Parses a `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?OPTIONS]` URL.
    pub fn parse(s: &str) -> Result<PgUrl> {
        if !Self::is_url(s) {
            return Err(CatalogError::BadUrl(
                "it must start with postgres:// or postgresql://".into(),
            ));
        }
        let mut config = postgres::Config::from_str(s).map_err(|e| {
            // The parser's reasons name options, never their values.
            CatalogError::BadUrl(one_line(&e).replace("invalid connection string: ", ""))
        })?;
        let hosts: Vec<String> = config
            .get_hosts()
            .iter()
            .map(|h| match h {
                postgres::config::Host::Tcp(h) => h.clone(),
                #[cfg(unix)]
                postgres::config::Host::Unix(p) => p.display().to_string(),
            })
            .collect();
        if hosts.is_empty() {
            return Err(CatalogError::BadUrl("it names no host".into()));
        }
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let at = format!("{}:{port}", hosts.join(","));
        let user = config.get_user().unwrap_or_default().to_string();
        let db = config.get_dbname().unwrap_or(&user).to_string();
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(std::time::Duration::from_secs(10));
        }
        let shown = match user.is_empty() {
            true => format!("postgres://{at}/{db}"),
            false => format!("postgres://{user}@{at}/{db}"),
        };
        Ok(PgUrl {
            config: Box::new(config),
            at,
            shown,
        })
    }

    /// A connected client, or why not in one line (the job queue shares
    /// the catalogue's database through it).
    pub fn client(&self) -> Result<postgres::Client> {
        self.config.connect(postgres::NoTls).map_err(|e| {
            let refused = std::iter::successors(std::error::Error::source(&e), |c| c.source())
                .filter_map(|c| c.downcast_ref::<std::io::Error>())
                .any(|io| io.kind() == std::io::ErrorKind::ConnectionRefused);
            let reason = match e.as_db_error() {
                _ if refused => "connection refused".to_string(),
                Some(db) => db.message().replace('\n', "; "),
                None => one_line(&e),
            };
            CatalogError::Connect {
                at: self.at.clone(),
                reason,
            }
        })
    }

    /// `HOST:PORT`, for messages.
    pub(crate) fn at(&self) -> &str {
        &self.at
    }

    /// A connection for the catalogue.
    pub(crate) fn connect(&self) -> Result<Conn> {
        Ok(Conn::postgres(self.client()?, self.at.clone()))
    }
}

impl std::fmt::Display for PgUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl std::fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_paths() {
        let l = Location::parse(OsStr::new("postgres://me:secret@db.example:6543/cat")).unwrap();
        assert_eq!(l.to_string(), "postgres://me@db.example:6543/cat");
        assert!(!format!("{l:?}").contains("secret"));
        let l = Location::parse(OsStr::new("postgresql://me@localhost/x")).unwrap();
        assert_eq!(l.to_string(), "postgres://me@localhost:5432/x");
        assert!(matches!(
            Location::parse(OsStr::new("/tmp/x.db")).unwrap(),
            Location::Sqlite(_)
        ));
        for bad in [
            "postgres://me:secret@host:notaport/db",
            "postgres://me:secret@host:99999/db",
            "postgres://me:secret@host/db?sslmode=sometimes",
        ] {
            let e = Location::parse(OsStr::new(bad)).unwrap_err().to_string();
            assert!(e.starts_with("malformed PostgreSQL URL: "), "{e}");
            assert!(!e.contains("secret") && !e.contains('\n'), "{e}");
        }
    }
}
