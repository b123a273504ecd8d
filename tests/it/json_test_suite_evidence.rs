//! JSONTestSuite `test_parsing/` (testdata/JSONTestSuite, MIT; see its PROVENANCE.md and
//! `tests/json_test_suite.rs`, which checks the copy's digest) spliced into the evidence
//! sealkit reads besides frames, through the real binary. Each file becomes, in turn:
//!
//! * `text`: the payload *text* of an ApprovalRecord line correctly signed by the trusted
//!   key (`sealkit verify approval`);
//! * `value`: byte for byte the *value* of the line's `payload` member (signed over the same
//!   bytes);
//! * `target`: byte for byte the value of `target` inside the fixture's canonical v2
//!   payload, the whole payload text correctly signed, so the v2 payload reader sees it;
//! * `receipt`: byte for byte the value of `arguments` in a signed record_version 3 receipt
//!   (`sealkit verify receipt` with its pinned key), signature left as it was;
//! * `resigned`: the same receipt re-signed by its own key over the spliced content, so the
//!   content checks alone must refuse it.
//!
//! No splice is ever accepted or authenticated, nothing panics, and the outcome of every
//! file (`y_`, `i_` and `n_`) under every splice is pinned in [`OUTCOMES`]: for tokens the
//! seal-host reasons of the physical lines it became (`+`-joined: a file with line breaks
//! is several token lines, as it would be for seal-host), for receipts the status and the
//! sorted error codes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use sealkit::receipt::preimage;
use serde_json::Value;
use std::collections::BTreeMap;
use support::{canonical, fixture_payload, sign_v2, KEY_ID, PUBKEY, TARGET};

const RECEIPT: &str = "testdata/receipts/legacy-vs-current/new/receipts/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
const RECEIPT_SEED: &str =
    "testdata/receipts/legacy-vs-current/new/receipts/.seal-receipt-ed25519.key";
const RECEIPT_KEY: &str = "3e249cf1656c5e8c9e4e863766145dbfbef6ebe55f62490b63fe6898ac0d6fa4";

fn corpus() -> Vec<(String, Vec<u8>)> {
    let files = support::json_test_suite();
    assert_eq!(files.len(), 318);
    files
}

/// A v2 token line whose payload member is `payload_json` (raw JSON bytes), signed over
/// `payload_text`.
fn token_line(payload_json: &[u8], payload_text: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(payload_text);
    let mut line = b"{\"payload\":".to_vec();
    line.extend_from_slice(payload_json);
    line.extend_from_slice(
        format!(
            ",\"signature_algorithm\":\"Ed25519\",\"signature_encoding\":\"base64url-nopad\",\"signer_key_id\":\"{KEY_ID}\",\"signature\":\"{}\"}}",
            sign_v2(&text)
        )
        .as_bytes(),
    );
    line
}

/// A signed token line whose payload member is a JSON string holding `text` (its raw bytes
/// between quotes when they are not UTF-8).
fn signed_text(text: &[u8]) -> Vec<u8> {
    let json = match std::str::from_utf8(text) {
        Ok(text) => serde_json::to_vec(text).unwrap(),
        Err(_) => [b"\"".as_slice(), text, b"\""].concat(),
    };
    token_line(&json, text)
}

/// The file as the payload text.
fn as_payload_text(file: &[u8]) -> Vec<u8> {
    signed_text(file)
}

/// The file byte for byte as the payload member's value.
fn as_payload_value(file: &[u8]) -> Vec<u8> {
    token_line(file, file)
}

/// The file byte for byte as the value of `target` in the fixture's canonical v2 payload.
fn as_target_in_payload(file: &[u8]) -> Vec<u8> {
    let payload = canonical(&fixture_payload());
    let target = format!("\"{TARGET}\"");
    let at = payload.find(&target).unwrap();
    let text = [
        &payload.as_bytes()[..at],
        file,
        &payload.as_bytes()[at + target.len()..],
    ]
    .concat();
    signed_text(&text)
}

