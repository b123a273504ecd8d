//! Renders the joined [`Model`] as one self-contained HTML page. Guarantees: every string
//! that came from an input goes through [`escape`] (the only way text enters the markup), so
//! tool names, `_meta`, file names and token fields are inert text; the page loads nothing
//! (inline CSS, script and SVG only, and a Content-Security-Policy that allows exactly the
//! inline style and script by their SHA-256 and nothing else); the model is embedded as JSON
//! with `<`, `>`, `&`, U+2028 and U+2029 escaped so it cannot end its script element; the
//! verdict comes first and says what the exit status says; the verdict, summary, timeline
//! and first page of rows (problems first) are rendered here, so the page reads without
//! JavaScript; colour marks only counts that need attention; and the same model gives the
//! same bytes.

use super::markup::{escape, is_invisible};
use super::model::Model;
use crate::digest::sha256_hex;
use crate::finding::Code;
use crate::timestamp::iso_ms;
use base64::Engine as _;
use std::fmt::Write as _;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The model as JSON that cannot close or confuse the script element holding it: `<`, `>`,
/// `&`, U+2028, U+2029 and the invisible characters of [`escape`] become `\u` escapes.
pub fn embedded_json(model: &Model) -> Result<String, serde_json::Error> {
    let mut out = ScriptSafe(Vec::new());
    serde_json::to_writer(&mut out, model)?;
    String::from_utf8(out.0).map_err(|e| serde_json::Error::io(std::io::Error::other(e)))
}

/// Receives serde_json's output and escapes as it goes (no second copy of a large model).
/// serde_json writes whole characters per call (string pieces are cut only at ASCII bytes
/// that need escaping), and these characters occur only inside JSON strings, where a `\u`
/// escape is the same value.
struct ScriptSafe(Vec<u8>);

/// `fmt::Write` into a byte buffer.
struct Hex<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Hex<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

