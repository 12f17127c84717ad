//! One module per subcommand.

pub mod analyze;
pub mod explain;
pub mod index;
pub mod list;
pub mod queue;
pub mod serve;
pub mod show;
