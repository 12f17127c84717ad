//! One module per subcommand.

pub mod explain;
pub mod index;
pub mod list;
pub mod show;
