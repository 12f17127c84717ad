//! The days a paste prints with a time of day — a log line's timestamp
//! (`2022-07-18T19:39:28.148457Z`, `[2022-07-18 19:39:28 ERROR …]`), a CI
//! step's, journald's ISO form: the program ran on or after them, so code
//! published later cannot have printed the paste.

use regex::Regex;
use std::sync::OnceLock;

fn pattern() -> &'static Regex {
    static P: OnceLock<Regex> = OnceLock::new();
    P.get_or_init(|| {
        Regex::new(r"\b(?P<y>20\d\d)-(?P<m>[01]\d)-(?P<d>[0-3]\d)[T ][0-2]\d:[0-5]\d\b")
            .expect("valid regex")
    })
}

/// The latest day (`YYYY-MM-DD`) the text prints with a time of day, if
/// any (a date alone, as in a copyright line or a version's release, is
/// not when the program ran).
pub fn latest_day(text: &str) -> Option<String> {
    pattern()
        .captures_iter(text)
        .filter(|c| {
            let m: u32 = c["m"].parse().unwrap_or(0);
            let d: u32 = c["d"].parse().unwrap_or(0);
            (1..=12).contains(&m) && (1..=31).contains(&d)
        })
        .map(|c| format!("{}-{}-{}", &c["y"], &c["m"], &c["d"]))
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_timestamped_day_is_taken() {
        let paste = "2022-07-18T19:39:28.148457Z  INFO tmp: Logs here\n\
                     [2022-07-19 08:00:01 ERROR app] failed\n\
                     thread 'main' panicked at 'boom', src/main.rs:3:5";
        assert_eq!(latest_day(paste).as_deref(), Some("2022-07-19"));
    }

    #[test]
    fn a_date_without_a_time_or_an_impossible_one_is_not_taken() {
        assert_eq!(
            latest_day("Copyright 2021-01-01, released 2023-05-02"),
            None
        );
        assert_eq!(latest_day("2022-13-40T10:00 nonsense"), None);
        assert_eq!(latest_day("no date here"), None);
    }
}
