//! The large real tree the speed benches index: six crates from the
//! registry, 853 `.rs` files, 12.1 MB (`index_speed` here, `reindex` in
//! the `errdex` crate includes this file).

/// The crates of the tree, as `index` sources.
pub const CRATES: &[&str] = &[
    "crate:tokio@1.47.1",
    "crate:regex-automata@0.4.9",
    "crate:clap_builder@4.5.47",
    "crate:regex-syntax@0.8.5",
    "crate:syn@2.0.106",
    "crate:hyper@1.7.0",
];
