//! The audit mapped apart from its walk and reduced from its facts (issue 39, item 5: what
//! `sealkit.audit_partition` / `sealkit.audit_reduce` and the Dask audit run) gives what the
//! command's audit gives, finding for finding (code, path and message) and summary for
//! summary, on the audit fixtures and on an archive whose problems straddle partitions, for
//! several partition counts: each partition mapped by `Entry::from_path` (no walk metadata),
//! its facts sent through the byte encoding, and reduced in order.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::cli_audit::{full_new_dir, write_private, L1_ALLOW};
use crate::support::{self, NEW_RECEIPTS as NEW};
use sealkit::audit::{self, facts_codec, map, reduce, Event, Options, Plan, Quiet};
use sealkit::receipt::pin;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Findings as `(code, path, message, severity)`, sorted, and the summary as JSON. The
/// severity is compared too: it decides the exit status (seen red under cargo-mutants'
/// `==` → `!=` in `facts_codec::finding_of`'s severity lookup, which turned a decoded
/// error into info).
type Outcome = (Vec<(String, String, String, String)>, serde_json::Value);

fn options(key: Option<&Path>) -> Options {
    Options {
        pin: key.map(|k| pin::load(&k.display().to_string()).unwrap()),
        approvers: None,
        approval_key_files: Vec::new(),
        token_files: Vec::new(),
        jobs: 2,
    }
}

fn keep(findings: &mut Vec<(String, String, String, String)>, finding: &sealkit::finding::Finding) {
    findings.push((
        finding.code.as_str().to_owned(),
        finding
            .path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        finding.message.clone(),
        finding.severity.as_str().to_owned(),
    ));
}

/// The command's audit: every finding, its receipts' included.
fn audited(roots: &[PathBuf], options: &Options) -> Outcome {
    let mut findings = Vec::new();
    let summary = audit::audit(roots, options, &Quiet, &mut |event| {
        match event {
            Event::Receipt(entry) => entry
                .file_findings
                .iter()
                .for_each(|f| keep(&mut findings, f)),
            Event::Finding(finding) => keep(&mut findings, finding),
        }
        Ok(())
    })
    .unwrap();
    findings.sort();
    (findings, serde_json::to_value(&summary).unwrap())
}

/// The same audit mapped in `partitions` contiguous partitions, each from its paths alone,
/// its facts encoded and decoded, then reduced in order.
fn mapped_and_reduced(roots: &[PathBuf], options: &Options, partitions: usize) -> Outcome {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let plan = Plan::walk(roots, options, &pool).unwrap();
    let paths: Vec<PathBuf> = (0..plan.len()).map(|p| plan.path(p)).collect();
    let size = paths.len().div_ceil(partitions).max(1);
    let encoded: Vec<Vec<u8>> = paths
        .chunks(size)
        .map(|partition| {
            let entries: Vec<map::Entry> = partition
                .iter()
                .map(|path| map::Entry::from_path(path.clone(), None))
                .collect();
            facts_codec::encode(&audit::map_entries(&entries, options, &pool))
        })
        .collect();
    let facts = (encoded.iter()).flat_map(|bytes| facts_codec::decode(bytes).unwrap());
    reduced(&plan, facts)
}

/// `facts` reduced in order over `plan`: the findings, sorted, and the summary.
fn reduced(plan: &Plan, facts: impl IntoIterator<Item = map::FileFacts>) -> Outcome {
    let mut findings = Vec::new();
    let mut sink = |event: Event<'_>| {
        if let Event::Finding(finding) = event {
            keep(&mut findings, finding);
        }
        Ok(())
    };
    let mut reduce = reduce::Reduce::begin(plan, &mut sink).unwrap();
    for facts in facts {
        reduce.add(plan, facts, None, &mut sink).unwrap();
    }
    // What the Python reducer's `added()` reports (seen red under `Reduce::added` → 0 and → 1).
    assert_eq!(reduce.added(), plan.len());
    let summary = reduce.finish(plan, &mut sink).unwrap();
    findings.sort();
    (findings, serde_json::to_value(&summary).unwrap())
}

fn assert_same(roots: &[PathBuf], key: Option<&Path>) -> Outcome {
    let options = options(key);
    let expected = audited(roots, &options);
    for partitions in [1, 2, 3, 7] {
        let got = mapped_and_reduced(roots, &options, partitions);
        assert_eq!(got.0, expected.0, "{partitions} partitions, {roots:?}");
        assert_eq!(got.1, expected.1, "{partitions} partitions, {roots:?}");
    }
    expected
}

fn root(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)
}

