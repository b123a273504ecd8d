//! The effect commitment and guard target of a `tools/call` under each identity profile of
//! docs/target.md, framed and hashed as Seal does: every part becomes
//! `<Unicode scalar count>:<part>`, the frames are concatenated, and the identity is the
//! lowercase hex SHA-256 of that UTF-8 text.
//!
//! The profiles and their domain tags live in one table ([`Profile::spec`]). The upstream
//! tags are marked "proposed": when one is finalized it becomes a new profile (a new row),
//! never an edit of an existing one, so old identities stay reproducible.

use sha2::{Digest, Sha256};

/// Seal's legacy effect tag (before MCP 2026-07-28).
pub const TAG_EFFECT_V3: &str = "seal.effect/v3";
/// The effect tag of the committed and host profiles.
pub const TAG_EFFECT_V4_META_ALL: &str = "seal.effect/v4-proposed-meta-all";
/// The guard-target tag of the committed and host profiles.
pub const TAG_TARGET_V2_META_ALL: &str = "seal.guard-target/v2-proposed-meta-all";

/// A named identity profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Profile {
    /// Option A: the whole validated `_meta`, `requestState` and `inputResponses` enter.
    Committed,
    /// What seal-host v0.1.6 deploys: same layout, the three context pairs forced absent.
    Host,
    /// Before 2026-07-28: `[seal.effect/v3, server, tool, args]`, untagged target.
    Legacy,
}

/// Which identity of a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Effect,
    Target,
}

/// How a profile treats the three context values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextRule {
    /// Presence pairs filled from the frame.
    FromFrame,
    /// Presence pairs always `absent`.
    ForcedAbsent,
    /// No presence pairs at all.
    NotFramed,
}

/// Everything that distinguishes one profile's layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileSpec {
    pub name: &'static str,
    pub effect_tag: &'static str,
    /// `None`: the target carries no domain tag.
    pub target_tag: Option<&'static str>,
    pub context: ContextRule,
}

impl Profile {
    pub const ALL: [Profile; 3] = [Profile::Committed, Profile::Host, Profile::Legacy];

    /// The single table of profile layouts.
    pub fn spec(self) -> ProfileSpec {
        match self {
            Profile::Committed => ProfileSpec {
                name: "committed",
                effect_tag: TAG_EFFECT_V4_META_ALL,
                target_tag: Some(TAG_TARGET_V2_META_ALL),
                context: ContextRule::FromFrame,
            },
            Profile::Host => ProfileSpec {
                name: "host",
                effect_tag: TAG_EFFECT_V4_META_ALL,
                target_tag: Some(TAG_TARGET_V2_META_ALL),
                context: ContextRule::ForcedAbsent,
            },
            Profile::Legacy => ProfileSpec {
                name: "legacy",
                effect_tag: TAG_EFFECT_V3,
                target_tag: None,
                context: ContextRule::NotFramed,
            },
        }
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }
}

/// The canonical texts an identity is built from. Values are Seal's canonical value bytes
/// (`crate::canonical::lean_compress`); `None` means structurally absent. Outside the crate
/// the only way to get one is [`crate::request::Call::inputs`], the inputs of a validated
/// call, so [`compute`] and [`parts`] never run over texts that skipped validation; inside
/// it, receipt checks also recompute what seal-host recorded from a receipt's own request.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// Operator configuration, never read from the frame; may be empty.
    pub(crate) server: &'a str,
    pub(crate) tool: &'a str,
    /// Canonical arguments (`null` when the frame has none).
    pub(crate) arguments: &'a str,
    pub(crate) meta: Option<&'a str>,
    pub(crate) request_state: Option<&'a str>,
    pub(crate) input_responses: Option<&'a str>,
}

/// One profile's effect commitment and guard target.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Pair {
    pub effect: String,
    pub target: String,
}

/// All three profiles.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Identities {
    pub committed: Pair,
    pub host: Pair,
    pub legacy: Pair,
}

impl Identities {
    pub fn get(&self, profile: Profile) -> &Pair {
        match profile {
            Profile::Committed => &self.committed,
            Profile::Host => &self.host,
            Profile::Legacy => &self.legacy,
        }
    }

    /// The profiles whose guard target equals `target`, in [`Profile::ALL`] order.
    pub fn profiles_with_target(&self, target: &str) -> Vec<Profile> {
        Profile::ALL
            .into_iter()
            .filter(|p| self.get(*p).target == target)
            .collect()
    }
}

/// A part before framing, with its Unicode scalar count; made only by [`parts`] (from a
/// validated call's inputs) and inside the crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Part<'a> {
    pub(crate) text: &'a str,
    pub(crate) chars: usize,
}

impl<'a> Part<'a> {
    /// The part's text, unframed.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Its Unicode scalar count (the number framing writes before it).
    pub fn chars(&self) -> usize {
        self.chars
    }

    pub(crate) fn new(text: &'a str) -> Self {
        Part {
            text,
            chars: text.chars().count(),
        }
    }

