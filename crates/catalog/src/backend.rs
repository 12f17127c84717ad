//! The two stores behind one interface: an embedded SQLite file
//! (rusqlite) or a PostgreSQL database (the `postgres` client). The
//! catalogue's queries are written once, in the SQL both understand
//! (`?N` placeholders, `ON CONFLICT`, `RETURNING`, `"offset"` quoted);
//! for PostgreSQL the placeholders become `$N` and each statement is
//! prepared once per connection.

use crate::{CatalogError, Result};
use std::cell::RefCell;
use std::collections::HashMap;

/// A query argument, in the few types the catalogue stores.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Val<'a> {
    /// SQL `NULL`.
    Null,
    /// An integer (booleans are 0 and 1, as SQLite stores them).
    Int(i64),
    /// Text.
    Text(&'a str),
    /// Bytes (`BLOB` / `BYTEA`).
    Bytes(&'a [u8]),
}

/// A value that can be passed to a query.
pub(crate) trait Arg {
    /// The value as a query argument.
    fn val(&self) -> Val<'_>;
}

impl Arg for i64 {
    fn val(&self) -> Val<'_> {
        Val::Int(*self)
    }
}

impl Arg for u32 {
    fn val(&self) -> Val<'_> {
        Val::Int(i64::from(*self))
    }
}

impl Arg for bool {
    fn val(&self) -> Val<'_> {
        Val::Int(i64::from(*self))
    }
}

impl Arg for str {
    fn val(&self) -> Val<'_> {
        Val::Text(self)
    }
}

impl Arg for String {
    fn val(&self) -> Val<'_> {
        Val::Text(self)
    }
}

impl Arg for [u8] {
    fn val(&self) -> Val<'_> {
        Val::Bytes(self)
    }
}

impl Arg for Vec<u8> {
    fn val(&self) -> Val<'_> {
        Val::Bytes(self)
    }
}

impl<T: Arg + ?Sized> Arg for &T {
    fn val(&self) -> Val<'_> {
        (**self).val()
    }
}

impl<T: Arg> Arg for Option<T> {
    fn val(&self) -> Val<'_> {
        self.as_ref().map_or(Val::Null, Arg::val)
    }
}

/// Query arguments: `args![a, b]` is `&[Val]`.
macro_rules! args {
    ($($x:expr),* $(,)?) => {
        &[$($crate::backend::Arg::val(&$x)),*] as &[$crate::backend::Val]
    };
}
pub(crate) use args;

impl rusqlite::ToSql for Val<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value, ValueRef};
        Ok(match *self {
            Val::Null => ToSqlOutput::Owned(Value::Null),
            Val::Int(i) => ToSqlOutput::Owned(Value::Integer(i)),
            Val::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
            Val::Bytes(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
        })
    }
}

impl postgres::types::ToSql for Val<'_> {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        use postgres::types::Type;
        match *self {
            Val::Null => Ok(postgres::types::IsNull::Yes),
            Val::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(i)?.to_sql(ty, out),
                Type::BOOL => (i != 0).to_sql(ty, out),
                _ => Err(format!("an integer for a parameter of type {ty}").into()),
            },
            // PostgreSQL's text cannot hold NUL (SQLite's can): a decoded
            // literal such as "a\0b" is stored with U+2400 (␀) instead.
            Val::Text(s) if s.contains('\0') => s.replace('\0', "\u{2400}").to_sql(ty, out),
            Val::Text(s) => s.to_sql(ty, out),
            Val::Bytes(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

/// A query argument that owns its data, for a row sent later.
#[derive(Debug, Clone)]
enum Owned {
    Null,
    Int(i64),
    Text(String),
    Bytes(Vec<u8>),
}

impl Owned {
    fn val(&self) -> Val<'_> {
        match self {
            Owned::Null => Val::Null,
            Owned::Int(i) => Val::Int(*i),
            Owned::Text(s) => Val::Text(s),
            Owned::Bytes(b) => Val::Bytes(b),
        }
    }
}

impl From<&Val<'_>> for Owned {
    fn from(v: &Val<'_>) -> Owned {
        match *v {
            Val::Null => Owned::Null,
            Val::Int(i) => Owned::Int(i),
            Val::Text(s) => Owned::Text(s.to_string()),
            Val::Bytes(b) => Owned::Bytes(b.to_vec()),
        }
    }
}

