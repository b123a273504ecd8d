//! The streaming chain verifiers against the whole-file ones they replaced, kept here as the
//! oracle (copied unchanged from `src/chain.rs` as of commit 08828c0): the same report or the
//! same refusal, byte for byte, for every file in `testdata/` read as a sealed log and as audit
//! lines, and for damaged logs generated from the chain fixtures (entries cut, duplicated,
//! swapped, edited; members repeated or mistyped; the text cut at every byte and every byte
//! replaced), each read in one piece and in small reads that split UTF-8 sequences and tokens.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sealkit::chain::{self, BadEntry, GenesisCheck, SealedReport};
use sealkit::json::{self, JsonValue};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

mod oracle {
    use super::*;

    /// Verifies a sealed log's text. `Err` when it is not a sealed log at all.
    pub fn verify_sealed(text: &str) -> Result<SealedReport, String> {
        let node = json::parse(text, 64)
            .map_err(|e| format!("not JSON: {} at byte {}", e.message, e.offset))?;
        let field = |name: &str| node.value.get(name).map(|n| &n.value);
        let format = field("format")
            .and_then(JsonValue::as_str)
            .map(str::to_owned);
        let recorded_genesis = match field("genesis") {
            Some(JsonValue::String(s)) => s.to_string(),
            Some(other) => format!("({})", other.type_name()),
            None => "(absent)".to_owned(),
        };
        let Some(JsonValue::Array(entries)) = field("entries") else {
            return Err("entries is missing or not an array".into());
        };
        let expected = chain::genesis();
        let mut head = expected.clone();
        let mut first_bad_entry = None;
        let mut bad_entries = 0;
        for (index, entry) in entries.iter().enumerate() {
            let payload = entry
                .value
                .get("payload")
                .and_then(|p| p.value.as_str())
                .ok_or_else(|| format!("entries[{index}].payload is missing or not a string"))?;
            head = chain::commit(&head, payload);
            let recorded = entry.value.get("head").and_then(|h| h.value.as_str());
            if recorded != Some(head.as_str()) {
                bad_entries += 1;
                first_bad_entry.get_or_insert_with(|| BadEntry {
                    index,
                    recorded: recorded.unwrap_or("(absent)").to_owned(),
                    recomputed: head.clone(),
                });
            }
        }
        Ok(SealedReport {
            format,
            genesis: GenesisCheck {
                ok: recorded_genesis == expected,
                recorded: recorded_genesis,
                expected,
            },
            entries: entries.len(),
            first_bad_entry,
            bad_entries,
            head,
        })
    }

    /// Audit lines as `seal_log.mjs seal` reads them.
    pub struct AuditLines {
        pub payloads: Vec<String>,
        pub dropped: usize,
        pub lossy: bool,
    }

    pub fn audit_lines(bytes: &[u8]) -> AuditLines {
        let text = String::from_utf8_lossy(bytes);
        let lossy = matches!(text, std::borrow::Cow::Owned(_));
        let mut payloads = Vec::new();
        let mut dropped = 0;
        for line in text.split('\n') {
            let trimmed = chain::js_trim(line);
            if trimmed.is_empty() {
                dropped += 1;
            } else {
                payloads.push(trimmed.to_owned());
            }
        }
        AuditLines {
            payloads,
            dropped,
            lossy,
        }
    }
}

/// Hands out at most `step` bytes per read of `bytes` (a slice, or a `Cursor` over bytes of its
/// own for the reader read ahead on a thread of its own).
struct Trickle<B> {
    bytes: B,
    step: usize,
}

impl<B: Read> Read for Trickle<B> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(out.len());
        self.bytes.read(&mut out[..n])
    }
}

/// The whole-file verdict: the file decoded lossily, as the command did, then parsed whole.
fn old_sealed(bytes: &[u8]) -> Result<SealedReport, String> {
    // The whole-text reading: a well-formed log that repeats a member name is refused first.
    let text = String::from_utf8_lossy(bytes);
    if let Ok(Some(duplicate)) = sealkit::json::find_duplicate(&text) {
        return Err(duplicate.to_string());
    }
    oracle::verify_sealed(&text)
}

