//! One module per subcommand.

pub mod index;
pub mod list;
pub mod show;
