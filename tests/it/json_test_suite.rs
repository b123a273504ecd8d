//! JSONTestSuite `test_parsing/` (testdata/JSONTestSuite, MIT; see its PROVENANCE.md) through
//! the identity engine. Every file is spliced byte for byte into a fixed `tools/call` frame
//! twice: as `params.arguments`, and as the value of member `v` inside `arguments`, so that
//! non-object values reach the parser and the renderers too. Then:
//!
//! * every `n_` file is refused with a code under both splices;
//! * every `y_` file yields identities or is refused by a named Seal wire guard, lexical
//!   cap or shape rule (never `parse-error` / `invalid-utf8`), exactly as [`Y_OUTCOMES`]
//!   records;
//! * every `i_` file behaves exactly as [`I_OUTCOMES`] records;
//! * every call has 64-hex identities, committed = host (no context values) and the same
//!   verdict when analysed again; nothing panics.
//!
//! The corpus is checked against its aggregate digest first (docs/formats.md).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use sealkit::digest::is_sha256_hex;
use sealkit::request::{analyze, Options, Session, Verdict};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

const CORPUS_DIGEST: &str = "c80de9c62f456f949d4479bb686eab521f2362deea15ef9f808d8b45dfd724d3";

const AS_ARGUMENTS: (&[u8], &[u8]) = (
    br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"external.json_corpus","arguments":"#,
    b"}}\n",
);
const AS_MEMBER: (&[u8], &[u8]) = (
    br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"external.json_corpus","arguments":{"v":"#,
    b"}}}\n",
);

/// `y_` files: (file, outcome as `arguments`, outcome as member `v`). "call" means
/// identities were computed; anything else is the refusal code.
const Y_OUTCOMES: &[(&str, &str, &str)] = &[
    (
        "y_array_arraysWithSpaces.json",
        "arguments-not-object",
        "call",
    ),
    ("y_array_empty-string.json", "arguments-not-object", "call"),
    ("y_array_empty.json", "arguments-not-object", "call"),
    (
        "y_array_ending_with_newline.json",
        "arguments-not-object",
        "call",
    ),
    ("y_array_false.json", "arguments-not-object", "call"),
    ("y_array_heterogeneous.json", "arguments-not-object", "call"),
    ("y_array_null.json", "arguments-not-object", "call"),
    (
        "y_array_with_1_and_newline.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_array_with_leading_space.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_array_with_several_null.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_array_with_trailing_space.json",
        "arguments-not-object",
        "call",
    ),
    ("y_number.json", "arguments-not-object", "call"),
    ("y_number_0e+1.json", "arguments-not-object", "call"),
    ("y_number_0e1.json", "arguments-not-object", "call"),
    ("y_number_after_space.json", "arguments-not-object", "call"),
    (
        "y_number_double_close_to_zero.json",
        "too-many-digits",
        "too-many-digits",
    ),
    ("y_number_int_with_exp.json", "arguments-not-object", "call"),
    ("y_number_minus_zero.json", "arguments-not-object", "call"),
    ("y_number_negative_int.json", "arguments-not-object", "call"),
    ("y_number_negative_one.json", "arguments-not-object", "call"),
    (
        "y_number_negative_zero.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_number_real_capital_e.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_number_real_capital_e_neg_exp.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_number_real_capital_e_pos_exp.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_number_real_exponent.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_number_real_fraction_exponent.json",
        "arguments-not-object",
        "call",
    ),
    ("y_number_real_neg_exp.json", "arguments-not-object", "call"),
    (
        "y_number_real_pos_exponent.json",
        "arguments-not-object",
        "call",
    ),
    ("y_number_simple_int.json", "arguments-not-object", "call"),
    ("y_number_simple_real.json", "arguments-not-object", "call"),
    ("y_object.json", "call", "call"),
    ("y_object_basic.json", "call", "call"),
    (
        "y_object_duplicated_key.json",
        "duplicate-key",
        "duplicate-key",
    ),
    (
        "y_object_duplicated_key_and_value.json",
        "duplicate-key",
        "duplicate-key",
    ),
    ("y_object_empty.json", "call", "call"),
    ("y_object_empty_key.json", "call", "call"),
    (
        "y_object_escaped_null_in_key.json",
        "escaped-key",
        "escaped-key",
    ),
    ("y_object_extreme_numbers.json", "call", "call"),
    ("y_object_long_strings.json", "call", "call"),
    ("y_object_simple.json", "call", "call"),
    ("y_object_string_unicode.json", "call", "call"),
    ("y_object_with_newlines.json", "call", "call"),
    (
        "y_string_1_2_3_bytes_UTF-8_sequences.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_accepted_surrogate_pair.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_accepted_surrogate_pairs.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_allowed_escapes.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_backslash_and_u_escaped_zero.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_backslash_doublequotes.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_comments.json", "arguments-not-object", "call"),
    (
        "y_string_double_escape_a.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_double_escape_n.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_escaped_control_character.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_escaped_noncharacter.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_in_array.json", "arguments-not-object", "call"),
    (
        "y_string_in_array_with_leading_space.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_last_surrogates_1_and_2.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_nbsp_uescaped.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_nonCharacterInUTF-8_U+10FFFF.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_nonCharacterInUTF-8_U+FFFF.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_null_escape.json", "arguments-not-object", "call"),
    (
        "y_string_one-byte-utf-8.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_pi.json", "arguments-not-object", "call"),
    (
        "y_string_reservedCharacterInUTF-8_U+1BFFF.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_simple_ascii.json", "arguments-not-object", "call"),
    ("y_string_space.json", "arguments-not-object", "call"),
    (
        "y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_three-byte-utf-8.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_two-byte-utf-8.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_u+2028_line_sep.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_u+2029_par_sep.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_uEscape.json", "arguments-not-object", "call"),
    (
        "y_string_uescaped_newline.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_unescaped_char_delete.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_unicode.json", "arguments-not-object", "call"),
    (
        "y_string_unicodeEscapedBackslash.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_unicode_2.json", "arguments-not-object", "call"),
    (
        "y_string_unicode_U+10FFFE_nonchar.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_unicode_U+1FFFE_nonchar.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_unicode_U+200B_ZERO_WIDTH_SPACE.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_unicode_U+2064_invisible_plus.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_unicode_U+FDD0_nonchar.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_unicode_U+FFFE_nonchar.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_string_unicode_escaped_double_quote.json",
        "arguments-not-object",
        "call",
    ),
    ("y_string_utf8.json", "arguments-not-object", "call"),
    (
        "y_string_with_del_character.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_lonely_false.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_lonely_int.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_lonely_negative_real.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_lonely_null.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_lonely_string.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_lonely_true.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_string_empty.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_trailing_newline.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_true_in_array.json",
        "arguments-not-object",
        "call",
    ),
    (
        "y_structure_whitespace_array.json",
        "arguments-not-object",
        "call",
    ),
];

/// `i_` files (implementation-defined): the behaviour sealkit shows, pinned.
const I_OUTCOMES: &[(&str, &str, &str)] = &[
    (
        "i_number_double_huge_neg_exp.json",
        "number-not-binary64",
        "number-not-binary64",
    ),
    (
        "i_number_huge_exp.json",
        "exponent-too-long",
        "exponent-too-long",
    ),
    (
        "i_number_neg_int_huge_exp.json",
        "number-not-binary64",
        "number-not-binary64",
    ),
    (
        "i_number_pos_double_huge_exp.json",
        "number-not-binary64",
        "number-not-binary64",
    ),
    (
        "i_number_real_neg_overflow.json",
        "number-not-binary64",
        "number-not-binary64",
    ),
    (
        "i_number_real_pos_overflow.json",
        "number-not-binary64",
        "number-not-binary64",
    ),
    (
        "i_number_real_underflow.json",
        "exponent-too-long",
        "exponent-too-long",
    ),
    (
        "i_number_too_big_neg_int.json",
        "too-many-digits",
        "too-many-digits",
    ),
    (
        "i_number_too_big_pos_int.json",
        "too-many-digits",
        "too-many-digits",
    ),
    (
        "i_number_very_big_negative_int.json",
        "too-many-digits",
        "too-many-digits",
    ),
    (
        "i_object_key_lone_2nd_surrogate.json",
        "escaped-key",
        "escaped-key",
    ),
    (
        "i_string_1st_surrogate_but_2nd_missing.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    (
        "i_string_1st_valid_surrogate_2nd_invalid.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    (
        "i_string_UTF-16LE_with_BOM.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_UTF-8_invalid_sequence.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_UTF8_surrogate_U+D800.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_incomplete_surrogate_and_escape_valid.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    (
        "i_string_incomplete_surrogate_pair.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    (
        "i_string_incomplete_surrogates_escape_valid.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    (
        "i_string_invalid_lonely_surrogate.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    (
        "i_string_invalid_surrogate.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    (
        "i_string_invalid_utf-8.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_inverted_surrogates_U+1D11E.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    ("i_string_iso_latin_1.json", "invalid-utf8", "invalid-utf8"),
    (
        "i_string_lone_second_surrogate.json",
        "lone-surrogate",
        "lone-surrogate",
    ),
    (
        "i_string_lone_utf8_continuation_byte.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_not_in_unicode_range.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_overlong_sequence_2_bytes.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_overlong_sequence_6_bytes.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_overlong_sequence_6_bytes_null.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_truncated-utf-8.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_utf16BE_no_BOM.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_string_utf16LE_no_BOM.json",
        "invalid-utf8",
        "invalid-utf8",
    ),
    (
        "i_structure_500_nested_arrays.json",
        "nesting-too-deep",
        "nesting-too-deep",
    ),
    (
        "i_structure_UTF-8_BOM_empty_object.json",
        "parse-error",
        "parse-error",
    ),
];

/// How many `n_` files each refusal code takes (the same under both splices).
const N_CODES: &[(&str, usize)] = &[
    ("invalid-utf8", 12),
    ("lone-surrogate", 6),
    ("number-not-binary64", 2),
    ("parse-error", 141),
    ("unbalanced-bracket", 27),
];

/// `sha256-record-v1`: the domain, then every file (byte order of names) as
/// u64be(name length) ‖ name ‖ u64be(length) ‖ bytes.
fn aggregate_digest(files: &[(String, Vec<u8>)]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"JSONTestSuite/test_parsing\0sha256-record-v1\0");
    for (name, bytes) in files {
        hasher.update((name.len() as u64).to_be_bytes());
        hasher.update(name.as_bytes());
        hasher.update((bytes.len() as u64).to_be_bytes());
        hasher.update(bytes);
    }
    sealkit::digest::hex_lower(&hasher.finalize())
}

fn splice((prefix, suffix): (&[u8], &[u8]), file: &[u8]) -> Vec<u8> {
    [prefix, file, suffix].concat()
}

/// The verdict as a short string, after checking what every call must satisfy.
fn outcome(name: &str, frame: &[u8]) -> String {
    let verdict = analyze(frame, &Options::default(), &mut Session::default());
    let again = analyze(frame, &Options::default(), &mut Session::default());
    let text = match &verdict {
        Verdict::Call(call) => {
            for pair in [
                &call.identities().committed,
                &call.identities().host,
                &call.identities().legacy,
            ] {
                for id in [&pair.effect, &pair.target] {
                    assert!(is_sha256_hex(id) && id.len() == 64, "{name}: {id}");
                    assert!(!id.bytes().any(|b| b.is_ascii_uppercase()), "{name}: {id}");
                }
            }
            assert_eq!(
                call.identities().committed,
                call.identities().host,
                "{name}"
            );
            let Verdict::Call(second) = &again else {
                panic!("{name}: second analysis differs");
            };
            assert_eq!(second.identities(), call.identities(), "{name}");
            "call".to_owned()
        }
        Verdict::Refused(refusal) => {
            let Verdict::Refused(second) = &again else {
                panic!("{name}: second analysis differs");
            };
            assert_eq!(second.code, refusal.code, "{name}");
            refusal.code.as_str().to_owned()
        }
        Verdict::Skipped(skipped) => format!("skipped-{}", skipped.kind.as_str()),
    };
    text
}

fn stage_of(code: &str) -> &'static str {
    sealkit::refusal::RefusalCode::ALL
        .iter()
        .find(|c| c.as_str() == code)
        .map_or("unknown", |c| c.stage())
}

