//! A program that really triggers errors of crates the development corpus
//! does not hold; `crates/cli/tests/explain_unseen.rs` builds it with cargo,
//! runs each case and explains what it printed.

fn main() -> anyhow::Result<()> {
    use anyhow::Context;
    match std::env::args().nth(1).as_deref() {
        // The user's unwrap of a library error: the payload is the answer.
        Some("unwrap") => {
            hex::decode("abc").unwrap();
        }
        // Derived Debug of an error value.
        Some("debug") => println!("{:?}", hex::decode("zz").unwrap_err()),
        // Display, behind the program's own prefix.
        Some("display") => println!("bad key: {}", hex::decode("zz").unwrap_err()),
        // An anyhow chain: the program's context, then the library's error.
        Some("chain") => {
            hex::decode("abc").context("loading the signing key")?;
        }
        // A #[track_caller] push whose unwrap is inside the library.
        Some("push") => {
            let mut v = arrayvec::ArrayVec::<u8, 2>::new();
            for i in 0..3 {
                v.push(i);
            }
        }
        // serde's default text through a data format's wrapper.
        Some("serde") => {
            let e = serde_json::from_str::<u16>("\"x\"").unwrap_err();
            println!("{e}");
        }
        _ => {}
    }
    Ok(())
}
