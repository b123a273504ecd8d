//! The exact bytes of each planned frame: the client's member order (after the official SDKs'
//! frames in testdata/real-clients), JSON-RPC ids as integers or strings, `_meta` as each era
//! carries it (2026-07-28: the reserved keys, clientInfo, and now and then a progress token,
//! W3C trace context and baggage, a log level and vendor keys nested a few levels deep;
//! legacy: absent or a few untyped keys), now and then `requestState` and `inputResponses`,
//! and arguments grown to the planned size with what each tool carries (paths, SQL, file
//! contents, mail bodies, payment lines): ASCII and non-ASCII text, escapes, numbers.
//! serde_json writes each value compactly, as the SDKs do; a frame ends with LF (CRLF now
//! and then).

use super::plan::{Client, Era, Plan, Request, Session, Tool};
use super::rng::Rng;
use serde_json::{json, Map, Value};

/// Words for text. None contains "drop", "delete" or "truncate": only a destructive SQL
/// statement names those (the guarded rule's match).
const WORDS: [&str; 64] = [
    "order",
    "customer",
    "invoice",
    "shipment",
    "ledger",
    "report",
    "quarter",
    "region",
    "tenant",
    "deploy",
    "rollback",
    "cache",
    "index",
    "replica",
    "backup",
    "schema",
    "metric",
    "latency",
    "budget",
    "forecast",
    "approval",
    "release",
    "incident",
    "pager",
    "runbook",
    "owner",
    "policy",
    "audit",
    "session",
    "token",
    "vendor",
    "contract",
    "café",
    "naïve",
    "Grüße",
    "résumé",
    "façade",
    "Ångström",
    "東京",
    "データ",
    "отчёт",
    "مرحبا",
    "🙂",
    "🚀",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "über",
    "piñata",
    "smörgåsbord",
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "for",
    "with",
    "on",
    "at",
    "by",
    "from",
    "is",
    "not",
    "was",
    "all",
];

const TABLES: [&str; 8] = [
    "orders",
    "customers",
    "invoices",
    "sessions",
    "audit_log",
    "shipments",
    "refunds",
    "feature_flags",
];

/// Builds the frame of request `index`.
pub fn build(plan: &Plan, seed: u64, index: usize) -> Vec<u8> {
    let request = &plan.requests[index];
    let session = &plan.sessions[request.session as usize];
    let mut rng = Rng::stream(seed, 3, index as u64);
    let arguments = arguments(&mut rng, request);
    let meta = meta(&mut rng, session, request.id);
    let context = (session.era == Era::Modern
        && matches!(
            request.tool,
            Tool::DbExecute | Tool::FsWriteFile | Tool::MailSend
        )
        && rng.chance(0.05))
    .then(|| request_context(&mut rng));
    let mut params = Map::new();
    let meta_first = session.client == Client::Python && rng.chance(0.5);
    if let Some((state, responses)) = &context {
        params.insert("inputResponses".into(), responses.clone());
        params.insert("requestState".into(), state.clone());
    }
    if let (true, Some(meta)) = (meta_first, &meta) {
        params.insert("_meta".into(), Value::Object(meta.clone()));
    }
    params.insert("name".into(), json!(request.tool.name()));
    params.insert("arguments".into(), Value::Object(arguments));
    if let (false, Some(meta)) = (meta_first, meta) {
        params.insert("_meta".into(), Value::Object(meta));
    }
    let id = id_value(session, request.id);
    message(
        session.client,
        Some(id),
        "tools/call",
        Some(Value::Object(params)),
        request.crlf,
    )
}

/// The frames a session opens with: its entry call (`initialize` and its notification, or
/// `server/discover`) and a `tools/list`.
pub fn opening(session: &Session) -> Vec<Vec<u8>> {
    let info = json!({"name": session.client_name, "version": session.client_version});
    match session.era {
        Era::Legacy => {
            let params = json!({
                "protocolVersion": "2025-11-25",
                "capabilities": capabilities(session.capabilities),
                "clientInfo": info,
            });
            vec![
                message(
                    session.client,
                    Some(id_value(session, 0)),
                    "initialize",
                    Some(params),
                    false,
                ),
                message(
                    session.client,
                    None,
                    "notifications/initialized",
                    None,
                    false,
                ),
                message(
                    session.client,
                    Some(id_value(session, 1)),
                    "tools/list",
                    None,
                    false,
                ),
            ]
        }
        Era::Modern => {
            let meta = Value::Object(reserved(session));
            vec![
                message(
                    session.client,
                    Some(id_value(session, 0)),
                    "server/discover",
                    Some(json!({"_meta": meta.clone()})),
                    false,
                ),
                message(
                    session.client,
                    Some(id_value(session, 1)),
                    "tools/list",
                    Some(json!({"_meta": meta})),
                    false,
                ),
            ]
        }
    }
}

