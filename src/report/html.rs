//! Renders the joined [`Model`] as one self-contained HTML page. Guarantees: every string
//! that came from an input goes through [`escape`] (the only way text enters the markup), so
//! tool names, `_meta`, file names and token fields are inert text; the page loads nothing
//! (inline CSS, script and SVG only, and a Content-Security-Policy that allows exactly the
//! inline style and script by their SHA-256 and nothing else); the model is embedded as JSON
//! with `<`, `>`, `&`, U+2028 and U+2029 escaped so it cannot end its script element; the
//! summary, timeline and first page of rows are rendered here, so the page reads without
//! JavaScript; and the same model gives the same bytes.

use super::model::{Details, Model, Row};
use crate::digest::sha256_hex;
use crate::finding::Finding;
use base64::Engine as _;
use std::fmt::Write as _;

/// Rows per page, on the server-rendered first page and in the script's pages.
pub const PAGE_ROWS: usize = 100;
/// Report-level findings listed in the static page (all of them are in the embedded data).
const STATIC_FINDINGS: usize = 200;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The one escaping function for the page: HTML-escapes `&<>"'` (safe in text and in quoted
/// attributes) and writes every control, bidirectional and invisible character as a visible
/// `\u{HEX}`, so no input can reorder, hide or mark up what is shown.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if is_invisible(c) => {
                let _ = write!(out, "\\u{{{:X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Characters that would act on the display instead of being read: controls (LF excepted,
/// which `<pre>` shows as a line break), bidi controls, zero-width and separator characters.
/// The page script applies the same list to text it inserts.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{9}' | '\u{B}'..='\u{1F}' | '\u{7F}'..='\u{9F}' | '\u{AD}' | '\u{61C}'
        | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
        | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

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

/// Renders the page.
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
    page.push_str("<noscript><p class=\"note\">JavaScript is off: the summary, the timeline and the first page of calls are shown; filters, search and further pages need it.</p></noscript>\n");
    inputs(&mut page, model);
    summary(&mut page, model);
    super::timeline::svg(&mut page, model);
    calls(&mut page, model);
    unjoined(&mut page, model);
    let _ = write!(
        page,
        "<script type=\"application/json\" id=\"sealkit-data\">{data}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    Ok(page)
}

fn inputs(page: &mut String, model: &Model) {
    page.push_str("<section id=\"inputs\"><h2>Inputs</h2><table class=\"grid\"><thead><tr><th>role</th><th>path</th><th>size</th><th>SHA-256</th></tr></thead><tbody>");
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

fn count(page: &mut String, key: &str, label: &str, value: u64, class: &str) {
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
    count(page, "receipts", "receipts", s.receipts, "");
    count(
        page,
        "authenticated",
        "authenticated",
        status("authenticated"),
        "good",
    );
    count(page, "failed", "failed", status("failed"), "bad");
    count(page, "unsigned", "unsigned", status("unsigned"), "warn");
    count(page, "unpinned", "unpinned", status("unpinned"), "warn");
    count(
        page,
        "unreadable",
        "unreadable",
        status("unreadable"),
        "bad",
    );
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
    count(page, "error", "error findings", severity("error"), "bad");
    count(page, "warning", "warnings", severity("warning"), "warn");
    count(page, "info", "info", severity("info"), "");
    page.push_str("</div><div class=\"cards\">");
    count(
        page,
        "tokens-accepted",
        "tokens accepted",
        s.tokens_accepted,
        "good",
    );
    count(
        page,
        "tokens-rejected",
        "tokens rejected",
        s.tokens_rejected,
        "bad",
    );
    count(
        page,
        "tokens-never-used",
        "tokens never used",
        s.tokens_never_used,
        "warn",
    );
    count(
        page,
        "released-without-token",
        "released without a matching token",
        s.released_without_token,
        "warn",
    );
    count(page, "chain-entries", "chain entries", s.chain_entries, "");
    count(page, "chain-breaks", "broken chains", s.chain_breaks, "bad");
    count(
        page,
        "frames-captured",
        "frames captured",
        s.frames_captured,
        "",
    );
    count(
        page,
        "frames-not-captured",
        "frames not captured",
        s.frames_not_captured,
        "warn",
    );
    page.push_str("</div>");
    if !s.findings_by_code.is_empty() {
        page.push_str("<table class=\"grid codes\"><thead><tr><th>finding</th><th>count</th></tr></thead><tbody>");
        for (code, n) in &s.findings_by_code {
            let _ = write!(page, "<tr><td>{}</td><td>{n}</td></tr>", escape(code));
        }
        page.push_str("</tbody></table>");
    }
    page.push_str("</section>\n");
}

fn calls(page: &mut String, model: &Model) {
    let _ = write!(
        page,
        "<section id=\"calls\"><h2>Calls</h2>\
         <form id=\"filters\" class=\"filters\" hidden>\
         <label>verdict <select id=\"f-verdict\"><option value=\"\">all</option></select></label>\
         <label>tool <select id=\"f-tool\"><option value=\"\">all</option></select></label>\
         <label>finding <select id=\"f-finding\"><option value=\"\">all</option></select></label>\
         <label>approver <select id=\"f-approver\"><option value=\"\">all</option></select></label>\
         <label>search <input id=\"f-q\" type=\"search\" autocomplete=\"off\"></label>\
         </form>\
         <p class=\"pager\"><button id=\"prev\" type=\"button\" hidden>previous</button> \
         <span id=\"count\">rows <span id=\"first-row\">{}</span>–<span id=\"last-row\">{}</span> of <span id=\"match-count\">{}</span></span> \
         <button id=\"next\" type=\"button\" hidden>next</button></p>\
         <table class=\"grid calls\"><thead><tr><th>time (UTC)</th><th>tool</th><th>target</th><th>verdict</th><th>approval</th><th>receipt</th><th>findings</th></tr></thead><tbody id=\"rows\">",
        usize::from(!model.rows.is_empty()),
        model.rows.len().min(PAGE_ROWS),
        model.rows.len()
    );
    for (index, row) in model.rows.iter().take(PAGE_ROWS).enumerate() {
        row_html(page, index, row, model);
    }
    page.push_str("</tbody></table></section>\n");
}

/// One call and its details; the page script builds the same structure for later pages.
fn row_html(page: &mut String, index: usize, row: &Row, model: &Model) {
    let time = row.time.map(iso_ms).unwrap_or_default();
    let approval = match &row.approval {
        Some(a) => format!(
            "{} <span class=\"sub\">{}</span>",
            escape(&a.approver),
            escape(&iso_ms(a.authorized_at))
        ),
        None if row.class == "released" => "<span class=\"bad\">no matching token</span>".into(),
        None => String::new(),
    };
    let mut codes: Vec<&str> = row.findings.iter().map(|f| f.code.as_str()).collect();
    codes.dedup();
    let _ = write!(
        page,
        "<tr class=\"row\" data-i=\"{index}\"><td>{}</td><td class=\"tool\">{}</td><td><code class=\"hash short\">{}</code></td><td><span class=\"v {}\">{}</span></td><td>{approval}</td><td class=\"st {}\">{}</td><td>{}</td></tr>",
        escape(&time),
        escape(row.tool.as_deref().unwrap_or("")),
        escape(row.target.as_deref().unwrap_or("")),
        row.class,
        escape(&verdict_label(row)),
        row.status,
        row.status,
        escape(&codes.join(" "))
    );
    page.push_str("<tr class=\"detail\"><td colspan=\"7\"><details><summary>details</summary>");
    details_html(page, row, model);
    page.push_str("</details></td></tr>");
}

fn verdict_label(row: &Row) -> String {
    match row.class {
        "released" => "ALLOW (released)".into(),
        _ => row.verdict.clone().unwrap_or_else(|| "?".into()),
    }
}

fn kv(page: &mut String, key: &str, value: &str) {
    let _ = write!(page, "<dt>{}</dt><dd>{}</dd>", escape(key), escape(value));
}

fn details_html(page: &mut String, row: &Row, model: &Model) {
    page.push_str("<dl class=\"kv\">");
    kv(page, "receipt file", &row.file);
    kv(page, "receipt status", row.status);
    if let Some(reason) = &row.reason {
        kv(page, "reason", reason);
    }
    if let Some(session) = &row.session {
        kv(page, "session", session);
    }
    kv(page, "target", row.target.as_deref().unwrap_or("(unknown)"));
    if let Some(subject) = &row.subject {
        kv(
            page,
            "exact-frame subject",
            &format!("{} ({} bytes)", subject.sha256, subject.length),
        );
    }
    kv(
        page,
        "request hash",
        row.request_sha256.as_deref().unwrap_or("(unknown)"),
    );
    kv(
        page,
        "canonical request hash",
        row.canonical_request_sha256
            .as_deref()
            .unwrap_or("(unknown)"),
    );
    match &row.approval {
        Some(a) => {
            let fresh = a
                .fresh_when_used
                .and_then(|f| serde_json::to_value(f).ok())
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_else(|| "not judged".into());
            kv(
                page,
                "approval token",
                &format!(
                    "{} line {} by {} (key id {}), authorised {}, expires {}, {} when used",
                    a.file,
                    a.line,
                    a.approver,
                    a.signer_key_id,
                    iso_ms(a.authorized_at),
                    iso_ms(a.expiry),
                    fresh
                ),
            );
        }
        None => kv(page, "approval token", "(none joined)"),
    }
    if let Some(by) = &row.signed_by {
        kv(
            page,
            "approved by (trusted-approvers list)",
            &format!("{} (key id {})", by.name, by.key_id),
        );
    }
    match &row.chain {
        Some(c) => kv(
            page,
            "chain entry",
            &format!(
                "{} entry {}{}",
                c.file,
                c.entry,
                if c.head_ok {
                    ""
                } else {
                    " (head does not recompute)"
                }
            ),
        ),
        None => kv(page, "chain entry", "(none joined)"),
    }
    let frame_from = match (&row.frame.capture, row.frame.status) {
        (Some(c), _) => format!(
            "{} frame {} (by canonical request hash){}",
            c.file,
            c.frame_number.map(|n| n.to_string()).unwrap_or_default(),
            if row.frame.status == "object-a" {
                "; shown from the receipt's object A"
            } else {
                ""
            }
        ),
        (None, "object-a") => "the receipt's signed object A".into(),
        (None, "not-captured") => "frame not captured".into(),
        (None, _) => "not available".into(),
    };
    kv(page, "frame from", &frame_from);
    page.push_str("</dl>");
    if let Some(details) = &row.details {
        frame_details(page, details);
    }
    if !row.findings.is_empty() {
        findings_table(page, &row.findings, usize::MAX);
    }
    let _ = model;
}

fn frame_details(page: &mut String, details: &Details) {
    page.push_str("<dl class=\"kv\">");
    if let Some(arguments) = &details.arguments {
        kv(page, "arguments", arguments);
    }
    for (key, value) in &details.meta {
        kv(page, &format!("_meta {key}"), value);
    }
    if let Some(ids) = &details.identities {
        for (name, pair) in [
            ("committed", &ids.committed),
            ("host", &ids.host),
            ("legacy", &ids.legacy),
        ] {
            kv(
                page,
                &format!("{name} target"),
                &format!("{} (effect {})", pair.target, pair.effect),
            );
        }
        kv(page, "server identity", &details.server);
    }
    if let Some(refused) = &details.refused {
        kv(page, "refused today", refused);
    }
    page.push_str("</dl>");
    if let Some(frame) = &details.frame {
        let _ = write!(
            page,
            "<p class=\"sub\">exact frame, {} bytes:</p><pre class=\"frame\">{}</pre>",
            details.frame_length,
            escape(frame)
        );
    }
}

fn findings_table(page: &mut String, findings: &[Finding], limit: usize) {
    page.push_str("<table class=\"grid findings\"><thead><tr><th>severity</th><th>code</th><th>path</th><th>message</th></tr></thead><tbody>");
    for finding in findings.iter().take(limit) {
        let _ = write!(
            page,
            "<tr class=\"{}\"><td>{}</td><td>{}</td><td class=\"path\">{}</td><td>{}</td></tr>",
            finding.severity.as_str(),
            finding.severity.as_str(),
            finding.code.as_str(),
            escape(
                &finding
                    .path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            ),
            escape(&finding.message)
        );
    }
    page.push_str("</tbody></table>");
    if findings.len() > limit {
        let _ = write!(
            page,
            "<p class=\"sub\">… and {} more (all are in the embedded data and in --format json)</p>",
            findings.len() - limit
        );
    }
}

fn unjoined(page: &mut String, model: &Model) {
    page.push_str("<section id=\"evidence\"><h2>Tokens, chains and other findings</h2>");
    if !model.tokens.is_empty() {
        page.push_str("<table class=\"grid tokens\"><thead><tr><th>token</th><th>status</th><th>approver</th><th>authorised</th><th>target</th><th>used by</th></tr></thead><tbody>");
        for token in &model.tokens {
            let report = &token.report;
            let (approver, authorized, target) = match &report.signed {
                Some(crate::approval::line_reports::Signed::Approval(s)) => (
                    s.approver.clone(),
                    iso_ms(s.authorized_at),
                    s.target.clone(),
                ),
                Some(crate::approval::line_reports::Signed::Decline(d)) => {
                    ("(decline)".into(), iso_ms(d.issued_at), d.target.clone())
                }
                None => (String::new(), String::new(), String::new()),
            };
            let status = match (report.status, &report.signed_by) {
                // The trusted-approvers list's name for the key that signed it.
                (crate::approval::line_reports::TokenStatus::Accepted, Some(by)) => {
                    format!("accepted ({})", by.name)
                }
                (crate::approval::line_reports::TokenStatus::Accepted, None) => {
                    "accepted".to_owned()
                }
                (crate::approval::line_reports::TokenStatus::Rejected, _) => {
                    format!("rejected: {}", report.reason.as_deref().unwrap_or(""))
                }
            };
            let used = if token.used_by.is_empty() {
                "never used".to_owned()
            } else {
                token
                    .used_by
                    .iter()
                    .map(|r| model.rows[*r].file.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let _ = write!(
                page,
                "<tr><td class=\"path\">{} line {}</td><td>{}</td><td>{}</td><td>{}</td><td><code class=\"hash short\">{}</code></td><td class=\"path\">{}</td></tr>",
                escape(&token.file),
                report.line,
                escape(&status),
                escape(&approver),
                escape(&authorized),
                escape(&target),
                escape(&used)
            );
        }
        page.push_str("</tbody></table>");
    }
    for chain in &model.chains {
        let _ = write!(
            page,
            "<p>chain <span class=\"path\">{}</span> ({}): {} entries, {} joined, {}</p>",
            escape(&chain.file),
            chain.kind,
            chain.entries.len(),
            chain.entries.iter().filter(|e| e.row.is_some()).count(),
            if chain.intact {
                "intact".to_owned()
            } else {
                format!(
                    "<span class=\"bad\">broken at entry {}</span>",
                    chain
                        .first_bad_entry
                        .map(|i| i.to_string())
                        .unwrap_or_else(|| "genesis".into())
                )
            }
        );
    }
    if !model.findings.is_empty() {
        page.push_str("<h3>Findings not about one receipt</h3>");
        findings_table(page, &model.findings, STATIC_FINDINGS);
    }
    page.push_str("</section>\n");
}

/// Unix milliseconds as `YYYY-MM-DDTHH:MM:SS.mmmZ` (the form of JavaScript's
/// `toISOString`, so static and scripted rows read the same).
pub fn iso_ms(ms: u64) -> String {
    let (secs, millis) = (ms / 1000, ms % 1000);
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_makes_markup_and_invisible_characters_inert() {
        assert_eq!(
            escape("<img src=x onerror=\"a('b')\">&"),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;"
        );
        assert_eq!(
            escape("a\u{202E}b\u{200B}c\u{7}\td\n"),
            "a\\u{202E}b\\u{200B}c\\u{7}\\u{9}d\n"
        );
    }

    #[test]
    fn iso_ms_matches_javascript_to_iso_string() {
        assert_eq!(iso_ms(0), "1970-01-01T00:00:00.000Z");
        // new Date(1787218805500).toISOString()
        assert_eq!(iso_ms(1_787_218_805_500), "2026-08-20T09:40:05.500Z");
        assert_eq!(iso_ms(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }
}
