//! The approval screens of renderer versions 2 to 4 for `sealkit approve`: the values the
//! record will carry and that are not in the request (the validity; from version 3 on also
//! the nonce and session) are fixed before the screen is drawn, so what is shown is what is
//! signed; the signer is named with where its key lives, the approver with where its name
//! came from (version 4); a "no" reads as a calm "nothing
//! signed"; a window that passed while the person read is said in words and times, and
//! drawn again with a new window only if the person asks.

use crate::approval::{Renderer, DEFAULT_TTL_SECONDS};
use crate::cli::{ApproveArgs, Format};
use crate::cmd::Global;
use crate::keys::KeyLocation;
use crate::outcome::Outcome;
use crate::renderer::{self, v2, v3, v4};
use miette::miette;

/// The renderer a record names for the chosen screen version.
pub fn renderer(version: u8) -> Renderer {
    let (version, manifest_sha256) = match version {
        4 => (v4::RENDERER_VERSION, v4::manifest_sha256()),
        3 => (v3::RENDERER_VERSION, v3::manifest_sha256()),
        2 => (v2::RENDERER_VERSION, v2::manifest_sha256()),
        _ => (renderer::RENDERER_VERSION, renderer::manifest_sha256()),
    };
    Renderer {
        name: renderer::RENDERER_NAME.to_owned(),
        version: version.to_owned(),
        manifest_sha256,
    }
}

/// Values fixed before a version 2 or 3 screen is drawn.
#[derive(Debug, Clone)]
pub struct Fixed {
    pub validity: v2::Validity,
    /// Version 3 shows the nonce and session, so they are chosen before it is drawn.
    pub nonce: Option<String>,
    pub session: Option<String>,
    /// Whether the window may be drawn again after it passed: the person gave neither its
    /// start nor its end nor the clock, so a new window says nothing they chose.
    pub renewable: bool,
}

/// For versions 2 and 3: fixes `authorized_at` (now, unless given) and, for an approval, the
/// expiry before anything is shown (version 3 also the nonce and session), and returns them.
/// `None` for version 1, which times the record when it is signed.
pub fn fix(args: &mut ApproveArgs) -> miette::Result<Option<Fixed>> {
    if args.renderer_version < 2 {
        return Ok(None);
    }
    let renewable = args.authorized_at.is_none() && args.expiry.is_none() && args.now.is_none();
    let authorized_at = match args.authorized_at.or(args.now) {
        Some(ms) => ms,
        None => crate::timestamp::now_ms()
            .ok_or_else(|| miette!("the system clock is before 1970; pass --authorized-at"))?,
    };
    let validity = window(args, authorized_at);
    let (nonce, session) = if args.renderer_version >= 3 {
        let nonce = match &args.nonce {
            Some(nonce) => nonce.clone(),
            None => super::random_hex()?,
        };
        let session = match &args.session {
            Some(session) => session.clone(),
            None => format!("sealkit-approve/{}", super::random_hex()?),
        };
        (Some(nonce), Some(session))
    } else {
        (None, None)
    };
    Ok(Some(Fixed {
        validity,
        nonce,
        session,
        renewable,
    }))
}

/// Sets the window to start at `authorized_at` with the lifetime asked for, and returns it.
fn window(args: &mut ApproveArgs, authorized_at: u64) -> v2::Validity {
    args.authorized_at = Some(authorized_at);
    let expiry = match args.expiry {
        Some(expiry) => expiry,
        None => authorized_at
            .saturating_add(args.ttl.unwrap_or(DEFAULT_TTL_SECONDS).saturating_mul(1000)),
    };
    if !args.deny {
        args.expiry = Some(expiry);
    }
    v2::Validity {
        authorized_at,
        expiry,
    }
}

/// A new window starting `now`, as long as the one that passed (the person asked for it).
pub fn renew(args: &mut ApproveArgs, fixed: &mut Fixed, now: u64) {
    let lifetime = fixed
        .validity
        .expiry
        .saturating_sub(fixed.validity.authorized_at);
    args.expiry = Some(now.saturating_add(lifetime));
    fixed.validity = window(args, now);
}

