//! Renders the joined [`Model`] as one self-contained HTML page. Guarantees: every string
//! that came from an input goes through [`escape`] (the only way text enters the markup), so
//! tool names, `_meta`, file names and token fields are inert text; the page loads nothing
//! (inline CSS, script and SVG only, and a Content-Security-Policy that allows exactly the
//! inline style and script by their SHA-256 and nothing else); the model is embedded as JSON
//! with `<`, `>`, `&`, U+2028 and U+2029 escaped so it cannot end its script element; the
//! verdict comes first and says what the exit status says, followed by what happened in
//! sentences ([`super::sentences`]) and the page's one table of finding codes; the verdict,
//! summary (a few cards and the chart of decisions per tool), timeline and first page of
//! rows (problems first) are rendered here, so the page reads without JavaScript; colour
//! marks only counts that need attention, from one palette (page.css's `:root`); every
//! table sits in a box of its own that scrolls, so nothing is wider than a phone's screen;
//! and the same model gives the same bytes.

use super::markup::{escape, is_invisible};
use super::model::Model;
use crate::digest::sha256_hex;
use crate::finding::Code;
use crate::outcome::plural;
use base64::Engine as _;
use std::fmt::Write as _;
use std::io::{self, Write};

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// Writes the model as JSON that cannot close or confuse the script element holding it:
/// `<`, `>`, `&`, U+2028, U+2029 and the invisible characters of [`escape`] become `\u`
/// escapes. Streamed: no copy of the model's JSON is held.
pub fn write_embedded_json(model: &Model, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer(ScriptSafe(out), model).map_err(io::Error::from)
}

/// Receives serde_json's output and escapes as it goes (no second copy of a large model).
/// serde_json writes whole characters per call (string pieces are cut only at ASCII bytes
/// that need escaping), and these characters occur only inside JSON strings, where a `\u`
/// escape is the same value.
struct ScriptSafe<'a>(&'a mut dyn Write);

impl Write for ScriptSafe<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = std::str::from_utf8(buf).map_err(io::Error::other)?;
        let mut start = 0;
        for (at, c) in text.char_indices() {
            if matches!(c, '<' | '>' | '&') || is_invisible(c) {
                self.0.write_all(&buf[start..at])?;
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(self.0, "\\u{unit:04x}")?;
                }
                start = at + c.len_utf8();
            }
        }
        self.0.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
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
pub fn render(model: &Model) -> io::Result<String> {
    let mut page = Vec::new();
    write(model, &mut page)?;
    String::from_utf8(page).map_err(io::Error::other)
}

