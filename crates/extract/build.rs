//! Fingerprints the shared extraction's own source, the syntax
//! front-end's and the model's (where the test-path rule lives), and the
//! locked dependency versions (see `errdex_fingerprint`).

fn main() {
    errdex_fingerprint::emit(
        "ERRDEX_EXTRACT_FINGERPRINT",
        &["src", "../syntax/src", "../model/src"],
    );
}
