//! Source files stored deflated, addressed by a hash of their text.

use crate::{CatalogError, Result};
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use std::io::{Read, Write};
use xxhash_rust::xxh3::xxh3_128;

/// The content address of a text.
pub fn hash(text: &str) -> String {
    format!("{:032x}", xxh3_128(text.as_bytes()))
}

/// Deflates a text.
pub fn pack(text: &str) -> Vec<u8> {
    let mut e = DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes())
        .expect("writing to a Vec cannot fail");
    e.finish().expect("writing to a Vec cannot fail")
}

/// Inflates a stored text.
pub fn unpack(data: &[u8]) -> Result<String> {
    let mut s = String::new();
    DeflateDecoder::new(data)
        .read_to_string(&mut s)
        .map_err(|_| CatalogError::Corrupt("source blob"))?;
    Ok(s)
}
