//! A file name in JSON output, the one way every command writes one: its text exactly when
//! the name is UTF-8; otherwise its text with each byte that is not UTF-8 read as U+FFFD and,
//! beside it, the name's exact bytes in lowercase hex under the member name with `_hex`
//! added (`"file":"a\ufffd.json","file_hex":"61ff2e6a736f6e"`). So a name a file system holds
//! never stops a JSON document half-written (serde refuses a path that is not UTF-8), every
//! output format reports the same files, and a script can still open the exact file.
//!
//! Used as `#[serde(flatten, serialize_with = "crate::path_json::file")]` on a path field (one
//! function per member name: [`file`], [`path`], [`token_file`], [`secret_key_file`],
//! [`public_key_file`], [`opt_path`] for an optional path, [`source`]
//! for a [`Shown`] path worked out once), or through [`Named`] where a record is made without
//! a struct.

use serde::ser::{SerializeMap, Serializer};
use std::path::Path;

/// A path's text for JSON, and its bytes in hex when the text is not exact.
pub fn text_and_hex(path: &Path) -> (std::borrow::Cow<'_, str>, Option<String>) {
    let bytes = path.as_os_str().as_encoded_bytes();
    match path.to_str() {
        Some(text) => (std::borrow::Cow::Borrowed(text), None),
        None => (
            String::from_utf8_lossy(bytes),
            Some(crate::digest::hex_lower(bytes)),
        ),
    }
}

/// Writes `key` (and `key_hex` when needed) for `path` into an open map.
pub fn members<M: SerializeMap>(map: &mut M, key: &str, path: &Path) -> Result<(), M::Error> {
    let (text, hex) = text_and_hex(path);
    map.serialize_entry(key, &text)?;
    if let Some(hex) = hex {
        map.serialize_entry(&format!("{key}_hex"), &hex)?;
    }
    Ok(())
}

/// The members of one named path, as a map (flattened into the record around it).
fn named<S: Serializer>(key: &str, path: Option<&Path>, serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(None)?;
    if let Some(path) = path {
        members(&mut map, key, path)?;
    }
    map.end()
}

/// One `fn NAME(path, serializer)` per member name, for `serialize_with`.
macro_rules! named_members {
    ($($name:ident),*) => {$(
        #[doc = concat!("A path under the member name `", stringify!($name), "`.")]
        pub fn $name<P: AsRef<Path>, S: Serializer>(
            path: &P,
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            named(stringify!($name), Some(path.as_ref()), serializer)
        }
    )*};
}

named_members!(file, path, token_file, secret_key_file, public_key_file);

/// An optional path under the member name `path`: no member at all when there is none.
pub fn opt_path<P: AsRef<Path>, S: Serializer>(
    path: &Option<P>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    named("path", path.as_ref().map(AsRef::as_ref), serializer)
}

/// A path's members worked out once, for records written many times (one per frame of a
/// capture): its text, and its bytes in hex when the text is not exact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    pub hex: Option<String>,
}

impl Shown {
    pub fn of(path: &Path) -> Self {
        let (text, hex) = text_and_hex(path);
        Shown {
            text: text.into_owned(),
            hex,
        }
    }
}

/// A [`Shown`] path under the member name `source`.
pub fn source<B, S>(shown: &B, serializer: S) -> Result<S::Ok, S::Error>
where
    B: std::borrow::Borrow<Shown>,
    S: Serializer,
{
    let shown = shown.borrow();
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry("source", &shown.text)?;
    if let Some(hex) = &shown.hex {
        map.serialize_entry("source_hex", hex)?;
    }
    map.end()
}

/// A path with its member name, as a value of its own (`{"file": …, "file_hex": …}`), for
/// records made without a struct.
pub struct Named<'a> {
    pub key: &'a str,
    pub path: &'a Path,
}

impl serde::Serialize for Named<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        named(self.key, Some(self.path), serializer)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[derive(serde::Serialize)]
    struct Record {
        kind: &'static str,
        #[serde(flatten, serialize_with = "file")]
        file: PathBuf,
        #[serde(flatten, serialize_with = "opt_path")]
        path: Option<PathBuf>,
        after: u8,
    }

    #[test]
    fn a_utf8_name_is_exact_and_alone() {
        let record = Record {
            kind: "k",
            file: PathBuf::from("dir/receipt-é.json"),
            path: None,
            after: 1,
        };
        assert_eq!(
            serde_json::to_string(&record).unwrap(),
            r#"{"kind":"k","file":"dir/receipt-é.json","after":1}"#
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_is_lossy_with_its_bytes_beside_it() {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"d/r-\xff.json");
        let record = Record {
            kind: "k",
            file: PathBuf::from(name),
            path: Some(PathBuf::from(name)),
            after: 2,
        };
        let text = serde_json::to_string(&record).unwrap();
        assert_eq!(
            text,
            "{\"kind\":\"k\",\"file\":\"d/r-\u{fffd}.json\",\"file_hex\":\"642f722dff2e6a736f6e\",\"path\":\"d/r-\u{fffd}.json\",\"path_hex\":\"642f722dff2e6a736f6e\",\"after\":2}"
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["file_hex"], crate::digest::hex_lower(name.as_bytes()));
    }
}
