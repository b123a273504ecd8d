//! `sealkit approve`: a person at a terminal signs an ApprovalRecord v2 (or seal-host's signed
//! decline) for one blocked call, after reading exactly what it approves (docs/approvals.md). The frame comes from the
//! host's refusal line or is given with its target; its
//! identities are recomputed and the challenged target must match one of its profiles. The
//! text shown is sealkit's renderer output and is what `shown_sha256` commits to. Without a
//! terminal nothing is signed unless `--yes`. The order is the person's: the screen, the
//! question, and only after a yes the key is unlocked (an encrypted key's passphrase asked)
//! and the record signed. One token line is appended to the token file under an exclusive
//! lock.
//!
//! Exit: 0 signed and appended; 1 checked and refused (frame refused by validation, target
//! matching no profile, a nonce already reserved in the token file, an approval already
//! expired, or the person said no); 2 could not run (unreadable input or key, a token file
//! that is not a regular file, no terminal without `--yes`, I/O).

use super::{layout, Global, Out};
use crate::approval::binding::Subject;
use crate::approval::sign::{sign_approval, sign_decline, ApprovalInputs};
use crate::approval::{Renderer, MAX_TTL_SECONDS};
use crate::cli::{ApproveArgs, Format};
use crate::digest::{hex_lower, is_sha256_hex};
use crate::host_refusal;
use crate::identity::Profile;
use crate::input::{stdin_once, Input, Kind, MAX_SMALL_INPUT_BYTES};
use crate::keys::{self, Signer};
use crate::outcome::Outcome;
use crate::renderer::{self, Decision};
use crate::request::{self, Call, EraMode, Options, Session, Verdict};
use crate::tokenfile::{AppendError, Appended};
use miette::{miette, IntoDiagnostic};
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::Path;

mod checks;
mod key;
mod prompt;

/// Longest answer read at the prompt (seal-host's interactive limit).
const MAX_ANSWER_BYTES: u64 = 16 * 1024;

pub fn run(mut args: ApproveArgs, global: &Global) -> miette::Result<Outcome> {
    let inputs = [
        ("--refusal", args.refusal.as_deref()),
        ("--frame", args.frame.as_deref()),
        ("--passphrase-file", args.passphrase_file.as_deref()),
    ];
    stdin_once(
        inputs
            .into_iter()
            .filter_map(|(name, path)| Some((name, path?))),
    )
    .map_err(super::diagnostic::report)?;
    crate::input::refuse_stdin(
        "--token-file",
        [args.token_file.as_path()],
        "the token file is appended to, under a lock, where the host reads it",
    )
    .map_err(super::diagnostic::report)?;
    let mut key = key::ApprovalKey::load(&args)?;
    let mut fixed = prompt::fix(&mut args)?;
    let (target, frame) = challenged(&args)?;
    let call = match identify(&frame, &args.server) {
        Ok(call) => call,
        Err(refused) => return refuse(global, &refused),
    };
    let profiles = call.identities().profiles_with_target(&target);
    if profiles.is_empty() {
        return refuse(global, &no_profile(&call, &target, &args.server));
    }
    let decision = if args.deny {
        Decision::Deny
    } else {
        Decision::Allow
    };
    // A copy: a window drawn again is written back into `args` while the request is shown.
    let server = args.server.clone();
    let request = renderer::Request {
        decision,
        target: &target,
        profiles: &profiles,
        server: &server,
        call: &call,
        frame: &frame,
    };
    let location = key.location.clone();
    let fingerprint = key.fingerprint.clone();
    let public = key.public.clone();
    let signer = prompt::SignerShown {
        key_id: &public.key_id,
        location: &location,
        fingerprint: fingerprint.as_deref(),
    };
    // A token file that is not a regular file is an unusable input (exit 2, as every input
    // that cannot be used), found before anything is signed.
    crate::tokenfile::check_kind(&args.token_file)
        .map_err(|error| super::diagnostic::report_at(args.token_file.display(), error))?;
    crate::tokenfile::check_is_token_file(&args.token_file).map_err(super::diagnostic::report)?;
    // Opened once the checks that need no answer have passed (a refusal is exit 1 even
    // without a terminal); kept for a request drawn again.
    let mut tty: Option<File> = None;
    let (shown_text, now) = loop {
        let now = clock(&args)?;
        if let Err(refused) = checks::before_asking(&args, &public, decision, now) {
            return refuse(global, &refused);
        }
        checks::warn_ttl(&args, decision, now, global);
        if tty.is_none() && !args.yes {
            tty = Some(open_tty()?);
        }
        let columns = match &tty {
            Some(tty) => layout::columns(tty),
            None => layout::stdout_columns(),
        };
        let shown_text = prompt::draw(&request, &signer, fixed.as_ref(), &args, columns);
        if let Some(tty) = &mut tty {
            if let Some(note) = prompt::narrow_note(&shown_text, columns, args.renderer_version) {
                tty.write_all(note.as_bytes()).into_diagnostic()?;
            }
            if !ask(tty, &shown_text, decision, fixed.is_some())? {
                if fixed.is_some() {
                    return prompt::declined(global);
                }
                return refuse(
                    global,
                    &Refused::new("not-approved", "no token written: the answer was not yes"),
                );
            }
        }
        // Unlocked only now, once the person said yes (or --yes did): one who declines never
        // types the passphrase, and the screen is read before the key is unlocked.
        key.unlock(&args)?;
        let now = clock(&args)?;
        let Err(refused) = checks::not_expired(&args, decision, now) else {
            break (shown_text, now);
        };
        // The window passed while the person read: say so, and draw it again only if asked.
        match (&mut tty, &mut fixed) {
            (Some(tty), Some(fixed)) if fixed.renewable => {
                let told = prompt::expired_while_reading(fixed.validity, now);
                if !question(tty, told.as_bytes())? {
                    return prompt::declined(global);
                }
                let now = clock(&args)?;
                prompt::renew(&mut args, fixed, now);
            }
            _ => return refuse(global, &refused),
        }
    };
    let signed = sign(
        &args,
        key.unlock(&args)?,
        &request,
        &shown_text,
        now,
        fixed.as_ref(),
    )?;
    let appended = match checks::append(&args, &public, decision, &signed.line) {
        Ok(appended) => appended,
        Err(error) => return append_failed(global, &args, error),
    };
    report(global, &args, &signed, &profiles, &shown_text, &appended)?;
    Ok(Outcome::Good)
}

