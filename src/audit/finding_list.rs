//! An append-only list of findings whose memory does not grow with them: each finding is
//! encoded into a few bytes plus its path and message (no allocation of its own), kept by a
//! [`Spill`] in memory up to [`IN_MEMORY`] bytes and beyond that in an unnamed temporary file
//! (O_TMPFILE, else unlinked: no other process can open it by name; without one, or when a
//! write to it fails, they are in memory). Guarantees: every finding reads back exactly as it
//! was pushed (code, severity, path bytes that need not be UTF-8, message), in the order
//! pushed ([`FindingList::each`]) or most serious first, ties in the order pushed
//! ([`FindingList::each_most_serious_first`], the order a stable sort by severity gives, and
//! the order it is serialised in), as often as asked; or, when they cannot all come back, an
//! error (from the push that lost them and from every read) — never fewer findings as if they
//! were all. The first finding of each code in that order is at hand without reading
//! anything back.
//!
//! Why: at 1,000,000 receipts a host that restarts often leaves about 12,000
//! `counter-reused` findings that each name some 300 receipts, 135 MB of text the audit's
//! JSON and the report's page and JSON model must all list, after what comes before them.

use super::spill::Spill;
use crate::finding::{Code, Finding, Severity};
use serde::ser::{Error as _, SerializeSeq as _};
use std::collections::BTreeMap;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;

/// Encoded bytes kept in memory before the list moves to a temporary file.
pub const IN_MEMORY: usize = 4 << 20;
/// Once in the file, the bytes gathered before each write.
const CHUNK: usize = 256 << 10;

/// The severities, most serious first.
const MOST_SERIOUS_FIRST: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Info];

pub struct FindingList {
    /// The encoded findings, in the order pushed.
    store: Spill,
    /// One finding's encoding, reused for the next.
    encoded: Vec<u8>,
    len: usize,
    per_severity: [usize; 3],
    /// The first finding of each code, by severity: the first of a code most serious first.
    first: BTreeMap<(Code, Severity), Finding>,
}

impl Default for FindingList {
    fn default() -> Self {
        FindingList::with_budget(IN_MEMORY)
    }
}

impl std::fmt::Debug for FindingList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FindingList")
            .field("len", &self.len)
            .field("in_file", &self.store.uses_file())
            .finish()
    }
}

impl FindingList {
    /// A list that moves to a temporary file once its encoded findings reach `budget` bytes.
    pub fn with_budget(budget: usize) -> Self {
        FindingList::over(Spill::lazy_after(budget, CHUNK))
    }