/// Rows a PostgreSQL `INSERT` takes at most (a power of two: the rest is
/// sent in statements of 256, 128, … rows, each prepared once per
/// connection), fewer when its arguments would pass [`MAX_PG_ARGS`].
const ROWS_PER_INSERT: usize = 512;

/// The arguments a PostgreSQL statement can take.
const MAX_PG_ARGS: usize = 65_535;

/// The rows of one `INSERT` ([`Conn::inserting`]). SQLite, in process,
/// runs a cached prepared statement per row; PostgreSQL gets up to
/// [`ROWS_PER_INSERT`] rows per statement — one round trip for them all
/// instead of one per row.
pub(crate) struct Inserter<'c> {
    conn: &'c Conn,
    /// `INSERT INTO table (a, b)`.
    head: &'static str,
    /// Columns per row.
    width: usize,
    /// What follows the values (`ON CONFLICT DO NOTHING`), or nothing.
    tail: &'static str,
    /// The one-row statement.
    one: String,
    /// Rows per full statement (PostgreSQL): [`ROWS_PER_INSERT`], or the
    /// power of two below the argument limit.
    batch: usize,
    /// Rows not sent yet (PostgreSQL), `width` values each.
    pending: Vec<Owned>,
}

impl Inserter<'_> {
    /// The statement inserting `rows` rows.
    fn sql(head: &str, width: usize, rows: usize, tail: &str) -> String {
        let mut sql = format!("{head} VALUES ");
        for r in 0..rows {
            sql.push_str(if r == 0 { "(" } else { ", (" });
            for c in 0..width {
                if c > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!("?{}", r * width + c + 1));
            }
            sql.push(')');
        }
        if !tail.is_empty() {
            sql.push(' ');
            sql.push_str(tail);
        }
        sql
    }

    /// Adds a row of `width` values.
    pub fn row(&mut self, row: &[Val]) -> Result<()> {
        if row.len() != self.width {
            return Err(CatalogError::Corrupt("a row of the wrong width"));
        }
        if !self.conn.is_postgres() {
            return self.conn.execute(&self.one, row).map(drop);
        }
        self.pending.extend(row.iter().map(Owned::from));
        if self.pending.len() >= self.batch * self.width {
            self.send(self.batch)?;
        }
        Ok(())
    }

    /// Sends the first `rows` pending rows in one statement.
    fn send(&mut self, rows: usize) -> Result<()> {
        let values: Vec<Val> = self.pending[..rows * self.width]
            .iter()
            .map(Owned::val)
            .collect();
        let sql = Self::sql(self.head, self.width, rows, self.tail);
        self.conn.execute(&sql, &values)?;
        self.pending.drain(..rows * self.width);
        Ok(())
    }

    /// Sends every pending row.
    fn finish(mut self) -> Result<()> {
        let mut rows = self.batch;
        while !self.pending.is_empty() {
            while rows * self.width > self.pending.len() {
                rows /= 2;
            }
            self.send(rows)?;
        }
        Ok(())
    }
}

/// How many columns an `INSERT INTO table (a, b, …)` names.
fn columns(head: &str) -> usize {
    let list = head
        .split_once('(')
        .and_then(|(_, rest)| rest.rsplit_once(')'))
        .map_or("", |(list, _)| list);
    list.split(',').filter(|c| !c.trim().is_empty()).count()
}

/// One row of a result, from either store.
pub(crate) enum Row<'r, 's> {
    /// A SQLite row.
    Sqlite(&'r rusqlite::Row<'s>),
    /// A PostgreSQL row.
    Postgres(&'r postgres::Row),
}

impl Row<'_, '_> {
    /// Column `i` as `T`.
    pub fn get<T: Col>(&self, i: usize) -> Result<T> {
        match self {
            Row::Sqlite(r) => Ok(T::from_sqlite(r, i)?),
            Row::Postgres(r) => T::from_postgres(r, i),
        }
    }
}

/// A column type the catalogue reads.
pub(crate) trait Col: Sized {
    /// From a SQLite row.
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self>;
    /// From a PostgreSQL row.
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self>;
}

/// The corruption a value of an unexpected type or range is reported as.
const BAD_VALUE: CatalogError = CatalogError::Corrupt("value of an unexpected type");

/// An integer column of PostgreSQL (`BIGINT`, or `INTEGER`/`BOOLEAN` for
/// computed values), `None` for NULL.
fn pg_int(r: &postgres::Row, i: usize) -> Result<Option<i64>> {
    use postgres::types::Type;
    let ty = r.columns().get(i).ok_or(BAD_VALUE)?.type_().clone();
    let v = match ty {
        Type::INT8 => r.try_get::<_, Option<i64>>(i),
        Type::INT4 => r.try_get::<_, Option<i32>>(i).map(|v| v.map(i64::from)),
        Type::INT2 => r.try_get::<_, Option<i16>>(i).map(|v| v.map(i64::from)),
        Type::BOOL => r.try_get::<_, Option<bool>>(i).map(|v| v.map(i64::from)),
        _ => return Err(BAD_VALUE),
    };
    v.map_err(|_| BAD_VALUE)
}

impl Col for i64 {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        pg_int(r, i)?.ok_or(BAD_VALUE)
    }
}