/// The challenged target and the exact frame, from the refusal line or from the flags.
fn challenged(args: &ApproveArgs) -> miette::Result<(String, Vec<u8>)> {
    if let Some(path) = &args.refusal {
        let input = Input::new(path);
        let bytes = input
            .read_whole(Kind::Refusal, MAX_SMALL_INPUT_BYTES)
            .map_err(|e| super::diagnostic::report_at("--refusal", e))?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            let found = format!("not UTF-8 (invalid byte at offset {})", e.valid_up_to());
            super::diagnostic::report_at(
                "--refusal",
                crate::input::NotThisKind::new(&input, Kind::Refusal, found),
            )
        })?;
        let challenge =
            host_refusal::parse(text).map_err(|e| super::diagnostic::report_at(&input, e))?;
        return Ok((challenge.target, challenge.frame));
    }
    let (Some(frame_path), Some(target)) = (&args.frame, &args.target) else {
        return Err(miette!(
            "give --refusal FILE, or --frame FILE with --target HEX"
        ));
    };
    if !is_sha256_hex(target) {
        return Err(miette!(
            code = "bad-target",
            "--target must be 64 lowercase hex digits, as in `approval required: <hex>`"
        ));
    }
    let frame = Input::new(frame_path)
        .read_whole(Kind::Frame, MAX_SMALL_INPUT_BYTES)
        .map_err(|e| super::diagnostic::report_at("--frame", e))?;
    check_one_frame(&frame, frame_path)?;
    Ok((target.clone(), frame))
}

/// A frame file must hold exactly one frame with its delimiter: the subject is those bytes.
fn check_one_frame(frame: &[u8], path: &Path) -> miette::Result<()> {
    let Some(body) = frame.strip_suffix(b"\n") else {
        return Err(miette!(
            code = "frame-unterminated",
            help = "the host's subject includes the frame's LF (or CRLF); use the host's \
                    refusal line (--refusal) for a frame the client ended without one",
            "{}: the frame does not end with its delimiter",
            path.display()
        ));
    };
    if body.contains(&b'\n') {
        return Err(miette!(
            code = "frame-not-one-line",
            "{}: the file holds more than one line; give exactly the blocked frame",
            path.display()
        ));
    }
    Ok(())
}

