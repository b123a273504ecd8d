//! One run of the matrix: the case directory it works in (a copy of its baseline's files and
//! the case's input), the binary run with a timeout, and every way the run can break the
//! contract.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::baselines::{Baseline, Value, BASELINES};
use super::table::{Case, NOTHING_TO_CHECK};
use super::{bin, set_mode, timeout, Expect};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run printed and how it ended.
pub(super) struct Ran {
    pub(super) exit: Option<i32>,
    pub(super) hung: bool,
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: Vec<u8>,
}

/// A file tree's state: every entry with its kind, mode, size, modification time and bytes.
type Snapshot = BTreeMap<PathBuf, (u32, u64, i64, i64, Vec<u8>)>;

fn snapshot(dir: &Path) -> Snapshot {
    use std::os::unix::fs::MetadataExt;
    let mut out = Snapshot::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.unwrap();
        let meta = entry.path().symlink_metadata().unwrap();
        let bytes = if meta.file_type().is_file() {
            std::fs::read(entry.path()).unwrap()
        } else if meta.file_type().is_symlink() {
            std::fs::read_link(entry.path())
                .unwrap()
                .into_os_string()
                .into_encoded_bytes()
        } else {
            Vec::new()
        };
        let relative = entry.path().strip_prefix(dir).unwrap().to_path_buf();
        // A directory's own times change when an entry in it is made and removed again.
        let (mtime, nsec) = if meta.is_dir() {
            (0, 0)
        } else {
            (meta.mtime(), meta.mtime_nsec())
        };
        out.insert(relative, (meta.mode(), meta.len(), mtime, nsec, bytes));
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    // A fixture may lie in a directory of its own (`apart/receipt.json`).
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    if from.is_dir() {
        std::fs::create_dir(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// Bytes that are no text: every byte value, NULs included, in a fixed pseudo-random order.
fn random_bytes() -> Vec<u8> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// Whether this process can run the binary as `nobody` (it is root and `setpriv` works).
pub(super) fn can_drop_root() -> bool {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    root && Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .status()
        .is_ok_and(|s| s.success())
}

pub(super) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// One planned run: a baseline with one argument's value replaced by a case's input.
#[derive(Clone)]
pub(super) struct Plan {
    pub(super) baseline: usize,
    /// The argument replaced (None: the baseline itself) and its case.
    pub(super) replaced: Option<(String, Case)>,
    pub(super) format: &'static str,
}

pub(super) fn run_plan(
    plan: &Plan,
    fixtures: &Path,
    work: &Path,
    serial: usize,
    drop_root: bool,
) -> Outcome {
    let baseline = &BASELINES[plan.baseline];
    let case_dir = work.join(format!("case-{serial}"));
    std::fs::create_dir(&case_dir).unwrap();
    set_mode(&case_dir, 0o755);
    std::fs::create_dir(case_dir.join("out")).unwrap();
    for (_, value) in baseline.args {
        match value {
            Value::File(name) => copy_tree(&fixtures.join(name), &case_dir.join(name)),
            Value::Dir(name, stdin) => {
                copy_tree(&fixtures.join(name), &case_dir.join(name));
                if !case_dir.join(stdin).exists() {
                    copy_tree(&fixtures.join(stdin), &case_dir.join(stdin));
                }
            }
            _ => {}
        }
    }
    let mut stdin: Option<Vec<u8>> = None;
    let mut args: Vec<(String, Vec<String>)> = baseline
        .args
        .iter()
        .map(|(name, value)| {
            let values = match value {
                Value::File(path) | Value::Dir(path, _) | Value::Text(path) | Value::Out(path) => {
                    vec![(*path).to_owned()]
                }
                Value::Flag => Vec::new(),
            };
            ((*name).to_owned(), values)
        })
        .collect();
    let mut unreadable = false;
    if let Some((arg, case)) = &plan.replaced {
        let given = case_dir.join("given");
        let working = baseline
            .args
            .iter()
            .find(|(n, _)| n == arg)
            .map(|(_, v)| *v);
        let value = match case {
            Case::StdinEmpty => {
                stdin = Some(Vec::new());
                "-".to_owned()
            }
            Case::StdinValid => {
                stdin = Some(match working {
                    Some(Value::File(name)) => std::fs::read(fixtures.join(name)).unwrap(),
                    Some(Value::Dir(_, file)) => std::fs::read(fixtures.join(file)).unwrap(),
                    _ => Vec::new(),
                });
                "-".to_owned()
            }
            other => {
                match other {
                    Case::Missing => {}
                    Case::EmptyFile => std::fs::write(&given, "").unwrap(),
                    Case::EmptyDir => std::fs::create_dir(&given).unwrap(),
                    Case::WrongKind => match working {
                        Some(Value::Dir(..)) => {
                            std::fs::write(&given, "this is a text file, no directory\n").unwrap()
                        }
                        Some(Value::File(name)) => {
                            std::fs::create_dir(&given).unwrap();
                            copy_tree(&fixtures.join(name), &given.join(name));
                        }
                        _ => std::fs::create_dir(&given).unwrap(),
                    },
                    Case::Random => std::fs::write(&given, random_bytes()).unwrap(),
                    Case::Unreadable => {
                        match working {
                            Some(Value::File(name) | Value::Dir(name, _)) => {
                                copy_tree(&fixtures.join(name), &given)
                            }
                            _ => std::fs::write(&given, "text\n").unwrap(),
                        }
                        unreadable = true;
                    }
                    Case::Fifo => {
                        let made = Command::new("mkfifo").arg(&given).status().unwrap();
                        assert!(made.success());
                    }
                    Case::SymlinkLoop => {
                        std::os::unix::fs::symlink("given.loop", &given).unwrap();
                        std::os::unix::fs::symlink("given", case_dir.join("given.loop")).unwrap();
                    }
                    Case::StdinEmpty | Case::StdinValid => unreachable!(),
                }
                "given".to_owned()
            }
        };
        match args.iter_mut().find(|(n, _)| n == arg) {
            Some((_, values)) => *values = vec![value],
            None => args.push((arg.clone(), vec![value])),
        }
    }
    if unreadable {
        // Everything belongs to `nobody`, who runs the binary; the one input is mode 000.
        let status = Command::new("chown")
            .args(["-R", "65534:65534"])
            .arg(&case_dir)
            .status()
            .unwrap();
        assert!(status.success());
        set_mode(&case_dir.join("given"), 0o000);
    }
    let before = snapshot(&case_dir);
    let mut command = if unreadable && drop_root {
        let mut command = Command::new("setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin());
        command
    } else {
        Command::new(bin())
    };
    command
        .current_dir(&case_dir)
        .env_remove("SSH_AUTH_SOCK")
        .env_remove("SEALKIT_APPROVAL_KEY_FILE")
        .env("NO_COLOR", "1")
        .args(["--format", plan.format, "--color", "never"])
        .args(baseline.command.split(' '));
    let mut positionals = Vec::new();
    for (name, values) in &args {
        if name.starts_with("--") {
            if values.is_empty() {
                command.arg(name);
            }
            for value in values {
                command.arg(name).arg(value);
            }
        } else {
            positionals.extend(values.iter().cloned());
        }
    }
    if !positionals.is_empty() {
        command.arg("--").args(&positionals);
    }
    let shown = format!("{:?}", command.get_args().collect::<Vec<_>>());
    command
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let ran = spawn_with_timeout(command, stdin);
    let after = snapshot(&case_dir);
    if unreadable {
        set_mode(&case_dir.join("given"), 0o700);
    }
    let _ = std::fs::remove_dir_all(&case_dir);
    Outcome {
        plan: plan.clone(),
        shown,
        ran,
        before,
        after,
    }
}

fn spawn_with_timeout(mut command: Command, stdin: Option<Vec<u8>>) -> Ran {
    let mut child = command.spawn().unwrap();
    let writer = child.stdin.take().map(|mut pipe| {
        let bytes = stdin.unwrap_or_default();
        std::thread::spawn(move || {
            // The command may never read its standard input.
            let _ = pipe.write_all(&bytes);
        })
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut bytes);
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut bytes);
        bytes
    });
    let started = Instant::now();
    let (exit, hung) = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break (status.code(), false);
        }
        if started.elapsed() > timeout() {
            let _ = child.kill();
            let _ = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    Ran {
        exit,
        hung,
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

pub(super) struct Outcome {
    pub(super) plan: Plan,
    pub(super) shown: String,
    pub(super) ran: Ran,
    pub(super) before: Snapshot,
    pub(super) after: Snapshot,
}

impl Outcome {
    /// The code of the error object on stderr (JSON modes), else the first code-like word of a
    /// human diagnostic.
    fn stderr_code(&self) -> Option<String> {
        let text = String::from_utf8_lossy(&self.ran.stderr);
        for line in text.lines().rev() {
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(line) {
                if value["type"] == "error" {
                    return value["code"].as_str().map(str::to_owned);
                }
            }
        }
        text.lines()
            .map(str::trim)
            .find(|l| {
                !l.is_empty()
                    && l.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            })
            .map(str::to_owned)
    }

    /// Every way this run breaks the contract for `expect` (`baseline_exit` for `=`).
    pub(super) fn problems(&self, expect: &Expect, baseline: &Baseline) -> Vec<String> {
        let mut problems = Vec::new();
        let ran = &self.ran;
        let stderr = String::from_utf8_lossy(&ran.stderr);
        let stdout = String::from_utf8_lossy(&ran.stdout);
        if ran.hung {
            problems.push(format!("did not end within {:?}", timeout()));
            return problems;
        }
        if ran.exit == Some(101) || stderr.contains("panicked") {
            problems.push(format!("panicked: {stderr}"));
        }
        let (exit, code) = match expect {
            Expect::Baseline => (baseline.exit, None),
            Expect::Exit(exit, code) => (*exit, Some(code.as_str())),
        };
        if ran.exit != Some(exit) {
            problems.push(format!("exit {:?}, expected {exit}", ran.exit));
        }
        let json = self.plan.format != "human";
        if json {
            if self.plan.format == "json" && !ran.stdout.iter().all(u8::is_ascii_whitespace) {
                if let Err(e) = serde_json::from_slice::<serde_json::Value>(&ran.stdout) {
                    problems.push(format!("stdout is not one JSON document ({e}): {stdout}"));
                }
            }
            if self.plan.format == "jsonl" {
                for line in stdout.lines() {
                    if serde_json::from_str::<serde_json::Value>(line).is_err() {
                        problems.push(format!("stdout line is not JSON: {line}"));
                    }
                }
            }
            for line in stderr.lines() {
                let kind = serde_json::from_str::<serde_json::Value>(line)
                    .ok()
                    .and_then(|v| v["type"].as_str().map(str::to_owned));
                if !matches!(kind.as_deref(), Some("error" | "warning")) {
                    problems.push(format!("stderr line is no error or warning object: {line}"));
                }
            }
        }
        if let Some(code) = code {
            // A run that stopped says why on stderr (in JSON modes as the error object's
            // code); one that printed its report may give the code there, with each finding.
            let found = self.stderr_code();
            let on_stderr = if json {
                found.as_deref() == Some(code)
            } else {
                stderr.contains(code)
            };
            let in_report = !stdout.trim().is_empty() && stdout.contains(code);
            if !on_stderr && !in_report {
                problems.push(format!(
                    "the code {code} is not shown (stderr's: {found:?}): {stdout}{stderr}"
                ));
            }
        }
        let writes_nothing = exit == 2 || code.is_some_and(|c| NOTHING_TO_CHECK.contains(&c));
        // An argument that is where the command writes (a token file appended to) may be
        // written under its replaced name too.
        let replaced_is_written = self.plan.replaced.as_ref().is_some_and(|(arg, _)| {
            baseline.args.iter().any(|(name, value)| {
                name == arg && matches!(value, Value::File(f) if baseline.writes.contains(f))
            })
        });
        let may_change = |path: &Path| {
            !writes_nothing
                && (baseline.writes.iter().any(|w| path.starts_with(w))
                    || (replaced_is_written && path.starts_with("given")))
        };
        let changed: Vec<&PathBuf> = self
            .before
            .keys()
            .chain(self.after.keys())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter(|path| self.before.get(*path) != self.after.get(*path))
            .filter(|path| !may_change(path))
            .collect();
        if !changed.is_empty() {
            problems.push(format!("changed or created: {changed:?}"));
        }
        problems
    }

    pub(super) fn observed(&self) -> String {
        match (self.ran.hung, self.ran.exit) {
            (true, _) => "HANG".to_owned(),
            (false, exit) => format!(
                "{} {}",
                exit.map_or("signal".to_owned(), |e| e.to_string()),
                self.stderr_code().unwrap_or_else(|| "-".to_owned())
            ),
        }
    }
}
