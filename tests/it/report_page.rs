//! The page `sealkit report` writes, read as bytes: a hostile fixture (markup, script, URLs,
//! bidi and control characters in the tool name, `_meta`, a file name and a token's signed
//! approver) gives a page whose only elements and attributes are the renderer's own, whose
//! Content-Security-Policy allows nothing but its own inline style and script (by hash),
//! whose embedded data is the `--format json` model and cannot end its script element, and
//! which is the same bytes for the same inputs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::report_support;

use base64::Engine as _;
use report_support::{fixture, hostile_inputs, report, PWNED};
use std::path::Path;

const LEAK: &str = "http://127.0.0.1:9/leak";

fn hostile_page(dir: &Path, extra: &[&str]) -> (i32, String) {
    let (receipts, tokens) = hostile_inputs(dir, LEAK);
    let out = dir.join("report.html");
    let sealed = fixture("new/sealed.json");
    let frames = fixture("frames");
    let mut args = vec![
        "--chain",
        sealed.to_str().unwrap(),
        "--frames",
        frames.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let code = report(&out, &receipts, &[tokens], &args);
    (code, std::fs::read_to_string(&out).unwrap())
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap() + start.len();
    let to = from + text[from..].find(end).unwrap();
    &text[from..to]
}

/// Every tag of the page outside script bodies: (name, attribute names).
fn tags(page: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        let close = rest.find('>').unwrap();
        let tag = &rest[..close];
        rest = &rest[close + 1..];
        let mut parts = tag.split_whitespace();
        let name = parts
            .next()
            .unwrap_or("")
            .trim_end_matches('/')
            .to_ascii_lowercase();
        let attributes: Vec<String> = tag
            .split_whitespace()
            .skip(1)
            .filter_map(|p| p.split('=').next())
            .filter(|a| !a.is_empty() && !a.starts_with('"') && *a != "/")
            .map(str::to_ascii_lowercase)
            .collect();
        if name == "script" {
            // Skip the body: the embedded JSON and the page script are checked separately.
            let end = rest.find("</script>").unwrap();
            rest = &rest[end + "</script>".len()..];
        }
        out.push((name, attributes));
    }
    out
}

#[test]
fn hostile_inputs_stay_inert_text() {
    let temp = tempfile::tempdir().unwrap();
    let (code, page) = hostile_page(temp.path(), &[]);
    // The hostile receipt fails its content checks (error findings): exit 1.
    assert_eq!(code, 1);
    // Only the renderer's elements and attributes; no URL-bearing or event attribute at all.
    // Seen red with `escape` passing `<` through: elements from the data appear.
    let allowed = [
        "!doctype",
        "html",
        "/html",
        "head",
        "/head",
        "meta",
        "title",
        "/title",
        "style",
        "/style",
        "body",
        "/body",
        "header",
        "/header",
        "h1",
        "/h1",
        "h2",
        "/h2",
        "h3",
        "/h3",
        "p",
        "/p",
        "section",
        "/section",
        "table",
        "/table",
        "thead",
        "/thead",
        "tbody",
        "/tbody",
        "tr",
        "/tr",
        "th",
        "/th",
        "td",
        "/td",
        "code",
        "/code",
        "span",
        "/span",
        "div",
        "/div",
        "ul",
        "/ul",
        "li",
        "/li",
        "dl",
        "/dl",
        "dt",
        "/dt",
        "dd",
        "/dd",
        "details",
        "/details",
        "summary",
        "/summary",
        "pre",
        "/pre",
        "form",
        "/form",
        "label",
        "/label",
        "select",
        "/select",
        "option",
        "/option",
        "input",
        "button",
        "/button",
        "svg",
        "/svg",
        "text",
        "/text",
        "line",
        "rect",
        "/rect",
        // A compressed pause of the timeline: its band, hatching and length, grouped.
        "g",
        "/g",
        "noscript",
        "/noscript",
        "script",
        "/script",
        // The verdict's links to the rows a finding is on: same-page fragments only.
        "a",
        "/a",
    ];
    let all = tags(&page);
    assert!(all.len() > 100);
    for (name, attributes) in &all {
        assert!(
            allowed.contains(&name.as_str()),
            "unexpected element <{name}>"
        );
        for attribute in attributes {
            assert!(
                !attribute.starts_with("on")
                    && attribute != "src"
                    && (attribute != "href" || name == "a"),
                "attribute {attribute} on <{name}>"
            );
        }
    }
    assert_eq!(all.iter().filter(|(n, _)| n == "script").count(), 2);
    // Every link stays on the page.
    assert!(page.matches("href=\"").count() > 0);
    assert_eq!(
        page.matches("href=\"").count(),
        page.matches("href=\"#").count()
    );
    // No raw bidi, zero-width, BEL or line separator anywhere in the file; they are shown.
    for c in ['\u{202e}', '\u{200b}', '\u{7}', '\u{2028}'] {
        assert!(!page.contains(c), "raw U+{:04X}", c as u32);
    }
    assert!(page.contains("{&quot;x.example/\\u{202E}evil&quot;:"));
    assert!(page.contains(
        "<dt>_meta x.example/\\u{202E}evil</dt><dd>&quot;exe.\\u{202E}gnp\\u{200B}\\u0007\\u{2028}&lt;b&gt;bold&lt;/b&gt;&quot;</dd>"
    ));
    // The hostile names are readable as text.
    assert!(page.contains(&format!(
        "&lt;img src={LEAK}/tool onerror=&quot;document.documentElement.setAttribute(&#39;{PWNED}&#39;,&#39;tool&#39;)&quot;&gt;"
    )));
    assert!(page.contains("x&lt;svg onload="));
    // What happened, in sentences: the hostile receipt's claim, shortened and escaped by
    // the page's one escaping function (seen red with the sentence written unescaped: an
    // `img` element appears above).
    let sentences = between(&page, "<ul class=\"sentences\">", "</ul>");
    assert!(
        sentences.contains("it claims ALLOW of &lt;img src="),
        "{sentences}"
    );
    assert!(page.contains("&lt;script&gt;document.documentElement.setAttribute(&#39;data-pwned&#39;,&#39;token&#39;)&lt;/script&gt;"));
}

