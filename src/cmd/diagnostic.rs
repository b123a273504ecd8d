//! Diagnostics for people, made inert: every text a report shows (message, code, help, each
//! cause) goes through [`crate::inert::escape`] before miette renders it, so an error that
//! quotes an input (a file name, a token field) cannot drive the terminal. JSON modes keep
//! exact values: [`json`] is the one error object scripts see, with the same code and causes.
//! [`report`] is the one conversion of a typed library error into a report: its code, help and
//! `source` chain travel with it, so neither output mode loses them.

use crate::error_code::Coded;
use crate::inert::escape;
use miette::{Diagnostic, Severity};
use std::fmt;

/// A diagnostic's texts, escaped; rendered by miette like the original.
#[derive(Debug)]
pub struct Inert {
    message: String,
    code: Option<String>,
    help: Option<String>,
    severity: Option<Severity>,
    cause: Option<Box<Cause>>,
}

/// One cause in the chain under a report, escaped.
#[derive(Debug)]
struct Cause {
    message: String,
    cause: Option<Box<Cause>>,
}

impl Inert {
    /// Escaped copies of `diagnostic`'s message, code, help, severity and causes.
    pub fn new(diagnostic: &dyn Diagnostic) -> Self {
        // People read a cause once: one whose text the message (or a cause above it) already
        // quotes, as an I/O error often is, is not repeated under it. JSON keeps every cause.
        let mut seen = diagnostic.to_string();
        let mut causes: Vec<String> = Vec::new();
        let mut next = diagnostic.source();
        while let Some(cause) = next {
            let text = cause.to_string();
            if !seen.contains(&text) {
                causes.push(escape(&text).into_owned());
                seen.push('\n');
                seen.push_str(&text);
            }
            next = cause.source();
        }
        let cause = causes.into_iter().rev().fold(None, |inner, message| {
            Some(Box::new(Cause {
                message,
                cause: inner,
            }))
        });
        Inert {
            message: escape(&diagnostic.to_string()).into_owned(),
            code: diagnostic
                .code()
                .map(|c| escape(&c.to_string()).into_owned()),
            help: diagnostic
                .help()
                .map(|h| escape(&h.to_string()).into_owned()),
            severity: diagnostic.severity(),
            cause,
        }
    }

    /// The report as miette's installed handler shows it on stderr.
    pub fn report(self) -> miette::Report {
        miette::Report::new(self)
    }

    /// The report for stderr, as miette's own handler lays it out there (width, unicode),
    /// coloured only if `color` (`--color`, NO_COLOR and whether stderr is a terminal).
    pub fn for_stderr(self, color: bool) -> ForStderr {
        ForStderr {
            inert: self,
            handler: miette::MietteHandlerOpts::new().color(color).build(),
        }
    }

    /// The report rendered without colour unless `color` (for reports written to stdout).
    pub fn render(&self, color: bool) -> String {
        let theme = if color {
            miette::GraphicalTheme::unicode()
        } else {
            miette::GraphicalTheme::unicode_nocolor()
        };
        let mut text = String::new();
        // Rendering into a String cannot fail for lack of space; an error would only drop
        // the diagnostic's decoration, never an unescaped text.
        let _ = miette::GraphicalReportHandler::new_themed(theme).render_report(&mut text, self);
        text
    }
}

/// A diagnostic rendered for stderr; see [`Inert::for_stderr`].
pub struct ForStderr {
    inert: Inert,
    handler: miette::MietteHandler,
}

impl fmt::Display for ForStderr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        miette::ReportHandler::debug(&self.handler, &self.inert, f)?;
        f.write_str("\n")
    }
}

