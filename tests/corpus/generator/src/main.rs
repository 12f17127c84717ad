//! One scenario per argument; each triggers a real error of a real crate
//! and prints it as programs do (panic, Display, Debug, chain, log line).
use anyhow::{bail, ensure, Context};
use base64::Engine;
use serde::Deserialize;
use serde_json::{json, Value};
use std::str::FromStr;

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Config {
    name: String,
    port: u16,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
enum Mode {
    Fast,
    Slow,
}

fn load_settings(text: &str) -> anyhow::Result<Value> {
    let v: Value = serde_json::from_str(text).context("parsing settings")?;
    Ok(v)
}

fn pick_format(name: &str) -> anyhow::Result<()> {
    if name != "json" {
        bail!("unsupported format: {}", name);
    }
    Ok(())
}

fn check_workers(n: u32) -> anyhow::Result<()> {
    ensure!(n > 3);
    Ok(())
}

fn main() -> anyhow::Result<()> {
    env_logger::Builder::new().filter_level(log::LevelFilter::Info).format_timestamp_secs().init();
    let scenario = std::env::args().nth(1).unwrap_or_default();
    match scenario.as_str() {
        // serde_json
        "sj_unwrap_eof" => {
            serde_json::from_str::<Value>("{").unwrap();
        }
        "sj_display_trailing" => eprintln!("{}", serde_json::from_str::<Value>("[1] x").unwrap_err()),
        "sj_debug_trailing" => eprintln!("{:?}", serde_json::from_str::<Value>("[1] x").unwrap_err()),
        "sj_invalid_type" => eprintln!("{}", serde_json::from_str::<String>("1").unwrap_err()),
        "sj_invalid_type_bool" => eprintln!("{}", serde_json::from_str::<u32>("true").unwrap_err()),
        "sj_index_key" => {
            let mut v = json!(1);
            v["a"] = json!(2);
        }
        "sj_index_array" => {
            let mut v = json!([1]);
            v[5] = json!(0);
        }
        "sj_missing_field" => eprintln!("{}", serde_json::from_str::<Config>("{\"port\": 1}").unwrap_err()),
        "sj_unknown_variant" => eprintln!("{}", serde_json::from_str::<Mode>("\"Medium\"").unwrap_err()),
        "sj_expect" => {
            serde_json::from_str::<Value>("nul").expect("config must be valid JSON");
        }
        "sj_main_err" => {
            serde_json::from_str::<Value>("-").map_err(anyhow::Error::from)?;
        }
        "sj_key_must_be_string" => {
            let mut m = std::collections::HashMap::new();
            m.insert(vec![1u8], 1);
            eprintln!("{}", serde_json::to_string(&m).unwrap_err());
        }
        "sj_number_out_of_range" => eprintln!("{}", serde_json::from_str::<Value>("1e999").unwrap_err()),
        "sj_control_char" => eprintln!("{}", serde_json::from_str::<Value>("\"a\u{1}b\"").unwrap_err()),
        "sj_invalid_escape" => eprintln!("{}", serde_json::from_str::<Value>("\"\\q\"").unwrap_err()),
        "sj_recursion" => eprintln!("{}", serde_json::from_str::<Value>(&"[".repeat(200)).unwrap_err()),
        "sj_log" => log::error!("request failed: {}", serde_json::from_str::<Value>("{\"a\" 1}").unwrap_err()),
        // anyhow in this program
        "ah_context_chain" => {
            std::fs::read_to_string("/nonexistent/errdex/config.toml").context("failed to read config")?;
        }
        "ah_bail" => pick_format("xml")?,
        "ah_ensure" => check_workers(2)?,
        "ah_nested_json" => {
            load_settings("{")?;
        }
        "ah_alternate" => eprintln!("{:#}", load_settings("{").unwrap_err()),
        // semver
        "sv_parse" => eprintln!("{}", semver::Version::parse("1.q.r").unwrap_err()),
        "sv_unwrap" => {
            semver::Version::parse("1.2").unwrap();
        }
        "sv_req" => eprintln!("{}", semver::VersionReq::parse(">=1.0, *").unwrap_err()),
        "sv_leading_zero" => eprintln!("{}", semver::Version::parse("01.2.3").unwrap_err()),
        "sv_empty" => eprintln!("{}", semver::Version::parse("").unwrap_err()),
        "sv_debug" => eprintln!("{:?}", semver::Version::parse("1.2.3-").unwrap_err()),
        "sv_excessive" => eprintln!("{}", semver::VersionReq::parse(&vec!["1"; 40].join(",")).unwrap_err()),
        // http
        "http_status" => eprintln!("{}", http::StatusCode::from_u16(1000).unwrap_err()),
        "http_status_unwrap" => {
            http::StatusCode::from_u16(42).unwrap();
        }
        "http_method" => eprintln!("{}", http::Method::from_bytes(b"GE T").unwrap_err()),
        "http_uri" => eprintln!("{}", http::Uri::from_str("http://[::1").unwrap_err()),
        "http_header_name" => eprintln!("{}", http::header::HeaderName::from_str("bad header").unwrap_err()),
        "http_header_value" => eprintln!("{}", http::HeaderValue::from_str("a\nb").unwrap_err()),
        // humantime
        "ht_unit" => eprintln!("{}", humantime::parse_duration("10nights").unwrap_err()),
        "ht_number" => eprintln!("{}", humantime::parse_duration("abc").unwrap_err()),
        "ht_unwrap" => {
            humantime::parse_duration("").unwrap();
        }
        "ht_date" => eprintln!("{}", humantime::parse_rfc3339("2018-13-01T00:00:00Z").unwrap_err()),
        "ht_date_format" => eprintln!("{}", humantime::parse_rfc3339("yesterday").unwrap_err()),
        // url
        "url_relative" => eprintln!("{}", url::Url::parse("/just/a/path").unwrap_err()),
        "url_port" => eprintln!("{}", url::Url::parse("http://host:99999/").unwrap_err()),
        "url_unwrap" => {
            url::Url::parse("http://[::1").unwrap();
        }
        "url_host" => eprintln!("{}", url::Url::parse("http://").unwrap_err()),
        // base64
        "b64_byte" => eprintln!("{}", base64::engine::general_purpose::STANDARD.decode("ab$d").unwrap_err()),
        "b64_length" => eprintln!("{}", base64::engine::general_purpose::STANDARD.decode("abcde").unwrap_err()),
        "b64_unwrap" => {
            base64::engine::general_purpose::STANDARD.decode("a").unwrap();
        }
        // uuid
        "uuid_len" => eprintln!("{}", uuid::Uuid::parse_str("1234").unwrap_err()),
        "uuid_char" => eprintln!("{}", uuid::Uuid::parse_str("zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz").unwrap_err()),
        "uuid_unwrap" => {
            uuid::Uuid::parse_str("not-a-uuid").unwrap();
        }
        other => eprintln!("unknown scenario {other}"),
    }
    Ok(())
}