/// The signing time: `--now`, or the system clock.
fn clock(args: &ApproveArgs) -> miette::Result<u64> {
    match args.now {
        Some(now) => Ok(now),
        None => now_ms(),
    }
}

/// A refused append (nonce reserved) is a finding, exit 1; a failed one (a token file that is
/// not a regular file included) could not run, exit 2.
fn append_failed(
    global: &Global,
    args: &ApproveArgs,
    error: AppendError,
) -> miette::Result<Outcome> {
    if error.is_refusal() {
        return refuse(global, &checks::refused(args, &error));
    }
    Err(super::diagnostic::report_at(
        args.token_file.display(),
        error,
    ))
}

/// A refusal to sign that is the result of checking (exit 1).
struct Refused {
    code: String,
    message: String,
    help: Option<String>,
}

impl Refused {
    fn new(code: &str, message: impl Into<String>) -> Self {
        Refused {
            code: code.to_owned(),
            message: message.into(),
            help: None,
        }
    }
}

fn identify(frame: &[u8], server: &str) -> Result<Call, Refused> {
    let options = Options {
        server: server.to_owned(),
        era: EraMode::Auto,
    };
    match request::analyze(frame, &options, &mut Session::default()) {
        Verdict::Call(call) => Ok(*call),
        Verdict::Refused(refusal) => Err(Refused {
            code: refusal.code.as_str().to_owned(),
            message: format!(
                "sealkit refuses this frame ({}): {}; it will not approve a frame it cannot \
                 identify",
                refusal.code.as_str(),
                refusal.message
            ),
            help: None,
        }),
        Verdict::Skipped(skipped) => Err(Refused::new(
            "not-a-tools-call",
            format!(
                "the frame is a {} ({}), not a tools/call request",
                skipped.kind.as_str(),
                skipped.method.as_deref().unwrap_or("no method")
            ),
        )),
    }
}

fn no_profile(call: &Call, target: &str, server: &str) -> Refused {
    let ids = call.identities();
    Refused {
        code: "target-matches-no-profile".to_owned(),
        message: format!(
            "target {target} is none of this frame's targets (committed {}, host {}, legacy {}) \
             under server identity {server:?}",
            ids.committed.target, ids.host.target, ids.legacy.target
        ),
        help: Some(
            "check that the refusal belongs to this frame, and pass --server with the host's \
             configured server identity if it has one"
                .to_owned(),
        ),
    }
}

fn refuse(global: &Global, refused: &Refused) -> miette::Result<Outcome> {
    match global.format {
        Format::Human => {
            let mut diagnostic = miette::MietteDiagnostic::new(refused.message.clone())
                .with_code(refused.code.clone());
            if let Some(help) = &refused.help {
                diagnostic = diagnostic.with_help(help.clone());
            }
            super::show_diagnostic(&diagnostic, global);
        }
        Format::Json | Format::Jsonl => refusal_json(&refused.code, &refused.message)?,
    }
    Ok(Outcome::Problems)
}

/// The controlling terminal, where the request is shown and the answer read (never a pipe).
fn open_tty() -> miette::Result<File> {
    match OpenOptions::new().read(true).write(true).open("/dev/tty") {
        Ok(tty) if tty.is_terminal() => Ok(tty),
        _ => Err(miette!(
            code = "no-terminal",
            help = "run it at a terminal, or pass --yes to sign without asking",
            "no terminal to show the request on and ask for approval"
        )),
    }
}

/// A refusal as the one JSON object scripts read (`{"type":"refusal","status":"refused",…}`).
fn refusal_json(code: &str, message: &str) -> miette::Result<()> {
    let mut out = Out::new();
    out.json_line(
        "refusal",
        &serde_json::json!({"status": "refused", "code": code, "message": message}),
    )
    .into_diagnostic()?;
    out.flush().into_diagnostic()
}

/// Shows the text on the controlling terminal and reads an explicit yes from it.
fn ask(
    tty: &mut File,
    shown_text: &[u8],
    decision: Decision,
    question_shown: bool,
) -> miette::Result<bool> {
    let question = match decision {
        // Renderer versions 2 and 3 end their text with the question.
        _ if question_shown => "",
        Decision::Allow => "Sign an approval for exactly this request? [y/N] ",
        Decision::Deny => "Sign a decline for this request? [y/N] ",
    };
    let mut text = shown_text.to_vec();
    text.extend_from_slice(question.as_bytes());
    self::question(tty, &text)
}