/// Runs the binary on `files`, which must find a problem (exit 1) without a diagnostic on
/// stderr, and returns its JSON lines.
fn run_refusing(args: &[&str], files: &[std::path::PathBuf]) -> Vec<Value> {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(args)
        .args(files)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs `sealkit verify approval` on one token file holding every splice, one after the
/// other, and returns each file's outcome: the reasons of the non-blank physical lines it
/// became.
fn approval_outcomes(files: &[(String, Vec<u8>)], splice: fn(&[u8]) -> Vec<u8>) -> Vec<String> {
    let mut content = Vec::new();
    let mut first_lines = Vec::new();
    let mut line = 1u64;
    for (_, bytes) in files {
        let spliced = splice(bytes);
        first_lines.push(line);
        line += spliced.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        content.extend_from_slice(&spliced);
        content.push(b'\n');
    }
    first_lines.push(line);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.ndjson");
    std::fs::write(&path, &content).unwrap();
    let records = run_refusing(
        &[
            "verify", "approval", "--pubkey", PUBKEY, "--format", "jsonl",
        ],
        &[path],
    );
    let summary = records.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["accepted"], 0, "a spliced token was accepted");
    let mut by_line: BTreeMap<u64, String> = BTreeMap::new();
    for record in &records[..records.len() - 1] {
        assert_eq!(record["status"], "rejected", "{record}");
        assert!(record["signed"].is_null(), "{record}");
        by_line.insert(
            record["line"].as_u64().unwrap(),
            record["reason"].as_str().unwrap().to_owned(),
        );
    }
    first_lines
        .windows(2)
        .map(|w| {
            let reasons: Vec<&str> = by_line.range(w[0]..w[1]).map(|(_, r)| r.as_str()).collect();
            reasons.join("+")
        })
        .collect()
}

/// A signed receipt with `arguments` replaced byte for byte by `file`.
fn receipt_with_arguments(receipt: &[u8], file: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(receipt).unwrap();
    let node = sealkit::json::parse(text, 128).unwrap();
    let span = node.value.get("arguments").unwrap().span;
    [&receipt[..span.start], file, &receipt[span.end..]].concat()
}

/// The spliced receipt with its signature value replaced by the receipt key's signature
/// over the spliced content, the rest left byte for byte (unchanged when serde_json, and so
/// seal-host, cannot read it).
fn resigned(spliced: &[u8], seed: &[u8; 32]) -> Vec<u8> {
    let Ok(mut map) = sealkit::receipt::parse(spliced) else {
        return spliced.to_vec();
    };
    let old = map["signature"]["value"].as_str().unwrap().to_owned();
    preimage::sign(&mut map, seed).unwrap();
    let new = map["signature"]["value"].as_str().unwrap();
    let text = std::str::from_utf8(spliced).unwrap();
    assert_eq!(text.matches(&old).count(), 1);
    text.replacen(&old, new, 1).into_bytes()
}

/// Runs `sealkit verify receipt` over every splice: the status and sorted error codes of
/// each file's result.
fn receipt_outcomes(files: &[(String, Vec<u8>)], resign: bool) -> Vec<String> {
    let receipt = std::fs::read(RECEIPT).unwrap();
    let seed: [u8; 32] = std::fs::read(RECEIPT_SEED).unwrap().try_into().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<_> = files
        .iter()
        .map(|(name, bytes)| {
            let path = dir.path().join(name);
            let mut spliced = receipt_with_arguments(&receipt, bytes);
            if resign {
                spliced = resigned(&spliced, &seed);
            }
            std::fs::write(&path, spliced).unwrap();
            path
        })
        .collect();
    let records = run_refusing(
        &[
            "verify",
            "receipt",
            "--receipt-key",
            RECEIPT_KEY,
            "--format",
            "jsonl",
        ],
        &paths,
    );
    assert_eq!(records.len(), files.len());
    records
        .iter()
        .map(|record| {
            let status = record["status"].as_str().unwrap();
            assert_ne!(status, "authenticated", "{record}");
            let mut codes: Vec<&str> = record["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["severity"] == "error")
                .map(|f| f["code"].as_str().unwrap())
                .collect();
            codes.sort_unstable();
            format!("{status}:{}", codes.join(","))
        })
        .collect()
}

/// Every file's outcome under every splice, in [`OUTCOMES`]' layout.
fn outcome_table(files: &[(String, Vec<u8>)]) -> Vec<Vec<String>> {
    let columns = [
        approval_outcomes(files, as_payload_text),
        approval_outcomes(files, as_payload_value),
        approval_outcomes(files, as_target_in_payload),
        receipt_outcomes(files, false),
        receipt_outcomes(files, true),
    ];
    files
        .iter()
        .enumerate()
        .map(|(i, (name, _))| {
            std::iter::once(name.clone())
                .chain(columns.iter().map(|c| c[i].clone()))
                .collect()
        })
        .collect()
}

fn render(rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..COLUMNS.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([COLUMNS[c].len()])
                .max()
                .unwrap()
        })
        .collect();
    std::iter::once(COLUMNS.map(str::to_owned).to_vec())
        .chain(rows.iter().cloned())
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, w)| format!("{cell:w$}"))
                .collect();
            cells.join(" ").trim_end().to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_splice_is_refused_with_its_pinned_outcome() {
    let files = corpus();
    let seen = outcome_table(&files);
    let pinned: Vec<Vec<String>> = OUTCOMES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .skip(1)
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect();
    if seen != pinned {
        let changed: Vec<String> = seen
            .iter()
            .filter(|row| !pinned.contains(row))
            .map(|row| row.join(" "))
            .collect();
        panic!(
            "outcomes differ from the pinned ones in {} rows:\n{}\n\nthe whole table now:\n{}\n",
            changed.len(),
            changed.join("\n"),
            render(&seen)
        );
    }
}