/// The approver name the record carries when `--approver` is not given.
pub const DEFAULT_APPROVER: &str = "local CLI operator";

/// The approver name the record carries: `--approver`, else [`DEFAULT_APPROVER`].
pub fn approver(args: &ApproveArgs) -> &str {
    args.approver.as_deref().unwrap_or(DEFAULT_APPROVER)
}

/// How the signer is named on the screen.
pub struct SignerShown<'a> {
    pub key_id: &'a str,
    pub location: &'a KeyLocation,
    /// An ssh-agent key's `SHA256:… comment`.
    pub fingerprint: Option<&'a str>,
}

/// The screen for this request and signer: version 1 without fixed values, else version 2
/// or 3 (at `columns`, the terminal's width).
pub fn draw(
    request: &renderer::Request<'_>,
    signer: &SignerShown<'_>,
    fixed: Option<&Fixed>,
    args: &ApproveArgs,
    columns: Option<usize>,
) -> Vec<u8> {
    let Some(fixed) = fixed else {
        return renderer::render(request);
    };
    let decline = request.decision == renderer::Decision::Deny;
    let location = signer.location.describe();
    let key_id = signer.key_id;
    match (&fixed.nonce, &fixed.session) {
        (Some(nonce), Some(session)) => {
            let shown_signer = v3::Signer {
                key_id,
                location: &location,
                fingerprint: signer.fingerprint,
            };
            let record = v3::Record {
                nonce,
                authorized_at: fixed.validity.authorized_at,
                approval: (!decline).then_some(v3::Approval {
                    expiry: fixed.validity.expiry,
                    session,
                    approver: approver(args),
                }),
            };
            let width = v3::width_for(columns);
            if args.renderer_version >= 4 {
                let source = match args.approver {
                    Some(_) => v4::ApproverSource::Flag,
                    None => v4::ApproverSource::Default,
                };
                v4::render(request, &shown_signer, &record, source, width)
            } else {
                v3::render(request, &shown_signer, &record, width)
            }
        }
        _ => v2::render(
            request,
            &v2::Signer {
                key_id,
                location: &location,
            },
            (!decline).then_some(fixed.validity),
        ),
    }
}

/// For the fixed layouts of versions 1 and 2 on a terminal narrower than their widest line:
/// a note (not part of the signed text) that lines will wrap, and that version 4 (the default) fits.
pub fn narrow_note(shown: &[u8], columns: Option<usize>, version: u8) -> Option<String> {
    let columns = columns?;
    let widest = String::from_utf8_lossy(shown)
        .lines()
        .map(|l| l.chars().count())
        .max()?;
    (version < 3 && widest > columns).then(|| {
        let note = format!(
            "note: the version {version} screen has lines up to {widest} columns and this \
             terminal has {columns}, so long lines wrap; version 4 (the default) fits the \
             terminal.\n\n"
        );
        crate::cmd::layout::wrap(&note, Some(columns))
    })
}

/// What the person is told when the window passed while they read: in words and UTC times,
/// with the question whether to draw the request again with a new window of the same length.
pub fn expired_while_reading(validity: v2::Validity, now: u64) -> String {
    let lifetime = validity.expiry.saturating_sub(validity.authorized_at) / 1000;
    format!(
        "\nThe approval window passed while you read.\n  \
         it ended at  {}\n  \
         it is now    {}\n\
         Nothing was signed (a window other than the one shown is never signed).\n\
         Draw the request again with a new {lifetime} s window starting now? [y/N] ",
        v2::utc(validity.expiry),
        v2::utc(now),
    )
}

/// A "no" at a version 2 or 3 screen: nothing signed, said plainly (exit 1, as any refusal).
pub fn declined(global: &Global) -> miette::Result<Outcome> {
    match global.format {
        Format::Human if crate::cmd::quiet() => {}
        Format::Human => eprintln!("Nothing signed: the answer was not yes. No token was written."),
        Format::Json | Format::Jsonl => {
            super::refusal_json("not-approved", "nothing signed: the answer was not yes")?;
        }
    }
    Ok(Outcome::Problems)
}
