//! Fingerprints the Python extractor's own source and the locked
//! dependency versions, the grammar among them (see `errdex_fingerprint`).

fn main() {
    errdex_fingerprint::emit("ERRDEX_PYTHON_FINGERPRINT", &["src"]);
}