/// Writes `text` (ending with its question) and reads a yes typed after it was shown.
fn question(tty: &mut File, text: &[u8]) -> miette::Result<bool> {
    // Only what is typed once the question is on the screen answers it.
    let answer = super::terminal::answer(tty, text, MAX_ANSWER_BYTES).into_diagnostic()?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// The signed line and what it says.
struct Signed {
    decision: Decision,
    line: String,
    target: String,
    nonce: String,
    authorized_at: u64,
    expiry: Option<u64>,
    session: Option<String>,
    signer_key_id: String,
    subject: Subject,
    renderer: Renderer,
}

fn sign(
    args: &ApproveArgs,
    key: &dyn Signer,
    request: &renderer::Request<'_>,
    shown_text: &[u8],
    now: u64,
    fixed: Option<&prompt::Fixed>,
) -> miette::Result<Signed> {
    let (target, frame, decision) = (request.target, request.frame, request.decision);
    let authorized_at = args.authorized_at.unwrap_or(now);
    // Version 3 showed the nonce and session it chose; versions 1 and 2 choose them now.
    let shown_nonce = fixed.and_then(|f| f.nonce.clone());
    let nonce = match shown_nonce.or_else(|| args.nonce.clone()) {
        Some(nonce) => nonce,
        None => random_hex()?,
    };
    let renderer = prompt::renderer(args.renderer_version);
    let sign_error = super::diagnostic::report::<crate::approval::sign::SignError>;
    if decision == Decision::Deny {
        let line = sign_decline(key, target, authorized_at, &nonce).map_err(sign_error)?;
        return Ok(Signed {
            decision,
            line,
            target: target.to_owned(),
            nonce,
            authorized_at,
            expiry: None,
            session: None,
            signer_key_id: key.public().key_id.clone(),
            subject: Subject::of(frame),
            renderer,
        });
    }
    let expiry = checks::expiry(args, authorized_at);
    let shown_session = fixed.and_then(|f| f.session.clone());
    let session = match shown_session.or_else(|| args.session.clone()) {
        Some(session) => session,
        None => format!("sealkit-approve/{}", random_hex()?),
    };
    let inputs = ApprovalInputs {
        target: target.to_owned(),
        authorized_at,
        expiry,
        nonce: nonce.clone(),
        session: session.clone(),
        subject: Subject::of(frame),
        shown: Subject::of(shown_text),
        renderer: renderer.clone(),
        approver: prompt::approver(args).to_owned(),
    };
    let signed = sign_approval(key, &inputs).map_err(sign_error)?;
    Ok(Signed {
        decision,
        line: signed.line,
        target: target.to_owned(),
        nonce,
        authorized_at,
        expiry: Some(expiry),
        session: Some(session),
        signer_key_id: key.public().key_id.clone(),
        subject: inputs.subject,
        renderer,
    })
}

fn now_ms() -> miette::Result<u64> {
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| miette!("the system clock is before 1970; pass --authorized-at"))?;
    u64::try_from(since_epoch.as_millis()).into_diagnostic()
}

/// 128 random bits as 32 hex digits (default nonces and sessions).
fn random_hex() -> miette::Result<String> {
    let mut bytes = [0u8; 16];
    keys::random_bytes(&mut bytes).map_err(super::diagnostic::report)?;
    Ok(hex_lower(&bytes))
}

#[derive(Serialize)]
struct Report<'a> {
    status: &'static str,
    decision: &'static str,
    target: &'a str,
    profiles: Vec<&'static str>,
    #[serde(flatten, serialize_with = "crate::path_json::token_file")]
    token_file: std::path::PathBuf,
    offset: u64,
    token_line: &'a str,
    nonce: &'a str,
    authorized_at: u64,
    expiry: Option<u64>,
    session: Option<&'a str>,
    approver: Option<&'a str>,
    signer_key_id: &'a str,
    subject: &'a Subject,
    shown: ShownReport,
    /// The renderer the record names (`null` for a decline, which commits to no shown text).
    renderer: Option<&'a Renderer>,
}

