//! Terminal input hygiene for questions asked on the controlling terminal: an answer counts
//! only if it was typed after the question was on the screen, and a passphrase is never
//! echoed. Whatever is already waiting in the terminal's input queue (typed ahead, or a stray
//! line of a pasted shell block) is discarded, with echo off so it never shows, and the person
//! is told when that happened. A passphrase prompt is drawn only once echo is off and the
//! queue is empty (as OpenSSH's `readpassphrase` does), so a passphrase typed or pasted the
//! instant the prompt appears is read, not shown. Interrupting (Ctrl-C) restores the
//! terminal's modes before the process stops.

use std::io;
#[cfg(unix)]
use zeroize::Zeroizing;

/// How long input may still be on its way into the terminal's queue after the question is
/// on the screen. Bytes a terminal (or a pseudo-terminal's writer) sent before the question
/// can reach the input queue a little later than they were sent, when the machine is busy;
/// no person answers a question within this time of seeing it.
#[cfg(unix)]
const IN_FLIGHT: std::time::Duration = std::time::Duration::from_millis(200);

/// The longest passphrase read from the terminal (as from a passphrase file).
#[cfg(unix)]
const MAX_PASSPHRASE_BYTES: usize = 64 * 1024;

/// What the person is told when input typed before a question was discarded.
pub const DISCARDED_ANSWER: &str = "input typed before the question was discarded; answer again";
/// What the person is told when input typed before a passphrase prompt was discarded.
pub const DISCARDED_PASSPHRASE: &str =
    "input typed before this prompt was discarded; type the passphrase now";

/// Writes `text` (ending with its question) to the terminal and reads the line typed after
/// it was on the screen (at most `max` bytes). Input waiting when the question was drawn, or
/// arriving within [`IN_FLIGHT`] of it, is discarded without being echoed; the person is then
/// told so and asked again, as often as it happens.
#[cfg(unix)]
pub fn answer(tty: &std::fs::File, text: &[u8], max: u64) -> io::Result<String> {
    use std::io::Write;
    let mut text = text.to_vec();
    let mut out = tty;
    loop {
        let discarded = {
            let quiet = Quiet::enter(tty)?;
            out.write_all(&text)?;
            out.flush()?;
            rustix::termios::tcdrain(tty)?;
            std::thread::sleep(IN_FLIGHT);
            let discarded = quiet.discard_pending()?;
            quiet.leave()?;
            discarded
        };
        if !discarded {
            return read_line(tty, max);
        }
        text = format!("\n{DISCARDED_ANSWER} [y/N] ").into_bytes();
    }
}

/// Elsewhere there is no input queue to discard through this interface.
#[cfg(not(unix))]
pub fn answer(tty: &std::fs::File, text: &[u8], max: u64) -> io::Result<String> {
    use std::io::Write;
    let mut out = tty;
    out.write_all(text)?;
    out.flush()?;
    read_line(tty, max)
}

fn read_line(tty: &std::fs::File, max: u64) -> io::Result<String> {
    use std::io::{BufRead, Read};
    let mut line = Vec::new();
    io::BufReader::new(tty.take(max)).read_until(b'\n', &mut line)?;
    Ok(String::from_utf8_lossy(&line).into_owned())
}

/// Reads a passphrase on the controlling terminal: echo off and the input queue emptied
/// first, then the prompt, then one line read without echo (erase, kill-line and
/// word-erase work as at a shell prompt; end of input on an empty line is an error; the
/// interrupt or quit character restores the terminal and stops the process as the signal
/// would). The terminal's modes are restored on every path.
#[cfg(unix)]
pub fn read_passphrase(prompt: &str) -> io::Result<Zeroizing<String>> {
    use std::io::Write;
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")?;
    let mut out = &tty;
    let quiet = Quiet::enter(&tty)?;
    // Input already on its way when we asked arrives within this time; it was typed before
    // the prompt, so it is discarded with the rest.
    std::thread::sleep(IN_FLIGHT);
    if quiet.discard_pending()? {
        out.write_all(format!("{DISCARDED_PASSPHRASE}\n").as_bytes())?;
    }
    out.write_all(prompt.as_bytes())?;
    out.flush()?;
    let line = quiet.read_secret_line(&tty);
    quiet.leave()?;
    // The line end typed was not echoed.
    out.write_all(b"\n")?;
    out.flush()?;
    let line = line?;
    String::from_utf8(line.to_vec())
        .map(Zeroizing::new)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the passphrase is not UTF-8"))
}

