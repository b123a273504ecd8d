//! The shape of `src/`, checked on its own files: no import circle among modules, and no
//! import from a lower layer to a higher one. The layer list is written once, in
//! docs/development.md ("Layers"), and read from there.
//!
//! An import is any path a module names: `use` trees and paths in code (`crate::…`,
//! `super::…`, `self::…`, a child module's name), in test code too, never in comments or
//! string literals. Circles are counted between siblings, each sibling together with
//! everything below it: a module and its own submodules are one unit (the parent declares
//! and re-exports its children, the children use the parent's shared items), but two
//! sibling units that import each other, directly or through other siblings, are a circle.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path below the crate root (`["migrate", "run"]`); the root is `[]`.
type Module = Vec<String>;

/// Every module of `src/` (file per module; `lib.rs` is the root) and the modules it names.
struct Graph {
    files: BTreeMap<Module, String>,
    imports: BTreeMap<Module, BTreeSet<Module>>,
}

fn name(module: &[String]) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

/// The module a file under `src/` holds: `a/b.rs` and `a/b/mod.rs` are `a::b`, `lib.rs`
/// the root; `main.rs` (the binary) is no module of the library.
fn module_of(relative: &str) -> Option<Module> {
    let stem = relative.strip_suffix(".rs")?;
    if stem == "main" {
        return None;
    }
    if stem == "lib" {
        return Some(Vec::new());
    }
    let mut parts: Module = stem.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    Some(parts)
}