const COLUMNS: [&str; 6] = ["file", "text", "value", "target", "receipt", "resigned"];

/// One row per file: its outcome under each splice (see the module comment).
const OUTCOMES: &str = r"
file                                                           text                                 value                                    target                               receipt                                          resigned
i_number_double_huge_neg_exp.json                              bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
i_number_huge_exp.json                                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_number_neg_int_huge_exp.json                                 parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_number_pos_double_huge_exp.json                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_number_real_neg_overflow.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_number_real_pos_overflow.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_number_real_underflow.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
i_number_too_big_neg_int.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
i_number_too_big_pos_int.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
i_number_very_big_negative_int.json                            bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
i_object_key_lone_2nd_surrogate.json                           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_1st_surrogate_but_2nd_missing.json                    parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_1st_valid_surrogate_2nd_invalid.json                  parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_UTF-16LE_with_BOM.json                                token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_UTF-8_invalid_sequence.json                           token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_UTF8_surrogate_U+D800.json                            token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_incomplete_surrogate_and_escape_valid.json            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_incomplete_surrogate_pair.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_incomplete_surrogates_escape_valid.json               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_invalid_lonely_surrogate.json                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_invalid_surrogate.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_invalid_utf-8.json                                    token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_inverted_surrogates_U+1D11E.json                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_iso_latin_1.json                                      token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_lone_second_surrogate.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
i_string_lone_utf8_continuation_byte.json                      token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_not_in_unicode_range.json                             token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_overlong_sequence_2_bytes.json                        token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_overlong_sequence_6_bytes.json                        token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_overlong_sequence_6_bytes_null.json                   token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_truncated-utf-8.json                                  token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_utf16BE_no_BOM.json                                   token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_string_utf16LE_no_BOM.json                                   token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
i_structure_500_nested_arrays.json                             approval_payload_json_depth_exceeded approval_json_depth_exceeded             approval_payload_json_depth_exceeded unreadable:invalid-json                          unreadable:invalid-json
i_structure_UTF-8_BOM_empty_object.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_1_true_without_comma.json                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_a_invalid_utf8.json                                    token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_array_colon_instead_of_comma.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_comma_after_close.json                                 parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_comma_and_number.json                                  parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_double_comma.json                                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_double_extra_comma.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_extra_close.json                                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_extra_comma.json                                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_incomplete.json                                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_incomplete_invalid_value.json                          parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_inner_array_no_comma.json                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_invalid_utf8.json                                      token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_array_items_separated_by_semicolon.json                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_just_comma.json                                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_just_minus.json                                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_missing_value.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_newlines_unclosed.json                                 parse_error                          parse_error+parse_error+parse_error      parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_number_and_comma.json                                  parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_number_and_several_commas.json                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_spaces_vertical_tab_formfeed.json                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_star_inside.json                                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_unclosed.json                                          parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_unclosed_trailing_comma.json                           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_unclosed_with_new_lines.json                           parse_error                          parse_error+parse_error+parse_error      parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_array_unclosed_with_object_inside.json                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_incomplete_false.json                                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_incomplete_null.json                                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_incomplete_true.json                                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_multidigit_number_then_00.json                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_++.json                                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_+1.json                                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_+Inf.json                                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_-01.json                                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_-1.0..json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_-2..json                                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_-NaN.json                                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_.-1.json                                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_.2e-3.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_0.1.2.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_0.3e+.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_0.3e.json                                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_0.e1.json                                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_0_capital_E+.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_0_capital_E.json                                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_0e+.json                                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_0e.json                                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_1.0e+.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_1.0e-.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_1.0e.json                                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_1_000.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_1eE2.json                                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_2.e+3.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_2.e-3.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_2.e3.json                                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_9.e+.json                                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_Inf.json                                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_NaN.json                                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_U+FF11_fullwidth_digit_one.json                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_expression.json                                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_hex_1_digit.json                                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_hex_2_digits.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_infinity.json                                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_invalid+-.json                                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_invalid-negative-real.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_invalid-utf-8-in-bigger-int.json                      token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_number_invalid-utf-8-in-exponent.json                        token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_number_invalid-utf-8-in-int.json                             token_file_not_utf8+parse_error      token_file_not_utf8+parse_error          token_file_not_utf8+parse_error      unreadable:not-utf8                              unreadable:not-utf8
n_number_minus_infinity.json                                   parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_minus_sign_with_trailing_garbage.json                 parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_minus_space_1.json                                    parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_neg_int_starting_with_zero.json                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_neg_real_without_int_part.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_neg_with_garbage_at_end.json                          parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_real_garbage_after_e.json                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_real_with_invalid_utf8_after_e.json                   token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_number_real_without_fractional_part.json                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_starting_with_dot.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_with_alpha.json                                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_with_alpha_char.json                                  parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_number_with_leading_zero.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_bad_value.json                                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_bracket_key.json                                      parse_error                          parse_error+parse_error                  parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_comma_instead_of_colon.json                           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_double_colon.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_emoji.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_garbage_at_end.json                                   parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_key_with_single_quotes.json                           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_lone_continuation_byte_in_key_and_trailing_comma.json token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_object_missing_colon.json                                    parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_missing_key.json                                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_missing_semicolon.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_missing_value.json                                    parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_no-colon.json                                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_non_string_key.json                                   parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_non_string_key_but_huge_number_instead.json           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_repeated_null_null.json                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_several_trailing_commas.json                          parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_single_quote.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_trailing_comma.json                                   parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_trailing_comment.json                                 parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_trailing_comment_open.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_trailing_comment_slash_open.json                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_trailing_comment_slash_open_incomplete.json           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_two_commas_in_a_row.json                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_unquoted_key.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_unterminated-value.json                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_with_single_string.json                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_object_with_trailing_garbage.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_single_space.json                                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_1_surrogate_then_escape.json                          parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_1_surrogate_then_escape_u.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_1_surrogate_then_escape_u1.json                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_1_surrogate_then_escape_u1x.json                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_accentuated_char_no_quotes.json                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_backslash_00.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_escape_x.json                                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_escaped_backslash_bad.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_escaped_ctrl_char_tab.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_escaped_emoji.json                                    parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_incomplete_escape.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_incomplete_escaped_character.json                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_incomplete_surrogate.json                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_incomplete_surrogate_escape_invalid.json              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_invalid-utf-8-in-escape.json                          token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_string_invalid_backslash_esc.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_invalid_unicode_escape.json                           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_invalid_utf8_after_escape.json                        token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_string_leading_uescaped_thinspace.json                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_no_quotes_with_bad_escape.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_single_doublequote.json                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_single_quote.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_single_string_no_double_quotes.json                   parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_start_escape_unclosed.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_unescaped_ctrl_char.json                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_unescaped_newline.json                                parse_error                          parse_error+parse_error                  parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_unescaped_tab.json                                    parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_unicode_CapitalU.json                                 parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_string_with_trailing_garbage.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_100000_opening_arrays.json                         approval_line_bytes_exceeded         approval_line_bytes_exceeded             approval_line_bytes_exceeded         unreadable:invalid-json                          unreadable:invalid-json
n_structure_U+2060_word_joined.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_UTF8_BOM_no_data.json                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_angle_bracket_..json                               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_angle_bracket_null.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_array_trailing_garbage.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_array_with_extra_array_close.json                  parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_array_with_unclosed_string.json                    parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_ascii-unicode-identifier.json                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_capitalized_True.json                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_close_unopened_array.json                          parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_comma_instead_of_closing_brace.json                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_double_array.json                                  parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_end_array.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_incomplete_UTF8_BOM.json                           token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_structure_lone-invalid-utf-8.json                            token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_structure_lone-open-bracket.json                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_no_data.json                                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_null-byte-outside-string.json                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_number_with_trailing_garbage.json                  parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_object_followed_by_closing_object.json             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_object_unclosed_no_value.json                      parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_object_with_comment.json                           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_object_with_trailing_garbage.json                  parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_array_apostrophe.json                         parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_array_comma.json                              parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_array_object.json                             approval_line_bytes_exceeded         approval_line_bytes_exceeded+parse_error approval_line_bytes_exceeded         unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_array_open_object.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_array_open_string.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_array_string.json                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_object.json                                   parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_object_close_array.json                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_object_comma.json                             parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_object_open_array.json                        parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_object_open_string.json                       parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_object_string_with_apostrophes.json           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_open_open.json                                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_single_eacute.json                                 token_file_not_utf8                  token_file_not_utf8                      token_file_not_utf8                  unreadable:not-utf8                              unreadable:not-utf8
n_structure_single_star.json                                   parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_trailing_#.json                                    parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_uescaped_LF_before_string.json                     parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_unclosed_array.json                                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_unclosed_array_partial_null.json                   parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_unclosed_array_unfinished_false.json               parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_unclosed_array_unfinished_true.json                parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_unclosed_object.json                               parse_error                          parse_error                              parse_error                          unreadable:truncated-json                        unreadable:truncated-json
n_structure_unicode-identifier.json                            parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_whitespace_U+2060_word_joiner.json                 parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
n_structure_whitespace_formfeed.json                           parse_error                          parse_error                              parse_error                          unreadable:invalid-json                          unreadable:invalid-json
y_array_arraysWithSpaces.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_empty-string.json                                      bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_empty.json                                             bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_ending_with_newline.json                               bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_false.json                                             bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_heterogeneous.json                                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_null.json                                              bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_with_1_and_newline.json                                bad_signature                        parse_error+parse_error                  approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_with_leading_space.json                                bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_with_several_null.json                                 bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_array_with_trailing_space.json                               bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number.json                                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_0e+1.json                                             bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_0e1.json                                              bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_after_space.json                                      bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_double_close_to_zero.json                             bad_signature                        parse_error+parse_error                  approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_int_with_exp.json                                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_minus_zero.json                                       bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_negative_int.json                                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_negative_one.json                                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_negative_zero.json                                    bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_real_capital_e.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_real_capital_e_neg_exp.json                           bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_real_capital_e_pos_exp.json                           bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_real_exponent.json                                    bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_real_fraction_exponent.json                           bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_real_neg_exp.json                                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_real_pos_exponent.json                                bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_simple_int.json                                       bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_number_simple_real.json                                      bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object.json                                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_basic.json                                            bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_duplicated_key.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      unreadable:duplicate-member                      unreadable:duplicate-member
y_object_duplicated_key_and_value.json                         bad_signature                        parse_error                              approval_v2_payload_parse_error      unreadable:duplicate-member                      unreadable:duplicate-member
y_object_empty.json                                            bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_empty_key.json                                        bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_escaped_null_in_key.json                              bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_extreme_numbers.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_long_strings.json                                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_simple.json                                           bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_string_unicode.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_object_with_newlines.json                                    bad_signature                        parse_error+parse_error+parse_error      approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_1_2_3_bytes_UTF-8_sequences.json                      bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_accepted_surrogate_pair.json                          bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_accepted_surrogate_pairs.json                         bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_allowed_escapes.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_backslash_and_u_escaped_zero.json                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_backslash_doublequotes.json                           bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_comments.json                                         bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_double_escape_a.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_double_escape_n.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_escaped_control_character.json                        bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_escaped_noncharacter.json                             bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_in_array.json                                         bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_in_array_with_leading_space.json                      bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_last_surrogates_1_and_2.json                          bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_nbsp_uescaped.json                                    bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_nonCharacterInUTF-8_U+10FFFF.json                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_nonCharacterInUTF-8_U+FFFF.json                       bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_null_escape.json                                      bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_one-byte-utf-8.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_pi.json                                               bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_reservedCharacterInUTF-8_U+1BFFF.json                 bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_simple_ascii.json                                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_space.json                                            bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF.json         bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_three-byte-utf-8.json                                 bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_two-byte-utf-8.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_u+2028_line_sep.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_u+2029_par_sep.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_uEscape.json                                          bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_uescaped_newline.json                                 bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unescaped_char_delete.json                            bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode.json                                          bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicodeEscapedBackslash.json                          bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode_2.json                                        bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode_U+10FFFE_nonchar.json                         bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode_U+1FFFE_nonchar.json                          bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode_U+200B_ZERO_WIDTH_SPACE.json                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode_U+2064_invisible_plus.json                    bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode_U+FDD0_nonchar.json                           bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode_U+FFFE_nonchar.json                           bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_unicode_escaped_double_quote.json                     bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_utf8.json                                             bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_string_with_del_character.json                               bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_lonely_false.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_lonely_int.json                                    bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_lonely_negative_real.json                          bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_lonely_null.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_lonely_string.json                                 bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_lonely_true.json                                   bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_string_empty.json                                  bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_trailing_newline.json                              bad_signature                        parse_error+parse_error                  approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_true_in_array.json                                 bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
y_structure_whitespace_array.json                              bad_signature                        parse_error                              approval_v2_payload_parse_error      failed:request-fields-mismatch,signature-invalid failed:request-fields-mismatch
";
