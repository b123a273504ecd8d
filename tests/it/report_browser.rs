//! The report page in a real browser: headless Chromium loads the hostile fixture's page
//! from a file with no network service it could reach but a listener of this test, and the
//! DOM it builds is checked after the page script ran: no script from the data ran (the
//! hostile payloads would mark the document), no request reached the listener, the row
//! count and the summary numbers match the JSON model, and the filters and search (driven
//! through the URL fragment the page script reads) select exactly the matching rows.
//!
//! Chromium comes from Debian's `chromium` package (`.ci/run` installs it). Without it the
//! test says so and passes, unless SEALKIT_REQUIRE_CHROMIUM is set (as in CI).
//! `SEALKIT_REGENERATE=1` also rewrites docs/report.png, the README's screenshot of the
//! fixture's report.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::report_support;

use report_support::{fixture, hostile_inputs, report, root, PWNED};
use serde_json::Value;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        let status = Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            .ok()?;
        status
            .status
            .success()
            .then(|| PathBuf::from(String::from_utf8_lossy(&status.stdout).trim()))
    });
    if found.is_none() {
        assert!(
            std::env::var_os("SEALKIT_REQUIRE_CHROMIUM").is_none(),
            "chromium is required (SEALKIT_REQUIRE_CHROMIUM) but not installed"
        );
        eprintln!("chromium not installed: browser test skipped");
    }
    found
}

/// Runs headless Chromium on `url` with a fresh profile and every background service off.
/// A page that never finishes loading (a request left waiting) fails after a minute.
/// `action` holds the run's own flags (what to do, the window size when it matters).
fn headless(browser: &Path, profile: &Path, url: &str, action: &[&str]) -> String {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--disable-extensions",
            "--disable-default-apps",
            "--no-first-run",
            "--no-default-browser-check",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(action)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish {url} within a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "chromium failed on {url}: {status}");
    reader.join().unwrap().unwrap()
}

/// The DOM Chromium serializes for `url` after the page script ran, with a fresh profile.
fn dump_dom(browser: &Path, url: &str) -> Dom {
    let profile = tempfile::tempdir().unwrap();
    Dom(headless(
        browser,
        profile.path(),
        url,
        &["--window-size=1280,1800", "--dump-dom"],
    ))
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start}")) + start.len();
    let to = from + text[from..].find(end).unwrap();
    &text[from..to]
}

/// What the DOM shows after the script ran: rendered rows, the match count, a summary value.
struct Dom(String);

impl Dom {
    fn rows(&self) -> usize {
        self.0.matches("<tr class=\"row").count()
    }
    fn matches(&self) -> u64 {
        between(&self.0, "<span id=\"match-count\">", "<")
            .parse()
            .unwrap()
    }
    fn summary(&self, key: &str) -> u64 {
        between(&self.0, &format!("data-k=\"{key}\">"), "<")
            .parse()
            .unwrap()
    }
}

