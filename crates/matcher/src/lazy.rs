//! A table whose slots are made on first use and then lent out for as long
//! as the table lives: the records of a mapped index, decoded and compiled
//! only when a query touches them, once per process.

use std::sync::OnceLock;

/// Slots per chunk (allocated when a query first touches one of them).
const CHUNK: usize = 256;

/// `len` slots, each filled once by the first caller that needs it. Slots
/// hold their value in place (one pointer less to follow per read).
pub(crate) struct LazyTable<T> {
    chunks: Box<[OnceLock<Chunk<T>>]>,
}

/// [`CHUNK`] slots, allocated together.
type Chunk<T> = Box<[OnceLock<T>]>;

impl<T> LazyTable<T> {
    /// A table of `len` empty slots (nothing is allocated per slot yet).
    pub fn new(len: usize) -> Self {
        LazyTable {
            chunks: (0..len.div_ceil(CHUNK)).map(|_| OnceLock::new()).collect(),
        }
    }

    /// Slot `i`, made by `make` if it is still empty. `i` must be below the
    /// table's length.
    pub fn get_or(&self, i: usize, make: impl FnOnce() -> T) -> &T {
        let chunk =
            self.chunks[i / CHUNK].get_or_init(|| (0..CHUNK).map(|_| OnceLock::new()).collect());
        chunk[i % CHUNK].get_or_init(make)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_made_once() {
        let t = LazyTable::new(CHUNK * 2 + 3);
        let mut made = 0;
        assert_eq!(
            *t.get_or(CHUNK * 2 + 2, || {
                made += 1;
                7
            }),
            7
        );
        assert_eq!(
            *t.get_or(CHUNK * 2 + 2, || {
                made += 1;
                8
            }),
            7
        );
        assert_eq!(*t.get_or(0, || 1), 1);
        assert_eq!(made, 1);
    }
}