#[test]
fn the_fixtures_reduce_to_the_commands_findings() {
    let new = root(NEW);
    let key = support::receipt_key_file(NEW);
    let (findings, _) = assert_same(std::slice::from_ref(&new), Some(&key));
    assert!(findings.iter().any(|f| f.0 == "signing-key-exposed"));
    assert_same(std::slice::from_ref(&new), None);
    let fixture = root("testdata/receipts/fixture-dir");
    assert_same(
        std::slice::from_ref(&fixture),
        Some(&support::receipt_key_file("testdata/receipts/fixture-dir")),
    );
    assert_same(&[root("testdata/receipts/hostile")], None);
    assert_same(&[root("testdata/receipts/legacy-vs-current/old")], None);
    // Several roots, one reached twice, and a file given beside its directory.
    assert_same(
        &[new.clone(), fixture, new.join(".."), new.join(L1_ALLOW)],
        Some(&key),
    );
}

/// An archive with its problems across partition boundaries: a copied directory (each
/// receipt twice, in different partitions), a deleted receipt (its released operation left in
/// the state file), an altered receipt, a counter gap, a re-spaced copy, a file seal-host does
/// not write, and an empty result (no receipts). Equal for every partition count; and each
/// problem is found.
#[test]
fn an_archive_with_problems_across_partitions_reduces_to_the_commands_findings() {
    let archive = tempfile::tempdir().unwrap();
    let host = archive.path().join("host-a");
    let full = full_new_dir();
    std::fs::rename(full.path(), &host).unwrap();
    let copy = archive.path().join("host-b");
    std::fs::create_dir(&copy).unwrap();
    for entry in std::fs::read_dir(&host).unwrap() {
        let entry = entry.unwrap();
        write_private(
            &copy.join(entry.file_name()),
            &std::fs::read(entry.path()).unwrap(),
        );
    }
    let receipts = crate::support::receipt_files_in(&host);
    // A released ALLOW deleted from the copy; another receipt altered in the original.
    std::fs::remove_file(copy.join(L1_ALLOW)).unwrap();
    let altered = std::fs::read_to_string(&receipts[3]).unwrap();
    write_private(
        &receipts[3],
        altered.replacen("\"now\": ", "\"now\": 2", 1).as_bytes(),
    );
    // The last receipt re-spaced in the copy.
    let last = receipts.last().unwrap().file_name().unwrap();
    let respaced = std::fs::read_to_string(copy.join(last)).unwrap();
    write_private(&copy.join(last), respaced.replace('\n', "\n ").as_bytes());
    write_private(&copy.join("notes.txt"), b"not seal-host's");
    let key = support::receipt_key_file(NEW);
    let (findings, summary) = assert_same(&[archive.path().to_path_buf()], Some(&key));
    let codes: std::collections::BTreeSet<&str> = findings.iter().map(|f| f.0.as_str()).collect();
    for code in [
        "duplicate-receipt",
        "operation-receipt-missing",
        "signature-invalid",
        "unexpected-file",
        "chain-state-mismatch",
    ] {
        assert!(codes.contains(code), "{code}: {codes:?}");
    }
    assert_eq!(summary["receipts"], 14, "{summary}");
    let empty = tempfile::tempdir().unwrap();
    let (findings, _) = assert_same(&[empty.path().to_path_buf()], None);
    assert_eq!(findings[0].0, "no-receipts");
}

/// Facts reduced out of order, or short of a partition, are refused, not reduced.
#[test]
fn facts_out_of_order_or_missing_are_refused() {
    let new = root(NEW);
    let options = options(None);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let plan = Plan::walk(std::slice::from_ref(&new), &options, &pool).unwrap();
    let entries: Vec<map::Entry> = (0..plan.len())
        .map(|p| map::Entry::from_path(plan.path(p), None))
        .collect();
    let mut facts = audit::map_entries(&entries, &options, &pool);
    let mut sink = |_: Event<'_>| Ok(());
    let mut reduce = reduce::Reduce::begin(&plan, &mut sink).unwrap();
    facts.swap(0, 1);
    let error = reduce
        .add(&plan, facts[0].clone(), None, &mut sink)
        .unwrap_err();
    assert!(error.to_string().contains("out of order"), "{error}");
    let mut reduce = reduce::Reduce::begin(&plan, &mut sink).unwrap();
    reduce
        .add(&plan, facts[1].clone(), None, &mut sink)
        .unwrap();
    let error = reduce.finish(&plan, &mut sink).unwrap_err();
    assert!(
        error.to_string().contains("partition is missing"),
        "{error}"
    );
    assert!(facts_codec::decode(b"{\"sealkit_audit_facts\":2,\"files\":[]}").is_err());
}

