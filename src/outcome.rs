//! What a command concluded, and the exit status that says it (docs/exit-status.md): 0 everything
//! checked and good, 1 checked and found a problem, 2 could not check.

/// The conclusion of one command run. Ordered from best to worst so runs over several
/// inputs combine with [`Outcome::worst`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Everything was checked and nothing is wrong.
    Good,
    /// Everything requested was checked and at least one problem was found.
    Problems,
    /// Something could not be checked: bad usage, unreadable input, I/O failure.
    Unchecked,
}

impl Outcome {
    /// The process exit status for this outcome.
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Good => 0,
            Outcome::Problems => 1,
            Outcome::Unchecked => 2,
        }
    }

    /// The worse of two outcomes: "could not check" dominates "found a problem".
    pub fn worst(self, other: Outcome) -> Outcome {
        self.max(other)
    }

    /// The outcome in words, as the first thing a person reads says it (the report's page,
    /// `audit`'s first line).
    pub fn title(self) -> &'static str {
        match self {
            Outcome::Good => "The evidence holds",
            Outcome::Problems => "Problems found",
            Outcome::Unchecked => "Could not check",
        }
    }
}

/// Why a run, or one input of it, was not checked as a whole: the same three answers for
/// every command, each with its one exit status (docs/exit-status.md). The errors of
/// [`crate::input`] and the findings that say these things take their outcome from here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shortfall {
    /// Nothing to check where evidence was expected (an empty directory or token file): a
    /// problem, never a clean run.
    NothingToCheck,
    /// An input could not be read (missing, no permission, a directory where a file belongs,
    /// a symbolic link loop).
    CouldNotRead,
    /// An input is not the kind of file the command reads (binary data given as a token
    /// file, an empty frame file).
    NotThisKind,
}

impl Shortfall {
    /// Zero items checked is never 0; what could not be read or is not the input the
    /// command reads could not be checked.
    pub fn outcome(self) -> Outcome {
        match self {
            Shortfall::NothingToCheck => Outcome::Problems,
            Shortfall::CouldNotRead | Shortfall::NotThisKind => Outcome::Unchecked,
        }
    }
}

/// The plural ending of a counted noun in a human sentence.
pub fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A count and its noun in a human sentence: `count(1, "entry", "entries")` is `1 entry`,
/// `count(2, "entry", "entries")` is `2 entries` (for the nouns [`plural`]'s `s` does not
/// make; every summary counts through one of the two).
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_design_table() {
        assert_eq!(Outcome::Good.exit_code(), 0);
        assert_eq!(Outcome::Problems.exit_code(), 1);
        assert_eq!(Outcome::Unchecked.exit_code(), 2);
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "entry", "entries"), "1 entry");
        assert_eq!(count(0, "entry", "entries"), "0 entries");
        assert_eq!(count(2, "key", "keys"), "2 keys");
        assert_eq!(format!("1 receipt{}", plural(1)), "1 receipt");
        assert_eq!(format!("3 receipt{}", plural(3)), "3 receipts");
    }

    #[test]
    fn nothing_to_check_is_a_problem_and_what_was_not_read_was_not_checked() {
        assert_eq!(Shortfall::NothingToCheck.outcome(), Outcome::Problems);
        assert_eq!(Shortfall::CouldNotRead.outcome(), Outcome::Unchecked);
        assert_eq!(Shortfall::NotThisKind.outcome(), Outcome::Unchecked);
    }

    #[test]
    fn could_not_check_dominates() {
        assert_eq!(Outcome::Good.worst(Outcome::Problems), Outcome::Problems);
        assert_eq!(
            Outcome::Unchecked.worst(Outcome::Problems),
            Outcome::Unchecked
        );
        assert_eq!(Outcome::Good.worst(Outcome::Good), Outcome::Good);
    }
}