/// Writes the page [`render`] gives to `out` as it is made: the markup before the embedded
/// model (bounded: the rows kept, at most [`super::rows`]' findings listed), then the model
/// streamed through the script escaping, so the page is never held whole however many
/// findings it embeds. The error is `out`'s, or reading back the findings set aside.
pub fn write(model: &Model, out: &mut dyn Write) -> io::Result<()> {
    let mut page = String::with_capacity(64 * 1024);
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
    super::rows::unjoined(&mut page, model)?;
    provenance(&mut page, model);
    page.push_str("<script type=\"application/json\" id=\"sealkit-data\">");
    out.write_all(page.as_bytes())?;
    write_embedded_json(model, out)?;
    write!(
        out,
        "</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    )
}

/// The verdict, as the exit status gives it; then what happened, in sentences (most serious
/// first, each linking to the rows that carry it or to the findings not about one receipt);
/// then the counts it rests on and every finding code with its count, most serious first.
fn verdict(page: &mut String, model: &Model) {
    let v = &model.verdict;
    let title = v.title();
    let _ = write!(
        page,
        "<section id=\"verdict\" class=\"verdict {}\" data-outcome=\"{}\"><h2>{title}</h2>",
        v.outcome, v.outcome
    );
    if !model.sentences.is_empty() {
        page.push_str("<ul class=\"sentences\">");
        for sentence in &model.sentences {
            let go = if sentence.link.starts_with("#finding=") {
                "show the calls"
            } else if sentence.link == "#codes" {
                "show the codes"
            } else if sentence.link == "#calls" {
                "show the calls"
            } else {
                "show the findings"
            };
            let _ = write!(
                page,
                "<li class=\"{}\">{} <a class=\"go\" href=\"{}\">{go}</a></li>",
                sentence.severity.map_or("none", |s| s.as_str()),
                escape(&sentence.text),
                escape(&sentence.link)
            );
        }
        page.push_str("</ul>");
    }
    let _ = write!(page, "<p class=\"headline\">{}", escape(&v.headline));
    if let Some(timeline) = &model.timeline {
        let (first, _) = super::time_axis::date_time(timeline.start);
        let (last, _) = super::time_axis::date_time(timeline.end);
        if first == last {
            let _ = write!(page, " Times are UTC, on {first}.");
        } else {
            page.push_str(" Times are UTC.");
        }
    }
    page.push_str("</p>");
    codes(page, model);
    page.push_str("</section>\n");
}

/// Every finding code of the report with its count, most serious first, then the most
/// frequent: each links to the calls that carry it, or to the findings not about one
/// receipt. The one table of codes on the page.
fn codes(page: &mut String, model: &Model) {
    let s = &model.summary;
    if s.findings_by_code.is_empty() {
        return;
    }
    let severity = |name: &str| s.findings_by_severity.get(name).copied().unwrap_or(0);
    page.push_str("<h3 id=\"codes\">Findings by code: ");
    for (i, (key, words)) in [("error", "error"), ("warning", "warning"), ("info", "info")]
        .into_iter()
        .enumerate()
    {
        let n = severity(key);
        let _ = write!(
            page,
            "{}<span class=\"{}\"><span class=\"n\" data-k=\"{key}\">{n}</span> {words}{}</span>",
            if i == 0 { "" } else { ", " },
            if n == 0 { "zero" } else { key },
            if key == "info" { "" } else { plural(n) }
        );
    }
    page.push_str("</h3>");
    let on_rows: std::collections::BTreeSet<Code> = (model.rows.iter())
        .flat_map(|r| r.findings.iter().map(|f| f.code))
        .collect();
    let mut codes: Vec<(&Code, &u64)> = s.findings_by_code.iter().collect();
    codes.sort_by_key(|(code, n)| (std::cmp::Reverse(code.severity()), std::cmp::Reverse(**n)));
    page.push_str("<div class=\"scroll\"><table class=\"grid codes\"><thead><tr><th>severity</th><th>finding</th><th>count</th><th>what it means</th></tr></thead><tbody>");
    for (code, n) in codes {
        let severity = code.severity().as_str();
        let link = if on_rows.contains(code) {
            format!("#finding={}", code.as_str())
        } else {
            format!("#other-{}", code.as_str())
        };
        let _ = write!(
            page,
            "<tr class=\"{severity}\"><td>{severity}</td><td><a href=\"{link}\">{}</a></td><td>{n}</td><td class=\"sub\">{}</td></tr>",
            code.as_str(),
            escape(code.meaning())
        );
    }
    page.push_str("</tbody></table></div>");
}

/// One count in a card's list; its colour only when it is not zero (a zero never needs
/// attention).
fn item(page: &mut String, key: &str, label: &str, value: u64, class: &str) {
    let class = if value == 0 { "zero" } else { class };
    let _ = write!(
        page,
        "<li class=\"{class}\"><span class=\"n\" data-k=\"{key}\">{value}</span> {label}</li>"
    );
}

/// What changes a decision, in a few cards: the receipts and whether they authenticate, the
/// approvals, the audit log and the captures (each only when given), then the decisions per
/// tool. The finding codes are in the verdict, not repeated here.
fn summary(page: &mut String, model: &Model) {
    let s = &model.summary;
    let status = |name: &str| s.statuses.get(name).copied().unwrap_or(0);
    page.push_str("<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">");
    let _ = write!(
        page,
        "<div class=\"card\"><h3><span class=\"n\" data-k=\"receipts\">{}</span> receipt{}</h3><ul>",
        s.receipts,
        plural(s.receipts)
    );
    // Under a pin read from inside the evidence, "authenticated" is self-consistency only:
    // the card says so, as the verdict line does, and is not drawn as good.
    if s.findings_by_code.contains_key(&Code::ReceiptKeyInEvidence) {
        item(
            page,
            "authenticated",
            &format!(
                "authenticated {}",
                crate::receipt::pin::UNDER_KEY_IN_EVIDENCE
            ),
            status("authenticated"),
            "bad",
        );
    } else {
        item(
            page,
            "authenticated",
            "authenticated",
            status("authenticated"),
            "good",
        );
    }
    // Only the kinds of failure present: a zero here changes nothing.
    for (key, class) in [
        ("failed", "bad"),
        ("unreadable", "bad"),
        ("unsigned", "warn"),
        ("unpinned", "warn"),
    ] {
        if status(key) > 0 {
            item(page, key, key, status(key), class);
        }
    }
    if s.rows_omitted > 0 {
        let _ = write!(
            page,
            "<li class=\"sub\">{} good ones counted, not listed</li>",
            s.rows_omitted
        );
    }
    page.push_str("</ul></div>");
    if !model.tokens.is_empty() || s.verdicts.get("released").copied().unwrap_or(0) > 0 {
        page.push_str("<div class=\"card\"><h3>Approvals</h3><ul>");
        // Under a key or list read from inside the evidence, "accepted" is self-consistency
        // only: the card says so first, as the verdict line does.
        if s.findings_by_code
            .contains_key(&Code::ApprovalKeyInEvidence)
        {
            let _ = write!(
                page,
                "<li class=\"bad\">tokens accepted and approvers named {}</li>",
                crate::receipt::pin::UNDER_APPROVAL_KEY_IN_EVIDENCE
            );
        }
        if model.tokens.is_empty() {
            page.push_str(
                "<li class=\"warn\">no token file given: releases not matched to tokens</li>",
            );
        }
        item(
            page,
            "tokens-accepted",
            "tokens accepted",
            s.tokens_accepted,
            "",
        );
        item(
            page,
            "tokens-rejected",
            "tokens rejected",
            s.tokens_rejected,
            "bad",
        );
        item(
            page,
            "tokens-never-used",
            "tokens never used",
            s.tokens_never_used,
            "warn",
        );
        item(
            page,
            "released-without-token",
            "released without a matching token",
            s.released_without_token,
            "warn",
        );
        page.push_str("</ul></div>");
    }
    if !model.chains.is_empty() {
        page.push_str("<div class=\"card\"><h3>Audit log</h3><ul>");
        item(page, "chain-entries", "entries", s.chain_entries, "");
        item(
            page,
            "chain-entries-joined",
            "joined to a receipt",
            s.chain_entries_joined,
            "",
        );
        item(page, "chain-breaks", "broken chains", s.chain_breaks, "bad");
        page.push_str("</ul></div>");
    }
    if s.frames_captured > 0 || s.frames_not_captured > 0 {
        page.push_str("<div class=\"card\"><h3>Captured frames</h3><ul>");
        item(page, "frames-captured", "captured", s.frames_captured, "");
        item(
            page,
            "frames-joined",
            "joined to a receipt",
            s.frames_joined,
            "",
        );
        item(
            page,
            "frames-not-captured",
            "receipts whose frame was not captured",
            s.frames_not_captured,
            "warn",
        );
        page.push_str("</ul></div>");
    }
    page.push_str("</div>");
    super::chart::html(page, model);
    page.push_str("</section>\n");
}

/// Where the evidence came from: inputs (path, size, SHA-256) and the keys it was checked
/// against.
fn provenance(page: &mut String, model: &Model) {
    page.push_str("<section id=\"provenance\"><h2>Provenance</h2><h3>Inputs</h3><div class=\"scroll\"><table class=\"grid inputs\"><thead><tr><th>role</th><th>path</th><th>size</th><th>SHA-256</th></tr></thead><tbody>");
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
    page.push_str("</tbody></table></div><h3>Trust anchors</h3><ul class=\"anchors\">");
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// Every colour of the page is named once, in the palette (`:root`); every rule uses the
    /// palette's names, so an error is the same red in the verdict, the tables, the chart
    /// and the timeline. Seen red on 07add1e (the timeline's error ticks were orange,
    /// `#e67e22`, and no rule used a palette).
    #[test]
    fn the_page_has_one_palette_and_errors_are_one_red() {
        let (palette, rules) = STYLE.split_once('}').unwrap();
        assert!(palette.starts_with(":root{"));
        let colour = |text: &str| {
            text.match_indices('#')
                .map(|(at, _)| text[at..].chars().take(7).collect::<String>())
                .filter(|c| c.len() > 1 && c[1..].chars().all(|x| x.is_ascii_hexdigit()))
                .collect::<Vec<_>>()
        };
        assert!(colour(palette).len() > 10);
        assert_eq!(
            colour(rules),
            Vec::<String>::new(),
            "a colour outside the palette"
        );
        assert!(!rules.contains("rgb(") && !rules.contains("hsl("));
        for rule in [
            ".bad,.st.failed,.st.unreadable{color:var(--err)",
            "tr.error td:first-child{color:var(--err)",
            ".verdict.problems{background:var(--err-bg);border-color:var(--err)}",
            "svg .error{fill:var(--err)}",
            "tr.row.error td:first-child{box-shadow:inset 4px 0 var(--err)}",
            "ul.sentences li.error::marker{color:var(--err)}",
        ] {
            assert!(rules.contains(rule), "{rule}");
        }
    }

    /// The timeline is drawn at least at its own width (a narrow screen scrolls its box
    /// rather than shrinking its labels).
    #[test]
    fn the_css_keeps_the_timeline_at_its_own_width() {
        let least = format!("min-width:{}px", crate::report::timeline::WIDTH);
        let rule = &STYLE[STYLE.find("#timeline-svg{").unwrap()..];
        assert!(rule[..rule.find('}').unwrap()].contains(&least));
    }
}