fn new_sealed(bytes: &[u8], step: usize) -> Result<SealedReport, String> {
    chain::sealed::verify_stream(Trickle { bytes, step }).map_err(|e| e.to_string())
}

/// What `verify chain` runs: the input read ahead on a third thread.
fn read_ahead_sealed(bytes: &[u8], step: usize) -> Result<SealedReport, String> {
    let reader = Trickle {
        bytes: io::Cursor::new(bytes.to_vec()),
        step,
    };
    chain::sealed::verify_stream_read_ahead(reader).map_err(|e| e.to_string())
}

fn same_sealed(bytes: &[u8], steps: &[usize], what: &str) {
    let old = old_sealed(bytes);
    for &step in steps {
        assert_eq!(
            new_sealed(bytes, step),
            old,
            "{what}, reads of {step}: {:?}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
        );
    }
    // Read ahead on a thread of its own, in the large read sizes (a piece handed between two
    // threads for every few bytes would slow the cut-everywhere tests for nothing more).
    for step in steps.iter().filter(|&&step| step >= 4093) {
        assert_eq!(
            read_ahead_sealed(bytes, *step),
            old,
            "{what}, read ahead in reads of {step}"
        );
    }
}

fn same_lines(bytes: &[u8], steps: &[usize], what: &str) {
    let old = oracle::audit_lines(bytes);
    let old_head = chain::head_from(&chain::genesis(), old.payloads.iter().map(String::as_str));
    for &step in steps {
        let mut payloads = Vec::new();
        let reader = io::BufReader::with_capacity(step, Trickle { bytes, step });
        let new = chain::lines::chain_lines(reader, |p| payloads.push(p.to_owned())).unwrap();
        assert_eq!(payloads, old.payloads, "{what}, reads of {step}");
        assert_eq!(new.payloads, old.payloads.len(), "{what}");
        assert_eq!(new.dropped, old.dropped, "{what}");
        assert_eq!(new.lossy, old.lossy, "{what}");
        assert_eq!(new.head, old_head, "{what}");
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn sealed_fixtures() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    files_under(Path::new("testdata/receipts"), &mut files);
    files.sort();
    let logs: Vec<_> = files
        .into_iter()
        .filter(|p| {
            let bytes = std::fs::read(p).unwrap();
            old_sealed(&bytes).is_ok()
        })
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    // The four of testdata/receipts/chain and the two of legacy-vs-current.
    assert_eq!(
        logs.len(),
        6,
        "{:?}",
        logs.iter().map(|l| &l.0).collect::<Vec<_>>()
    );
    logs
}

#[test]
fn every_testdata_file_reads_the_same_as_a_sealed_log_and_as_audit_lines() {
    let mut files = Vec::new();
    files_under(Path::new("testdata"), &mut files);
    files.sort();
    assert!(files.len() > 400, "{}", files.len());
    let mut verified = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let what = path.display().to_string();
        same_sealed(&bytes, &[1 << 20, 7], &what);
        same_lines(&bytes, &[1 << 16, 5], &what);
        verified += usize::from(old_sealed(&bytes).is_ok());
    }
    assert_eq!(verified, 6);
}

/// JSON.stringify(…, null, 2) of a log, the layout seal_log.mjs writes.
fn pretty(value: &serde_json::Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).unwrap();
    text.push('\n');
    text.into_bytes()
}