    /// A list kept in `store` (empty).
    fn over(store: Spill) -> Self {
        FindingList {
            store,
            encoded: Vec::new(),
            len: 0,
            per_severity: [0; 3],
            first: BTreeMap::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the list is (partly) in its temporary file.
    #[cfg(test)]
    pub fn in_file(&self) -> bool {
        self.store.uses_file()
    }

    /// Appends a finding. The error says the findings can no longer all come back, so the
    /// caller stops (the audit exits 2 saying why) rather than go on to a listing that would
    /// fail the same way at its end.
    ///
    /// A write to the temporary file that fails is not an error here: the store reads back
    /// what the file held into memory and goes on there. That keeps the guarantee a security
    /// engineer needs — every finding listed exactly, or the audit saying it could not list
    /// them — while an audit on a host whose temporary directory is full (as after an
    /// incident it may be) still finishes, with more memory, instead of stopping there.
    /// Only when that read-back fails too are findings lost, and that is this error.
    pub fn push(&mut self, finding: &Finding) -> io::Result<()> {
        self.encode(finding);
        match self.store.lost() {
            Some(why) => Err(io::Error::other(format!(
                "cannot keep the findings for their listing: {why}"
            ))),
            None => Ok(()),
        }
    }

    fn encode(&mut self, finding: &Finding) {
        let out = &mut self.encoded;
        out.clear();
        out.push(severity_byte(finding.severity));
        let code = Code::ALL.iter().position(|c| *c == finding.code);
        out.extend_from_slice(&(code.unwrap_or(0) as u16).to_le_bytes());
        match &finding.path {
            Some(path) => {
                out.push(1);
                put_bytes(out, path_bytes(path));
            }
            None => out.push(0),
        }
        put_bytes(out, finding.message.as_bytes());
        self.store.append(out);
        self.len += 1;
        self.per_severity[usize::from(severity_byte(finding.severity))] += 1;
        (self.first)
            .entry((finding.code, finding.severity))
            .or_insert_with(|| finding.clone());
    }

    /// The first finding with `code` most serious first (as `find` over that order gives).
    pub fn first_of(&self, code: Code) -> Option<&Finding> {
        MOST_SERIOUS_FIRST
            .iter()
            .find_map(|&severity| self.first.get(&(code, severity)))
    }

    /// Every finding in the order pushed.
    pub fn each(&self, mut f: impl FnMut(Finding) -> io::Result<()>) -> io::Result<()> {
        self.read(|_| true, &mut f)
    }

    /// Every finding most serious first, ties in the order pushed.
    pub fn each_most_serious_first(
        &self,
        mut f: impl FnMut(Finding) -> io::Result<()>,
    ) -> io::Result<()> {
        for severity in MOST_SERIOUS_FIRST {
            let byte = severity_byte(severity);
            if self.per_severity[usize::from(byte)] > 0 {
                self.read(|b| b == byte, &mut f)?;
            }
        }
        Ok(())
    }

    /// Decodes every finding whose severity byte `wanted` accepts (the others are skipped
    /// unread), in the order pushed: a lost store, or bytes that do not come back, are an
    /// error before or after the findings that did.
    fn read(
        &self,
        wanted: impl Fn(u8) -> bool,
        f: &mut dyn FnMut(Finding) -> io::Result<()>,
    ) -> io::Result<()> {
        let kept = self.store.reader().map_err(read_back)?;
        let mut bytes = BufReader::with_capacity(64 << 10, kept);
        for _ in 0..self.len {
            let mut head = [0u8; 4];
            bytes.read_exact(&mut head).map_err(read_back)?;
            let [severity, code_low, code_high, has_path] = head;
            if !wanted(severity) {
                if has_path == 1 {
                    skip_bytes(&mut bytes)?;
                }
                skip_bytes(&mut bytes)?;
                continue;
            }
            let code = *(Code::ALL.get(usize::from(u16::from_le_bytes([code_low, code_high]))))
                .ok_or_else(|| read_back(io::ErrorKind::InvalidData.into()))?;
            let path = match has_path {
                1 => Some(path_of(get_bytes(&mut bytes)?)),
                _ => None,
            };
            let message = String::from_utf8(get_bytes(&mut bytes)?)
                .map_err(|e| read_back(io::Error::new(io::ErrorKind::InvalidData, e)))?;
            f(Finding {
                code,
                severity: severity_of(severity),
                path,
                message,
            })?;
        }
        Ok(())
    }
}

impl serde::Serialize for FindingList {
    /// As a sequence, most serious first (the bytes a sorted `Vec<Finding>` gives).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len))?;
        let mut failed = None;
        let read = self.each_most_serious_first(|finding| {
            seq.serialize_element(&finding).map_err(|e| {
                failed = Some(e);
                io::Error::other("not serialised")
            })
        });
        if let Some(error) = failed {
            return Err(error);
        }
        read.map_err(S::Error::custom)?;
        seq.end()
    }
}

fn read_back(e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!("cannot read back the findings set aside in a temporary file: {e}"),
    )
}

fn severity_byte(severity: Severity) -> u8 {
    match severity {
        Severity::Info => 0,
        Severity::Warning => 1,
        Severity::Error => 2,
    }
}