#[test]
fn the_policy_allows_only_the_pages_own_style_and_script() {
    let temp = tempfile::tempdir().unwrap();
    let (_, page) = hostile_page(temp.path(), &[]);
    let head = between(&page, "<head>", "</head>");
    // The policy comes before anything that could load.
    assert!(head
        .starts_with("\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\""));
    let policy = between(head, "Content-Security-Policy\" content=\"", "\"");
    let hash = |text: &str| {
        use sha2::Digest;
        format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text.as_bytes()))
        )
    };
    let style = between(&page, "<style>", "</style>");
    let script = between(&page, "</script>\n<script>", "</script>");
    assert_eq!(
        policy,
        format!(
            "default-src 'none'; style-src {}; script-src {}; img-src 'none'; connect-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'",
            hash(style),
            hash(script)
        )
    );
    assert!(!policy.contains("unsafe"));
    // The page script never builds markup from strings.
    assert!(!script.contains("innerHTML") && !script.contains("outerHTML"));
    assert!(!script.contains("insertAdjacentHTML") && !script.contains("document.write"));
    assert!(!script.contains("eval(") && !script.contains("Function("));
}

#[test]
fn the_embedded_data_is_the_json_model_and_cannot_end_its_element() {
    let temp = tempfile::tempdir().unwrap();
    let (_, page) = hostile_page(temp.path(), &[]);
    let data = between(
        &page,
        "<script type=\"application/json\" id=\"sealkit-data\">",
        "</script>",
    );
    // Seen red with the escaping of `<` removed from `embedded_json`: the hostile
    // `</script>` in the arguments is then raw in the data and would end the element.
    for c in ['<', '>', '&', '\u{2028}', '\u{2029}', '\u{202e}'] {
        assert!(!data.contains(c), "raw {c:?} in the embedded data");
    }
    let embedded: serde_json::Value = serde_json::from_str(data).unwrap();
    // The same records as --format json.
    let out = temp.path().join("model.json");
    let sealed = fixture("new/sealed.json");
    let frames = fixture("frames");
    report(
        &out,
        &temp.path().join("receipts"),
        &[temp.path().join("tokens.ndjson")],
        &[
            "--format",
            "json",
            "--chain",
            sealed.to_str().unwrap(),
            "--frames",
            frames.to_str().unwrap(),
        ],
    );
    let mut model: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    // The JSON document names its kind (docs/json.md); the page's data is the model alone.
    assert_eq!(
        model.as_object_mut().unwrap().shift_remove("type"),
        Some("report".into())
    );
    assert_eq!(embedded, model);
    assert_eq!(model["rows"].as_array().unwrap().len(), 14);
    // The hostile values are kept exactly in the data.
    let hostile = model["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["tool"] == report_support::hostile_tool(LEAK))
        .unwrap();
    assert_eq!(hostile["status"], "failed");
    assert_eq!(
        hostile["details"]["frame"],
        report_support::hostile_frame(LEAK).as_str()
    );
}

#[test]
fn same_inputs_give_the_same_bytes_unless_timestamped() {
    let temp = tempfile::tempdir().unwrap();
    let (_, first) = hostile_page(&temp.path().join("a"), &[]);
    let (_, second) = hostile_page(&temp.path().join("a"), &[]);
    assert_eq!(first, second);
    assert!(!first.contains("generated 2"));
    let (_, stamped) = hostile_page(&temp.path().join("a"), &["--timestamp"]);
    assert!(stamped.contains(", generated 2"));
    // Readable without JavaScript: the summary and the first page of rows are in the markup.
    assert!(first.contains("<span class=\"n\" data-k=\"receipts\">14</span>"));
    assert_eq!(first.matches("<tr class=\"row").count(), 14);
}