fn url_component(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn the_hostile_page_in_headless_chromium() {
    let Some(browser) = chromium() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    // Any request the page made would have to come here: the hostile URLs name this port.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let leak = format!(
        "http://127.0.0.1:{}/leak",
        listener.local_addr().unwrap().port()
    );
    let (receipts, tokens) = hostile_inputs(temp.path(), &leak);
    let sealed = fixture("new/sealed.json");
    let frames = fixture("frames");
    let chain_args = [
        "--chain",
        sealed.to_str().unwrap(),
        "--frames",
        frames.to_str().unwrap(),
    ];
    let page = temp.path().join("report.html");
    report(&page, &receipts, std::slice::from_ref(&tokens), &chain_args);
    let json = temp.path().join("model.json");
    let mut json_args = vec!["--format", "json"];
    json_args.extend_from_slice(&chain_args);
    report(&json, &receipts, &[tokens], &json_args);
    let model: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let rows = model["rows"].as_array().unwrap();
    let url = format!("file://{}", page.display());
    let dump = |fragment: &str| dump_dom(&browser, &format!("{url}{fragment}"));

    let dom = dump("");
    // The page script ran to the end; nothing from the data did.
    assert!(
        dom.0.contains("data-ready=\"1\""),
        "the page script did not run"
    );
    // The payloads' own text mentions the attribute; set, it would read `data-pwned="…"`.
    let set = format!("{PWNED}=\"");
    assert!(!dom.0.contains(&set), "a script from the data ran");
    assert!(!dom.0.contains("<img") && !dom.0.contains("<iframe"));
    assert!(dom.0.contains("&lt;img src="));
    // Counts in the DOM are the model's.
    assert_eq!(dom.rows(), rows.len().min(100));
    assert_eq!(dom.matches(), rows.len() as u64);
    let s = &model["summary"];
    let get = |v: &Value, k: &str| v[k].as_u64().unwrap_or(0);
    for (key, value) in [
        ("receipts", get(s, "receipts")),
        ("authenticated", get(&s["statuses"], "authenticated")),
        ("failed", get(&s["statuses"], "failed")),
        ("allow", get(&s["verdicts"], "allow")),
        ("released", get(&s["verdicts"], "released")),
        ("block", get(&s["verdicts"], "block")),
        ("error", get(&s["findings_by_severity"], "error")),
        ("warning", get(&s["findings_by_severity"], "warning")),
        ("tokens-accepted", get(s, "tokens_accepted")),
        ("tokens-never-used", get(s, "tokens_never_used")),
        ("released-without-token", get(s, "released_without_token")),
        ("chain-entries", get(s, "chain_entries")),
    ] {
        assert_eq!(dom.summary(key), value, "{key}");
    }
    assert_eq!(dom.summary("receipts"), 14);
    assert_eq!(dom.summary("failed"), 1);

    // Filters and search, through the fragment the page script reads.
    let count = |f: &dyn Fn(&Value) -> bool| rows.iter().filter(|r| f(r)).count() as u64;
    let has_code = |r: &Value, code: &str| {
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == code)
    };
    let hostile_tool = report_support::hostile_tool(&leak);
    // A finding the hostile receipt (altered content under a valid signature) carries.
    let hostile_code = rows
        .iter()
        .find(|r| r["tool"] == hostile_tool.as_str())
        .and_then(|r| r["findings"][0]["code"].as_str())
        .unwrap()
        .to_owned();
    let cases: Vec<(String, u64)> = vec![
        ("#verdict=block".into(), count(&|r| r["class"] == "block")),
        (
            "#verdict=released".into(),
            count(&|r| r["class"] == "released"),
        ),
        (
            format!("#tool={}", url_component(&hostile_tool)),
            count(&|r| r["tool"] == hostile_tool.as_str()),
        ),
        (
            "#verdict=unauthenticated&status=failed".into(),
            count(&|r| r["class"] == "unauthenticated" && r["status"] == "failed"),
        ),
        (
            "#approver=fixture%20operator".into(),
            count(&|r| r["approval"]["approver"] == "fixture operator"),
        ),
        ("#q=docs.read".into(), count(&|r| r["tool"] == "docs.read")),
        ("#verdict=block&tool=docs.read".into(), 0),
        (
            format!("#finding={hostile_code}"),
            count(&|r| has_code(r, &hostile_code)),
        ),
    ];
    for (fragment, expected) in &cases {
        let dom = dump(fragment);
        assert_eq!(dom.matches(), *expected, "{fragment}");
        assert_eq!(dom.rows() as u64, (*expected).min(100), "{fragment}");
        assert!(!dom.0.contains(&set));
    }
    // The cases are not vacuous.
    assert_eq!(cases[0].1, 7);
    assert_eq!(cases[1].1, 3);
    assert_eq!(cases[2].1, 1);
    assert_eq!(cases[3].1, 1);
    assert_eq!(cases[4].1, 3);
    assert_eq!(cases[5].1, 3);
    assert_eq!(cases[7].1, 1);

    // No request left the page: nothing ever connected to the listener. Seen red with the
    // tool cell filled through innerHTML (an `img` element appears) and, in addition, the
    // policy renamed away (the image request reaches the listener and never completes).
    match listener.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        other => panic!("the page made a request: {other:?}"),
    }
}

