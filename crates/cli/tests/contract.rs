//! One JSON contract per record: `errdex show --json` and
//! `GET /api/errors/{id}` give the same error record, `errdex explain
//! --json` and `POST /api/explain` the same explain record (the API adds
//! the page links), and both conform to the server's OpenAPI document.

mod common;

use common::server::Server;
use common::{errdex, facts_db, id_of, run_json};
use serde_json::{Map, Value};

/// The OpenAPI document the server serves.
fn openapi() -> Value {
    serde_json::from_str(include_str!("../../web/static/openapi.json")).unwrap()
}

/// A component schema, `#/components/schemas/NAME`.
fn schema<'a>(doc: &'a Value, reference: &str) -> &'a Value {
    let name = reference
        .strip_prefix("#/components/schemas/")
        .unwrap_or_else(|| panic!("unexpected $ref {reference}"));
    &doc["components"]["schemas"][name]
}

/// Checks `value` against `s` (the OpenAPI 3.0 subset the document uses:
/// `$ref`, `type`, `nullable`, `properties`, `required`, `items`);
/// failures are collected with their JSON path. Where a schema lists
/// properties, the value holds exactly those it has and no others.
fn check(doc: &Value, s: &Value, value: &Value, at: &str, failures: &mut Vec<String>) {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        return check(doc, schema(doc, r), value, at, failures);
    }
    if value.is_null() {
        if s.get("type").is_some() && s["nullable"] != true {
            failures.push(format!("{at}: null, not nullable"));
        }
        return;
    }
    let ok = match s.get("type").and_then(Value::as_str) {
        None => true,
        Some("string") => value.is_string(),
        Some("integer") => value.is_u64() || value.is_i64(),
        Some("number") => value.is_number(),
        Some("boolean") => value.is_boolean(),
        Some("array") => value.is_array(),
        Some("object") => value.is_object(),
        Some(t) => panic!("{at}: unexpected schema type {t}"),
    };
    if !ok {
        failures.push(format!("{at}: {value} is not a {}", s["type"]));
        return;
    }
    if let (Some(items), Some(values)) = (s.get("items"), value.as_array()) {
        for (i, v) in values.iter().enumerate() {
            check(doc, items, v, &format!("{at}[{i}]"), failures);
        }
    }
    if let (Some(props), Some(obj)) = (
        s.get("properties").and_then(Value::as_object),
        value.as_object(),
    ) {
        for name in s["required"].as_array().into_iter().flatten() {
            let name = name.as_str().unwrap();
            if !obj.contains_key(name) {
                failures.push(format!("{at}: required `{name}` missing"));
            }
        }
        for (k, v) in obj {
            match props.get(k) {
                Some(p) => check(doc, p, v, &format!("{at}.{k}"), failures),
                None => failures.push(format!("{at}: `{k}` is not in the schema")),
            }
        }
    }
}

/// Checks `value` against component `name`, all failures at once.
fn conforms(doc: &Value, name: &str, value: &Value) {
    let mut failures = Vec::new();
    check(
        doc,
        schema(doc, &format!("#/components/schemas/{name}")),
        value,
        name,
        &mut failures,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `value` without the keys the API adds (`url`, `repo_url`) at the top
/// and in each element of `matches`.
fn without_links(value: &Value) -> Value {
    let mut v = value.clone();
    let obj: &mut Map<String, Value> = v.as_object_mut().unwrap();
    obj.remove("url");
    obj.remove("repo_url");
    if let Some(matches) = obj.get_mut("matches").and_then(Value::as_array_mut) {
        for m in matches {
            m.as_object_mut().unwrap().remove("url");
        }
    }
    v
}

#[test]
fn cli_and_api_give_one_record_each_as_the_openapi_document_says() {
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    let id = id_of(&db, "facts", "division by zero");
    let doc = openapi();
    let server = Server::start(&db);

    // The error record.
    let shown = run_json(errdex(&db).args(["show", "--json", &id]));
    let api: Value = serde_json::from_str(
        &ureq::get(&server.url(&format!("/api/errors/{id}")))
            .call()
            .unwrap()
            .into_body()
            .read_to_string()
            .unwrap(),
    )
    .unwrap();
    conforms(&doc, "Error", &api);
    assert_eq!(api["url"], server.url(&format!("/errors/{id}")));
    assert_eq!(api["repo_url"], server.url("/repos/facts"));
    assert!(shown.get("url").is_none() && shown.get("repo_url").is_none());
    assert_eq!(without_links(&api), shown);
    assert!(!shown["sites"][0]["excerpt"].as_array().unwrap().is_empty());

    // The explain record.
    let text = "thread 'main' panicked at src/lib.rs:13:9:\ndivision by zero: 4 / 0";
    let explained = run_json(errdex(&db).args(["explain", "--json", text]));
    let mut r = ureq::post(&server.url("/api/explain"))
        .header("content-type", "text/plain")
        .send(text)
        .unwrap();
    let api: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
    conforms(&doc, "Explanation", &api);
    let matches = api["matches"].as_array().unwrap();
    assert!(!matches.is_empty());
    for m in matches {
        let url = m["error_id"]
            .as_str()
            .map(|e| Value::from(server.url(&format!("/errors/{e}"))));
        assert_eq!(m["url"], url.unwrap_or(Value::Null), "{m}");
    }
    // The index is built at each start, in its own time.
    let strip_time = |v: &Value| {
        let mut v = without_links(v);
        v["index"].as_object_mut().unwrap().remove("build_ms");
        v
    };
    assert_eq!(strip_time(&api), strip_time(&explained));
    let mut cli = explained.clone();
    for m in cli["matches"].as_array_mut().unwrap() {
        let url = m["error_id"]
            .as_str()
            .map(|e| server.url(&format!("/errors/{e}")));
        m["url"] = url.map_or(Value::Null, Value::from);
    }
    conforms(&doc, "Explanation", &cli);
}