fn structural_variants(log: &[u8]) -> Vec<(String, Vec<u8>)> {
    let value: serde_json::Value = serde_json::from_slice(log).unwrap();
    let n = value["entries"].as_array().unwrap().len();
    let mut out = vec![("as written".to_owned(), log.to_vec())];
    let mut edit = |what: String, f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = value.clone();
        f(&mut v);
        out.push((what, pretty(&v)));
    };
    for i in 0..n {
        let entries = |v: &mut serde_json::Value| -> Vec<serde_json::Value> {
            v["entries"].as_array().unwrap().clone()
        };
        edit(format!("entry {i} deleted"), &|v| {
            let mut e = entries(v);
            e.remove(i);
            v["entries"] = e.into();
        });
        edit(format!("entry {i} duplicated"), &|v| {
            let mut e = entries(v);
            e.insert(i, e[i].clone());
            v["entries"] = e.into();
        });
        if i + 1 < n {
            edit(format!("entries {i} and {} swapped", i + 1), &|v| {
                let mut e = entries(v);
                e.swap(i, i + 1);
                v["entries"] = e.into();
            });
        }
        edit(format!("entry {i} payload edited"), &|v| {
            let p = v["entries"][i]["payload"]
                .as_str()
                .unwrap()
                .replacen('e', "E", 1);
            v["entries"][i]["payload"] = p.into();
        });
        edit(format!("entry {i} head edited"), &|v| {
            v["entries"][i]["head"] = "0".repeat(64).into();
        });
        edit(format!("entry {i} head removed"), &|v| {
            v["entries"][i].as_object_mut().unwrap().remove("head");
        });
        edit(format!("entry {i} payload removed"), &|v| {
            v["entries"][i].as_object_mut().unwrap().remove("payload");
        });
        edit(format!("entry {i} payload a number"), &|v| {
            v["entries"][i]["payload"] = 7.into();
        });
        edit(format!("entry {i} not an object"), &|v| {
            v["entries"][i] = serde_json::json!([1, "payload"]);
        });
        edit(format!("entry {i} with a lone surrogate"), &|v| {
            v["entries"][i]["payload"] = "\u{fffd}".into();
        });
    }
    edit("genesis edited".into(), &|v| {
        v["genesis"] = "0".repeat(64).into()
    });
    edit("genesis a number".into(), &|v| v["genesis"] = 1.into());
    edit("genesis removed".into(), &|v| {
        v.as_object_mut().unwrap().remove("genesis");
    });
    edit("format removed".into(), &|v| {
        v.as_object_mut().unwrap().remove("format");
    });
    edit("format null".into(), &|v| {
        v["format"] = serde_json::Value::Null
    });
    edit("entries an object".into(), &|v| {
        v["entries"] = serde_json::json!({"a": 1})
    });
    edit("entries removed".into(), &|v| {
        v.as_object_mut().unwrap().remove("entries");
    });
    edit("entries empty".into(), &|v| {
        v["entries"] = serde_json::json!([])
    });
    edit("entries last".into(), &|v| {
        let e = v.as_object_mut().unwrap().remove("entries").unwrap();
        v["entries"] = e;
    });
    edit("deep member".into(), &|v| {
        v["extra"] = serde_json::json!({"a": [[{"b": [1.5e3, -0, true, false, null]}]]});
    });
    edit("top level an array".into(), &|v| {
        *v = serde_json::json!([v.clone()])
    });
    let text = String::from_utf8(log.to_vec()).unwrap();
    let body = text.trim_end().strip_suffix('}').unwrap();
    // Repeated members: the last one counts, as in JSON.parse.
    for extra in [
        r#","entries":[]"#,
        r#","entries":7"#,
        r#","genesis":"x""#,
        r#","format":{}"#,
        r#","entries":[{"payload":"a","head":"b","payload":"audit-0","head":"8dd24f08"}]"#,
        r#","entries":[{"payload":"audit-0","head":"8dd24f08c97d6dfcab2d36fe4fa0aaec8a6d7a3e81e1ba80cea2b1eb55a14a4c"}]"#,
        r#","entr\u0069es":[{"payload":"a\ud800b\ud83d\ude00","head":"\u0030"}]"#,
        r#","entries":[1,"x",null,true,[],{}]"#,
        r#","entries":[{"payload":"\u0000\n\t\"\\\/","head":null}]"#,
    ] {
        out.push((
            format!("appended {extra}"),
            format!("{body}{extra}}}").into_bytes(),
        ));
    }
    out.push(("prefixed BOM".into(), [b"\xef\xbb\xbf", log].concat()));
    out.push((
        "invalid UTF-8 in a payload".into(),
        text.replacen("certs", "c\u{e9}rts", 1)
            .replace('\u{e9}', "\u{fffd}")
            .into_bytes(),
    ));
    out.push((
        "raw invalid byte in a payload".into(),
        [&log[..60], b"\xff\xc3", &log[60..]].concat(),
    ));
    out
}

