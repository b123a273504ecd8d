//! A SHA-256 digest as a receipt or state file reports it: 32 bytes when written as seal-host
//! writes digests, the text otherwise; equal values are equal texts, ordered as the texts.

/// A value a receipt reports where seal-host writes a SHA-256 digest: 32 bytes when it is
/// 64 lowercase hex digits (the only spelling that renders back to the same text), else
/// the text as written. Equal values are equal texts, and the order is the texts' order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Hex256 {
    Digest([u8; 32]),
    Text(Box<str>),
}

impl Hex256 {
    pub fn new(text: &str) -> Self {
        // Only lowercase digests are kept as bytes: uppercase spells the same bytes as another
        // text, and the two must stay apart.
        let mut digest = [0u8; 32];
        if crate::digest::is_sha256_hex(text) && hex::decode_to_slice(text, &mut digest).is_ok() {
            return Hex256::Digest(digest);
        }
        Hex256::Text(text.into())
    }

    /// The 32 bytes, when it is a digest.
    pub fn digest(&self) -> Option<[u8; 32]> {
        match self {
            Hex256::Digest(bytes) => Some(*bytes),
            Hex256::Text(_) => None,
        }
    }

    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Hex256::Digest(bytes) => crate::digest::hex_lower(bytes).into(),
            Hex256::Text(text) => std::borrow::Cow::Borrowed(text),
        }
    }
}

impl Ord for Hex256 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self, other) {
            // Lowercase hex digits sort as the bytes they spell.
            (Hex256::Digest(a), Hex256::Digest(b)) => a.cmp(b),
            _ => self.text().cmp(&other.text()),
        }
    }
}

impl PartialOrd for Hex256 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Hex256 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}