/// The code a script sees for an error: the diagnostic's own (kept through every
/// `wrap_err` on the way up), else `io-error` when it is an I/O failure (`io`, which only the
/// report around it can tell) or one is among its causes, else `error`.
pub fn code_of(diagnostic: &dyn Diagnostic, io: bool) -> String {
    if let Some(code) = diagnostic.code() {
        return code.to_string();
    }
    let mut next: Option<&(dyn std::error::Error + 'static)> = diagnostic.source();
    let mut io = io;
    while let Some(cause) = next {
        io |= cause.is::<std::io::Error>();
        next = cause.source();
    }
    if io { "io-error" } else { "error" }.into()
}

/// The JSON error object: `{"type":"error","code":…,"message":…,"causes":[…]}` plus `help`
/// when the diagnostic has one. Exact texts (JSON escapes them); the causes outermost first.
pub fn json(diagnostic: &dyn Diagnostic, io: bool) -> serde_json::Value {
    let mut causes = Vec::new();
    let mut next = diagnostic.source();
    while let Some(cause) = next {
        causes.push(serde_json::Value::from(cause.to_string()));
        next = cause.source();
    }
    let mut object = serde_json::Map::new();
    object.insert("type".into(), "error".into());
    object.insert("code".into(), code_of(diagnostic, io).into());
    object.insert("message".into(), diagnostic.to_string().into());
    object.insert("causes".into(), causes.into());
    if let Some(help) = diagnostic.help() {
        object.insert("help".into(), help.to_string().into());
    }
    serde_json::Value::Object(object)
}

/// A typed library error as a report: its message, stable code, help and causes (the error's
/// `source` chain). The one conversion from library errors to what the boundary shows.
pub fn report<E>(error: E) -> miette::Report
where
    E: std::error::Error + Coded + Send + Sync + 'static,
{
    miette::Report::new(Typed {
        at: None,
        error: Box::new(error),
    })
}

/// [`report`] for an error about one input the library does not name (a file, a flag): the
/// message is `AT: ERROR`, the code, help and causes the error's own.
pub fn report_at<E>(at: impl fmt::Display, error: E) -> miette::Report
where
    E: std::error::Error + Coded + Send + Sync + 'static,
{
    miette::Report::new(Typed {
        at: Some(at.to_string()),
        error: Box::new(error),
    })
}

/// The exit status of a command stopped by `error`: the [`Coded::outcome`] of the library
/// error under it (nothing to check is 1), else could not check (2). The one place the
/// error boundary learns it.
pub fn outcome_of(error: &miette::Report) -> crate::outcome::Outcome {
    error
        .chain()
        .find_map(|cause| cause.downcast_ref::<Typed>())
        .map_or(crate::outcome::Outcome::Unchecked, |typed| {
            typed.error.outcome()
        })
}

/// A library error: its message, code, help, exit status and causes.
trait CodedError: std::error::Error + Coded + Send + Sync {}

impl<E: std::error::Error + Coded + Send + Sync> CodedError for E {}

/// A library error seen as a diagnostic; see [`report`].
#[derive(Debug)]
struct Typed {
    at: Option<String>,
    error: Box<dyn CodedError>,
}

impl fmt::Display for Typed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.at {
            write!(f, "{at}: ")?;
        }
        self.error.fmt(f)
    }
}

impl std::error::Error for Typed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

impl Diagnostic for Typed {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.error.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error
            .help()
            .map(|h| Box::new(h) as Box<dyn fmt::Display + 'a>)
    }
}