    /// `<count>:<text>`, the part as framed.
    pub fn framed(&self) -> String {
        format!("{}:{}", self.chars, self.text)
    }
}

/// Computes every profile's identities. The committed and host layouts agree up to the
/// arguments, so that shared prefix (usually most of the bytes) is hashed once.
pub fn compute(inputs: &Inputs<'_>) -> Identities {
    let parts = CountedInputs::new(inputs);
    let pair = |kind| {
        let committed = parts.layout(Profile::Committed, kind);
        let host = parts.layout(Profile::Host, kind);
        hash_sharing_prefix(&committed, &host)
    };
    let (committed_effect, host_effect) = pair(Kind::Effect);
    let (committed_target, host_target) = pair(Kind::Target);
    Identities {
        committed: Pair {
            effect: committed_effect,
            target: committed_target,
        },
        host: Pair {
            effect: host_effect,
            target: host_target,
        },
        legacy: Pair {
            effect: hash_parts(&parts.layout(Profile::Legacy, Kind::Effect)),
            target: hash_parts(&parts.layout(Profile::Legacy, Kind::Target)),
        },
    }
}

/// Hashes two part lists, feeding their common leading parts to SHA-256 only once.
fn hash_sharing_prefix(a: &[Part<'_>], b: &[Part<'_>]) -> (String, String) {
    // Shared parts are the same slices, so identity of the text is checked first.
    let same = |x: &Part<'_>, y: &Part<'_>| std::ptr::eq(x.text, y.text) || x.text == y.text;
    let common = a.iter().zip(b).take_while(|(x, y)| same(x, y)).count();
    let mut prefix = Sha256::new();
    feed(&mut prefix, &a[..common]);
    let mut first = prefix.clone();
    feed(&mut first, &a[common..]);
    feed(&mut prefix, &b[common..]);
    (
        crate::digest::hex_lower(&first.finalize()),
        crate::digest::hex_lower(&prefix.finalize()),
    )
}

fn feed(hasher: &mut Sha256, parts: &[Part<'_>]) {
    // Room for `usize::MAX` (20 digits) and the `:`; what it held before is always overwritten.
    let mut count = [0u8; 21];
    for part in parts {
        // `<count>:` in one update: the hasher copies each small update into its block buffer.
        hasher.update(format_framing(&mut count, part.chars));
        hasher.update(part.text.as_bytes());
    }
}

/// The exact parts of one identity, for `--explain`.
pub fn parts<'a>(inputs: &Inputs<'a>, profile: Profile, kind: Kind) -> Vec<Part<'a>> {
    CountedInputs::new(inputs).layout(profile, kind).to_vec()
}

/// The parts of one identity, on the stack: no layout has more than ten.
struct Layout<'a> {
    parts: [Part<'a>; 10],
    len: usize,
}

impl<'a> Layout<'a> {
    fn new() -> Self {
        Layout {
            parts: [Part::default(); 10],
            len: 0,
        }
    }

    fn push(&mut self, part: Part<'a>) {
        self.parts[self.len] = part;
        self.len += 1;
    }
}

impl<'a> std::ops::Deref for Layout<'a> {
    type Target = [Part<'a>];

    fn deref(&self) -> &[Part<'a>] {
        &self.parts[..self.len]
    }
}

/// SHA-256 (lowercase hex) of the framed parts.
pub fn hash_parts(parts: &[Part<'_>]) -> String {
    let mut hasher = Sha256::new();
    feed(&mut hasher, parts);
    crate::digest::hex_lower(&hasher.finalize())
}

/// Seal's `encodeParts` of plain texts: `<scalar count>:<text>` each, concatenated (the
/// typed target key; crate-only, as it frames any texts).
pub(crate) fn frame_texts(texts: &[&str]) -> String {
    texts.iter().map(|t| Part::new(t).framed()).collect()
}

/// The framed encoding as text (what [`hash_parts`] hashes).
pub fn encode_parts(parts: &[Part<'_>]) -> String {
    parts.iter().map(Part::framed).collect()
}

/// Inputs with their scalar counts taken once (arguments can be large and appear in all
/// six identities).
struct CountedInputs<'a> {
    server: Part<'a>,
    tool: Part<'a>,
    arguments: Part<'a>,
    meta: Option<Part<'a>>,
    request_state: Option<Part<'a>>,
    input_responses: Option<Part<'a>>,
}

impl<'a> CountedInputs<'a> {
    fn new(inputs: &Inputs<'a>) -> Self {
        CountedInputs {
            server: Part::new(inputs.server),
            tool: Part::new(inputs.tool),
            arguments: Part::new(inputs.arguments),
            meta: inputs.meta.map(Part::new),
            request_state: inputs.request_state.map(Part::new),
            input_responses: inputs.input_responses.map(Part::new),
        }
    }

    fn layout(&self, profile: Profile, kind: Kind) -> Layout<'a> {
        let spec = profile.spec();
        let mut parts = Layout::new();
        match kind {
            Kind::Effect => {
                parts.push(Part::new(spec.effect_tag));
                parts.push(self.server);
            }
            Kind::Target => {
                if let Some(tag) = spec.target_tag {
                    parts.push(Part::new(tag));
                }
                // Seal frames the server identity in a guard target only when configured.
                if !self.server.text.is_empty() {
                    parts.push(self.server);
                }
            }
        }
        parts.push(self.tool);
        parts.push(self.arguments);
        let context = [
            ("meta", &self.meta),
            ("requestState", &self.request_state),
            ("inputResponses", &self.input_responses),
        ];
        for (name, value) in context {
            match (spec.context, value) {
                (ContextRule::NotFramed, _) => {}
                (ContextRule::FromFrame, Some(value)) => {
                    parts.push(Part::new(presence_label(name, true)));
                    parts.push(*value);
                }
                (ContextRule::FromFrame, None) | (ContextRule::ForcedAbsent, _) => {
                    parts.push(Part::new(presence_label(name, false)));
                    parts.push(Part::new(""));
                }
            }
        }
        parts
    }
}

fn presence_label(name: &str, present: bool) -> &'static str {
    match (name, present) {
        ("meta", true) => "meta.present",
        ("meta", false) => "meta.absent",
        ("requestState", true) => "requestState.present",
        ("requestState", false) => "requestState.absent",
        ("inputResponses", true) => "inputResponses.present",
        _ => "inputResponses.absent",
    }
}