impl Col for Option<i64> {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        pg_int(r, i)
    }
}

impl Col for u64 {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        u64::try_from(i64::from_postgres(r, i)?).map_err(|_| BAD_VALUE)
    }
}

impl Col for u32 {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        u32::try_from(i64::from_postgres(r, i)?).map_err(|_| BAD_VALUE)
    }
}

impl Col for Option<u32> {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        pg_int(r, i)?
            .map(|v| u32::try_from(v).map_err(|_| BAD_VALUE))
            .transpose()
    }
}

impl Col for bool {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        Ok(i64::from_postgres(r, i)? != 0)
    }
}

impl Col for String {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        r.try_get(i).map_err(|_| BAD_VALUE)
    }
}

impl Col for Option<String> {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        r.try_get(i).map_err(|_| BAD_VALUE)
    }
}

impl Col for Vec<u8> {
    fn from_sqlite(r: &rusqlite::Row, i: usize) -> rusqlite::Result<Self> {
        r.get(i)
    }
    fn from_postgres(r: &postgres::Row, i: usize) -> Result<Self> {
        r.try_get(i).map_err(|_| BAD_VALUE)
    }
}

/// The advisory lock writers of a PostgreSQL catalogue take in their
/// transaction (`errdexw` in ASCII).
const WRITE_LOCK: i64 = 0x65_72_72_64_65_78_77;

/// A PostgreSQL connection with the statements it has prepared.
pub(crate) struct Pg {
    client: postgres::Client,
    statements: HashMap<String, postgres::Statement>,
}

/// An open store.
pub(crate) enum Conn {
    /// A SQLite file.
    Sqlite(rusqlite::Connection),
    /// A PostgreSQL database (the client needs `&mut`; the catalogue's
    /// readers take `&self`, and a connection is used by one thread).
    Postgres {
        /// The connection.
        pg: Box<RefCell<Pg>>,
        /// `HOST:PORT`, for messages.
        at: String,
    },
}

