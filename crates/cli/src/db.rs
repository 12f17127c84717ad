//! Where the catalogue lives.

use crate::Failure;
use errdex_app::Location;
use std::ffi::OsString;

/// `--db`, else `$ERRDEX_DB`, else `<data dir>/errdex/errdex.db`: a
/// SQLite file, or a PostgreSQL database given as a `postgres://` URL.
pub fn location(flag: Option<OsString>) -> Result<Location, Failure> {
    if let Some(p) = flag.or_else(|| std::env::var_os("ERRDEX_DB")) {
        return Location::parse(&p).map_err(Failure::input);
    }
    let dir = dirs::data_dir()
        .ok_or_else(|| {
            Failure::input("no data folder on this system: pass --db PATH or set ERRDEX_DB")
        })?
        .join("errdex");
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failure::input(format!("creating {}: {e}", dir.display())))?;
    Ok(Location::Sqlite(dir.join("errdex.db")))
}