/// The terminal with echo, line editing and signal characters off (reads return at once);
/// its earlier modes are restored when this is left or dropped.
#[cfg(unix)]
struct Quiet<'a> {
    tty: &'a std::fs::File,
    saved: rustix::termios::Termios,
    restored: bool,
}

#[cfg(unix)]
impl<'a> Quiet<'a> {
    fn enter(tty: &'a std::fs::File) -> io::Result<Self> {
        use rustix::termios::SpecialCodeIndex as Index;
        use rustix::termios::{tcgetattr, tcsetattr, LocalModes, OptionalActions};
        let saved = tcgetattr(tty)?;
        let mut quiet = saved.clone();
        quiet.local_modes.remove(
            LocalModes::ECHO
                | LocalModes::ECHONL
                | LocalModes::ICANON
                | LocalModes::ISIG
                | LocalModes::IEXTEN,
        );
        quiet.special_codes[Index::VMIN] = 0;
        quiet.special_codes[Index::VTIME] = 0;
        tcsetattr(tty, OptionalActions::Now, &quiet)?;
        Ok(Quiet {
            tty,
            saved,
            restored: false,
        })
    }

    /// Reads and drops every byte waiting in the input queue; whether there was any. An
    /// interrupt or quit character among them stops the process as its signal would.
    fn discard_pending(&self) -> io::Result<bool> {
        let mut discarded = false;
        let mut buffer = Zeroizing::new([0u8; 256]);
        loop {
            let read = rustix::io::read(self.tty, &mut buffer[..])?;
            if read == 0 {
                return Ok(discarded);
            }
            discarded = true;
            let keys = Keys::of(&self.saved);
            if buffer[..read].iter().any(|&b| keys.interrupts(b)) {
                self.interrupt();
            }
        }
    }

    /// One line, read byte by byte without echo and edited as the terminal would edit it.
    fn read_secret_line(&self, tty: &std::fs::File) -> io::Result<Zeroizing<Vec<u8>>> {
        use rustix::termios::{tcgetattr, tcsetattr, OptionalActions, SpecialCodeIndex};
        // Block until each byte arrives.
        let mut blocking = tcgetattr(tty)?;
        blocking.special_codes[SpecialCodeIndex::VMIN] = 1;
        tcsetattr(tty, OptionalActions::Now, &blocking)?;
        let keys = Keys::of(&self.saved);
        let mut line = Zeroizing::new(Vec::new());
        let mut byte = [0u8; 1];
        loop {
            if rustix::io::read(tty, &mut byte)? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            match keys.edit(&mut line, byte[0]) {
                Edit::Continue => {}
                Edit::Done => return Ok(line),
                Edit::End => return Err(io::ErrorKind::UnexpectedEof.into()),
                Edit::Interrupt => self.interrupt(),
            }
            if line.len() > MAX_PASSPHRASE_BYTES {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the passphrase is longer than 64 KiB",
                ));
            }
        }
    }

    /// Restores the terminal, then stops the process with SIGINT (as Ctrl-C would have done
    /// with signal characters on); returns only if the signal is ignored, as an error.
    fn interrupt(&self) -> ! {
        let _ = self.restore();
        let _ =
            rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::INT);
        // SIGINT ignored by whoever started us: stop anyway, as "interrupted".
        std::process::exit(130);
    }

    fn restore(&self) -> io::Result<()> {
        rustix::termios::tcsetattr(self.tty, rustix::termios::OptionalActions::Now, &self.saved)?;
        Ok(())
    }

    fn leave(mut self) -> io::Result<()> {
        self.restored = true;
        self.restore()
    }
}

#[cfg(unix)]
impl Drop for Quiet<'_> {
    fn drop(&mut self) {
        if !self.restored {
            let _ = self.restore();
        }
    }
}

/// The terminal's editing and signal characters, as its own modes set them.
#[cfg_attr(not(unix), allow(dead_code))]
#[derive(Debug, Clone, Copy)]
struct Keys {
    erase: u8,
    kill: u8,
    word_erase: u8,
    end: u8,
    interrupt: u8,
    quit: u8,
}

