//! `audit`'s progress bar: on stderr when it is a terminal (never under `-q`), drawn only
//! once a run has lasted [`SHOW_AFTER`] (a run of milliseconds shows nothing), and no wider
//! than the terminal: the bar takes the columns its words leave, and on a narrow terminal the
//! words are fewer.

use crate::audit::Observer;
use std::io::IsTerminal;
use std::sync::mpsc;
use std::time::Duration;

/// How long a run lasts before its progress bar is drawn, unless `SEALKIT_PROGRESS_AFTER_MS`
/// says otherwise.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Below this many columns the bar drops its words but the counts.
const NARROW: usize = 60;

/// A progress bar, hidden until the run has lasted long enough (see the module's note).
pub struct Progress {
    bar: indicatif::ProgressBar,
    /// Tells the timer the run is over (dropping it does too).
    done: Option<mpsc::Sender<()>>,
    timer: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// A bar for `what` (`files`), drawn on stderr after the delay when stderr is a terminal.
    pub fn new(what: &str) -> Self {
        let bar = indicatif::ProgressBar::hidden();
        let stderr = std::io::stderr();
        if !stderr.is_terminal() || super::quiet() {
            return Progress {
                bar,
                done: None,
                timer: None,
            };
        }
        let narrow = super::layout::columns(&stderr).is_some_and(|c| c < NARROW);
        let template = if narrow {
            "{spinner} {pos}/{len} [{wide_bar}] ".to_owned()
        } else {
            format!("{{spinner}} auditing {{pos}}/{{len}} {what} {{rate}}/s eta {{eta}} [{{wide_bar}}] ")
        };
        if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
            let style = style.with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", super::layout::rate(state.per_sec()));
                },
            );
            bar.set_style(style.progress_chars("=> "));
        }
        let (done, wait) = mpsc::channel::<()>();
        let shown = bar.clone();
        let after = delay(std::env::var("SEALKIT_PROGRESS_AFTER_MS").ok().as_deref());
        let timer = std::thread::spawn(move || {
            // Over before the delay (or the sender dropped): nothing is ever drawn.
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(after) {
                shown.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
        Progress {
            bar,
            done: Some(done),
            timer: Some(timer),
        }
    }

    /// The run is over: the bar (if it was drawn) is cleared from the terminal.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(done) = self.done.take() {
            let _ = done.send(());
        }
        if let Some(timer) = self.timer.take() {
            let _ = timer.join();
        }
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The delay before the bar is drawn: `SEALKIT_PROGRESS_AFTER_MS` when it is a number of
/// milliseconds, else [`SHOW_AFTER`].
fn delay(setting: Option<&str>) -> Duration {
    setting
        .and_then(|ms| ms.trim().parse::<u64>().ok())
        .map_or(SHOW_AFTER, Duration::from_millis)
}

impl Observer for Progress {
    fn walked(&self, files: u64) {
        self.bar.set_length(files);
    }

    fn checked(&self) {
        self.bar.inc(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_is_a_second_unless_set_in_milliseconds() {
        assert_eq!(delay(None), SHOW_AFTER);
        assert_eq!(delay(Some("0")), Duration::ZERO);
        assert_eq!(delay(Some("250")), Duration::from_millis(250));
        assert_eq!(delay(Some("soon")), SHOW_AFTER);
    }
}
