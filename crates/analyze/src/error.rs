//! What can go wrong when a language model is asked for sections. Each
//! message is the one line a user sees (in `errdex analyze`'s refusal or a
//! section's rejection).

use std::path::PathBuf;

/// A failure to ask a language model: the `--llm` spec, the model server,
/// its reply, or the in-process runtime.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// `--llm local:PATH` names no file.
    #[error("--llm local:{}: no such file", .0.display())]
    NoSuchFile(PathBuf),
    /// `--llm` is neither an HTTP URL nor `local:PATH`.
    #[error("--llm {0}: expected http(s)://HOST:PORT/v1 or local:PATH.gguf")]
    BadSpec(String),
    /// `--llm` asks for a model runtime this build leaves out.
    #[error("--llm {spec}: this errdex is built without {what} (cargo feature `{feature}`)")]
    NotBuilt {
        /// The `--llm` value.
        spec: String,
        /// What is missing, in words.
        what: &'static str,
        /// The cargo feature that builds it.
        feature: &'static str,
    },
    /// The server's base is not a URL.
    #[error("--llm {base}: not a URL: {reason}")]
    NotAUrl {
        /// The base URL given.
        base: String,
        /// Why it does not parse.
        reason: String,
    },
    /// The server's URL has no host.
    #[error("--llm {0}: no host")]
    NoHost(String),
    /// The server's host name does not resolve.
    #[error("cannot resolve the model server {host}: {source}")]
    Resolve {
        /// The host.
        host: String,
        /// The resolver's error.
        source: std::io::Error,
    },
    /// The server's host resolves to no address.
    #[error("the model server {0} resolves to no address")]
    NoAddress(String),
    /// Nothing listens at the server's address.
    #[error("connection refused: no model server answers at {base} ({detail})")]
    Refused {
        /// The base URL.
        base: String,
        /// The transport's words.
        detail: String,
    },
    /// The server's address cannot be reached (a timeout, no route).
    #[error("the model server at {base} cannot be reached: {source}")]
    Unreachable {
        /// The base URL.
        base: String,
        /// The connection's error.
        source: std::io::Error,
    },
    /// The request failed on its way.
    #[error("the model at {base} could not be reached: {detail}")]
    Request {
        /// The base URL.
        base: String,
        /// The HTTP client's words.
        detail: String,
    },
    /// The server answered something that is not JSON.
    #[error("the model at {base} answered {status} with no JSON: {detail}")]
    NoJson {
        /// The base URL.
        base: String,
        /// The HTTP status, as `200 OK`.
        status: String,
        /// Why the body does not decode.
        detail: String,
    },
    /// The server answered an HTTP error.
    #[error("the model at {base} answered {status}: {reply}")]
    Status {
        /// The base URL.
        base: String,
        /// The HTTP status, as `500 Internal Server Error`.
        status: String,
        /// The JSON it answered.
        reply: String,
    },
    /// The server's answer has no message content.
    #[error("the model at {0} answered without choices[0].message.content")]
    NoContent(String),
    /// The model's reply holds no JSON object.
    #[error("the reply holds no JSON object")]
    NoJsonObject,
    /// The model's JSON is not the shape asked for.
    #[error("the reply is not the JSON asked for: {0}")]
    BadReply(#[source] serde_json::Error),
    /// The in-process model's file cannot be used.
    #[error("{}: {reason}", path.display())]
    Load {
        /// The GGUF file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// The in-process model's tokenizer loses text.
    #[error("the model's tokenizer does not round-trip the prompt")]
    RoundTrip,
    /// The prompt is longer than the in-process model's context.
    #[error("the prompt ({tokens} tokens) does not fit the model's context of {context}")]
    TooLong {
        /// The prompt's tokens.
        tokens: usize,
        /// The model's context length.
        context: usize,
    },
    /// The in-process runtime failed while generating.
    #[cfg(feature = "local-model")]
    #[error("{0}")]
    Runtime(#[from] candle_core::Error),
}
