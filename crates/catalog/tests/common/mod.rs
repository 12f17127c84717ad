//! Helpers shared by the catalogue tests.

pub mod pg;