/// The text with comments removed and every string, byte-string and char literal emptied,
/// so that only code is left to read paths from.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after_ident = i > 0 && ident(chars[i - 1]);
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if !after_ident && raw_string_start(&chars[i..]).is_some() {
            let (skip, hashes) = raw_string_start(&chars[i..]).unwrap();
            i += skip;
            while i < chars.len()
                && !(chars[i] == '"'
                    && chars[i + 1..].iter().take(hashes).all(|&h| h == '#')
                    && chars.len() >= i + 1 + hashes)
            {
                i += 1;
            }
            i += 1 + hashes;
            out.push_str("\"\"");
        } else if c == '"' || (c == 'b' && next == Some('"') && !after_ident) {
            i += if c == 'b' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            // An escaped char literal: up to its closing quote.
            i += 2;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            // Code, or a lifetime's quote.
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `r"`, `r#"`, `br##"` …: how many chars open the literal and how many `#` close it.
fn raw_string_start(chars: &[char]) -> Option<(usize, usize)> {
    let mut i = usize::from(chars.first() == Some(&'b'));
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    (chars.get(i + hashes) == Some(&'"')).then_some((i + hashes + 1, hashes))
}

/// Identifiers, `::`, and every other non-space char as one token.
fn tokens(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let c = code[i..].chars().next().unwrap();
        let len = if c.is_alphabetic() || c == '_' {
            code[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(code.len() - i)
        } else if bytes[i..].starts_with(b"::") {
            2
        } else {
            c.len_utf8()
        };
        if !c.is_whitespace() {
            out.push(&code[i..i + len]);
        }
        i += len;
    }
    out
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The module a path names, read from `inside` (the file's module, or an inline module in
/// it): the deepest module of `files` the path walks through; `None` for a path that starts
/// outside the crate (`std::…`, a dependency, a local name).
fn resolve(files: &BTreeMap<Module, String>, inside: &[String], path: &[&str]) -> Option<Module> {
    let (mut module, rest): (Module, &[&str]) = match path.first()? {
        &"crate" => (Vec::new(), &path[1..]),
        &"self" | &"super" => {
            let mut module = inside.to_vec();
            let mut rest = path;
            while let Some(step) = rest.first().filter(|s| **s == "self" || **s == "super") {
                if *step == "super" {
                    module.pop();
                }
                rest = &rest[1..];
            }
            (module, rest)
        }
        first => {
            let mut child = inside.to_vec();
            child.push((*first).to_owned());
            files.contains_key(&child).then_some(())?;
            (inside.to_vec(), path)
        }
    };
    for segment in rest {
        module.push((*segment).to_owned());
        if !files.contains_key(&module) {
            module.pop();
            break;
        }
    }
    Some(module)
}

/// Reads the paths of one `use` tree starting at `tokens[at]`; returns where it ends.
fn use_tree<'t>(
    tokens: &[&'t str],
    mut at: usize,
    prefix: &[&'t str],
    out: &mut Vec<Vec<&'t str>>,
) -> usize {
    let mut path = prefix.to_vec();
    while at < tokens.len() {
        match tokens[at] {
            "{" => {
                at += 1;
                while at < tokens.len() && tokens[at] != "}" {
                    at = use_tree(tokens, at, &path, out);
                    if tokens.get(at) == Some(&",") {
                        at += 1;
                    }
                }
                return at + 1;
            }
            "*" => {
                out.push(path);
                return at + 1;
            }
            "::" => at += 1,
            token if is_ident(token) => {
                path.push(token);
                at += 1;
                if tokens.get(at) == Some(&"::") {
                    continue;
                }
                if tokens.get(at) == Some(&"as") {
                    at += 2;
                }
                if path.last() == Some(&"self") {
                    path.pop();
                }
                out.push(path);
                return at;
            }
            _ => return at,
        }
    }
    at
}

/// The modules one file names.
fn imports_of(files: &BTreeMap<Module, String>, module: &[String], text: &str) -> BTreeSet<Module> {
    let code = code_only(text);
    let tokens = tokens(&code);
    let mut found = BTreeSet::new();
    // Inline modules (`mod tests { … }`) and the brace depth each was opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut at = 0;
    while at < tokens.len() {
        let mut inside = module.to_vec();
        inside.extend(inline.iter().map(|(name, _)| name.clone()));
        let token = tokens[at];
        let after_path = at > 0 && tokens[at - 1] == "::";
        if token == "use" && !after_path {
            let mut paths = Vec::new();
            at = use_tree(&tokens, at + 1, &[], &mut paths);
            found.extend(paths.iter().filter_map(|p| resolve(files, &inside, p)));
            continue;
        }
        if token == "mod" && tokens.get(at + 2) == Some(&"{") {
            inline.push((tokens[at + 1].to_owned(), depth));
            depth += 1;
            at += 3;
            continue;
        }
        if token == "{" {
            depth += 1;
        } else if token == "}" {
            depth -= 1;
            if inline.last().is_some_and(|(_, opened)| *opened == depth) {
                inline.pop();
            }
        } else if is_ident(token) && !after_path && tokens.get(at + 1) == Some(&"::") {
            let mut path = vec![token];
            while tokens.get(at + 1) == Some(&"::")
                && tokens.get(at + 2).is_some_and(|t| is_ident(t))
            {
                path.push(tokens[at + 2]);
                at += 2;
            }
            found.extend(resolve(files, &inside, &path));
        }
        at += 1;
    }
    found.remove(module);
    found
}

impl Graph {
    /// The graph of a source tree given as (path under `src/`, text) pairs.
    fn of(sources: &[(String, String)]) -> Graph {
        let files: BTreeMap<Module, String> = sources
            .iter()
            .filter_map(|(path, _)| Some((module_of(path)?, path.clone())))
            .collect();
        let imports = sources
            .iter()
            .filter_map(|(path, text)| {
                let module = module_of(path)?;
                let found = imports_of(&files, &module, text);
                Some((module, found))
            })
            .collect();
        Graph { files, imports }
    }

    fn read(src: &Path) -> Graph {
        fn walk(dir: &Path, src: &Path, out: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, src, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let relative = path.strip_prefix(src).unwrap().to_str().unwrap();
                    let text = std::fs::read_to_string(&path).unwrap();
                    out.push((relative.replace('\\', "/"), text));
                }
            }
        }
        let mut sources = Vec::new();
        walk(src, src, &mut sources);
        Graph::of(&sources)
    }

    /// For each module with children: the unit (child of `parent`) each import runs
    /// between, as (from unit, to unit) → the file-level imports behind it.
    fn unit_imports(&self, parent: &[String]) -> BTreeMap<(String, String), Vec<String>> {
        let unit = |m: &Module| -> Option<String> {
            (m.len() > parent.len() && m.starts_with(parent)).then(|| m[parent.len()].clone())
        };
        let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for (from, targets) in &self.imports {
            let Some(from_unit) = unit(from) else {
                continue;
            };
            for to in targets {
                match unit(to) {
                    Some(to_unit) if to_unit != from_unit => out
                        .entry((from_unit.clone(), to_unit))
                        .or_default()
                        .push(format!("{} → {}", name(from), name(to))),
                    _ => {}
                }
            }
        }
        out
    }

    /// Every circle: the sibling units (under one parent) that reach each other, with the
    /// imports that close it.
    fn circles(&self) -> Vec<String> {
        let parents: BTreeSet<Module> = self
            .files
            .keys()
            .filter(|m| !m.is_empty())
            .map(|m| m[..m.len() - 1].to_vec())
            .collect();
        let mut found = Vec::new();
        for parent in parents {
            let arrows = self.unit_imports(&parent);
            let mut next: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
            for (from, to) in arrows.keys() {
                next.entry(from).or_default().insert(to);
            }
            let reach = |start: &str| -> BTreeSet<String> {
                let mut seen = BTreeSet::new();
                let mut todo = vec![start.to_owned()];
                while let Some(at) = todo.pop() {
                    for to in next.get(at.as_str()).into_iter().flatten() {
                        if seen.insert((*to).to_owned()) {
                            todo.push((*to).to_owned());
                        }
                    }
                }
                seen
            };
            let reached: BTreeMap<&str, BTreeSet<String>> =
                next.keys().map(|u| (*u, reach(u))).collect();
            let mut done = BTreeSet::new();
            for (unit, reaches) in &reached {
                if done.contains(*unit) || !reaches.contains(*unit) {
                    continue;
                }
                let members: BTreeSet<&str> = reached
                    .iter()
                    .filter(|(other, r)| reaches.contains(**other) && r.contains(*unit))
                    .map(|(other, _)| *other)
                    .collect();
                done.extend(members.iter().copied());
                let inside: Vec<String> = arrows
                    .iter()
                    .filter(|((a, b), _)| {
                        members.contains(a.as_str()) && members.contains(b.as_str())
                    })
                    .flat_map(|(_, why)| why.iter().cloned())
                    .collect();
                let mut prefix = parent.clone();
                let units: Vec<String> = members
                    .iter()
                    .map(|m| {
                        prefix.push((*m).to_owned());
                        let n = name(&prefix);
                        prefix.pop();
                        n
                    })
                    .collect();
                found.push(format!("{} ({})", units.join(" ↔ "), inside.join(", ")));
            }
        }
        found
    }

    /// Every import from a top-level module to one in a higher layer.
    fn upward(&self, layers: &[Vec<String>]) -> Vec<String> {
        let layer_of = |top: &str| layers.iter().position(|l| l.iter().any(|m| m == top));
        let mut found = Vec::new();
        for ((from, to), why) in self.unit_imports(&[]) {
            // A module in no layer is the listing test's finding, not an arrow's.
            if let (Some(low), Some(high)) = (layer_of(&from), layer_of(&to)) {
                if low < high {
                    found.extend(why.iter().map(|w| {
                        format!(
                            "{w} (layer {} `{from}` imports layer {} `{to}`)",
                            low + 1,
                            high + 1
                        )
                    }));
                }
            }
        }
        found
    }

    fn top_level(&self) -> BTreeSet<String> {
        self.files
            .keys()
            .filter(|m| m.len() == 1)
            .map(|m| m[0].clone())
            .collect()
    }
}

/// The layers docs/development.md lists under "## Layers", lowest first: each numbered
/// line's backticked module names after its colon.
fn layers(development: &str) -> Vec<Vec<String>> {
    let section = development
        .split_once("\n## Layers\n")
        .expect("docs/development.md has a \"## Layers\" section")
        .1;
    let section = section.split("\n#").next().unwrap();
    section
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .map(|line| {
            let (_, modules) = line
                .split_once(':')
                .expect("a layer line names modules after a colon");
            modules
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|m| {
                    m.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                })
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn src_has_no_import_circle() {
    // Seen red on main at 0c6405b with seven circles: meta ↔ refusal ↔ request,
    // migrate::output ↔ migrate::run, approval ↔ tokenfile, audit ↔ migrate ↔ receipt,
    // approval::approvers ↔ approval::report, report::html ↔ report::timeline and
    // cmd::approve ↔ cmd::approve_key ↔ cmd::passphrase.
    let circles = Graph::read(&repository().join("src")).circles();
    assert!(
        circles.is_empty(),
        "import circles in src/ (move what both sides use down to a module both can import):\n  {}",
        circles.join("\n  ")
    );
}

#[test]
fn the_layers_name_every_top_level_module_once() {
    // Seen red with the layer list naming `era` before src/era.rs existed.
    let development = std::fs::read_to_string(repository().join("docs/development.md")).unwrap();
    let layers = layers(&development);
    let graph = Graph::read(&repository().join("src"));
    let listed: Vec<&String> = layers.iter().flatten().collect();
    let top = graph.top_level();
    let unlisted: Vec<&String> = top.iter().filter(|m| !listed.contains(m)).collect();
    let unknown: Vec<&&String> = listed.iter().filter(|m| !top.contains(**m)).collect();
    let twice: BTreeSet<&&String> = listed
        .iter()
        .filter(|m| listed.iter().filter(|o| o == m).count() > 1)
        .collect();
    assert!(
        unlisted.is_empty() && unknown.is_empty() && twice.is_empty(),
        "docs/development.md's layers must name every top-level module of src/ once: \
         not listed {unlisted:?}, not in src/ {unknown:?}, listed twice {twice:?}"
    );
}

#[test]
fn no_module_imports_from_a_higher_layer() {
    // Seen red on main at 0c6405b: receipt::recompute → migrate::frames (in a test).
    let development = std::fs::read_to_string(repository().join("docs/development.md")).unwrap();
    let upward = Graph::read(&repository().join("src")).upward(&layers(&development));
    assert!(
        upward.is_empty(),
        "imports from a lower layer to a higher one (docs/development.md, Layers):\n  {}",
        upward.join("\n  ")
    );
}

/// The check itself, on small trees: it must see each kind of import, and only imports.
mod the_check {
    use super::*;

    fn graph(files: &[(&str, &str)]) -> Graph {
        let sources: Vec<(String, String)> = files
            .iter()
            .map(|(p, t)| ((*p).to_owned(), (*t).to_owned()))
            .collect();
        Graph::of(&sources)
    }

    const ROOT: (&str, &str) = ("lib.rs", "pub mod a; pub mod b; pub mod c;");

    #[test]
    fn a_circle_through_use_trees_and_code_paths_is_found() {
        // Seen red with `found.extend(resolve(…))` for code paths removed: only the `use`
        // half of the circle was left, and no circle was found.
        let circles = graph(&[
            ROOT,
            ("a.rs", "use crate::{b::{self, Thing}, c};"),
            ("b.rs", "fn f() { crate::a::g(); }"),
            ("c.rs", ""),
        ])
        .circles();
        assert_eq!(circles, ["a ↔ b (a → b, b → a)"]);
    }

    #[test]
    fn a_circle_through_a_child_counts_for_its_parent_unit() {
        let circles = graph(&[
            ROOT,
            ("a.rs", "mod inner; use crate::b::X;"),
            ("a/inner.rs", "use super::super::c::Y;"),
            ("b.rs", ""),
            ("c.rs", "fn f() -> crate::a::inner::Z { todo!() }"),
        ])
        .circles();
        assert_eq!(circles, ["a ↔ c (a::inner → c, c → a::inner)"]);
    }

    #[test]
    fn comments_strings_and_a_parent_child_pair_are_no_circle() {
        // Seen red with `code_only` returning its text unchanged: the commented and quoted
        // paths made a → b → a a circle.
        let circles = graph(&[
            ROOT,
            (
                "a.rs",
                "pub mod kid; pub use kid::K; // crate::b::x\nconst S: &str = \"crate::b::y\";",
            ),
            (
                "a/kid.rs",
                "use super::Shared; const R: &str = r#\"crate::b::\"#; const C: char = '\"';",
            ),
            (
                "b.rs",
                "/* use crate::a; */ fn f<'a>(x: &'a str) -> char { let _ = \"crate::a\"; 'q' }",
            ),
            ("c.rs", ""),
        ])
        .circles();
        assert_eq!(circles, Vec::<String>::new());
    }

    #[test]
    fn super_inside_an_inline_test_module_is_the_file_itself() {
        let g = graph(&[
            ROOT,
            ("a.rs", "mod tests { use super::*; use super::super::b; }"),
            ("b.rs", ""),
            ("c.rs", ""),
        ]);
        assert_eq!(
            g.imports[&vec!["a".to_owned()]],
            BTreeSet::from([vec!["b".to_owned()]])
        );
    }

    #[test]
    fn an_upward_import_is_named_with_its_layers() {
        let g = graph(&[
            ROOT,
            ("a.rs", "use crate::c::Top;"),
            ("b.rs", ""),
            ("c.rs", ""),
        ]);
        let layers = vec![vec!["a".to_owned(), "b".to_owned()], vec!["c".to_owned()]];
        assert_eq!(
            g.upward(&layers),
            ["a → c (layer 1 `a` imports layer 2 `c`)"]
        );
    }

    #[test]
    fn the_layer_list_is_read_from_its_section() {
        let doc = "# D\n\n## Layers\n\nIntro: `not_a_layer`.\n\n1. base: `a`, `b` (`--flag`)\n2. top, wiring: `c`\n\n## Next\n3. x: `d`\n";
        assert_eq!(layers(doc), [vec!["a", "b"], vec!["c"]]);
    }
}
