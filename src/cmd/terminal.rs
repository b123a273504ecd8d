//! Terminal input hygiene for questions asked on the controlling terminal: an answer counts
//! only if it was typed after the question was on the screen. Whatever is already waiting in
//! the terminal's input queue (typed ahead, or a stray line of a pasted shell block) is
//! discarded just before the answer is read.

use std::io;

/// How long input may still be on its way into the terminal's queue after the question is
/// on the screen. Bytes a terminal (or a pseudo-terminal's writer) sent before the question
/// can reach the input queue a little later than they were sent, when the machine is busy;
/// no person answers a question within this time of seeing it.
#[cfg(unix)]
const IN_FLIGHT: std::time::Duration = std::time::Duration::from_millis(200);

/// Waits until everything written to `tty` has been handed to the terminal and input sent
/// before it has arrived, then discards every byte received but not yet read. Call it after
/// the question is written and immediately before reading the answer (or a passphrase).
#[cfg(unix)]
pub fn discard_typed_ahead(tty: &std::fs::File) -> io::Result<()> {
    use rustix::termios::{tcdrain, tcflush, QueueSelector};
    tcdrain(tty)?;
    std::thread::sleep(IN_FLIGHT);
    tcflush(tty, QueueSelector::IFlush)?;
    Ok(())
}

/// Elsewhere there is no input queue to discard through this interface.
#[cfg(not(unix))]
pub fn discard_typed_ahead(_tty: &std::fs::File) -> io::Result<()> {
    Ok(())
}
