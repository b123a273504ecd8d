//! Terminal input hygiene for questions asked on the controlling terminal: an answer counts
//! only if it was typed after the question was on the screen. Whatever is already waiting in
//! the terminal's input queue (typed ahead, or a stray line of a pasted shell block) is
//! discarded just before the answer is read.

use std::io;

/// Waits until everything written to `tty` has been handed to the terminal, then discards
/// every byte received but not yet read. Call it after the question is written and
/// immediately before reading the answer (or a passphrase).
#[cfg(unix)]
pub fn discard_typed_ahead(tty: &std::fs::File) -> io::Result<()> {
    use rustix::termios::{tcdrain, tcflush, QueueSelector};
    tcdrain(tty)?;
    tcflush(tty, QueueSelector::IFlush)?;
    Ok(())
}

/// Elsewhere there is no input queue to discard through this interface.
#[cfg(not(unix))]
pub fn discard_typed_ahead(_tty: &std::fs::File) -> io::Result<()> {
    Ok(())
}