impl std::io::Write for ScriptSafe {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = std::str::from_utf8(buf).map_err(std::io::Error::other)?;
        let mut start = 0;
        for (at, c) in text.char_indices() {
            if matches!(c, '<' | '>' | '&') || is_invisible(c) {
                self.0.extend_from_slice(&buf[start..at]);
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(Hex(&mut self.0), "\\u{unit:04x}");
                }
                start = at + c.len_utf8();
            }
        }
        self.0.extend_from_slice(&buf[start..]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn csp_hash(text: &str) -> String {
    let digest = crate::digest::hex_decode(&sha256_hex(text.as_bytes())).unwrap_or_default();
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The Content-Security-Policy of the page: nothing but its own inline style and script.
pub fn content_security_policy() -> String {
    format!(
        "default-src 'none'; style-src {}; script-src {}; img-src 'none'; connect-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'",
        csp_hash(STYLE),
        csp_hash(SCRIPT)
    )
}

/// Renders the page: the verdict first, then the summary, the timeline, the calls
/// (problems first), the evidence not about one call, and the provenance (inputs, trust
/// anchors) last.
pub fn render(model: &Model) -> Result<String, serde_json::Error> {
    let data = embedded_json(model)?;
    let mut page = String::with_capacity(data.len() + 64 * 1024);
    let title = escape(&model.title);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        content_security_policy()
    );
    let _ = write!(
        page,
        "<header><h1>{title}</h1><p class=\"meta\">sealkit {} incident report",
        env!("CARGO_PKG_VERSION")
    );
    if let Some(at) = &model.generated_at {
        let _ = write!(page, ", generated {}", escape(at));
    }
    page.push_str("</p></header>\n");
    verdict(&mut page, model);
    page.push_str("<noscript><p class=\"note\">JavaScript is off: the verdict, the summary, the timeline and the first page of calls (problems first) are shown; filters, search, ordering and further pages need it.</p></noscript>\n");
    summary(&mut page, model);
    super::timeline::svg(&mut page, model);
    super::rows::calls(&mut page, model);
    super::rows::unjoined(&mut page, model);
    provenance(&mut page, model);
    let _ = write!(
        page,
        "<script type=\"application/json\" id=\"sealkit-data\">{data}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    Ok(page)
}

/// The verdict, as the exit status gives it, and the findings it rests on, most serious
/// first; each links to the rows that carry it (the filter in the URL fragment), or to the
/// findings not about one receipt.
fn verdict(page: &mut String, model: &Model) {
    let v = &model.verdict;
    let title = v.title();
    let _ = write!(
        page,
        "<section id=\"verdict\" class=\"verdict {}\" data-outcome=\"{}\"><h2>{title}</h2><p>{}</p>",
        v.outcome,
        v.outcome,
        escape(&v.headline)
    );
    if !v.causes.is_empty() {
        page.push_str("<table class=\"grid causes\"><thead><tr><th>severity</th><th>finding</th><th>count</th><th>first</th><th>what it says</th></tr></thead><tbody>");
        for cause in &v.causes {
            let link = if cause.rows > 0 {
                format!("#finding={}", cause.code.as_str())
            } else {
                "#other-findings".to_owned()
            };
            let where_ = if cause.rows > 0 {
                format!(
                    "{} ({} row{})",
                    cause.count,
                    cause.rows,
                    if cause.rows == 1 { "" } else { "s" }
                )
            } else {
                cause.count.to_string()
            };
            let _ = write!(
                page,
                "<tr class=\"{}\"><td>{}</td><td><a href=\"{link}\">{}</a></td><td>{where_}</td><td>{}</td><td>{}</td></tr>",
                cause.severity.as_str(),
                cause.severity.as_str(),
                cause.code.as_str(),
                escape(&cause.first_time.map(iso_ms).unwrap_or_default()),
                escape(&cause.example.message)
            );
        }
        page.push_str("</tbody></table>");
    }
    page.push_str("</section>\n");
}

/// One count; its colour only when it is not zero (a zero never needs attention).
fn count(page: &mut String, key: &str, label: &str, value: u64, class: &str) {
    let class = if value == 0 { "zero" } else { class };
    let _ = write!(
        page,
        "<div class=\"card {class}\"><span class=\"n\" data-k=\"{key}\">{value}</span><span class=\"l\">{label}</span></div>"
    );
}

fn summary(page: &mut String, model: &Model) {
    let s = &model.summary;
    let status = |name: &str| s.statuses.get(name).copied().unwrap_or(0);
    let verdict = |name: &str| s.verdicts.get(name).copied().unwrap_or(0);
    let severity = |name: &str| s.findings_by_severity.get(name).copied().unwrap_or(0);
    page.push_str("<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">");
    count(page, "error", "error findings", severity("error"), "bad");
    count(page, "warning", "warnings", severity("warning"), "warn");
    count(page, "info", "info", severity("info"), "");
    count(page, "receipts", "receipts", s.receipts, "");
    count(
        page,
        "authenticated",
        "authenticated",
        status("authenticated"),
        "good",
    );
    for (key, class) in [
        ("failed", "bad"),
        ("unsigned", "warn"),
        ("unpinned", "warn"),
        ("unreadable", "bad"),
    ] {
        count(page, key, key, status(key), class);
    }
    page.push_str("</div><div class=\"cards\">");
    count(page, "allow", "ALLOW", verdict("allow"), "allow");
    count(
        page,
        "released",
        "released (approved)",
        verdict("released"),
        "released",
    );
    count(page, "block", "BLOCK", verdict("block"), "block");
    for (claim, n) in &s.claims {
        // Claims of receipts that do not authenticate: counted apart, never as verdicts.
        let _ = write!(
            page,
            "<div class=\"card claim\"><span class=\"n\" data-k=\"claims-{}\">{n}</span><span class=\"l\">claims {} — not authenticated</span></div>",
            escape(claim),
            escape(claim)
        );
    }
    page.push_str("</div><div class=\"cards\">");
    let cards: [(&str, &str, u64, &str); 8] = [
        ("tokens-accepted", "tokens accepted", s.tokens_accepted, ""),
        (
            "tokens-rejected",
            "tokens rejected",
            s.tokens_rejected,
            "bad",
        ),
        (
            "tokens-never-used",
            "tokens never used",
            s.tokens_never_used,
            "warn",
        ),
        (
            "released-without-token",
            "released without a matching token",
            s.released_without_token,
            "warn",
        ),
        ("chain-entries", "chain entries", s.chain_entries, ""),
        ("chain-breaks", "broken chains", s.chain_breaks, "bad"),
        ("frames-captured", "frames captured", s.frames_captured, ""),
        (
            "frames-not-captured",
            "frames not captured",
            s.frames_not_captured,
            "warn",
        ),
    ];
    for (key, label, value, class) in cards {
        count(page, key, label, value, class);
    }
    page.push_str("</div>");
    if !s.findings_by_code.is_empty() {
        // Most serious first, then the most frequent.
        let mut codes: Vec<(&Code, &u64)> = s.findings_by_code.iter().collect();
        codes.sort_by_key(|(code, n)| (std::cmp::Reverse(code.severity()), std::cmp::Reverse(**n)));
        page.push_str("<table class=\"grid codes\"><thead><tr><th>severity</th><th>finding</th><th>count</th></tr></thead><tbody>");
        for (code, n) in codes {
            let severity = code.severity().as_str();
            let _ = write!(
                page,
                "<tr class=\"{severity}\"><td>{severity}</td><td>{}</td><td>{n}</td></tr>",
                code.as_str()
            );
        }
        page.push_str("</tbody></table>");
    }
    page.push_str("</section>\n");
}

/// Where the evidence came from: inputs (path, size, SHA-256) and the keys it was checked
/// against.
fn provenance(page: &mut String, model: &Model) {
    page.push_str("<section id=\"provenance\"><h2>Provenance</h2><h3>Inputs</h3><table class=\"grid\"><thead><tr><th>role</th><th>path</th><th>size</th><th>SHA-256</th></tr></thead><tbody>");
    for input in &model.inputs {
        let size = if input.sha256.is_some() {
            format!("{} bytes", input.bytes)
        } else {
            format!("{} files", input.bytes)
        };
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"path\">{}</td><td>{}</td><td><code class=\"hash\">{}</code></td></tr>",
            input.role,
            escape(&input.path),
            size,
            escape(input.sha256.as_deref().unwrap_or("(directory)"))
        );
    }
    page.push_str("</tbody></table><h3>Trust anchors</h3><ul class=\"anchors\">");
    match &model.trust.receipt_key {
        Some(key) => {
            let _ = write!(
                page,
                "<li>receipt key <code class=\"hash\">{}</code> ({})</li>",
                escape(&key.public_key),
                escape(&key.source)
            );
        }
        None => page.push_str(
            "<li class=\"bad\">no receipt key pinned: no receipt can be authenticated</li>",
        ),
    }
    if model.trust.approvers.is_empty() {
        page.push_str("<li>no approval key: tokens not checked</li>");
    }
    for key in &model.trust.approvers {
        let _ = write!(
            page,
            "<li>approval key <code class=\"hash\">{}</code> key id <code class=\"hash\">{}</code> ({})</li>",
            escape(&key.public_key),
            escape(key.key_id.as_deref().unwrap_or("")),
            escape(&key.source)
        );
    }
    let _ = write!(page, "<li>approval TTL {} s</li>", model.trust.ttl_seconds);
    if let Some(server) = &model.trust.server {
        let _ = write!(
            page,
            "<li>server identity <code>{}</code></li>",
            escape(server)
        );
    }
    page.push_str("</ul></section>\n");
}