fn severity_of(byte: u8) -> Severity {
    match byte {
        0 => Severity::Info,
        1 => Severity::Warning,
        _ => Severity::Error,
    }
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

fn length(bytes: &mut dyn Read) -> io::Result<u64> {
    let mut len = [0u8; 8];
    bytes.read_exact(&mut len).map_err(read_back)?;
    Ok(u64::from_le_bytes(len))
}

fn get_bytes(bytes: &mut dyn Read) -> io::Result<Vec<u8>> {
    let len = length(bytes)?;
    let mut out = Vec::new();
    bytes.take(len).read_to_end(&mut out).map_err(read_back)?;
    if out.len() as u64 != len {
        return Err(read_back(io::ErrorKind::UnexpectedEof.into()));
    }
    Ok(out)
}

fn skip_bytes(bytes: &mut dyn Read) -> io::Result<()> {
    let len = length(bytes)?;
    let skipped = io::copy(&mut bytes.take(len), &mut io::sink()).map_err(read_back)?;
    if skipped != len {
        return Err(read_back(io::ErrorKind::UnexpectedEof.into()));
    }
    Ok(())
}

#[cfg(unix)]
fn path_bytes(path: &std::path::Path) -> &[u8] {
    use std::os::unix::ffi::OsStrExt as _;
    path.as_os_str().as_bytes()
}

#[cfg(unix)]
fn path_of(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt as _;
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt as _;

    fn findings() -> Vec<Finding> {
        let odd = std::ffi::OsStr::from_bytes(b"d/receipt-\xff.json");
        let mut all = Vec::new();
        for i in 0..40u32 {
            let code = [
                Code::CounterReused,
                Code::SharedCanonicalHash,
                Code::OperationReceiptMissing,
                Code::CounterDuplicate,
                Code::UnexpectedFile,
            ][(i % 5) as usize];
            let path = match i % 3 {
                0 => None,
                1 => Some(PathBuf::from(odd)),
                _ => Some(PathBuf::from(format!("dir/receipt-{i}.json"))),
            };
            all.push(Finding::new(
                code,
                path,
                "x".repeat(i as usize * 7) + "\u{202e}é",
            ));
        }
        // A severity that is not its code's reads back as it was given.
        all[7].severity = Severity::Info;
        all
    }

    fn collect(list: &FindingList, serious_first: bool) -> Vec<Finding> {
        let mut out = Vec::new();
        let push = |f: Finding| {
            out.push(f);
            Ok(())
        };
        if serious_first {
            list.each_most_serious_first(push).unwrap();
        } else {
            list.each(push).unwrap();
        }
        out
    }

    fn same(a: &[Finding], b: &[Finding]) {
        assert_eq!(
            serde_json::to_string(a).unwrap(),
            serde_json::to_string(b).unwrap()
        );
        let paths = |all: &[Finding]| all.iter().map(|f| f.path.clone()).collect::<Vec<_>>();
        assert_eq!(paths(a), paths(b));
        let severities = |all: &[Finding]| all.iter().map(|f| f.severity).collect::<Vec<_>>();
        assert_eq!(severities(a), severities(b));
    }

    /// In memory, moved to the file at the first finding, and moved part way: each reads
    /// back every finding in the order pushed and, most serious first, in the order a stable
    /// sort by severity gives, and serialises as that sorted vector does, byte for byte.
    /// Seen red with the store's reader handing nothing past the file (`Ok(0)` in place of
    /// reading the bytes not yet written): the lists in a file come back short.
    #[test]
    fn findings_read_back_exactly_in_the_order_pushed_and_most_serious_first() {
        let all = findings();
        let mut sorted = all.clone();
        sorted.sort_by_key(|f| std::cmp::Reverse(f.severity));
        for budget in [usize::MAX, 0, 300] {
            let mut list = FindingList::with_budget(budget);
            for finding in &all {
                list.push(finding).unwrap();
            }
            assert_eq!(list.in_file(), budget != usize::MAX, "budget {budget}");
            assert_eq!(list.len(), all.len());
            same(&collect(&list, false), &all);
            same(&collect(&list, true), &sorted);
            assert_eq!(
                serde_json::to_string(&list).unwrap(),
                serde_json::to_string(&sorted).unwrap()
            );
            for code in Code::ALL {
                let expected = sorted.iter().find(|f| f.code == *code);
                let got = list.first_of(*code);
                assert_eq!(
                    expected.map(|f| (&f.path, &f.message, f.severity)),
                    got.map(|f| (&f.path, &f.message, f.severity)),
                    "{code:?}"
                );
            }
        }
        let empty = FindingList::default();
        assert!(empty.is_empty());
        assert_eq!(serde_json::to_string(&empty).unwrap(), "[]");
    }

    /// Once past its budget the list keeps at most a chunk in memory, however many findings
    /// come.
    #[test]
    fn past_its_budget_the_list_keeps_at_most_a_chunk_in_memory() {
        let mut list = FindingList::with_budget(1024);
        let finding = Finding::new(Code::CounterReused, None, "n".repeat(1000));
        for _ in 0..2000 {
            list.push(&finding).unwrap();
            let (_, in_memory) = list.store.kept();
            assert!(in_memory < CHUNK + 2000, "{in_memory}");
        }
        assert!(list.store.kept().0 > 1_500_000);
        let mut n = 0;
        list.each(|f| {
            assert_eq!(f.message.len(), 1000);
            n += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(n, 2000);
    }

    /// Findings in a file written a few hundred bytes at a time, some not yet written, and
    /// in a file made past a small budget: every reading, in the order pushed, most serious
    /// first and serialised, gives the same findings exactly, however often it is asked.
    /// Seen red with the store's reader handing nothing past the file (`Ok(0)` in place of
    /// reading the bytes not yet written): the first reading already fails.
    #[test]
    fn a_list_forced_into_the_file_reads_back_identically_every_time() {
        let all = findings();
        let mut sorted = all.clone();
        sorted.sort_by_key(|f| std::cmp::Reverse(f.severity));
        let small_blocks = FindingList::over(Spill::lazy_after(0, 500));
        for mut list in [small_blocks, FindingList::with_budget(64)] {
            for finding in &all {
                list.push(finding).unwrap();
            }
            assert!(list.in_file());
            let (in_file, in_memory) = list.store.kept();
            assert!(in_file > 0 && in_memory > 0, "{in_file} {in_memory}");
            for _ in 0..3 {
                same(&collect(&list, false), &all);
                same(&collect(&list, true), &sorted);
                assert_eq!(
                    serde_json::to_string(&list).unwrap(),
                    serde_json::to_string(&sorted).unwrap()
                );
            }
        }
    }

    /// The failure path chosen (see `push`): a write to the file that fails keeps every
    /// finding (read back into memory) and is no error; a file that fails and cannot be read
    /// back either makes that push and every later one an error saying why, and every reading
    /// an error that hands no finding. Seen red with `push` taking no notice of a lost store
    /// (`Ok(())` always): the pushes after the loss succeed.
    #[test]
    fn a_failed_write_keeps_every_finding_and_a_lost_list_says_so() {
        let all = findings();
        let path = tempfile::NamedTempFile::new().unwrap();
        let read_only = std::fs::File::open(path.path()).unwrap();
        let mut list = FindingList::over(Spill::in_file(500, read_only));
        for finding in &all {
            list.push(finding).unwrap();
        }
        assert!(!list.in_file());
        for _ in 0..2 {
            same(&collect(&list, false), &all);
        }

        let write_only = std::fs::OpenOptions::new()
            .write(true)
            .open(path.path())
            .unwrap();
        let mut list = FindingList::over(Spill::in_file(500, write_only));
        for finding in &all[..10] {
            list.push(finding).unwrap();
        }
        assert!(list.store.kept().0 > 0);
        // A directory: it can be neither written nor read.
        let directory = tempfile::tempdir().unwrap();
        list.store
            .replace_file(std::fs::File::open(directory.path()).unwrap());
        let pushed: Vec<io::Result<()>> = all[10..].iter().map(|f| list.push(f)).collect();
        let lost_at = pushed.iter().position(Result::is_err).unwrap();
        assert!(lost_at < 5, "{lost_at}");
        for error in &pushed[lost_at..] {
            let error = error.as_ref().unwrap_err().to_string();
            assert!(
                error.starts_with(
                    "cannot keep the findings for their listing: the temporary file failed: "
                ),
                "{error}"
            );
        }
        let mut handed = 0;
        let mut hand = |_| {
            handed += 1;
            Ok(())
        };
        let error = list.each(&mut hand).unwrap_err();
        assert!(error
            .to_string()
            .starts_with("cannot read back the findings set aside in a temporary file: "));
        list.each_most_serious_first(&mut hand).unwrap_err();
        assert_eq!(handed, 0);
        assert!(serde_json::to_string(&list).is_err());
    }
}