/// A JSON-RPC message in the client's member order, compact, with its delimiter.
pub fn message(
    client: Client,
    id: Option<Value>,
    method: &str,
    params: Option<Value>,
    crlf: bool,
) -> Vec<u8> {
    let mut map = Map::new();
    let version = ("jsonrpc".to_owned(), json!("2.0"));
    match client {
        Client::Python => {
            map.insert(version.0, version.1);
            if let Some(id) = id.clone() {
                map.insert("id".into(), id);
            }
            map.insert("method".into(), json!(method));
            if let Some(params) = params {
                map.insert("params".into(), params);
            }
        }
        Client::TypeScript => {
            map.insert("method".into(), json!(method));
            if let Some(params) = params {
                map.insert("params".into(), params);
            }
            map.insert(version.0, version.1);
            if let Some(id) = id {
                map.insert("id".into(), id);
            }
        }
    }
    let mut bytes = serde_json::to_vec(&Value::Object(map)).unwrap();
    bytes.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
    bytes
}

pub fn id_value(session: &Session, id: u64) -> Value {
    if session.string_ids {
        json!(format!("call-{id}"))
    } else {
        json!(id)
    }
}

fn capabilities(variant: u8) -> Value {
    match variant {
        0 => json!({}),
        1 => json!({"elicitation": {}}),
        2 => json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}}),
        _ => json!({"roots": {"listChanged": true}, "elicitation": {"form": {}}}),
    }
}

/// The 2026-07-28 reserved keys and the client's own description.
fn reserved(session: &Session) -> Map<String, Value> {
    let mut meta = Map::new();
    meta.insert(
        "io.modelcontextprotocol/protocolVersion".into(),
        json!("2026-07-28"),
    );
    meta.insert(
        "io.modelcontextprotocol/clientInfo".into(),
        json!({"name": session.client_name, "version": session.client_version}),
    );
    meta.insert(
        "io.modelcontextprotocol/clientCapabilities".into(),
        capabilities(session.capabilities),
    );
    meta
}

fn meta(rng: &mut Rng, session: &Session, id: u64) -> Option<Map<String, Value>> {
    let mut extras = Map::new();
    if rng.chance(0.35) {
        let token = if rng.chance(0.6) {
            json!(id)
        } else {
            json!(format!("p-{}", rng.hex(4)))
        };
        extras.insert("progressToken".into(), token);
    }
    if rng.chance(0.45) {
        extras.insert(
            "traceparent".into(),
            json!(format!(
                "00-{}-{}-01",
                nonzero_hex(rng, 16),
                nonzero_hex(rng, 8)
            )),
        );
        if rng.chance(0.3) {
            extras.insert(
                "tracestate".into(),
                json!(format!("rojo={},congo=t61rcWkgMzE", rng.hex(8))),
            );
        }
    }
    if rng.chance(0.12) {
        extras.insert(
            "baggage".into(),
            json!(format!(
                "userId={},tenant=acme-{},region=eu-west-{}",
                rng.pick(&["alice", "bob", "chen", "dana"]),
                rng.below(40),
                rng.range(1, 3)
            )),
        );
    }
    if rng.chance(0.3) {
        extras.insert(
            "com.example/run".into(),
            json!({"attempt": rng.range(1, 4), "tags": [rng.pick(&WORDS), rng.pick(&WORDS)]}),
        );
    }
    if rng.chance(0.15) {
        let steps: Vec<Value> = (0..rng.range(1, 6))
            .map(|n| {
                json!({
                    "n": n,
                    "action": rng.pick(&["read", "query", "write", "notify", "verify"]),
                    "status": rng.pick(&["done", "running", "planned"]),
                    "notes": {"why": words_between(rng, 20, 120), "confidence": rng.below(100)},
                })
            })
            .collect();
        extras.insert(
            "dev.agentkit/plan".into(),
            json!({"goal": words_between(rng, 20, 300), "steps": steps, "budget": {"tokens": rng.range(1_000, 200_000)}}),
        );
    }
    if rng.chance(0.1) {
        extras.insert(
            "io.acme.audit/context".into(),
            json!({
                "ticket": format!("OPS-{}", rng.range(100, 99_999)),
                "requester": {"name": rng.pick(&super::plan::APPROVERS), "team": rng.pick(&["payments", "platform", "data", "support"])},
                "approved_by": [],
            }),
        );
    }
    match session.era {
        Era::Legacy => (!extras.is_empty() && rng.chance(0.7)).then_some(extras),
        Era::Modern => {
            let mut meta = Map::new();
            if rng.chance(0.2) {
                extras.insert(
                    "io.modelcontextprotocol/logLevel".into(),
                    json!(rng.pick(&["debug", "info", "warning"])),
                );
            }
            let (first, second) = if session.reserved_last {
                (extras, reserved(session))
            } else {
                (reserved(session), extras)
            };
            meta.extend(first);
            meta.extend(second);
            Some(meta)
        }
    }
}