impl fmt::Display for Inert {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Inert {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_deref()
            .map(|c| c as &(dyn std::error::Error + 'static))
    }
}

impl Diagnostic for Inert {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<Severity> {
        self.severity
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Cause {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_deref()
            .map(|c| c as &(dyn std::error::Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_keeps_code_causes_and_help_through_wrapping() {
        let inner = miette::MietteDiagnostic::new("key file exists")
            .with_code("key-file-exists")
            .with_help("choose another --name");
        let report = miette::Report::new(inner).wrap_err("cannot write keys/a.key");
        let value = json(report.as_ref(), false);
        assert_eq!(
            value.to_string(),
            r#"{"type":"error","code":"key-file-exists","message":"cannot write keys/a.key","causes":["key file exists"],"help":"choose another --name"}"#
        );
    }

    #[test]
    fn json_code_falls_back_to_io_error_then_error() {
        let io = std::io::Error::other("disk on fire");
        assert_eq!(
            json(&miette::MietteDiagnostic::new("x"), true)["code"],
            "io-error"
        );
        let under = miette::MietteDiagnostic::new("outer");
        assert_eq!(code_of(&under, false), "error");
        let report = miette::Report::msg(io);
        assert!(report.downcast_ref::<std::io::Error>().is_some());
        let plain = miette::miette!("no code here");
        assert_eq!(json(plain.as_ref(), false)["code"], "error");
    }

    #[test]
    fn report_carries_code_help_and_source_chain() {
        #[derive(Debug)]
        struct Failed(std::io::Error);
        impl fmt::Display for Failed {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("cannot read x")
            }
        }
        impl std::error::Error for Failed {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        impl Coded for Failed {
            fn code(&self) -> &'static str {
                "unreadable-x"
            }
            fn help(&self) -> Option<String> {
                Some("check x".into())
            }
        }
        let report = report(Failed(std::io::Error::other("disk on fire")));
        assert_eq!(
            json(report.as_ref(), false).to_string(),
            r#"{"type":"error","code":"unreadable-x","message":"cannot read x","causes":["disk on fire"],"help":"check x"}"#
        );
        let at = report_at("in.jsonl", Failed(std::io::Error::other("gone")));
        assert_eq!(
            json(at.as_ref(), false).to_string(),
            r#"{"type":"error","code":"unreadable-x","message":"in.jsonl: cannot read x","causes":["gone"],"help":"check x"}"#
        );
        // People see the same code and cause, and the broken-pipe check still finds the I/O
        // error in the chain.
        let text = Inert::new(at.as_ref()).render(false);
        assert!(
            text.contains("unreadable-x") && text.contains("gone"),
            "{text}"
        );
        assert!(at.chain().any(|c| c.is::<std::io::Error>()));
    }

    /// The boundary's exit status comes from the library error under a report, however it
    /// was wrapped: nothing to check is 1, everything else that stops a command 2.
    #[test]
    fn the_exit_status_of_a_stopping_error_is_its_own() {
        use crate::outcome::Outcome;
        let nothing = crate::input::NothingToCheck {
            evidence: crate::input::Items::Receipts,
            where_: "e".into(),
            written: false,
        };
        assert_eq!(outcome_of(&report(nothing.clone())), Outcome::Problems);
        assert_eq!(
            outcome_of(&report_at("migrate", nothing.clone())),
            Outcome::Problems
        );
        assert_eq!(
            outcome_of(&report(nothing).wrap_err("while migrating")),
            Outcome::Problems
        );
        let unreadable = crate::input::Unreadable::new(
            &crate::input::Input::Stdin,
            std::io::Error::other("gone"),
        );
        assert_eq!(outcome_of(&report(unreadable)), Outcome::Unchecked);
        assert_eq!(outcome_of(&miette::miette!("no code")), Outcome::Unchecked);
    }

    #[test]
    fn stderr_rendering_follows_color() {
        let diagnostic = miette::MietteDiagnostic::new("broken").with_code("some-code");
        let plain = Inert::new(&diagnostic).for_stderr(false).to_string();
        assert!(!plain.contains('\u{1b}'), "{plain:?}");
        assert!(
            plain.contains("some-code") && plain.contains("broken"),
            "{plain}"
        );
        let coloured = Inert::new(&diagnostic).for_stderr(true).to_string();
        assert!(coloured.contains('\u{1b}'), "{coloured:?}");
    }

    #[test]
    fn every_shown_text_is_escaped() {
        let diagnostic = miette::MietteDiagnostic::new("cannot read a\u{1b}[2Jb")
            .with_code("bad\u{7}code")
            .with_help("try \u{202e}this");
        let text = Inert::new(&diagnostic).render(false);
        assert!(text.contains("cannot read a\\u{1B}[2Jb"), "{text}");
        assert!(text.contains("bad\\u{7}code"), "{text}");
        assert!(text.contains("try \\u{202E}this"), "{text}");
        assert!(
            !text
                .chars()
                .any(|c| c != '\n' && crate::inert::is_unsafe(c)),
            "{text:?}"
        );
    }

    #[test]
    fn causes_are_kept_and_escaped() {
        let io = std::io::Error::other("inner \u{9b}31m cause");
        let report = miette::Report::from_err(io).wrap_err("outer \u{0} message");
        let inert = Inert::new(report.as_ref());
        assert_eq!(inert.to_string(), "outer \\u{0} message");
        let cause = std::error::Error::source(&inert).map(ToString::to_string);
        assert_eq!(cause.as_deref(), Some("inner \\u{9B}31m cause"));
    }

    /// A cause the message already quotes is shown once, in the message; one it does not
    /// quote stays under it.
    #[test]
    fn a_cause_the_message_quotes_is_not_repeated_for_people() {
        let quoted = miette::Report::from_err(std::io::Error::other("disk on fire"))
            .wrap_err("cannot read x: disk on fire");
        assert!(std::error::Error::source(&Inert::new(quoted.as_ref())).is_none());
        let kept = miette::Report::from_err(std::io::Error::other("disk on fire"))
            .wrap_err("cannot read x");
        let cause = std::error::Error::source(&Inert::new(kept.as_ref())).map(ToString::to_string);
        assert_eq!(cause.as_deref(), Some("disk on fire"));
    }
}