/// `?N` placeholders as PostgreSQL's `$N` (the catalogue's SQL has no `?`
/// elsewhere).
fn dollars(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

/// An error and its causes on one line (a server's DETAIL and HINT lines
/// joined with `; `).
pub(crate) fn one_line(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut cause = e.source();
    while let Some(c) = cause {
        parts.push(c.to_string());
        cause = c.source();
    }
    parts.join(": ").replace('\n', "; ")
}

/// A PostgreSQL failure on an open connection: the connection lost (closed,
/// broken, or ended by the server: a fatal error, an operator's
/// intervention, class 57, or a connection exception, class 08), or the
/// server's reason.
pub(crate) fn pg_error(at: &str, e: postgres::Error) -> CatalogError {
    let io = std::error::Error::source(&e).and_then(|c| c.downcast_ref::<std::io::Error>());
    let ended = e.as_db_error().filter(|db| {
        let code = db.code().code();
        db.severity() == "FATAL" || code.starts_with("57") || code.starts_with("08")
    });
    if e.is_closed() || io.is_some() || ended.is_some() {
        let reason = match (ended, io) {
            (Some(db), _) => db.message().replace('\n', "; "),
            (None, Some(io)) => io.to_string(),
            (None, None) => "connection closed".to_string(),
        };
        return CatalogError::Lost {
            at: at.to_string(),
            reason,
        };
    }
    let reason = match e.as_db_error() {
        Some(db) => {
            let mut r = db.message().to_string();
            if let Some(d) = db.detail() {
                r.push_str(" (");
                r.push_str(d);
                r.push(')');
            }
            r.replace('\n', "; ")
        }
        None => one_line(&e),
    };
    CatalogError::Postgres {
        at: at.to_string(),
        reason,
    }
}

impl Conn {
    /// A PostgreSQL connection.
    pub fn postgres(client: postgres::Client, at: String) -> Conn {
        Conn::Postgres {
            pg: Box::new(RefCell::new(Pg {
                client,
                statements: HashMap::new(),
            })),
            at,
        }
    }

    /// Whether this is PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        matches!(self, Conn::Postgres { .. })
    }

    /// Runs `f` with the client and `sql`'s prepared statement.
    fn with_pg<T>(
        pg: &RefCell<Pg>,
        at: &str,
        sql: &str,
        f: impl FnOnce(
            &mut postgres::Client,
            &postgres::Statement,
        ) -> std::result::Result<T, postgres::Error>,
    ) -> Result<T> {
        let mut pg = pg.borrow_mut();
        let Pg { client, statements } = &mut *pg;
        let stmt = match statements.get(sql) {
            Some(s) => s.clone(),
            None => {
                let s = client.prepare(&dollars(sql)).map_err(|e| pg_error(at, e))?;
                statements.insert(sql.to_string(), s.clone());
                s
            }
        };
        f(client, &stmt).map_err(|e| pg_error(at, e))
    }

    /// Runs one statement; the number of rows it changed.
    pub fn execute(&self, sql: &str, args: &[Val]) -> Result<u64> {
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                Ok(stmt.execute(rusqlite::params_from_iter(args.iter()))? as u64)
            }
            Conn::Postgres { pg, at } => Self::with_pg(pg, at, sql, |client, stmt| {
                client.execute(stmt, &pg_args(args))
            }),
        }
    }

    /// Runs statements without arguments (migrations).
    pub fn batch(&self, sql: &str) -> Result<()> {
        match self {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Postgres { pg, at } => pg
                .borrow_mut()
                .client
                .batch_execute(sql)
                .map_err(|e| pg_error(at, e)),
        }
    }

    /// Calls `f` with each row of a query.
    pub fn query_each(
        &self,
        sql: &str,
        args: &[Val],
        mut f: impl FnMut(&Row) -> Result<()>,
    ) -> Result<()> {
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
                while let Some(r) = rows.next()? {
                    f(&Row::Sqlite(r))?;
                }
                Ok(())
            }
            Conn::Postgres { pg, at } => {
                let rows = Self::with_pg(pg, at, sql, |client, stmt| {
                    client.query(stmt, &pg_args(args))
                })?;
                for r in &rows {
                    f(&Row::Postgres(r))?;
                }
                Ok(())
            }
        }
    }

    /// Calls `f` with each row of a query over many `keys`: `sql` holds
    /// `IN (KEYS)`, filled a few hundred keys at a time after the `fixed`
    /// arguments (each batch padded with its last key to a power of two,
    /// so that few statement shapes are prepared).
    pub fn query_in(
        &self,
        sql: &str,
        fixed: &[Val],
        keys: &[&str],
        mut f: impl FnMut(&Row) -> Result<()>,
    ) -> Result<()> {
        for chunk in keys.chunks(256) {
            let n = chunk.len().next_power_of_two();
            let marks: Vec<String> = (1..=n).map(|i| format!("?{}", fixed.len() + i)).collect();
            let sql = sql.replace("IN (KEYS)", &format!("IN ({})", marks.join(", ")));
            let last = chunk.len() - 1;
            let mut args = fixed.to_vec();
            args.extend((0..n).map(|i| Val::Text(chunk[i.min(last)])));
            self.query_each(&sql, &args, &mut f)?;
        }
        Ok(())
    }

    /// Each row of a query, read by `f`.
    pub fn query_vec<T>(
        &self,
        sql: &str,
        args: &[Val],
        mut f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut out = Vec::new();
        self.query_each(sql, args, |r| {
            out.push(f(r)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// The first row of a query, read by `f`, if any.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        args: &[Val],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<Option<T>> {
        match self {
            Conn::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
                match rows.next()? {
                    Some(r) => Ok(Some(f(&Row::Sqlite(r))?)),
                    None => Ok(None),
                }
            }
            Conn::Postgres { pg, at } => {
                // The first row, as SQLite's cursor gives it.
                let rows = Self::with_pg(pg, at, sql, |client, stmt| {
                    client.query(stmt, &pg_args(args))
                })?;
                rows.first().map(|r| f(&Row::Postgres(r))).transpose()
            }
        }
    }

    /// The one row a query answers, read by `f`.
    pub fn query_one<T>(
        &self,
        sql: &str,
        args: &[Val],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, args, f)?
            .ok_or(CatalogError::Corrupt("query without its row"))
    }

    /// In a transaction on PostgreSQL, waits until no other writer of the
    /// catalogue is in one (SQLite has one writer at a time anyway).
    pub fn lock_writers(&self) -> Result<()> {
        if self.is_postgres() {
            self.query_one(
                "SELECT pg_advisory_xact_lock(?1)",
                args![WRITE_LOCK],
                |_| Ok(()),
            )?;
        }
        Ok(())
    }

    /// Marks a change readers must see (a snapshot or an analysis written)
    /// on PostgreSQL, and notifies its listeners ([`crate::Changes`]); its [`Catalog::generation`](crate::Catalog::generation)
    /// is a counter; SQLite's is derived from the rows themselves.
    pub fn bump_generation(&self) -> Result<()> {
        if self.is_postgres() {
            self.execute(
                "UPDATE errdex_schema SET generation = generation + 1",
                args![],
            )?;
            // Delivered when the write commits (never for a rollback).
            self.batch(&format!("NOTIFY {}", crate::changes::CHANNEL))?;
        }
        Ok(())
    }

    /// Runs `f` with an [`Inserter`] of rows for `head` (`INSERT INTO
    /// table (a, b)`: a row has a value per column named) followed by
    /// `tail` (an `ON CONFLICT` clause, or nothing); every row is written
    /// when it returns. Rows
    /// that refer to other rows go in after them: a batch is sent when it
    /// is full, so a row may reach the server before one added earlier to
    /// another inserter.
    pub fn inserting<T>(
        &self,
        head: &'static str,
        tail: &'static str,
        f: impl FnOnce(&mut Inserter) -> Result<T>,
    ) -> Result<T> {
        let width = columns(head);
        let mut ins = Inserter {
            conn: self,
            head,
            width,
            tail,
            one: Inserter::sql(head, width, 1, tail),
            batch: ROWS_PER_INSERT.min(1 << (MAX_PG_ARGS / width.max(1)).max(1).ilog2()),
            pending: Vec::new(),
        };
        let out = f(&mut ins)?;
        ins.finish()?;
        Ok(out)
    }

    /// Starts a transaction; it is rolled back unless committed.
    pub fn transaction(&self) -> Result<Tx<'_>> {
        self.batch("BEGIN")?;
        Ok(Tx {
            conn: self,
            done: false,
        })
    }
}

