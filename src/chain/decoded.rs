//! The buffer a batch's decoded strings are written into, with room kept past its text: the
//! decoder copies whole words and blocks there before it knows how many of their bytes it
//! keeps, so a run between two escapes costs one fixed-size copy (no length test, no call to
//! copy, no capacity check), and the cut is only where the text's length is set. The bytes
//! past the text are never read as text: [`Decoded::as_bytes`] ends at its length.

/// Decoded text: `bytes[..len]` is the text; `bytes[len..]` is room, initialised (zeros, or
/// what an earlier string or batch left there) and overwritten before it is ever counted.
#[derive(Default)]
pub(super) struct Decoded {
    bytes: Vec<u8>,
    len: usize,
}

impl Decoded {
    /// Bytes of text.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The text.
    pub(super) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Cuts the text back to `len` bytes (no-op when it is shorter).
    pub(super) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Empties the text, and gives the buffer back when one very large entry made it larger
    /// than `keep` bytes.
    pub(super) fn clear(&mut self, keep: usize) {
        self.len = 0;
        if self.bytes.len() > keep {
            self.bytes.truncate(keep);
            self.bytes.shrink_to(keep);
        }
    }

    /// Appends `bytes` to the text.
    pub(super) fn extend_from_slice(&mut self, bytes: &[u8]) {
        let (start, end) = (self.len, self.len + bytes.len());
        self.room(end)[start..end].copy_from_slice(bytes);
        self.len = end;
    }

    /// Appends one byte to the text.
    pub(super) fn push(&mut self, byte: u8) {
        let at = self.len;
        self.room(at + 1)[at] = byte;
        self.len = at + 1;
    }

    /// The whole buffer, at least `end` bytes long: the text, then room to write ahead into.
    /// Grows by doubling, so appending stays linear.
    #[inline]
    pub(super) fn room(&mut self, end: usize) -> &mut [u8] {
        if self.bytes.len() < end {
            self.grow(end);
        }
        &mut self.bytes
    }

    #[cold]
    fn grow(&mut self, end: usize) {
        let size = end.max(2 * self.bytes.len()).max(4096);
        self.bytes.resize(size, 0);
    }

    /// Makes the first `len` bytes of the buffer the text: the caller has written them.
    /// A length past the buffer is cut to it (never more text than was room).
    pub(super) fn set_len(&mut self, len: usize) {
        self.len = len.min(self.bytes.len());
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Text is what was appended and kept, whatever was written ahead into the room.
    #[test]
    fn the_text_is_what_was_kept() {
        let mut text = Decoded::default();
        text.extend_from_slice(b"abc");
        text.push(b'd');
        assert_eq!(text.as_bytes(), b"abcd");
        // Written ahead, then only two of the bytes kept.
        let at = text.len();
        text.room(at + 64)[at..at + 8].copy_from_slice(b"efghijkl");
        text.set_len(at + 2);
        assert_eq!(text.as_bytes(), b"abcdef");
        assert_eq!(text.len(), 6);
        text.truncate(3);
        assert_eq!(text.as_bytes(), b"abc");
        text.truncate(10);
        assert_eq!(text.as_bytes(), b"abc");
        text.extend_from_slice(b"xyz");
        assert_eq!(text.as_bytes(), b"abcxyz");
        text.clear(1 << 20);
        assert!(text.len() == 0 && text.as_bytes().is_empty());
        // A very large buffer is given back on clearing.
        text.extend_from_slice(&[b'x'; 10_000]);
        text.clear(4096);
        assert!(text.bytes.len() <= 4096 && text.len() == 0);
        text.set_len(1 << 30);
        assert_eq!(text.len(), text.bytes.len());
    }
}