/// What one typed byte does to the line being read.
#[cfg_attr(not(unix), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Continue,
    /// The line is complete (Enter).
    Done,
    /// End of input on an empty line.
    End,
    /// The interrupt or quit character.
    Interrupt,
}

#[cfg_attr(not(unix), allow(dead_code))]
impl Keys {
    #[cfg(unix)]
    fn of(modes: &rustix::termios::Termios) -> Self {
        use rustix::termios::SpecialCodeIndex as Index;
        let code = |index| modes.special_codes[index];
        Keys {
            erase: code(Index::VERASE),
            kill: code(Index::VKILL),
            word_erase: code(Index::VWERASE),
            end: code(Index::VEOF),
            interrupt: code(Index::VINTR),
            quit: code(Index::VQUIT),
        }
    }

    /// Whether `byte` is the character set for `key` (0 is POSIX's "disabled").
    fn is(key: u8, byte: u8) -> bool {
        key != 0 && key == byte
    }

    fn interrupts(self, byte: u8) -> bool {
        Self::is(self.interrupt, byte) || Self::is(self.quit, byte)
    }

    /// Applies one typed byte to `line`. DEL and backspace always erase (terminals send
    /// either); an erase removes a whole UTF-8 character.
    fn edit(self, line: &mut Vec<u8>, byte: u8) -> Edit {
        if byte == b'\n' || byte == b'\r' {
            return Edit::Done;
        }
        if self.interrupts(byte) {
            return Edit::Interrupt;
        }
        if Self::is(self.end, byte) {
            return if line.is_empty() {
                Edit::End
            } else {
                Edit::Done
            };
        }
        if Self::is(self.erase, byte) || byte == 0x7f || byte == 0x08 {
            erase_char(line);
        } else if Self::is(self.kill, byte) {
            line.iter_mut().for_each(|b| *b = 0);
            line.clear();
        } else if Self::is(self.word_erase, byte) {
            while line.last() == Some(&b' ') {
                line.pop();
            }
            while line.last().is_some_and(|&b| b != b' ') {
                erase_char(line);
            }
        } else {
            line.push(byte);
        }
        Edit::Continue
    }
}

#[cfg_attr(not(unix), allow(dead_code))]
/// Removes the last UTF-8 character (its continuation bytes and its first byte).
fn erase_char(line: &mut Vec<u8>) {
    while let Some(last) = line.pop() {
        if last & 0xc0 != 0x80 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Edit, Keys};

    const KEYS: Keys = Keys {
        erase: 0x7f,
        kill: 0x15,
        word_erase: 0x17,
        end: 0x04,
        interrupt: 0x03,
        quit: 0x1c,
    };

    fn typed(bytes: &[u8]) -> (Vec<u8>, Edit) {
        let mut line = Vec::new();
        for &byte in bytes {
            let edit = KEYS.edit(&mut line, byte);
            if edit != Edit::Continue {
                return (line, edit);
            }
        }
        (line, Edit::Continue)
    }

    #[test]
    fn typed_bytes_are_edited_as_at_a_shell_prompt() {
        assert_eq!(
            typed(b"tired operator 42\n"),
            (b"tired operator 42".to_vec(), Edit::Done)
        );
        assert_eq!(typed(b"abc\r"), (b"abc".to_vec(), Edit::Done));
        // Erase takes a whole character (é is two bytes), backspace too.
        assert_eq!(
            typed("aé\x7f\x08b\n".as_bytes()),
            (b"b".to_vec(), Edit::Done)
        );
        assert_eq!(typed(b"wrong\x15right\n"), (b"right".to_vec(), Edit::Done));
        assert_eq!(
            typed(b"one two  \x17three\n"),
            (b"one three".to_vec(), Edit::Done)
        );
        assert_eq!(typed(b"\x04"), (Vec::new(), Edit::End));
        assert_eq!(typed(b"ab\x04"), (b"ab".to_vec(), Edit::Done));
        assert_eq!(typed(b"ab\x03"), (b"ab".to_vec(), Edit::Interrupt));
        assert_eq!(typed(b"\x1c").1, Edit::Interrupt);
        // A disabled key (0) is an ordinary byte, never an action.
        let disabled = Keys { kill: 0, ..KEYS };
        let mut line = Vec::new();
        assert_eq!(disabled.edit(&mut line, 0), Edit::Continue);
        assert_eq!(line, vec![0]);
    }
}
