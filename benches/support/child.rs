//! What the throughput benchmarks measure around one run of the release binary: wall time,
//! the child's CPU time (this process's `cutime` + `cstime` after the wait), its peak
//! resident set (VmHWM, sampled on a thread once it runs the program given), and the load average before and after.

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What one run of the binary took.
pub struct Run {
    pub elapsed: Duration,
    /// Peak resident set of the child after exec (VmHWM), KiB.
    pub peak_kb: u64,
    /// The child's user + system CPU time.
    pub cpu_seconds: f64,
    pub status: i32,
    pub load_before: String,
    pub load_after: String,
}

/// Runs `command` (output discarded), sampling the child's VmHWM every `poll` on a thread
/// of its own while this one waits for the child: the clock stops when the child exits, not
/// at the next sample (a 200 ms poll once added up to 0.2 s to a 1.2 s run).
pub fn run(mut command: Command, poll: Duration) -> Run {
    // The kernel's name of the process after exec: the program's file name, cut to 15 bytes.
    let program = std::path::Path::new(command.get_program())
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let exec_name = format!("Name:\t{}", program.get(..15).unwrap_or(&program));
    let load_before = load_average();
    let cpu_before = children_cpu_seconds();
    let started = Instant::now();
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let mut peak = 0;
            while !done.load(Ordering::Relaxed) {
                // Only after exec: before it, the forked child still shows this process's
                // memory.
                let text = std::fs::read_to_string(&status_file).unwrap_or_default();
                if text.lines().any(|l| l == exec_name) {
                    if let Some(kb) = text
                        .lines()
                        .find(|l| l.starts_with("VmHWM:"))
                        .and_then(|l| l.split_whitespace().nth(1))
                        .and_then(|n| n.parse::<u64>().ok())
                    {
                        peak = peak.max(kb);
                    }
                }
                std::thread::sleep(poll);
            }
            peak
        })
    };
    let status = child.wait().unwrap();
    let elapsed = started.elapsed();
    done.store(true, Ordering::Relaxed);
    Run {
        elapsed,
        peak_kb: sampler.join().unwrap(),
        cpu_seconds: children_cpu_seconds() - cpu_before,
        status: status.code().unwrap_or(-1),
        load_before,
        load_after: load_average(),
    }
}

/// The 1-minute load average.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

/// User + system CPU seconds of this process's waited-for children (`cutime` + `cstime`).
fn children_cpu_seconds() -> f64 {
    stat_seconds(16, 17)
}

/// User + system CPU seconds of this process, every thread (`utime` + `stime`).
// Only the benchmarks that time work in their own process use it.
#[allow(dead_code)]
pub fn own_cpu_seconds() -> f64 {
    stat_seconds(14, 15)
}

/// Two clock-tick fields of `/proc/self/stat` added, in seconds (USER_HZ = 100).
fn stat_seconds(user: usize, system: usize) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    // Fields are numbered from 1 with the pid; the text after ')' starts with field 3.
    let field = |i: usize| fields.get(i - 3).and_then(|f| f.parse::<f64>().ok());
    (field(user).unwrap_or(0.0) + field(system).unwrap_or(0.0)) / 100.0
}

/// Items per second of `work` over `items` items.
pub fn per_second(items: usize, mut work: impl FnMut()) -> f64 {
    let started = Instant::now();
    work();
    items as f64 / started.elapsed().as_secs_f64()
}

/// Best clock and best CPU time over a bench's rounds, with the load average at the best
/// clock time.
// Only the benchmarks that run rounds keep it.
#[allow(dead_code)]
#[derive(Clone, Copy)]
pub struct Best {
    pub time: Duration,
    pub cpu: Duration,
    pub load: f64,
}

#[allow(dead_code)]
impl Best {
    /// Keeps in `best` the better clock and the better CPU time of it and one round's.
    pub fn keep(best: &mut Option<Best>, (time, cpu): (Duration, Duration)) {
        let load = load_average().parse().unwrap_or(f64::NAN);
        let mut kept = best.unwrap_or(Best { time, cpu, load });
        if time < kept.time {
            (kept.time, kept.load) = (time, load);
        }
        kept.cpu = kept.cpu.min(cpu);
        *best = Some(kept);
    }
}