/// Links, special files and names that are not UTF-8, mapped from their paths alone
/// (`Entry::from_path`, as the Dask workers map), are what the walk calls them: a link named
/// like a receipt is a skipped link, a socket is not a regular file, and a misnamed file keeps
/// its exact name through the facts' encoding, in every partition count. Seen red under
/// cargo-mutants' `is_symlink()` → `false` and `is_file()` → `true` guards in
/// `Entry::from_path` (the link became a special file; the socket was opened as a file), and
/// under `facts_codec::os_path` → `Ok(Default::default())` (the name came back empty).
#[test]
fn links_and_special_files_mapped_from_their_paths_reduce_to_the_commands_findings() {
    let dir = full_new_dir();
    let hash = "460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793";
    std::os::unix::fs::symlink(
        L1_ALLOW,
        dir.path()
            .join(format!("receipt-00000000000000000098-{hash}.json")),
    )
    .unwrap();
    // A socket's path must fit in `sun_path` (108 bytes): a short name.
    let socket = dir.path().join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let misnamed = dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"receipt-\xff.json"));
    write_private(&misnamed, b"{}");
    let key = support::receipt_key_file(NEW);
    let (findings, _) = assert_same(&[dir.path().to_path_buf()], Some(&key));
    let at = |code: &str| -> Vec<&str> {
        (findings.iter())
            .filter(|f| f.0 == code)
            .map(|f| f.1.as_str())
            .collect()
    };
    assert_eq!(
        at("symlink-skipped"),
        [dir.path()
            .join(format!("receipt-00000000000000000098-{hash}.json"))
            .display()
            .to_string()]
    );
    assert_eq!(at("not-regular-file"), [socket.display().to_string()]);
    // The link's finding names where it points (seen red under `symlink_message` → "").
    let link = (findings.iter())
        .find(|f| f.0 == "symlink-skipped")
        .unwrap();
    assert_eq!(
        link.2,
        format!("symbolic link to {L1_ALLOW}: not followed"),
        "{link:?}"
    );
    assert_eq!(at("misnamed-receipt"), [misnamed.display().to_string()]);
}