/// The tampered fixture's report written with paths relative to `dir` (so a picture of it
/// shows no machine-specific directory): `dir/report.html`.
fn relative_tampered_page(dir: &Path) -> PathBuf {
    report_support::tampered_inputs(dir, true);
    std::fs::copy(fixture("new/sealed.json"), dir.join("sealed.json")).unwrap();
    // The receipt key as an operator keeps it, apart from the evidence (the fixture's seed
    // beside the receipts would be the evidence's own: receipt-key-in-evidence).
    let key = report_support::receipt_key();
    let status = report_support::sealkit()
        .current_dir(dir)
        .args(["report", "--out", "report.html", "--title"])
        .arg("Incident 2026-08-20: db.execute releases")
        .arg("--receipt-key")
        .arg(&key)
        .args([
            "--pubkey",
            report_support::APPROVAL_PUBKEY,
            "--tokens",
            "tokens.ndjson",
            "--chain",
            "sealed.json",
            "receipts",
        ])
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    dir.join("report.html")
}

/// The page framed at a phone's or a desk's width: `width` × `height` CSS pixels (an
/// iframe, since a headless window is never narrower than 500 pixels). Once the page and
/// its script are done, every `<details>` is opened (the calls' details are built then)
/// and the layout is measured from outside the page (the page itself is unchanged, its
/// policy whole): the viewport and the document's scroll width; the verdict's heading and
/// first sentence; each table and the box that scrolls it, if any; every element that
/// reaches past the right edge outside a box of its own that scrolls; the height of the
/// timeline's lane labels as drawn.
const FRAME: &str = r##"<!DOCTYPE html><html><head><style>body{margin:0}iframe{border:0;display:block}</style></head><body><iframe id="f" src="PAGE" width="WIDTH" height="HEIGHT"></iframe><script>
var f = document.getElementById("f");
f.addEventListener("load", function () {
  var w = f.contentWindow, doc = w.document;
  doc.querySelectorAll("details").forEach(function (d) { d.open = true; });
  setTimeout(function () {
    function scroller(e) {
      for (var p = e.parentElement; p; p = p.parentElement) {
        var o = w.getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll") return p;
      }
      return null;
    }
    var out = [];
    doc.querySelectorAll("body *").forEach(function (e) {
      var r = e.getBoundingClientRect();
      if (r.width > 0 && r.right > w.innerWidth + 0.5 && !scroller(e)) out.push(e.tagName + "." + e.className + " " + Math.round(r.right));
    });
    var tables = [];
    doc.querySelectorAll("table").forEach(function (t) {
      var r = t.getBoundingClientRect(), s = scroller(t);
      tables.push({ class: t.className, left: r.left, right: r.right,
        box: s ? s.getBoundingClientRect().right : null });
    });
    function rect(q) { var e = doc.querySelector(q); if (!e) return null; var r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; }
    var lane = doc.querySelector("#timeline-svg text.lane");
    document.body.setAttribute("data-layout", JSON.stringify({
      width: w.innerWidth, height: w.innerHeight, scroll_width: doc.documentElement.scrollWidth,
      ready: doc.documentElement.getAttribute("data-ready"),
      opened: doc.querySelectorAll("dl.kv").length,
      verdict: rect("#verdict h2"), sentence: rect("#verdict ul.sentences li"),
      outside: out.slice(0, 12), outside_count: out.length, tables: tables,
      lane_label: lane ? lane.getBoundingClientRect().height : null
    }));
  }, 300);
});
</script></body></html>"##;

fn layout(browser: &Path, page: &Path, width: u32, height: u32) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let frame = dir.path().join("frame.html");
    std::fs::write(
        &frame,
        FRAME
            .replace("PAGE", &format!("file://{}", page.display()))
            .replace("WIDTH", &width.to_string())
            .replace("HEIGHT", &height.to_string()),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let dom = headless(
        browser,
        profile.path(),
        &format!("file://{}", frame.display()),
        &[
            // The frame reads the framed page's layout (both are files).
            "--allow-file-access-from-files",
            "--hide-scrollbars",
            "--virtual-time-budget=10000",
            &format!("--window-size={},{height}", width.max(500)),
            "--dump-dom",
        ],
    );
    let attribute = between(&dom, "data-layout=\"", "\"")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&attribute).unwrap()
}