#[test]
fn damaged_logs_read_the_same_as_the_whole_file_verifier() {
    for (path, log) in sealed_fixtures() {
        for (what, bytes) in structural_variants(&log) {
            same_sealed(
                &bytes,
                &[1 << 20, 1, 2, 3, 64],
                &format!("{}: {what}", path.display()),
            );
        }
    }
}

#[test]
fn logs_cut_at_every_byte_or_with_any_byte_replaced_read_the_same() {
    let replacements: &[&[u8]] = &[
        b"\"", b"\\", b"[", b"]", b"{", b"}", b",", b":", b"x", b"0", b"\xff", b" ", b"\x01", b"-",
        b"\xc3", b"e", b"\\u",
    ];
    for (path, log) in sealed_fixtures() {
        let name = path.display().to_string();
        // Every byte of the small logs; every 13th of the larger ones.
        let stride = if log.len() < 2000 { 1 } else { 13 };
        for cut in (0..log.len()).step_by(stride) {
            let step = [1 << 20, 1, 5, 7][cut % 4];
            same_sealed(&log[..cut], &[step], &format!("{name} cut at {cut}"));
        }
        // Replacements at every third byte of the small logs (each replacement at each byte
        // was tried once; every third keeps the suite quick and still reaches every token kind).
        for at in (0..log.len()).step_by(3 * stride) {
            for (k, with) in replacements.iter().enumerate() {
                let bytes = [&log[..at], with, &log[at + 1..]].concat();
                // One read size per variant, from one piece down to single bytes.
                let step = [1 << 20, 1, 2, 3, 5, 8, 13, 64][(at + k) % 8];
                same_sealed(&bytes, &[step], &format!("{name} byte {at} as {with:?}"));
            }
        }
    }
}

#[test]
fn audit_lines_cut_edited_and_split_read_the_same() {
    let mut files = Vec::new();
    files_under(Path::new("testdata/receipts"), &mut files);
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "lines" || e == "ndjson"))
    {
        let lines = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        for cut in (0..lines.len()).step_by(if lines.len() < 2000 { 1 } else { 23 }) {
            let step = [1 << 16, 1, 3, 64][cut % 4];
            same_lines(&lines[..cut], &[step], &format!("{name} cut at {cut}"));
        }
        for with in [
            &b"\r"[..],
            b"\n",
            b"\xff",
            b"\xc3",
            b"\xe2\x80\xa8",
            b"\xef\xbb\xbf",
            b" ",
        ] {
            for at in (0..lines.len()).step_by(61) {
                let bytes = [&lines[..at], with, &lines[at..]].concat();
                let step = [1 << 16, 2, 7][at % 3];
                same_lines(&bytes, &[step], &format!("{name} {with:?} at {at}"));
            }
        }
    }
}

/// A value larger than the per-value limit still gets the whole-text parse's verdict when the
/// parser refuses it well before the limit (here: nesting past 64 levels).
#[test]
fn an_oversized_value_refused_early_gets_the_same_syntax_verdict() {
    let mut deep = br#"{"entries":["#.to_vec();
    deep.resize(deep.len() + chain::sealed::MAX_VALUE_BYTES + 10, b'[');
    same_sealed(&deep, &[1 << 20], "17 MiB of [");
    let mut long = br#"{"entries":[{"payload":""#.to_vec();
    long.resize(long.len() + chain::sealed::MAX_VALUE_BYTES + 10, b'a');
    long.extend_from_slice(br#"","head":"x"}]}"#);
    let refused = chain::sealed::verify_stream(&long[..]).unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!(
            "the value at byte 12 is larger than {} bytes, not read further",
            chain::sealed::MAX_VALUE_BYTES
        )
    );
}