#[test]
fn corpus_is_the_pinned_upstream_copy() {
    let files = support::json_test_suite();
    assert_eq!(files.len(), 318);
    let count = |prefix: &str| files.iter().filter(|(n, _)| n.starts_with(prefix)).count();
    assert_eq!((count("y_"), count("n_"), count("i_")), (95, 188, 35));
    assert_eq!(aggregate_digest(&files), CORPUS_DIGEST);
}

#[test]
fn every_file_has_its_recorded_outcome() {
    let mut y_seen = Vec::new();
    let mut i_seen = Vec::new();
    let mut n_codes: BTreeMap<String, usize> = BTreeMap::new();
    for (name, bytes) in support::json_test_suite() {
        let as_arguments = outcome(&name, &splice(AS_ARGUMENTS, &bytes));
        let as_member = outcome(&name, &splice(AS_MEMBER, &bytes));
        match &name[..2] {
            "n_" => {
                for got in [&as_arguments, &as_member] {
                    assert!(
                        got != "call" && !got.starts_with("skipped"),
                        "{name}: an n_ file must be refused, got {got}"
                    );
                }
                assert_eq!(as_arguments, as_member, "{name}");
                *n_codes.entry(as_arguments).or_default() += 1;
            }
            "y_" => {
                for got in [&as_arguments, &as_member] {
                    assert!(
                        got == "call" || !matches!(stage_of(got), "parse" | "frame" | "unknown"),
                        "{name}: a y_ file must yield identities or meet a named guard, got {got}"
                    );
                }
                y_seen.push((name, as_arguments, as_member));
            }
            "i_" => i_seen.push((name, as_arguments, as_member)),
            _ => panic!("unclassified file {name}"),
        }
    }
    let expected = |table: &[(&str, &str, &str)]| -> Vec<(String, String, String)> {
        table
            .iter()
            .map(|(n, a, m)| (n.to_string(), a.to_string(), m.to_string()))
            .collect()
    };
    assert_eq!(y_seen, expected(Y_OUTCOMES));
    assert_eq!(i_seen, expected(I_OUTCOMES));
    let n_expected: BTreeMap<String, usize> =
        N_CODES.iter().map(|(c, n)| (c.to_string(), *n)).collect();
    assert_eq!(n_codes, n_expected);
}