/// Arguments as the `postgres` client takes them.
fn pg_args<'a>(args: &'a [Val<'a>]) -> Vec<&'a (dyn postgres::types::ToSql + Sync)> {
    args.iter()
        .map(|a| a as &(dyn postgres::types::ToSql + Sync))
        .collect()
}

/// An open transaction on a [`Conn`].
pub(crate) struct Tx<'c> {
    conn: &'c Conn,
    done: bool,
}

impl Tx<'_> {
    /// Commits.
    pub fn commit(mut self) -> Result<()> {
        self.done = true;
        self.conn.batch("COMMIT")
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.conn
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if !self.done {
            // A connection that is gone has rolled back already.
            let _ = self.conn.batch("ROLLBACK");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{dollars, Inserter};

    #[test]
    fn an_insert_names_its_columns() {
        assert_eq!(super::columns("INSERT INTO t (a, \"offset\",\n b)"), 3);
        assert_eq!(super::columns("INSERT INTO t (a)"), 1);
    }

    #[test]
    fn a_batch_numbers_its_rows_arguments_in_order() {
        assert_eq!(
            Inserter::sql("INSERT INTO t (a, b)", 2, 2, "ON CONFLICT DO NOTHING"),
            "INSERT INTO t (a, b) VALUES (?1, ?2), (?3, ?4) ON CONFLICT DO NOTHING"
        );
        assert_eq!(
            Inserter::sql("INSERT INTO t (a)", 1, 1, ""),
            "INSERT INTO t (a) VALUES (?1)"
        );
    }

    #[test]
    fn placeholders_become_dollars() {
        assert_eq!(
            dollars("SELECT a FROM t WHERE b = ?1 AND (?12 IS NULL OR c = ?12) -- ?"),
            "SELECT a FROM t WHERE b = $1 AND ($12 IS NULL OR c = $12) -- ?"
        );
    }
}
