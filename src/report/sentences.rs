//! What happened, in sentences: the report's findings said the way a responder would say
//! them ("1 receipt was altered after signing, or forged: it claims ALLOW of db.execute at
//! 09:40:05 UTC, …"), each naming how many, one example, and where the page shows them.
//! Guarantees: built only from the finished model (its counts cover every receipt; its
//! examples are rows the report keeps whole, or findings not about one receipt); a receipt
//! that does not authenticate is grouped by its first finding and what it says about itself
//! is worded as a claim ("it claims ALLOW of …"), never as a verdict; every error and warning
//! code of the report is in exactly one sentence (info codes are left to the code list), most
//! serious first, then the earliest; at most [`MAX_SENTENCES`] sentences, each with values
//! from the evidence shortened to [`VALUE_CHARS`] characters, so the sentences are bounded
//! whatever the evidence; the sentences hold exact (unescaped) text: the page escapes them
//! with its one escaping function, like every other input string.

use super::model::{Model, Row, Sentence};
use crate::finding::{Code, Finding, Severity};
use crate::outcome::plural;
use std::collections::BTreeMap;

/// Sentences at most (a last one counts the kinds of finding left out).
pub const MAX_SENTENCES: usize = 12;
/// A value from the evidence is shortened to this many characters in a sentence.
pub const VALUE_CHARS: usize = 48;

/// The sentences of a finished model.
pub fn of(model: &Model) -> Vec<Sentence> {
    let clock = Clock::of(model);
    let mut out = Vec::new();
    // Receipts that do not authenticate, grouped by their first finding: all of them are
    // rows (the report keeps every one whole), so the counts are exact.
    let mut groups: BTreeMap<Code, Vec<&Row>> = BTreeMap::new();
    let mut covered: BTreeMap<Code, u64> = BTreeMap::new();
    for row in model.rows.iter().filter(|r| r.class == "unauthenticated") {
        let Some(lead) = row.findings.first() else {
            continue;
        };
        groups.entry(lead.code).or_default().push(row);
        for finding in &row.findings {
            *covered.entry(finding.code).or_default() += 1;
        }
    }
    for (lead, rows) in &groups {
        out.push(unauthenticated(*lead, rows, &clock));
    }
    // Every other error and warning code, with what the groups above did not already say.
    for (&code, &total) in &model.summary.findings_by_code {
        let rest = total.saturating_sub(covered.get(&code).copied().unwrap_or(0));
        if rest == 0 || code.severity() == Severity::Info {
            continue;
        }
        out.push(other(code, rest, model, &clock));
    }
    // What could not be checked comes first (it is why the verdict is "Could not check"),
    // then a pin from inside the evidence: it qualifies every "authenticated" below.
    out.sort_by_key(|s| {
        (
            !s.codes.first().is_some_and(|c| c.could_not_check()),
            !matches!(
                s.codes.first(),
                Some(Code::ReceiptKeyInEvidence | Code::ApprovalKeyInEvidence)
            ),
            std::cmp::Reverse(s.severity),
            s.time.is_none(),
            s.time,
            s.codes.first().copied(),
        )
    });
    if model.verdict.outcome == "good" {
        out.insert(0, clean(model));
    }
    if out.len() > MAX_SENTENCES {
        let left: Vec<Sentence> = out.split_off(MAX_SENTENCES - 1);
        let kinds = left.len() as u64;
        out.push(Sentence {
            severity: left.iter().filter_map(|s| s.severity).max(),
            codes: left.iter().flat_map(|s| s.codes.iter().copied()).collect(),
            count: kinds,
            link: "#codes".into(),
            time: None,
            text: format!(
                "{kinds} more kind{} of finding, in the list of codes below.",
                plural(kinds)
            ),
        });
    }
    out
}

/// How a moment is said: the time alone when the whole report lies in one UTC day (the
/// page states the day once), else the date too.
struct Clock {
    one_day: bool,
}

impl Clock {
    fn of(model: &Model) -> Clock {
        let day = |t: u64| t / 86_400_000;
        Clock {
            one_day: model
                .timeline
                .as_ref()
                .is_some_and(|t| day(t.start) == day(t.end)),
        }
    }