/// The guard that facts are reduced against their own listing is FNV-1a (64 bits) of the
/// path's bytes: the published test values. Seen red under cargo-mutants' `^` → `|` in
/// `map::path_check`, a weaker hash under which paths that differ only in bits the running
/// hash already has set (`receipt-…0` and `receipt-…1`) can collide.
#[test]
fn the_listing_guard_is_fnv_1a() {
    assert_eq!(map::path_check(Path::new("")), 0xcbf2_9ce4_8422_2325);
    assert_eq!(map::path_check(Path::new("a")), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(map::path_check(Path::new("foobar")), 0x8594_4171_f739_67e8);
}

/// A directory the walk cannot list (here: deeper than PATH_MAX, which even root cannot open
/// by its path) is reported with the walk's reason, whatever a mapper finds at that path
/// later. Seen red under cargo-mutants' deletion of the `ItemKind::Unreadable` arm in
/// `Reduce::add` (the mapper's own error message replaced the walk's).
#[test]
fn what_the_walk_could_not_list_is_reported_with_the_walks_reason() {
    let archive = tempfile::tempdir().unwrap();
    let long = "d".repeat(200);
    // std's paths cannot reach that deep; a shell's `cd -P` (relative, physical) can.
    let script = format!(
        "cd '{}' && for i in $(seq 25); do mkdir {long} && cd -P {long} || exit 1; done && echo x > notes.txt",
        archive.path().display()
    );
    assert!(std::process::Command::new("sh")
        .args(["-c", &script])
        .status()
        .unwrap()
        .success());
    let (findings, _) = assert_same(&[archive.path().to_path_buf()], None);
    let unreadable: Vec<&(String, String, String, String)> = (findings.iter())
        .filter(|f| f.0 == "unreadable-file")
        .collect();
    assert_eq!(unreadable.len(), 1, "{findings:?}");
    assert!(
        unreadable[0].2.contains("File name too long"),
        "{unreadable:?}"
    );
}

/// A listing made elsewhere (object storage: `Plan::listed`, its files' bytes handed to the
/// mapper) reduces to what the command's audit finds on the same files, with every path as
/// listed. Seen red under cargo-mutants' deletion of `path: parent` in `walk::listed` (the
/// directory's own finding lost its path).
#[test]
fn a_listing_made_elsewhere_reduces_to_the_commands_findings() {
    let dir = full_new_dir();
    // Released calls without the operation state: a finding about the directory itself.
    std::fs::remove_file(dir.path().join(".seal-operation-state.json")).unwrap();
    let key = support::receipt_key_file(NEW);
    let options = options(Some(&key));
    let expected = audited(&[dir.path().to_path_buf()], &options);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut read = |path: &Path, limit: u64| -> Result<Vec<u8>, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        assert!(bytes.len() as u64 <= limit);
        Ok(bytes)
    };
    let plan = Plan::listed(&[dir.path().to_path_buf()], &files, &mut read);
    assert_eq!(plan.len(), files.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let entries: Vec<map::Entry> = (0..plan.len())
        .map(|p| map::Entry::from_path(plan.path(p), Some(std::fs::read(&files[p]).unwrap())))
        .collect();
    let (findings, summary) = reduced(&plan, audit::map_entries(&entries, &options, &pool));
    assert_eq!(findings, expected.0);
    assert_eq!(summary, expected.1);
    // The sessions' reused counters are found under each file's full path, and the missing
    // state under the directory's.
    let reused: Vec<&str> = (findings.iter())
        .filter(|f| f.0 == "counter-reused")
        .map(|f| f.1.as_str())
        .collect();
    assert!(!reused.is_empty(), "{findings:?}");
    assert!(reused
        .iter()
        .all(|p| Path::new(p).parent() == Some(dir.path())));
    let state: Vec<&str> = (findings.iter())
        .filter(|f| f.0 == "operation-state-mismatch")
        .map(|f| f.1.as_str())
        .collect();
    assert_eq!(state, [dir.path().display().to_string()], "{findings:?}");
}

/// Changes a file in place (the same length, its modification time set back) the moment the
/// audit has read it: only its change time tells.
struct ChangeAfterRead {
    target: PathBuf,
    mtime: std::time::SystemTime,
    done: std::sync::atomic::AtomicBool,
}

impl audit::Observer for ChangeAfterRead {
    fn read(&self, path: &Path) {
        use std::io::{Seek, Write};
        if path != self.target || self.done.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        file.seek(std::io::SeekFrom::Start(1)).unwrap();
        file.write_all(b" ").unwrap();
        file.set_modified(self.mtime).unwrap();
    }
}

/// A receipt changed in place after it was opened and read, keeping its length and its
/// modification time, is still `changed-during-audit`: the file's state is compared again
/// after the read (inode, device, length, modification and change times). Seen red under
/// cargo-mutants' `same_file_state` → `true` and under each of its six `&&` → `||` (the
/// last, between the change time's seconds and nanoseconds, can only be caught when the
/// change falls in the same second as the file's creation, as it does here but for a run
/// that straddles a second).
#[test]
fn a_receipt_changed_in_place_after_its_read_is_changed_during_audit() {
    let dir = full_new_dir();
    let target = dir.path().join(L1_ALLOW);
    let mtime = std::fs::metadata(&target).unwrap().modified().unwrap();
    let observer = ChangeAfterRead {
        target: target.clone(),
        mtime,
        done: Default::default(),
    };
    let key = support::receipt_key_file(NEW);
    let mut changed = Vec::new();
    audit::audit(
        &[dir.path().to_path_buf()],
        &options(Some(&key)),
        &observer,
        &mut |event| {
            let findings: Vec<&sealkit::finding::Finding> = match &event {
                Event::Receipt(entry) => entry.file_findings.iter().collect(),
                Event::Finding(finding) => vec![finding],
            };
            for finding in findings {
                if finding.code.as_str() == "changed-during-audit" {
                    changed.push(finding.path.clone().unwrap());
                }
            }
            Ok(())
        },
    )
    .unwrap();
    assert!(observer.done.into_inner(), "the target was never read");
    assert_eq!(changed, [target]);
}

/// A listing says whether it holds anything, as its length does (the map has nothing to do
/// for an empty one). Seen red under cargo-mutants' `Plan::is_empty` → `true` and → `false`.
#[test]
fn a_listing_is_empty_exactly_when_it_lists_nothing() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let empty = tempfile::tempdir().unwrap();
    let plan = Plan::walk(&[empty.path().to_path_buf()], &options(None), &pool).unwrap();
    assert_eq!((plan.len(), plan.is_empty()), (0, true));
    let full = full_new_dir();
    let plan = Plan::walk(&[full.path().to_path_buf()], &options(None), &pool).unwrap();
    assert!(plan.len() > 10);
    assert!(!plan.is_empty());
}