#[derive(Serialize)]
struct ShownReport {
    sha256: String,
    length: u64,
    /// Whether the signed record commits to this text (`shown_sha256`/`shown_length`).
    committed: bool,
    text: String,
}

fn report(
    global: &Global,
    args: &ApproveArgs,
    signed: &Signed,
    profiles: &[Profile],
    shown_text: &[u8],
    appended: &Appended,
) -> miette::Result<()> {
    let decision = match signed.decision {
        Decision::Allow => "allow",
        Decision::Deny => "deny",
    };
    let shown = Subject::of(shown_text);
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => {
            let report = Report {
                status: "signed",
                decision,
                target: &signed.target,
                profiles: profiles.iter().map(|p| p.name()).collect(),
                token_file: args.token_file.clone(),
                offset: appended.offset,
                token_line: &signed.line,
                nonce: &signed.nonce,
                authorized_at: signed.authorized_at,
                expiry: signed.expiry,
                session: signed.session.as_deref(),
                approver: (signed.decision == Decision::Allow).then_some(prompt::approver(args)),
                signer_key_id: &signed.signer_key_id,
                subject: &signed.subject,
                shown: ShownReport {
                    sha256: shown.sha256,
                    length: shown.length,
                    committed: signed.decision == Decision::Allow,
                    text: String::from_utf8_lossy(shown_text).into_owned(),
                },
                renderer: (signed.decision == Decision::Allow).then_some(&signed.renderer),
            };
            out.json_line("approval", &report).into_diagnostic()?;
        }
        Format::Human => {
            if args.yes {
                out.write_all(shown_text).into_diagnostic()?;
                // Versions 2 and 3 end their text with the question: --yes answered it.
                if !shown_text.ends_with(b"\n") {
                    out.write_all(b"yes (--yes)\n").into_diagnostic()?;
                }
            }
            let mut text = Vec::new();
            write_human(
                &mut text, args, signed, decision, profiles, &shown, appended,
            )
            .into_diagnostic()?;
            let text = String::from_utf8_lossy(&text);
            out.human(&text).into_diagnostic()?;
        }
    }
    out.flush().into_diagnostic()
}

fn write_human(
    out: &mut impl Write,
    args: &ApproveArgs,
    signed: &Signed,
    decision: &str,
    profiles: &[Profile],
    shown: &Subject,
    appended: &Appended,
) -> std::io::Result<()> {
    writeln!(out, "signed {decision} for target={}", signed.target)?;
    let names: Vec<&str> = profiles.iter().map(|p| p.name()).collect();
    writeln!(out, "  target profile  {}", names.join(", "))?;
    writeln!(
        out,
        "  appended to     {} (one line at byte {})",
        crate::inert::escape(&args.token_file.display().to_string()),
        appended.offset
    )?;
    writeln!(
        out,
        "  nonce           {}",
        crate::inert::escape(&signed.nonce)
    )?;
    match signed.expiry {
        Some(expiry) => {
            writeln!(
                out,
                "  authorized_at   {} ms, expiry {expiry} ms",
                signed.authorized_at
            )?;
            if expiry.saturating_sub(signed.authorized_at) > MAX_TTL_SECONDS * 1000 {
                writeln!(
                    out,
                    "  note            the host caps its approval TTL at {MAX_TTL_SECONDS} s, \
                     whatever the expiry says"
                )?;
            }
        }
        None => writeln!(out, "  issuedAt        {} ms", signed.authorized_at)?,
    }
    if let Some(session) = &signed.session {
        writeln!(out, "  session         {}", crate::inert::escape(session))?;
    }
    writeln!(out, "  signer key id   {}", signed.signer_key_id)?;
    writeln!(
        out,
        "  frame           {} bytes, sha256 {}",
        signed.subject.length, signed.subject.sha256
    )?;
    if signed.decision == Decision::Allow {
        writeln!(
            out,
            "  shown text      {} bytes, sha256 {} ({} {}, manifest {})",
            shown.length,
            shown.sha256,
            signed.renderer.name,
            signed.renderer.version,
            signed.renderer.manifest_sha256
        )?;
    }
    if appended.added_line_break {
        writeln!(
            out,
            "  note            the token file did not end with a line break; one was added first"
        )?;
    }
    Ok(())
}
