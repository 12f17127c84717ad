//! Where the catalogue lives.

use crate::Failure;
use std::path::PathBuf;

/// `--db`, else `$ERRDEX_DB`, else `<data dir>/errdex/errdex.db`.
pub fn path(flag: Option<PathBuf>) -> Result<PathBuf, Failure> {
    if let Some(p) = flag.or_else(|| std::env::var_os("ERRDEX_DB").map(PathBuf::from)) {
        return Ok(p);
    }
    let dir = dirs::data_dir()
        .ok_or_else(|| {
            Failure::input("no data folder on this system: pass --db PATH or set ERRDEX_DB")
        })?
        .join("errdex");
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failure::input(format!("creating {}: {e}", dir.display())))?;
    Ok(dir.join("errdex.db"))
}