/// A log of `count` entries whose payloads (JSON texts of about 400 bytes, so about 40 escapes
/// each) fill several of the reader's batches, with every recorded head right.
fn many_batch_log(count: usize) -> serde_json::Value {
    let mut head = chain::genesis();
    let entries: Vec<serde_json::Value> = (0..count)
        .map(|i| {
            let payload = serde_json::json!({
                "i": i,
                "tool": "docs.read",
                "note": format!("caf\u{e9} \u{1F600} \"quoted\" {}", "x".repeat(i % 300)),
                "certs": [{"kernel": "safety", "verdict": "allow"}],
            })
            .to_string();
            head = chain::commit(&head, &payload);
            serde_json::json!({"payload": payload, "head": head})
        })
        .collect();
    serde_json::json!({
        "format": chain::FORMAT,
        "genesis": chain::genesis(),
        "entries": entries,
    })
}

/// The two-thread reader over logs that span many batches: damage in a late batch (an edited
/// payload or head, a payload missing or mistyped, a repeated member, a syntax error, a second
/// `entries` array) reads as the whole-file verifier reads it.
#[test]
fn logs_of_many_batches_read_the_same() {
    let value = many_batch_log(3_000);
    let log = pretty(&value);
    assert!(log.len() > 4 * 256 * 1024, "{}", log.len());
    let mut variants = vec![("as written".to_owned(), log.clone())];
    let mut edit = |what: &str, f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = value.clone();
        f(&mut v);
        variants.push((what.to_owned(), pretty(&v)));
    };
    edit("payload 2100 edited", &|v| {
        let p = v["entries"][2100]["payload"]
            .as_str()
            .unwrap()
            .replace('x', "y");
        v["entries"][2100]["payload"] = p.into();
    });
    edit("head 1900 edited", &|v| {
        v["entries"][1900]["head"] = "0".repeat(64).into()
    });
    edit("payload 2400 removed", &|v| {
        v["entries"][2400]
            .as_object_mut()
            .unwrap()
            .remove("payload");
    });
    edit("payload 2200 a number", &|v| {
        v["entries"][2200]["payload"] = 1.into()
    });
    let text = String::from_utf8(log.clone()).unwrap();
    let late = text.len() * 9 / 10;
    let late_entry = late + text[late..].find("\"head\"").unwrap();
    variants.push((
        "a late entry repeats its head".into(),
        [
            &text[..late_entry],
            "\"head\": \"x\", ",
            &text[late_entry..],
        ]
        .concat()
        .into_bytes(),
    ));
    variants.push((
        "a syntax error in a late entry".into(),
        [&text[..late_entry], "@", &text[late_entry..]]
            .concat()
            .into_bytes(),
    ));
    let body = text.trim_end().strip_suffix('}').unwrap();
    variants.push((
        "a second entries array".into(),
        format!("{body},\"entries\":[{{\"payload\":\"audit-0\",\"head\":\"x\"}}]}}").into_bytes(),
    ));
    for cut in [late, late_entry, text.len() - 3] {
        variants.push((format!("cut at {cut}"), log[..cut].to_vec()));
    }
    for (what, bytes) in &variants {
        same_sealed(bytes, &[1 << 20, 4093], what);
    }
    // Not all of them read as the same verdict: each damage shows.
    let verdicts: std::collections::HashSet<String> = variants
        .iter()
        .map(|(_, bytes)| format!("{:?}", old_sealed(bytes).map(|r| r.first_bad_entry)))
        .collect();
    assert!(verdicts.len() >= 7, "{verdicts:?}");
}