/// Issue 38 item 10: at a phone's width (390 px) and a desk's (1280 px) nothing is clipped
/// or wider than the screen: the page never scrolls sideways; every table fits or scrolls
/// in a box of its own; the verdict and its first sentence are on the first screen; the
/// timeline's labels are drawn at a readable size. Checked on the tampered fixture and on
/// the hostile one (long unbroken names, markup in values), with every details element
/// open. Seen red on 07add1e at 390 px: the page scrolled sideways to 1122 px (the
/// verdict's findings table; the calls table reached 914 px, the report's findings table
/// 818 px), and the timeline's lane labels were drawn 5 px high.
#[test]
fn at_390_and_1280_pixels_nothing_is_clipped_and_the_verdict_is_on_the_first_screen() {
    let Some(browser) = chromium() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let tampered = relative_tampered_page(&temp.path().join("tampered"));
    let hostile_dir = temp.path().join("hostile");
    let (receipts, tokens) = hostile_inputs(&hostile_dir, "http://127.0.0.1:9/leak");
    let hostile = hostile_dir.join("report.html");
    let sealed = fixture("new/sealed.json");
    report(
        &hostile,
        &receipts,
        &[tokens],
        &["--chain", sealed.to_str().unwrap()],
    );
    for page in [&tampered, &hostile] {
        for (width, height) in [(390, 844), (1280, 900)] {
            let at = format!("{} at {width}x{height}", page.display());
            let m = layout(&browser, page, width, height);
            assert_eq!(m["ready"], "1", "{at}: the page script did not finish");
            assert_eq!(m["width"], width, "{at}");
            // The calls' details were opened and built: their contents are measured too.
            assert!(m["opened"].as_u64().unwrap() > 10, "{at}: {m}");
            assert!(
                m["scroll_width"].as_f64().unwrap() <= f64::from(width),
                "{at}: the page scrolls sideways: {m}"
            );
            assert_eq!(m["outside_count"], 0, "{at}: clipped: {m}");
            let tables = m["tables"].as_array().unwrap();
            assert!(tables.len() >= 4, "{at}: {m}");
            for table in tables {
                let fits = table["left"].as_f64().unwrap() >= 0.0
                    && table["right"].as_f64().unwrap() <= f64::from(width) + 0.5;
                let scrolls = table["box"]
                    .as_f64()
                    .is_some_and(|right| right <= f64::from(width) + 0.5);
                assert!(
                    fits || scrolls,
                    "{at}: table {table} neither fits nor scrolls"
                );
            }
            let verdict = &m["verdict"];
            assert!(verdict["top"].as_f64().unwrap() >= 0.0, "{at}: {m}");
            assert!(
                verdict["bottom"].as_f64().unwrap() <= f64::from(height),
                "{at}: the verdict is below the first screen: {m}"
            );
            assert!(
                m["sentence"]["bottom"].as_f64().unwrap() <= f64::from(height),
                "{at}: the first sentence is below the first screen: {m}"
            );
            let lane = m["lane_label"].as_f64().unwrap();
            assert!(lane >= 10.0, "{at}: timeline labels {lane} px high");
        }
    }
}

/// docs/report.png and docs/report-phone.png are the tampered fixture's report as
/// Chromium draws it at 1280 px and at 390 px (the first screen of a phone, at twice the
/// pixel density). `SEALKIT_REGENERATE=1` draws them again.
#[test]
fn the_docs_screenshots_are_the_tampered_fixture_report() {
    let shot = root().join("docs/report.png");
    let phone = root().join("docs/report-phone.png");
    if std::env::var_os("SEALKIT_REGENERATE").is_some() {
        let Some(browser) = chromium() else {
            return;
        };
        let temp = tempfile::tempdir().unwrap();
        let page = relative_tampered_page(temp.path());
        let profile = tempfile::tempdir().unwrap();
        headless(
            &browser,
            profile.path(),
            &format!("file://{}", page.display()),
            &[
                "--hide-scrollbars",
                "--window-size=1280,2000",
                &format!("--screenshot={}", shot.display()),
            ],
        );
        // A phone: the page framed 390 px wide (no headless window is narrower than 500).
        let frame = temp.path().join("frame.html");
        std::fs::write(
            &frame,
            format!(
                "<!DOCTYPE html><html><head><style>body{{margin:0}}iframe{{border:0;display:block}}</style></head><body><iframe src=\"file://{}\" width=\"390\" height=\"844\"></iframe></body></html>",
                page.display()
            ),
        )
        .unwrap();
        let profile = tempfile::tempdir().unwrap();
        headless(
            &browser,
            profile.path(),
            &format!("file://{}", frame.display()),
            &[
                "--hide-scrollbars",
                "--force-device-scale-factor=2",
                "--virtual-time-budget=5000",
                "--window-size=390,844",
                &format!("--screenshot={}", phone.display()),
            ],
        );
    }
    for picture in [&shot, &phone] {
        let bytes = std::fs::read(picture).unwrap();
        assert!(
            bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{}",
            picture.display()
        );
        assert!(bytes.len() > 50_000, "{}", picture.display());
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains("](docs/report.png)"));
    let docs = std::fs::read_to_string(root().join("docs/report.md")).unwrap();
    assert!(docs.contains("](report.png)") && docs.contains("](report-phone.png)"));
}

