//! The calls of the report page and the evidence not about one call: one row per kept
//! receipt, problems first (rows with error findings, then warnings, each in time order; the
//! page script toggles to time order and filters by verdict, status, tool, finding and
//! approver), the receipts not listed as counts, then tokens, chains and the findings not
//! about one receipt, most serious first. A receipt that does not authenticate shows its
//! decision only as a claim. Every input string goes through [`escape`].

use super::markup::escape;
use super::model::{Details, Model, Row};
use crate::audit::finding_list::FindingList;
use crate::finding::Finding;
use crate::timestamp::iso_ms;
use std::fmt::Write as _;
use std::io;

/// Rows per page, on the server-rendered first page and in the script's pages.
pub const PAGE_ROWS: usize = 100;
/// Report-level findings listed in the static page (all of them are in the embedded data).
const STATIC_FINDINGS: usize = 200;

/// The rows in the order the page opens with: most serious finding first, then time.
pub fn problem_first(model: &Model) -> Vec<usize> {
    let mut order: Vec<usize> = (0..model.rows.len()).collect();
    order.sort_by_key(|&i| {
        let row = &model.rows[i];
        (
            std::cmp::Reverse(row.severity),
            row.class != "unauthenticated",
        )
    });
    order
}

pub fn calls(page: &mut String, model: &Model) {
    let _ = write!(
        page,
        "<section id=\"calls\"><h2>Calls</h2>\
         <form id=\"filters\" class=\"filters\" hidden>\
         <label>order <select id=\"f-order\"><option value=\"\">problems first</option><option value=\"time\">time</option></select></label>\
         <label>verdict <select id=\"f-verdict\"><option value=\"\">all</option></select></label>\
         <label>receipt <select id=\"f-status\"><option value=\"\">all</option></select></label>\
         <label>tool <select id=\"f-tool\"><option value=\"\">all</option></select></label>\
         <label>finding <select id=\"f-finding\"><option value=\"\">all</option></select></label>\
         <label>approver <select id=\"f-approver\"><option value=\"\">all</option></select></label>\
         <label>search <input id=\"f-q\" type=\"search\" autocomplete=\"off\"></label>\
         </form>\
         <p class=\"pager\"><button id=\"prev\" type=\"button\" hidden>previous</button> \
         <span id=\"count\">rows <span id=\"first-row\">{}</span>–<span id=\"last-row\">{}</span> of <span id=\"match-count\">{}</span></span> \
         <button id=\"next\" type=\"button\" hidden>next</button></p>\
         <div class=\"scroll\"><table class=\"grid calls\"><thead><tr><th>time (UTC)</th><th>tool</th><th>target</th><th>verdict</th><th>approval</th><th>receipt</th><th>findings</th></tr></thead><tbody id=\"rows\">",
        usize::from(!model.rows.is_empty()),
        model.rows.len().min(PAGE_ROWS),
        model.rows.len()
    );
    for index in problem_first(model).into_iter().take(PAGE_ROWS) {
        row_html(page, index, &model.rows[index], model);
    }
    page.push_str("</tbody></table></div>");
    omitted(page, model);
    page.push_str("</section>\n");
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
    let approval = match row.other_approvals.len() {
        0 => approval,
        n => format!(
            "{approval} <span class=\"sub warn\">{n} other approval{} of this call, not the one used</span>",
            if n == 1 { "" } else { "s" }
        ),
    };
    let mut codes: Vec<&str> = row.findings.iter().map(|f| f.code.as_str()).collect();
    codes.dedup();
    let _ = write!(
        page,
        "<tr class=\"row {}\" data-i=\"{index}\"><td>{}</td><td class=\"tool\">{}</td><td><code class=\"hash short\">{}</code></td><td><span class=\"v {}\">{}</span></td><td>{approval}</td><td class=\"st {}\">{}</td><td>{}</td></tr>",
        row.severity.map_or("", |s| s.as_str()),
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

/// The verdict of an authenticated receipt; any other receipt's decision only as a claim.
fn verdict_label(row: &Row) -> String {
    match (row.class, &row.claimed_verdict) {
        ("released", _) => "ALLOW (released)".into(),
        ("unauthenticated", Some(claim)) => format!("claims {claim} — not authenticated"),
        ("unauthenticated", None) => "no verdict — not authenticated".into(),
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
    for annotation in &row.annotations {
        let flag = match annotation.sensitive {
            Some(true) => ", sensitive",
            Some(false) => ", not sensitive",
            None => "",
        };
        let place = format!("{} frame {}{flag}", annotation.capture, annotation.line);
        if annotation.references.is_empty() {
            kv(
                page,
                "trust annotation",
                &format!("{place}: no evidenceRef"),
            );
        }
        for reference in &annotation.references {
            let line = reference.line();
            kv(page, "trust annotation", &format!("{place}: {line}"));
        }
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
    if let Some(st) = &row.approval_statement {
        kv(
            page,
            "signed approval statement",
            &format!(
                "approver {}, nonce {}, authorised {}, expires {}, key id {}",
                st.approver,
                st.nonce,
                iso_ms(st.authorized_at),
                iso_ms(st.expiry),
                st.signer_key_id
            ),
        );
    }
    for &index in &row.other_approvals {
        let token = &model.tokens[index];
        let by = match &token.report.signed {
            Some(crate::approval::line_reports::Signed::Approval(s)) => {
                format!(" by {} (nonce {})", s.approver, s.nonce)
            }
            _ => String::new(),
        };
        kv(
            page,
            "other approval of this call (not the one used)",
            &format!("{} line {}{by}", token.file, token.report.line),
        );
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
    page.push_str("<div class=\"scroll\"><table class=\"grid findings\"><thead><tr><th>severity</th><th>code</th><th>path</th><th>message</th></tr></thead><tbody>");
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
    page.push_str("</tbody></table></div>");
    if findings.len() > limit {
        let _ = write!(
            page,
            "<p class=\"sub\">… and {} more (all are in the embedded data and in --format json)</p>",
            findings.len() - limit
        );
    }
}

/// Findings grouped by code, most serious first (the list reads them so), one row per
/// code with its count and first finding; the row opens to list the others, `limit` findings
/// in all over the table (every one is in the embedded data). Each row is the target of the
/// verdict's link for its code (`#other-CODE`). At most `limit` findings of a code are held
/// while the list is read (no group lists more), the others only counted.
fn grouped_findings(page: &mut String, findings: &FindingList, limit: usize) -> io::Result<()> {
    // Each code in the order first met: how many findings, and the first `limit`.
    let mut groups: Vec<(crate::finding::Code, usize, Vec<Finding>)> = Vec::new();
    findings.each_most_serious_first(|finding| {
        let at = match groups.iter().position(|(code, _, _)| *code == finding.code) {
            Some(at) => at,
            None => {
                groups.push((finding.code, 0, Vec::new()));
                groups.len() - 1
            }
        };
        let (_, count, kept) = &mut groups[at];
        *count += 1;
        if kept.len() < limit.max(1) {
            kept.push(finding);
        }
        Ok(())
    })?;
    let line = |f: &Finding| {
        let path = f.path.as_ref().map(|p| p.display().to_string());
        match path {
            Some(path) => format!(
                "<span class=\"path\">{}</span>: {}",
                escape(&path),
                escape(&f.message)
            ),
            None => escape(&f.message),
        }
    };
    page.push_str("<div class=\"scroll\"><table class=\"grid findings grouped\"><thead><tr><th>severity</th><th>code</th><th>count</th><th>what was found</th></tr></thead><tbody>");
    let mut listed = 0usize;
    for (code, count, group) in &groups {
        let count = *count;
        let severity = code.severity().as_str();
        let _ = write!(
            page,
            "<tr class=\"{severity}\" id=\"other-{}\"><td>{severity}</td><td>{}</td><td>{}</td><td>",
            code.as_str(),
            code.as_str(),
            count
        );
        let first = &group[0];
        listed += 1;
        if count == 1 {
            page.push_str(&line(first));
        } else {
            let room = limit.saturating_sub(listed);
            let _ = write!(
                page,
                "<details><summary>{} <span class=\"sub\">and {} more</span></summary><ul class=\"more\">",
                line(first),
                count - 1
            );
            for finding in group.iter().skip(1).take(room) {
                let _ = write!(page, "<li>{}</li>", line(finding));
            }
            listed += (count - 1).min(room);
            if count - 1 > room {
                let _ = write!(
                    page,
                    "<li class=\"sub\">… and {} more (all are in the embedded data and in --format json)</li>",
                    count - 1 - room
                );
            }
            page.push_str("</ul></details>");
        }
        page.push_str("</td></tr>");
    }
    page.push_str("</tbody></table></div>");
    Ok(())
}

/// The evidence not about one call; the error is reading back the findings set aside.
pub fn unjoined(page: &mut String, model: &Model) -> io::Result<()> {
    page.push_str("<section id=\"evidence\"><h2>Tokens, chains and other findings</h2>");
    if !model.tokens.is_empty() {
        page.push_str("<div class=\"scroll\"><table class=\"grid tokens\"><thead><tr><th>token</th><th>status</th><th>approver</th><th>authorised</th><th>target</th><th>used by</th></tr></thead><tbody>");
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
            let listed: Vec<&str> = token
                .used_by
                .iter()
                .map(|r| model.rows[*r].file.as_str())
                .collect();
            let used = match token.uses {
                0 => "never used".to_owned(),
                n if n as usize == listed.len() => listed.join(", "),
                n => format!(
                    "{n} receipts ({} listed) {}",
                    listed.len(),
                    listed.join(", ")
                ),
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
        page.push_str("</tbody></table></div>");
    }
    if !model.chains.is_empty() {
        page.push_str("<div id=\"chains\">");
    }
    for chain in &model.chains {
        let _ = write!(
            page,
            "<p>chain <span class=\"path\">{}</span> ({}): {} entries, {} joined, {}</p>",
            escape(&chain.file),
            chain.kind,
            chain.length,
            chain.joined,
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
    if !model.chains.is_empty() {
        page.push_str("</div>");
    }
    annotations(page, model);
    if !model.findings.is_empty() {
        page.push_str("<h3 id=\"other-findings\">Findings not about one receipt</h3>");
        grouped_findings(page, &model.findings, STATIC_FINDINGS)?;
    }
    page.push_str("</section>\n");
    Ok(())
}

/// The receipts not listed as rows (good ones beyond the sample), counted.
fn omitted(page: &mut String, model: &Model) {
    if model.omitted.is_empty() {
        return;
    }
    let _ = write!(
        page,
        "<h3 id=\"omitted\">{} good receipts not listed, by tool, verdict and hour</h3><div class=\"scroll\"><table class=\"grid omitted\"><thead><tr><th>hour (UTC)</th><th>tool</th><th>verdict</th><th>receipts</th><th>warnings</th></tr></thead><tbody>",
        model.summary.rows_omitted
    );
    for a in &model.omitted {
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"tool\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&a.hour.map(iso_ms).unwrap_or_default()),
            escape(a.tool.as_deref().unwrap_or("")),
            a.class,
            a.receipts,
            a.warnings
        );
    }
    page.push_str(
        "</tbody></table></div><p class=\"sub\">every row is in <code>--format jsonl</code></p>",
    );
}

/// The trust annotations on no row and the captured frames not read, those with a reference
/// that did not verify first: each reference with its verdict, and the call it answers.
fn annotations(page: &mut String, model: &Model) {
    use crate::evidence::capture::Paired;
    if model.annotations.is_empty() {
        return;
    }
    page.push_str("<h3 id=\"annotations\">Trust annotations on no row</h3><div class=\"scroll\"><table class=\"grid annotations\"><thead><tr><th>capture frame</th><th>the call it answers</th><th>reference</th></tr></thead><tbody>");
    let mut order: Vec<&crate::report::model::CaptureAnnotation> =
        model.annotations.iter().collect();
    order.sort_by_key(|a| {
        std::cmp::Reverse(
            (a.frame.references.iter())
                .map(|r| r.verdict.outcome())
                .max(),
        )
    });
    for annotation in order {
        let frame = &annotation.frame;
        let flag = match frame.sensitive {
            Some(true) => ", sensitive",
            Some(false) => ", not sensitive",
            None => "",
        };
        let call = match (&frame.request, annotation.unjoined) {
            (_, "frame-not-read") => "frame not read".to_owned(),
            (Some(Paired::Call(request)), _) => format!(
                "request frame {} ({}): no receipt in the directories",
                request.line, request.tool
            ),
            (Some(Paired::Refused { line, code }), _) => {
                format!("request frame {line}: refused ({code}), no identity")
            }
            _ => "request not in the capture".to_owned(),
        };
        let references: Vec<String> = if frame.was_read() {
            frame.references.iter().map(|r| r.line()).collect()
        } else {
            (frame.references.iter())
                .map(|r| {
                    let code = r.verdict.code.map(|c| c.as_str()).unwrap_or_default();
                    format!("{} ({code}): {}", r.verdict.status(), r.verdict.message)
                })
                .collect()
        };
        let references = if references.is_empty() {
            "no evidenceRef".to_owned()
        } else {
            references.join("; ")
        };
        let bad =
            (frame.references.iter()).any(|r| r.verdict.outcome() != crate::outcome::Outcome::Good);
        let _ = write!(
            page,
            "<tr{}><td class=\"path\">{} frame {}{flag}</td><td>{}</td><td>{}</td></tr>",
            if bad { " class=\"bad\"" } else { "" },
            escape(&annotation.capture),
            frame.line,
            escape(&call),
            escape(&references)
        );
    }
    page.push_str("</tbody></table></div>");
    if model.annotations_omitted > 0 {
        let _ = write!(
            page,
            "<p class=\"sub\">{} more annotations on no row, every reference verified, are counted, not listed</p>",
            model.annotations_omitted
        );
    }
}