/// Random hex that is not all zeros (W3C ids must not be).
fn nonzero_hex(rng: &mut Rng, bytes: usize) -> String {
    loop {
        let hex = rng.hex(bytes);
        if hex.bytes().any(|b| b != b'0') {
            return hex;
        }
    }
}

/// A multi-round-trip call's `requestState` and `inputResponses`.
fn request_context(rng: &mut Rng) -> (Value, Value) {
    const B64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let state: String = (0..rng.range(40, 400))
        .map(|_| char::from(*rng.pick(B64URL)))
        .collect();
    let responses = json!({
        format!("confirm_{}", rng.pick(&TABLES)): {"action": "accept", "content": {"confirm": true, "note": words(rng, 40)}}
    });
    (json!(format!("v1.{state}")), responses)
}

/// Text of about `bytes` UTF-8 bytes: words, punctuation, now and then a quote.
pub fn words(rng: &mut Rng, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 16);
    while out.len() < bytes {
        if !out.is_empty() {
            out.push(if rng.chance(0.05) { ',' } else { ' ' });
            if rng.chance(0.03) {
                out.push('"');
            }
        }
        let word = WORDS[rng.below(WORDS.len() as u64) as usize];
        out.push_str(word);
    }
    out
}

fn words_between(rng: &mut Rng, lo: u64, hi: u64) -> String {
    let bytes = rng.range(lo, hi) as usize;
    words(rng, bytes)
}

/// Paragraphs of about `bytes` bytes: lines, blank lines, tabs, quotes and backslashes, as
/// file contents and mail bodies have them.
fn prose(rng: &mut Rng, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 64);
    while out.len() < bytes {
        match rng.below(10) {
            0 => out.push_str("\n\n"),
            1 => out.push_str("\n\t- "),
            2 => out.push_str(&format!(" \"{}\" ", rng.pick(&WORDS))),
            3 => out.push_str(&format!(
                " C:\\data\\{}\\{}.csv ",
                rng.pick(&TABLES),
                rng.below(999)
            )),
            _ => {
                let line = rng.range(20, 120) as usize;
                out.push_str(&words(rng, line));
                out.push_str(". ");
            }
        }
    }
    out
}

/// Source text of about `bytes` bytes.
fn code(rng: &mut Rng, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 128);
    let mut n = 0;
    while out.len() < bytes {
        n += 1;
        out.push_str(&format!(
            "fn {}_{n}(input: &str) -> Result<u{}, Error> {{\n\tlet path = \"/srv/{}/{}.json\";\n\t// {}\n\tOk(input.len() as u{} * {})\n}}\n\n",
            rng.pick(&TABLES),
            rng.pick(&["32", "64"]),
            rng.pick(&TABLES),
            rng.below(10_000),
            words_between(rng, 10, 80),
            rng.pick(&["32", "64"]),
            rng.below(1_000)
        ));
    }
    out
}

fn path(rng: &mut Rng) -> String {
    format!(
        "{}/{}/{}-{}.{}",
        rng.pick(&["docs", "src", "runbooks", "reports", "contracts"]),
        rng.pick(&TABLES),
        rng.pick(&WORDS[..32]),
        rng.below(10_000),
        rng.pick(&["md", "txt", "json", "csv", "rs"])
    )
}

fn email(rng: &mut Rng) -> String {
    format!(
        "{}.{}@{}",
        rng.pick(&["alice", "bob", "chen", "dana", "erik", "fatima", "gus"]),
        rng.below(100),
        rng.pick(&["example.com", "acme.io", "müller.de", "ops.example.org"])
    )
}

fn compact_len(map: &Map<String, Value>) -> usize {
    serde_json::to_vec(map).map_or(0, |b| b.len())
}