/// `<n>:`, the framing written before a part.
fn format_framing(buffer: &mut [u8; 21], n: usize) -> &[u8] {
    let digits = format_count(buffer, n).len();
    buffer[20] = b':';
    &buffer[20 - digits..]
}

/// `n` in decimal, ending just before the buffer's last byte.
fn format_count(buffer: &mut [u8; 21], mut n: usize) -> &[u8] {
    let mut i = buffer.len() - 1;
    loop {
        i -= 1;
        buffer[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buffer[i..20]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn getting_started() -> Inputs<'static> {
        Inputs {
            server: "",
            tool: "db.execute",
            arguments: r#"{"database":"prod","sql":"drop table customers"}"#,
            meta: None,
            request_state: None,
            input_responses: None,
        }
    }

    #[test]
    fn worked_example_of_seal_host_formats_2_3() {
        let inputs = getting_started();
        let target = parts(&inputs, Profile::Host, Kind::Target);
        assert_eq!(
            encode_parts(&target),
            r#"38:seal.guard-target/v2-proposed-meta-all10:db.execute48:{"database":"prod","sql":"drop table customers"}11:meta.absent0:19:requestState.absent0:21:inputResponses.absent0:"#
        );
        let ids = compute(&inputs);
        assert_eq!(
            ids.host.target,
            "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565"
        );
        assert_eq!(ids.committed, ids.host);
    }

    #[test]
    fn framing_counts_scalars_not_bytes() {
        let part = Part::new("h\u{e9}llo \u{1F600}");
        assert_eq!(part.chars, 7);
        // The public accessors give the same (session 12: `text` → `""`/`"xyzzy"` and
        // `chars` → 0/1 survived the identity group's tests; these lines turn them red).
        assert_eq!((part.text(), part.chars()), ("h\u{e9}llo \u{1F600}", 7));
        assert_eq!(part.framed(), "7:h\u{e9}llo \u{1F600}");
    }

    #[test]
    fn counts_format_like_decimal() {
        // One buffer for every count, as `feed` keeps it: a longer count before a shorter one
        // leaves digits behind that must not show.
        let mut buffer = [b'x'; 21];
        assert_eq!(format_count(&mut buffer, 0), b"0");
        assert_eq!(format_count(&mut buffer, 1234567), b"1234567");
        assert_eq!(
            format_framing(&mut buffer, usize::MAX),
            b"18446744073709551615:"
        );
        assert_eq!(format_framing(&mut buffer, 0), b"0:");
        assert_eq!(format_framing(&mut buffer, 1234567), b"1234567:");
    }

    /// The names the approval screen, `--explain` and the JSON records show for each profile.
    /// (cargo-mutants, session 12: `name` → `""` or `"xyzzy"` survived the identity group's
    /// tests; this test turns both red.)
    #[test]
    fn profiles_are_named_as_documented() {
        assert_eq!(
            Profile::ALL.map(Profile::name),
            ["committed", "host", "legacy"]
        );
    }

    #[test]
    fn server_is_always_framed_in_effects_but_only_when_set_in_targets() {
        let inputs = getting_started();
        assert_eq!(parts(&inputs, Profile::Legacy, Kind::Effect)[1].text, "");
        assert_eq!(parts(&inputs, Profile::Legacy, Kind::Target).len(), 2);
        let with_server = Inputs {
            server: "srv-a",
            ..inputs
        };
        assert_eq!(
            parts(&with_server, Profile::Legacy, Kind::Target)[0].text,
            "srv-a"
        );
        assert_eq!(
            parts(&with_server, Profile::Committed, Kind::Target)[1].text,
            "srv-a"
        );
    }
}

#[cfg(test)]
mod vectors;