    fn at(&self, ms: u64) -> String {
        let (date, time) = super::time_axis::date_time(ms);
        if self.one_day {
            format!("{time} UTC")
        } else {
            format!("{date} {time} UTC")
        }
    }
}

/// A value from the evidence, shortened for a sentence.
fn value(text: &str) -> String {
    if text.chars().count() <= VALUE_CHARS {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(VALUE_CHARS - 1).collect();
    out.push('…');
    out
}

/// The last part of a path, shortened.
fn file_name(path: &str) -> String {
    value(path.rsplit(['/', '\\']).next().unwrap_or(path))
}

/// `n` things, as "1 receipt" / "2 receipts".
fn count(n: u64, noun: &str) -> String {
    format!("{n} {noun}{}", plural(n))
}

/// Receipts that do not authenticate, first finding `lead`: what they are, and what the
/// earliest claims (a claim, never a verdict).
fn unauthenticated(lead: Code, rows: &[&Row], clock: &Clock) -> Sentence {
    let n = rows.len() as u64;
    let were = if n == 1 { "was" } else { "were" };
    let what = match lead {
        Code::SignatureInvalid => format!(
            "{} {were} altered after signing, or forged: the signature does not verify under the pinned key",
            count(n, "receipt")
        ),
        Code::SignerMismatch => format!(
            "{} {were} signed by a key other than the pinned receipt key",
            count(n, "receipt")
        ),
        Code::SignerUnpinned => format!(
            "no receipt key was pinned (--receipt-key), so {} cannot be authenticated",
            count(n, "receipt")
        ),
        Code::UnsignedReceipt => format!(
            "{} carr{} no signature (record_version 2) and cannot be authenticated",
            count(n, "receipt"),
            if n == 1 { "ies" } else { "y" }
        ),
        Code::MisnamedReceipt => format!(
            "{} {were} renamed: the file name is not the receipt's own request hash",
            count(n, "receipt file")
        ),
        Code::ApproverNotTrusted => format!(
            "{} {were} approved under a key the trusted-approvers list does not name",
            count(n, "release")
        ),
        Code::ApproverKeyOutsideWindow => format!(
            "{} {were} approved outside every window the trusted-approvers list gives the key",
            count(n, "release")
        ),
        Code::UnreadableFile
        | Code::NotUtf8
        | Code::TruncatedJson
        | Code::InvalidJson
        | Code::MalformedReceipt
        | Code::DuplicateMember => format!(
            "{} could not be read as {} ({}: {})",
            count(n, "receipt file"),
            if n == 1 { "a receipt" } else { "receipts" },
            lead.as_str(),
            lead.meaning()
        ),
        _ => format!(
            "{} fail{} {}: {}",
            count(n, "receipt"),
            if n == 1 { "s" } else { "" },
            lead.as_str(),
            lead.meaning()
        ),
    };
    // The earliest, as the calls list them: what it says it decided is a claim.
    let first = rows.iter().min_by_key(|r| r.time_order()).copied();
    let who = if n == 1 { "it" } else { "the first" };
    let example = first.map(|row| match (&row.claimed_verdict, &row.tool, row.time) {
        (Some(verdict), Some(tool), Some(time)) => format!(
            "{who} claims {} of {} at {}",
            value(verdict),
            value(tool),
            clock.at(time)
        ),
        (Some(verdict), Some(tool), None) => {
            format!("{who} claims {} of {}", value(verdict), value(tool))
        }
        _ => format!("{who} is {}", file_name(&row.file)),
    });
    let mut codes: Vec<Code> = rows
        .iter()
        .flat_map(|r| r.findings.iter().map(|f| f.code))
        .collect();
    codes.sort_unstable();
    codes.dedup();
    codes.sort_by_key(|&c| (c != lead, std::cmp::Reverse(c.severity()), c));
    Sentence {
        severity: rows
            .iter()
            .flat_map(|r| r.findings.iter().map(|f| f.severity))
            .max(),
        codes,
        count: n,
        link: format!("#finding={}", lead.as_str()),
        time: first.and_then(|r| r.time),
        text: match example {
            Some(example) => format!("{}; {example}.", capitalised(&what)),
            None => format!("{}.", capitalised(&what)),
        },
    }
}

/// An error or warning code not said by the groups of receipts that do not authenticate:
/// `n` findings of it, with an example from a row (authenticated: its verdict is one) or
/// from the evidence not about one receipt.
fn other(code: Code, n: u64, model: &Model, clock: &Clock) -> Sentence {
    // The earliest authenticated row carrying it (rows are in decision-time order).
    let row = model
        .rows
        .iter()
        .find(|r| r.class != "unauthenticated" && r.findings.iter().any(|f| f.code == code));
    let finding: Option<&Finding> = model.findings.first_of(code);
    let at_row = |row: &Row| {
        let tool = row.tool.as_deref().map(value).unwrap_or_default();
        let decided = match row.class {
            "released" => "released".to_owned(),
            _ => row.verdict.as_deref().map(value).unwrap_or_default(),
        };
        match row.time {
            Some(time) => format!("{tool}, {decided} at {}", clock.at(time)),
            None => format!("{tool}, {decided}"),
        }
    };
    let is = |n: u64| if n == 1 { "is" } else { "are" };
    let has = |n: u64| if n == 1 { "has" } else { "have" };
    let text = match code {
        Code::ReleasedWithoutToken => format!(
            "{} {} no matching approval token: no token given is the approval statement {} receipt signs",
            count(n, "released call"),
            has(n),
            if n == 1 { "its" } else { "each" }
        ),
        Code::TokenNotFresh => format!(
            "{} used an approval that was expired or not yet valid when it ran",
            count(n, "released call")
        ),
        Code::ReceiptNotInChain => format!(
            "{} {} not in the audit log given",
            count(n, "receipt"),
            is(n)
        ),
        Code::AnnotationEvidenceFailed => format!(
            "{} of a captured trust annotation fail{} {} check",
            count(n, "evidence reference"),
            if n == 1 { "s" } else { "" },
            if n == 1 { "its" } else { "their" }
        ),
        Code::AnnotationEvidenceNotChecked => format!(
            "{} of a captured trust annotation could not be checked, so the report cannot say the evidence holds",
            count(n, "evidence reference")
        ),
        Code::ChainStateMismatch => {
            "The receipts do not add up to the directory's recorded chain head: a receipt was deleted, added or reordered".to_owned()
        }
        Code::OperationReceiptMissing => format!(
            "The receipt of {} is missing: the operation state records {}, the directory has no receipt",
            count(n, "released call"),
            if n == 1 { "it" } else { "them" }
        ),
        Code::OperationStateMismatch => format!(
            "{} {} not what the operation state records",
            count(n, "released call"),
            is(n)
        ),
        Code::ChainBroken => chain_broken(n, model),
        Code::ChainEntryWithoutReceipt => chain_entry_without_receipt(n, model),
        Code::TokenRejected => format!(
            "{} {} rejected under every trusted approval key",
            count(n, "approval token"),
            is(n)
        ),
        Code::ModeNotPrivate => format!(
            "{} readable by others (seal-host writes receipt directories 0700 and files 0600)",
            if n == 1 {
                "1 receipt file or directory is".to_owned()
            } else {
                format!("{n} receipt files and directories are")
            }
        ),
        Code::SigningKeyExposed => {
            "The receipt-signing key lies beside the receipts: whoever can read them can sign receipts".to_owned()
        }
        Code::NoReceipts => {
            "No receipt was found in the given directories: nothing was checked".to_owned()
        }
        Code::ReceiptKeyInEvidence => format!(
            "The pinned receipt key was read from inside the evidence: whoever could rewrite the receipts could rewrite it, so \"authenticated\" shows only that the evidence agrees with itself; pin a key kept apart from it{}",
            match finding.and_then(|f| f.path.as_ref()) {
                Some(path) => format!(" ({})", file_name(&path.display().to_string())),
                None => String::new(),
            }
        ),
        Code::ApprovalKeyInEvidence => format!(
            "The approval key or trusted-approvers list was read from inside the evidence: whoever could rewrite the tokens or receipts could rewrite it, so \"accepted\" and the approvers named show only that the evidence agrees with itself; give the key seal-host is configured with, kept apart from it{}",
            match finding.and_then(|f| f.path.as_ref()) {
                Some(path) => format!(" ({})", file_name(&path.display().to_string())),
                None => String::new(),
            }
        ),
        Code::CounterConflict => format!(
            "{} a host session's file counter that a receipt in another directory also carries, with other content: a session writes each counter once, so at most one of each pair is what the host wrote",
            if n == 1 {
                "1 receipt carries".to_owned()
            } else {
                format!("{n} receipts carry")
            }
        ),
        Code::DuplicateReceipt => format!(
            "{} the exact bytes of a receipt found at another path (a copy, a hard link, or one file given twice): each receipt is checked and counted once, under its first path",
            if n == 1 {
                "1 receipt file has".to_owned()
            } else {
                format!("{n} receipt files have")
            }
        ),
        Code::DirectoryRepeated => format!(
            "{} reached again by another path (given twice, through a link, inside another root, or a mount): each is walked once, its receipts counted once",
            if n == 1 {
                "1 directory was".to_owned()
            } else {
                format!("{n} directories were")
            }
        ),
        _ => format!(
            "{} {}: {}",
            count(n, "finding"),
            code.as_str(),
            code.meaning()
        ),
    };
    let example = match (code, row, finding) {
        // These say their example themselves, or are about many files alike, or about the
        // directory as a whole.
        (
            Code::ChainBroken
            | Code::ChainEntryWithoutReceipt
            | Code::ModeNotPrivate
            | Code::ChainStateMismatch
            | Code::ReceiptKeyInEvidence
            | Code::ApprovalKeyInEvidence,
            ..,
        ) => None,
        (_, Some(row), _) => Some(at_row(row)),
        // A token line: its file, line and reason.
        (Code::TokenRejected, None, Some(f)) => Some(match &f.path {
            Some(path) => format!(
                "{} {}",
                file_name(&path.display().to_string()),
                value(&f.message)
            ),
            None => value(&f.message),
        }),
        (_, None, Some(f)) => (f.path.as_ref()).map(|p| file_name(&p.display().to_string())),
        _ => None,
    };
    let link = match row {
        Some(_) => format!("#finding={}", code.as_str()),
        None => format!("#other-{}", code.as_str()),
    };
    Sentence {
        severity: Some(code.severity()),
        codes: vec![code],
        count: n,
        link,
        time: row.and_then(|r| r.time),
        text: match example {
            Some(example) => format!("{} ({example}).", capitalised(&text)),
            None => format!("{}.", capitalised(&text)),
        },
    }
}

fn chain_broken(n: u64, model: &Model) -> String {
    match model.chains.iter().find(|c| !c.intact) {
        Some(chain) => {
            let at = match (chain.genesis_ok, chain.first_bad_entry) {
                (false, _) => "at its genesis".to_owned(),
                (true, Some(entry)) => format!("at entry {entry}"),
                (true, None) => "somewhere".to_owned(),
            };
            let more = if n > 1 {
                format!(" ({} in all)", count(n, "break"))
            } else {
                String::new()
            };
            format!(
                "The audit log {} breaks {at}{more}: its recorded head does not recompute",
                file_name(&chain.file)
            )
        }
        None => format!("{}: the audit log breaks", count(n, "finding")),
    }
}

fn chain_entry_without_receipt(n: u64, model: &Model) -> String {
    let first =
        (model.chains.iter()).find_map(|c| (c.entries.iter()).find(|e| !e.joined).map(|e| (c, e)));
    let has = if n == 1 { "has" } else { "have" };
    match first {
        Some((chain, entry)) => {
            // What the log says of the call: the log's own words, not a verdict.
            let says = match (&entry.tool, &entry.verdict) {
                (Some(tool), Some(verdict)) => format!(
                    ", where the log records {} with verdict {}",
                    value(tool),
                    value(verdict)
                ),
                (Some(tool), None) => format!(", where the log records {}", value(tool)),
                _ => String::new(),
            };
            format!(
                "{} of the audit log {has} no receipt: a receipt may have been deleted (the first is entry {} of {}{says})",
                entries(n),
                entry.index,
                file_name(&chain.file)
            )
        }
        None => format!("{} of the audit log {has} no receipt", entries(n)),
    }
}

/// The sentence of a report without an error or warning.
fn clean(model: &Model) -> Sentence {
    let s = &model.summary;
    let verdict = |name: &str| s.verdicts.get(name).copied().unwrap_or(0);
    let receipts = s.receipts;
    Sentence {
        severity: None,
        codes: Vec::new(),
        count: receipts,
        link: "#calls".into(),
        time: None,
        text: format!(
            "{} authenticated under the pinned key: {} ALLOW ({} of them released by an approval), {} BLOCK.",
            if receipts == 1 {
                "The 1 receipt is".to_owned()
            } else {
                format!("All {receipts} receipts are")
            },
            verdict("allow") + verdict("released"),
            verdict("released"),
            verdict("block")
        ),
    }
}

fn entries(n: u64) -> String {
    format!("{n} {}", if n == 1 { "entry" } else { "entries" })
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::report::model::tests_support::{empty_model, row};
    use crate::report::time_axis::Axis;

    const AT: u64 = 1_787_218_805_500; // 2026-08-20 09:40:05.500 UTC

    fn finding(code: Code) -> Finding {
        Finding::new(code, None, "seen")
    }

    fn timeline(model: &mut Model, start: u64, end: u64) {
        let axis = Axis::new(|| [start, end].into_iter()).unwrap();
        model.timeline = Some(crate::report::counts::Timeline {
            start,
            end,
            axis,
            lanes: Vec::new(),
        });
    }

    fn count(model: &mut Model, code: Code, n: u64) {
        *model.summary.findings_by_code.entry(code).or_default() += n;
    }

    /// Seen red with the claim worded as the receipt's verdict ("ALLOW of …" without
    /// "claims") and with the rows grouped by their last finding.
    #[test]
    fn receipts_that_do_not_authenticate_are_grouped_and_their_decision_is_a_claim() {
        let mut model = empty_model();
        timeline(&mut model, AT - 60_000, AT + 60_000);
        for (i, tool) in ["db.execute", "docs.read"].into_iter().enumerate() {
            let findings = vec![finding(Code::SignerMismatch), finding(Code::AuditMismatch)];
            model.rows.push(row(
                &format!("receipts/r{i}.json"),
                "unauthenticated",
                tool,
                AT + i as u64 * 1000,
                "ALLOW",
                findings,
            ));
            count(&mut model, Code::SignerMismatch, 1);
            count(&mut model, Code::AuditMismatch, 1);
        }
        // One more audit-mismatch elsewhere (not about a receipt that is a row here).
        count(&mut model, Code::AuditMismatch, 1);
        let sentences = of(&model);
        assert_eq!(sentences.len(), 2, "{sentences:#?}");
        assert_eq!(
            sentences[0].text,
            "2 receipts were signed by a key other than the pinned receipt key; the first claims ALLOW of db.execute at 09:40:05 UTC."
        );
        assert_eq!(
            sentences[0].codes,
            [Code::SignerMismatch, Code::AuditMismatch]
        );
        assert_eq!(sentences[0].link, "#finding=signer-mismatch");
        assert_eq!(sentences[0].count, 2);
        assert_eq!(sentences[0].time, Some(AT));
        // What the groups did not say is said once, with its own count.
        assert_eq!(sentences[1].codes, [Code::AuditMismatch]);
        assert_eq!(sentences[1].count, 1);
        assert!(sentences[1].text.starts_with("1 finding audit-mismatch: "));
    }

    #[test]
    fn values_from_the_evidence_are_shortened_and_the_date_is_said_across_days() {
        let mut model = empty_model();
        timeline(&mut model, AT - 2 * 86_400_000, AT);
        let tool = "t".repeat(200);
        model.rows.push(row(
            "r.json",
            "unauthenticated",
            &tool,
            AT,
            "BLOCK",
            vec![finding(Code::SignatureInvalid)],
        ));
        count(&mut model, Code::SignatureInvalid, 1);
        let sentences = of(&model);
        let expected = format!("{}…", "t".repeat(VALUE_CHARS - 1));
        assert!(
            sentences[0].text.ends_with(&format!(
                "it claims BLOCK of {expected} at 2026-08-20 09:40:05 UTC."
            )),
            "{}",
            sentences[0].text
        );
    }

    #[test]
    fn the_sentences_are_bounded_and_info_is_left_to_the_codes() {
        let mut model = empty_model();
        let warnings: Vec<Code> = (Code::ALL.iter().copied())
            .filter(|c| c.severity() == Severity::Warning)
            .collect();
        assert!(warnings.len() > MAX_SENTENCES);
        for &code in &warnings {
            count(&mut model, code, 2);
        }
        count(&mut model, Code::CounterReused, 3);
        let sentences = of(&model);
        assert_eq!(sentences.len(), MAX_SENTENCES);
        let left = (warnings.len() - (MAX_SENTENCES - 1)) as u64;
        assert_eq!(
            sentences.last().unwrap().text,
            format!("{left} more kinds of finding, in the list of codes below.")
        );
        assert!(sentences
            .iter()
            .all(|s| !s.codes.contains(&Code::CounterReused)));
        // Every warning is in exactly one sentence.
        let said: Vec<Code> = sentences.iter().flat_map(|s| s.codes.clone()).collect();
        assert_eq!(said.len(), warnings.len());
    }

    /// The findings of copies, repeated directories, counter conflicts and a pin read from
    /// the evidence are said in words; what could not be checked comes first (it is why the
    /// verdict is "Could not check"), then the pin's sentence, before errors about receipts:
    /// it qualifies every "authenticated" the page says. Seen red on 642f4e5 merged into
    /// c855b0c: each was "1 finding CODE: meaning", and the warning that could not be
    /// checked and the pin's error came after the altered receipt.
    #[test]
    fn copies_conflicts_and_a_pin_from_the_evidence_are_said_and_the_pin_first() {
        let mut model = empty_model();
        timeline(&mut model, AT - 60_000, AT + 60_000);
        model.rows.push(row(
            "receipts/r.json",
            "unauthenticated",
            "db.execute",
            AT,
            "ALLOW",
            vec![finding(Code::SignatureInvalid)],
        ));
        count(&mut model, Code::SignatureInvalid, 1);
        let lone = [
            (Code::CounterConflict, "d2/receipt-0.json", 1),
            (Code::DuplicateReceipt, "copy/receipt-3.json", 2),
            (Code::DirectoryRepeated, "alink", 1),
            (Code::ReceiptKeyInEvidence, "receipts/key.pub", 1),
            (Code::AnnotationEvidenceNotChecked, "calls.capture", 1),
        ];
        for (code, path, n) in lone {
            for _ in 0..n {
                (model.findings)
                    .push(&Finding::new(
                        code,
                        Some(std::path::PathBuf::from(path)),
                        "seen",
                    ))
                    .unwrap();
            }
            count(&mut model, code, n);
        }
        let sentences = of(&model);
        let texts: Vec<&str> = sentences.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "1 evidence reference of a captured trust annotation could not be checked, so the report cannot say the evidence holds (calls.capture).",
                "The pinned receipt key was read from inside the evidence: whoever could rewrite the receipts could rewrite it, so \"authenticated\" shows only that the evidence agrees with itself; pin a key kept apart from it (key.pub).",
                "1 receipt was altered after signing, or forged: the signature does not verify under the pinned key; it claims ALLOW of db.execute at 09:40:05 UTC.",
                "1 receipt carries a host session's file counter that a receipt in another directory also carries, with other content: a session writes each counter once, so at most one of each pair is what the host wrote (receipt-0.json).",
                "2 receipt files have the exact bytes of a receipt found at another path (a copy, a hard link, or one file given twice): each receipt is checked and counted once, under its first path (receipt-3.json).",
                "1 directory was reached again by another path (given twice, through a link, inside another root, or a mount): each is walked once, its receipts counted once (alink).",
            ]
        );
        assert_eq!(sentences[1].link, "#other-receipt-key-in-evidence");
        assert_eq!(sentences[4].count, 2);
    }

    #[test]
    fn a_clean_report_says_so_first() {
        let mut model = empty_model();
        model.verdict.outcome = "good";
        model.summary.receipts = 4;
        model.summary.verdicts.insert("allow", 1);
        model.summary.verdicts.insert("released", 1);
        model.summary.verdicts.insert("block", 2);
        count(&mut model, Code::ModeNotPrivate, 3);
        let sentences = of(&model);
        assert_eq!(
            sentences[0].text,
            "All 4 receipts are authenticated under the pinned key: 2 ALLOW (1 of them released by an approval), 2 BLOCK."
        );
        assert_eq!(sentences[0].severity, None);
        assert_eq!(
            sentences[1].text,
            "3 receipt files and directories are readable by others (seal-host writes receipt directories 0700 and files 0600)."
        );
        assert_eq!(sentences[1].link, "#other-mode-not-private");
    }
}
