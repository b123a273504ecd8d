//! RFC 8785 canonicalization against its reference implementation's test data and 100,000
//! ECMAScript Number-to-String cases (`testdata/jcs/`, see its PROVENANCE.md), byte for byte.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sealkit::jcs::{canonicalize_bytes, ecmascript_number};
use std::path::{Path, PathBuf};

fn jcs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/jcs")
}

fn unhex(text: &str) -> Vec<u8> {
    let digits: String = text.split_whitespace().collect();
    (0..digits.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn every_reference_vector_canonicalizes_to_its_output_bytes() {
    let mut names: Vec<String> = std::fs::read_dir(jcs_dir().join("input"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "arrays.json",
            "french.json",
            "structures.json",
            "unicode.json",
            "values.json",
            "weird.json"
        ]
    );
    for name in &names {
        let input = std::fs::read(jcs_dir().join("input").join(name)).unwrap();
        let expected = std::fs::read(jcs_dir().join("output").join(name)).unwrap();
        let stem = name.trim_end_matches(".json");
        let hex =
            std::fs::read_to_string(jcs_dir().join("outhex").join(format!("{stem}.txt"))).unwrap();
        // The two expected forms agree, so the output files were not re-encoded on the way.
        assert_eq!(unhex(&hex), expected, "{name}: output/ and outhex/ differ");
        let got = canonicalize_bytes(&input).unwrap();
        assert_eq!(got.as_bytes(), expected.as_slice(), "{name}");
    }
}

/// Seen red with the plain-integer bound written `n < 21` (the numbers from 1e20 to 1e21),
/// and without the ties-to-even re-rounding (48 lines one unit off in the last digit, such
/// as 2^-25 = 2.98023223876953125e-8, which ECMAScript writes `2.9802322387695312e-8`).
#[test]
fn the_100000_ecmascript_number_cases_reproduce() {
    let text = std::fs::read_to_string(jcs_dir().join("es6-numbers.txt")).unwrap();
    let mut count = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let (bits, expected) = line.split_once(',').unwrap();
        let value = f64::from_bits(u64::from_str_radix(bits, 16).unwrap());
        let got = ecmascript_number(value);
        if got != expected {
            failures.push(format!("{bits}: got {got}, expected {expected}"));
        }
        // Through the canonicalizer too: the expected text read back as a JSON number
        // canonicalizes to itself (it is the shortest form of its own value).
        let again = canonicalize_bytes(expected.as_bytes()).unwrap();
        if again != expected {
            failures.push(format!("{expected} re-canonicalized to {again}"));
        }
        count += 1;
    }
    assert_eq!(count, 100_000);
    assert!(
        failures.is_empty(),
        "{} failures, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
}
