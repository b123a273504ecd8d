//! What `approve` refuses before it signs, so that no token is written that the host would
//! drop or that a person did not mean to leave behind: a nonce the token file already
//! reserves, an approval already expired at signing time (a token file that is not a regular
//! file is refused before these, as an unusable input). The token file checks run again under the append's lock. A TTL over the
//! host's cap is only warned about: the host still honours the token, for at most its cap.

use super::{Global, Refused};
use crate::approval::line_reports::line_reserving_nonce;
use crate::approval::{DEFAULT_TTL_SECONDS, MAX_TTL_SECONDS};
use crate::cli::{ApproveArgs, Format};
use crate::error_code::Coded as _;
use crate::keys::PublicKey;
use crate::renderer::Decision;
use crate::tokenfile::{self, AppendError, Appended};
use std::fs::File;
use std::io::{self, BufReader, Seek, SeekFrom};

/// The checks that need no answer, run before the person is asked.
pub(super) fn before_asking(
    args: &ApproveArgs,
    public: &PublicKey,
    decision: Decision,
    now: u64,
) -> Result<(), Refused> {
    not_expired(args, decision, now)?;
    if let Some(nonce) = reserved_nonce(args, decision) {
        let file = match File::open(&args.token_file) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(refused(args, &AppendError::Io(e))),
        };
        nonce_free(file, public, nonce).map_err(|e| refused(args, &e))?;
    }
    Ok(())
}

/// Appends the signed line, checking the nonce again under the lock.
pub(super) fn append(
    args: &ApproveArgs,
    public: &PublicKey,
    decision: Decision,
    line: &str,
) -> Result<Appended, AppendError> {
    let nonce = reserved_nonce(args, decision);
    tokenfile::append_line_checked(&args.token_file, line, |file| match nonce {
        Some(nonce) => {
            file.seek(SeekFrom::Start(0))?;
            nonce_free(&mut *file, public, nonce)
        }
        None => Ok(()),
    })
}

/// The nonce to look for: one given with `--nonce` for an approval. seal-host reserves the
/// nonces of approvals only (a decline's is never reserved), and a default nonce is 128
/// random bits, so the file is only read when a person chose the nonce.
fn reserved_nonce(args: &ApproveArgs, decision: Decision) -> Option<&str> {
    match decision {
        Decision::Allow => args.nonce.as_deref(),
        Decision::Deny => None,
    }
}

fn nonce_free(file: impl io::Read, public: &PublicKey, nonce: &str) -> Result<(), AppendError> {
    let reader = BufReader::with_capacity(1 << 16, file);
    match line_reserving_nonce(reader, public, nonce)? {
        None => Ok(()),
        Some(line) => Err(AppendError::Refused {
            code: "nonce-reserved",
            message: format!(
                "line {line} already holds an approval with nonce {nonce:?} under this key; \
                 seal-host reserves a nonce once and would drop a second record with it as \
                 replayed_nonce; nothing was signed"
            ),
        }),
    }
}

/// A token file refusal (checked before signing, or again under the append's lock), with
/// what to do about it in `help`.
pub(super) fn refused(args: &ApproveArgs, error: &AppendError) -> Refused {
    let mut refused = Refused::new(
        error.code(),
        format!("{}: {error}", args.token_file.display()),
    );
    refused.help = match error.code() {
        "nonce-reserved" => Some(
            "choose another --nonce, or leave --nonce out (a default nonce is 128 random bits)"
                .to_owned(),
        ),
        _ => error.help(),
    };
    refused
}

/// The expiry the record will carry for this authorized_at.
pub(super) fn expiry(args: &ApproveArgs, authorized_at: u64) -> u64 {
    match args.expiry {
        Some(expiry) => expiry,
        None => {
            let seconds = args.ttl.unwrap_or(DEFAULT_TTL_SECONDS);
            authorized_at.saturating_add(seconds.saturating_mul(1000))
        }
    }
}

/// Refuses an approval the host would already call `expired` at `now`: past its expiry, or
/// older than the longest TTL any host policy allows (300 s).
pub(super) fn not_expired(args: &ApproveArgs, decision: Decision, now: u64) -> Result<(), Refused> {
    if decision == Decision::Deny {
        return Ok(());
    }
    let authorized_at = args.authorized_at.unwrap_or(now);
    let expiry = expiry(args, authorized_at);
    let oldest = now.saturating_sub(MAX_TTL_SECONDS * 1000);
    if now <= expiry && authorized_at >= oldest {
        return Ok(());
    }
    let time = crate::renderer::v2::utc;
    let why = if now > expiry {
        format!(
            "its expiry {} is before the signing time {}",
            time(expiry),
            time(now)
        )
    } else {
        format!(
            "authorized_at {} is more than the host's longest TTL ({MAX_TTL_SECONDS} s) before \
             the signing time {}",
            time(authorized_at),
            time(now)
        )
    };
    let mut refused = Refused::new(
        "approval-expired-at-signing",
        format!("nothing was signed: the host would drop this approval as expired: {why}"),
    );
    refused.help = Some(
        "run approve again: without --authorized-at, --expiry and --now the window starts when \
         the request is drawn, and a window that passes while you read is offered again"
            .to_owned(),
    );
    Err(refused)
}

/// Warns (stderr) when the approval's lifetime exceeds the host's TTL cap.
pub(super) fn warn_ttl(args: &ApproveArgs, decision: Decision, now: u64, global: &Global) {
    if decision == Decision::Deny {
        return;
    }
    let authorized_at = args.authorized_at.unwrap_or(now);
    let lifetime_ms = expiry(args, authorized_at).saturating_sub(authorized_at);
    if lifetime_ms <= MAX_TTL_SECONDS * 1000 {
        return;
    }
    let message = format!(
        "the approval's lifetime is {lifetime_ms} ms, over the {MAX_TTL_SECONDS} s the host caps \
         its approval TTL at: the host treats it as expired {MAX_TTL_SECONDS} s after \
         authorized_at at the latest"
    );
    if global.quiet {
        return;
    }
    match global.format {
        Format::Human => eprintln!("warning [ttl-over-host-cap]: {message}"),
        Format::Json | Format::Jsonl => eprintln!(
            "{}",
            serde_json::json!({"type": "warning", "status": "warning", "code": "ttl-over-host-cap", "message": message})
        ),
    }
}
