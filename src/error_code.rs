//! The stable code of a library error. Every typed error a command can stop on names its
//! failure with a kebab-case code that scripts match on (the `code` of a JSON error object);
//! the text may change between releases, the code does not. Each also says which exit status
//! it stops a command with ([`Coded::outcome`]).

use crate::outcome::Outcome;

/// A library error's stable kebab-case code and, where there is something to say, what to do.
pub trait Coded {
    /// The stable kebab-case code of this failure.
    fn code(&self) -> &'static str;

    /// What to do about it, when there is something to say.
    fn help(&self) -> Option<String> {
        None
    }

    /// The exit status a command stopped by this error has: could not check, unless the
    /// error says there was nothing to check (a problem, exit status 1).
    fn outcome(&self) -> Outcome {
        Outcome::Unchecked
    }
}
