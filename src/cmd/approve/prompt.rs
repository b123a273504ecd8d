//! The approval screen of renderer version 2 for `sealkit approve`: the validity the record
//! will carry is fixed before the screen is drawn (so what is shown is what is signed), the
//! signer is named with where its key lives, and a "no" reads as a calm "nothing signed".

use crate::cmd::{Global, Out};
use crate::approval::{Renderer, DEFAULT_TTL_SECONDS};
use crate::cli::{ApproveArgs, Format};
use crate::keys::{KeyLocation, Signer};
use crate::outcome::Outcome;
use crate::renderer::{self, v2};
use miette::{miette, IntoDiagnostic};

/// The renderer a record names for the chosen screen version.
pub fn renderer(version: u8) -> Renderer {
    match version {
        2 => Renderer {
            name: renderer::RENDERER_NAME.to_owned(),
            version: v2::RENDERER_VERSION.to_owned(),
            manifest_sha256: v2::manifest_sha256(),
        },
        _ => Renderer {
            name: renderer::RENDERER_NAME.to_owned(),
            version: renderer::RENDERER_VERSION.to_owned(),
            manifest_sha256: renderer::manifest_sha256(),
        },
    }
}

/// For version 2: fixes `authorized_at` (now, unless given) and, for an approval, the expiry
/// before anything is shown, and returns them. `None` for version 1, which times the record
/// when it is signed.
pub fn fix_validity(args: &mut ApproveArgs) -> miette::Result<Option<v2::Validity>> {
    if args.renderer_version != 2 {
        return Ok(None);
    }
    let authorized_at = match args.authorized_at.or(args.now) {
        Some(ms) => ms,
        None => {
            let since_epoch = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_err(|_| miette!("the system clock is before 1970; pass --authorized-at"))?;
            u64::try_from(since_epoch.as_millis()).into_diagnostic()?
        }
    };
    args.authorized_at = Some(authorized_at);
    let expiry = match args.expiry {
        Some(expiry) => expiry,
        None => authorized_at
            .saturating_add(args.ttl.unwrap_or(DEFAULT_TTL_SECONDS).saturating_mul(1000)),
    };
    if !args.deny {
        args.expiry = Some(expiry);
    }
    Ok(Some(v2::Validity {
        authorized_at,
        expiry,
    }))
}

/// The version 2 screen for this request and signer.
pub fn render(
    request: &renderer::Request<'_>,
    key: &dyn Signer,
    location: &KeyLocation,
    validity: v2::Validity,
) -> Vec<u8> {
    let decline = request.decision == renderer::Decision::Deny;
    v2::render(
        request,
        &v2::Signer {
            key_id: &key.public().key_id,
            location: &location.describe(),
        },
        (!decline).then_some(validity),
    )
}

/// A "no" at the version 2 screen: nothing signed, said plainly (exit 1, as any refusal).
pub fn declined(global: &Global) -> miette::Result<Outcome> {
    match global.format {
        Format::Human if crate::cmd::quiet() => {}
        Format::Human => eprintln!("Nothing signed: the answer was not yes. No token was written."),
        Format::Json | Format::Jsonl => {
            let mut out = Out::new();
            out.json_line(
                "refusal",
                &serde_json::json!({
                    "status": "refused",
                    "code": "not-approved",
                    "message": "nothing signed: the answer was not yes",
                }),
            )
            .into_diagnostic()?;
            out.flush().into_diagnostic()?;
        }
    }
    Ok(Outcome::Problems)
}
