//! The two protocol eras a `tools/call` can be read under: legacy (before `_meta` was
//! committed) and 2026-07-28. Its own module so that the `_meta` rules, the validation
//! pipeline and the refusals that record an era all import it from below.

/// The protocol era a request is read under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Era {
    #[serde(rename = "legacy")]
    Legacy,
    #[serde(rename = "2026-07-28")]
    Modern,
}

impl Era {
    pub fn as_str(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "2026-07-28",
        }
    }
}