/// The arguments of `request`, grown to about its planned size.
fn arguments(rng: &mut Rng, request: &Request) -> Map<String, Value> {
    let size = request.size;
    let mut args = Map::new();
    // The member each tool grows: its text, or (`None`) an array grown item by item.
    let grow = |args: &mut Map<String, Value>,
                key: &str,
                text: &mut dyn FnMut(&mut Rng, usize) -> String,
                rng: &mut Rng| {
        let room = size.saturating_sub(compact_len(args) + key.len() + 6);
        args.insert(key.into(), json!(text(rng, room.max(8))));
    };
    match request.tool {
        Tool::DocsRead => {
            args.insert("path".into(), json!(path(rng)));
            args.insert("encoding".into(), json!("utf-8"));
            args.insert("max_bytes".into(), json!(rng.range(1_024, 1_048_576)));
            let mut more = Vec::new();
            while compact_len(&args) + more.len() * 32 < size {
                more.push(json!(path(rng)));
            }
            args.insert("also".into(), Value::Array(more));
        }
        Tool::SearchQuery => {
            args.insert("query".into(), json!(words_between(rng, 10, 80)));
            args.insert(
                "filters".into(),
                json!({"tenant": format!("acme-{}", rng.below(40)), "since": format!("2026-0{}-{:02}", rng.range(1, 8), rng.range(1, 28)), "tags": [rng.pick(&WORDS), rng.pick(&WORDS)]}),
            );
            args.insert("limit".into(), json!(rng.range(5, 200)));
            grow(&mut args, "context", &mut prose, rng);
        }
        Tool::DbQuery => {
            args.insert("database".into(), json!(format!("prod-{}", rng.below(17))));
            let mut sql = format!(
                "SELECT o.id, o.total, o.note FROM {} o WHERE o.status IN ('open', 'pending') AND o.customer_id IN (",
                rng.pick(&TABLES)
            );
            while sql.len() + 80 < size {
                sql.push_str(&format!("{}, ", rng.below(10_000_000)));
            }
            sql.push_str("0) ORDER BY o.created_at DESC LIMIT 50");
            args.insert("sql".into(), json!(sql));
            args.insert("timeout_ms".into(), json!(rng.range(1_000, 60_000)));
        }
        Tool::DbExecute => {
            args.insert("database".into(), json!(format!("prod-{}", rng.below(17))));
            let table = rng.pick(&TABLES);
            let sql = if request.destructive {
                match rng.below(3) {
                    0 => format!("DROP TABLE {table}"),
                    1 => format!("truncate table {table}"),
                    _ => {
                        let mut sql = format!("DELETE FROM {table} WHERE id IN (");
                        while sql.len() + 40 < size {
                            sql.push_str(&format!("{}, ", rng.below(10_000_000)));
                        }
                        sql + "0)"
                    }
                }
            } else {
                let mut sql = format!("INSERT INTO {table} (id, customer, amount, note) VALUES ");
                while sql.len() + 60 < size {
                    sql.push_str(&format!(
                        "({}, '{}', {}, '{}'), ",
                        rng.below(10_000_000),
                        words(rng, 12).replace('\'', "''"),
                        rng.below(100_000),
                        words_between(rng, 8, 60).replace('\'', "''")
                    ));
                }
                sql + "(0, '', 0, '')"
            };
            args.insert("sql".into(), json!(sql));
            if request.destructive {
                grow(&mut args, "reason", &mut words, rng);
            }
        }
        Tool::FsWriteFile => {
            args.insert("path".into(), json!(format!("/srv/app/{}", path(rng))));
            args.insert("mode".into(), json!("0644"));
            args.insert("append".into(), json!(rng.chance(0.2)));
            if rng.chance(0.5) {
                grow(&mut args, "content", &mut code, rng);
            } else {
                grow(&mut args, "content", &mut prose, rng);
            }
        }
        Tool::PaymentsSend => {
            args.insert(
                "amount".into(),
                json!(rng.range(100, 5_000_000) as f64 / 100.0),
            );
            args.insert(
                "currency".into(),
                json!(rng.pick(&["EUR", "USD", "GBP", "JPY"])),
            );
            args.insert(
                "to".into(),
                json!({"name": rng.pick(&super::plan::APPROVERS), "iban": format!("DE{:020}", rng.below(u64::MAX / 2))}),
            );
            args.insert(
                "reference".into(),
                json!(format!("INV-2026-{:05}", rng.below(100_000))),
            );
            let mut lines = Vec::new();
            while compact_len(&args) + lines.len() * 90 < size {
                lines.push(json!({"sku": format!("SKU-{}", rng.below(100_000)), "qty": rng.range(1, 20), "price": rng.range(1, 100_000) as f64 / 100.0, "label": words(rng, 24)}));
            }
            args.insert("line_items".into(), Value::Array(lines));
        }
        Tool::MailSend => {
            let to: Vec<Value> = (0..rng.range(1, 4)).map(|_| json!(email(rng))).collect();
            args.insert("to".into(), Value::Array(to));
            args.insert("subject".into(), json!(words_between(rng, 12, 90)));
            if rng.chance(0.3) {
                args.insert(
                    "attachments".into(),
                    json!([{"name": path(rng), "bytes": rng.range(100, 10_000_000)}]),
                );
            }
            grow(&mut args, "body", &mut prose, rng);
        }
        Tool::ShellExec => {
            args.insert("command".into(), json!("bash"));
            args.insert("cwd".into(), json!("/srv/app"));
            args.insert(
                "env".into(),
                json!({"RUST_LOG": "info", "TENANT": format!("acme-{}", rng.below(40))}),
            );
            grow(&mut args, "script", &mut code, rng);
        }
    }
    args
}