/// The segment of the DOM from row `index`'s `<tr>` to its end.
fn row_in(dom: &str, index: usize) -> &str {
    let marker = format!("data-i=\"{index}\">");
    let at = dom
        .find(&marker)
        .unwrap_or_else(|| panic!("row {index} not rendered"));
    let start = dom[..at].rfind("<tr").unwrap();
    &dom[start..at + dom[at..].find("</tr>").unwrap()]
}

/// The tampered fixture (report_tamper) as Chromium draws it after the page script ran.
#[test]
fn the_tampered_page_in_headless_chromium_leads_with_the_exit_status_verdict() {
    let Some(browser) = chromium() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let (code, model, _) = crate::report_tamper::tampered_report(temp.path(), true);
    assert_eq!(code, 1);
    let url = format!("file://{}", temp.path().join("report.html").display());
    let dump = |fragment: &str| dump_dom(&browser, &format!("{url}{fragment}"));
    let dom = dump("");
    assert!(dom.0.contains("data-ready=\"1\""));
    // The verdict leads the page and is the exit status's.
    let body = &dom.0[dom.0.find("<body").unwrap()..];
    let first_section = &body[body.find("<section").unwrap()..];
    assert!(
        first_section.starts_with(
            "<section id=\"verdict\" class=\"verdict problems\" data-outcome=\"problems\">"
        ),
        "{}",
        &first_section[..200.min(first_section.len())]
    );
    assert!(first_section.contains("<h2>Problems found</h2>"));
    // The altered receipt's claim is neither shown as a verdict nor counted as one.
    let rows = model["rows"].as_array().unwrap();
    let altered = rows
        .iter()
        .position(|r| {
            r["file"]
                .as_str()
                .unwrap()
                .ends_with(report_support::ALTERED)
        })
        .unwrap();
    let altered_row = row_in(&dom.0, altered);
    assert!(
        altered_row.contains("claims ALLOW — not authenticated"),
        "{altered_row}"
    );
    assert!(
        !altered_row.contains("<span class=\"v allow\">"),
        "{altered_row}"
    );
    assert_eq!(dom.summary("allow"), 3);
    assert_eq!(dom.summary("claims-ALLOW"), 1);
    // Errors precede warnings: the first rows are the error rows, the altered one first.
    let classes: Vec<&str> = dom
        .0
        .match_indices("<tr class=\"row")
        .map(|(at, _)| {
            let rest = &dom.0[at + "<tr class=\"".len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(classes[0], "row error");
    let rank = |c: &str| match c {
        "row error" => 2,
        "row warning" => 1,
        _ => 0,
    };
    assert!(
        classes.windows(2).all(|w| rank(w[0]) >= rank(w[1])),
        "{classes:?}"
    );
    assert!(row_in(&dom.0, altered).starts_with("<tr class=\"row error\""));
    assert_eq!(
        dom.0.find("<tr class=\"row"),
        dom.0
            .find(&format!("<tr class=\"row error\" data-i=\"{altered}\">"))
    );
    // The released row Mallory also approved names the approver its statement signs.
    let released = rows
        .iter()
        .position(|r| r["other_approvals"].is_array())
        .unwrap();
    let released_row = row_in(&dom.0, released);
    assert!(released_row.contains("fixture operator"), "{released_row}");
    assert!(!released_row.contains("Mallory"), "{released_row}");
    assert!(released_row.contains("1 other approval of this call, not the one used"));
    // The status filter, and time order on request.
    let failed = dump("#status=failed");
    assert_eq!(failed.matches(), 1);
    assert_eq!(failed.rows(), 1);
    let timed = dump("#order=time");
    assert_eq!(
        timed.0.find("<tr class=\"row"),
        timed
            .0
            .find("data-i=\"0\">")
            .map(|at| timed.0[..at].rfind("<tr").unwrap())
    );
}