/// `each` hears of every entry once, in order, across batches, with its own payload and
/// verdict.
#[test]
fn each_entry_is_handed_over_once_in_order() {
    let mut value = many_batch_log(1_500);
    value["entries"][1_234]["head"] = "f".repeat(64).into();
    let log = pretty(&value);
    let mut seen = Vec::new();
    let report = chain::sealed::verify_stream_each(
        Trickle {
            bytes: &log[..],
            step: 7_001,
        },
        |i, p, ok| seen.push((i, p.to_owned(), ok)),
    )
    .unwrap();
    assert_eq!(report.entries, 1_500);
    assert_eq!(report.bad_entries, 1);
    assert_eq!(seen.len(), 1_500);
    for (i, (index, payload, ok)) in seen.iter().enumerate() {
        assert_eq!(*index, i);
        assert_eq!(payload, value["entries"][i]["payload"].as_str().unwrap());
        assert_eq!(*ok, i != 1_234, "entry {i}");
    }
}

/// Serves `log`, then either an I/O error or blanks without end, counting what it served.
struct ThenForever<'a> {
    log: &'a [u8],
    served: usize,
    fail: bool,
}

impl Read for ThenForever<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.served < self.log.len() {
            let n = out.len().min(self.log.len() - self.served).min(10_000);
            out[..n].copy_from_slice(&self.log[self.served..self.served + n]);
            self.served += n;
            return Ok(n);
        }
        if self.fail {
            return Err(io::Error::other("the device went away"));
        }
        out.fill(b' ');
        self.served += out.len();
        Ok(out.len())
    }
}

/// An offset three quarters into `log` where a key starts (`"head"`), so that the blanks a
/// test serves after a byte put there cannot be read as part of a value.
fn cut_before_a_key(log: &[u8]) -> usize {
    let text = std::str::from_utf8(log).unwrap();
    let cut = log.len() * 3 / 4;
    cut + text[cut..].find("\"head\"").unwrap()
}

/// An error found by the reader thread ends the check there: a syntax error after many
/// batches is the result, with the whole-file verifier's message, and the input is read no
/// further than the value it is in (the blanks after it never end); an I/O error is the
/// result with its own message.
#[test]
fn the_reader_threads_first_error_ends_the_check() {
    let log = pretty(&many_batch_log(2_000));
    let cut = cut_before_a_key(&log);
    let broken = [&log[..cut], b"@"].concat();
    let mut endless = ThenForever {
        log: &broken,
        served: 0,
        fail: false,
    };
    let refused = chain::sealed::verify_stream(&mut endless).unwrap_err();
    assert_eq!(Err(refused.to_string()), old_sealed(&broken));
    // The entry the error is in is framed up to the per-value cap at most, as before.
    let cap = chain::sealed::MAX_VALUE_BYTES + (1 << 20);
    assert!(endless.served < broken.len() + cap, "{}", endless.served);

    let mut failing = ThenForever {
        log: &log[..cut],
        served: 0,
        fail: true,
    };
    let failed = chain::sealed::verify_stream(&mut failing).unwrap_err();
    assert!(
        matches!(failed, chain::sealed::SealedError::Io(_)),
        "{failed:?}"
    );
    assert_eq!(failed.to_string(), "the device went away");
}

/// The same two ends with the input read ahead on a thread of its own: the syntax error's
/// verdict is the result although that thread is still being served blanks (it is not
/// waited for), and the I/O error is the result with its own message.
#[test]
fn a_read_ahead_input_ends_the_check_at_the_first_error_too() {
    let log = pretty(&many_batch_log(2_000));
    let cut = cut_before_a_key(&log);
    let broken: &'static [u8] = [&log[..cut], b"@"].concat().leak();
    let endless = ThenForever {
        log: broken,
        served: 0,
        fail: false,
    };
    let refused = chain::sealed::verify_stream_read_ahead(endless).unwrap_err();
    assert_eq!(Err(refused.to_string()), old_sealed(broken));

    let failing = ThenForever {
        log: log[..cut].to_vec().leak(),
        served: 0,
        fail: true,
    };
    let failed = chain::sealed::verify_stream_read_ahead(failing).unwrap_err();
    assert!(
        matches!(failed, chain::sealed::SealedError::Io(_)),
        "{failed:?}"
    );
    assert_eq!(failed.to_string(), "the device went away");
}
