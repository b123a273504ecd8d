//! The traffic of one installation, planned before any byte is built: host sessions one
//! after another (each restarts its receipt counter at 0, as seal-host does), in either era
//! (`initialize` or `server/discover`), written by the older `_meta`-blind host
//! (record_version 2) or the current one, under the configuration of their time; in each, a
//! stream of distinct requests to several tools, and what the kernels decide for each:
//! explicit allows, calls blocked until approved (half of them approved, the client then
//! sending the exact frame again, which is released), declines, calls no rule matches, and a
//! per-session budget that long sessions exhaust. Cheap enough to plan millions of calls;
//! the frames and receipts are built from it afterwards, in parallel.

use super::rng::Rng;
use super::Installation;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    Legacy,
    Modern,
}

/// Which seal-host wrote the session's receipts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostVersion {
    /// The `_meta`-blind host: record_version 2, unsigned.
    V2,
    /// record_version 3, signed.
    V3,
}

/// How the client lays its frames out, after the official SDKs' own frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    /// `jsonrpc`, `id`, `method`, `params` (Python `mcp`).
    Python,
    /// `method`, `params`, `jsonrpc`, `id` (TypeScript SDK).
    TypeScript,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    DocsRead,
    SearchQuery,
    DbQuery,
    DbExecute,
    FsWriteFile,
    PaymentsSend,
    MailSend,
    ShellExec,
}

impl Tool {
    pub const ALL: [Tool; 8] = [
        Tool::DocsRead,
        Tool::SearchQuery,
        Tool::DbQuery,
        Tool::DbExecute,
        Tool::FsWriteFile,
        Tool::PaymentsSend,
        Tool::MailSend,
        Tool::ShellExec,
    ];
    const WEIGHTS: [u32; 8] = [20, 14, 18, 14, 12, 6, 10, 2];

    pub fn name(self) -> &'static str {
        match self {
            Tool::DocsRead => "docs.read",
            Tool::SearchQuery => "search.query",
            Tool::DbQuery => "db.query",
            Tool::DbExecute => "db.execute",
            Tool::FsWriteFile => "fs.write_file",
            Tool::PaymentsSend => "payments.send",
            Tool::MailSend => "mail.send",
            Tool::ShellExec => "shell.exec",
        }
    }

    /// Whether the `db-calls` budget meters it.
    pub fn metered(self) -> bool {
        matches!(self, Tool::DbQuery | Tool::DbExecute)
    }

    /// Whether the consensus kernel votes on it (`high_stakes`).
    pub fn high_stakes(self) -> bool {
        self == Tool::PaymentsSend
    }
}

/// One host session.
#[derive(Debug, Clone)]
pub struct Session {
    pub index: u32,
    /// `seal-host-rs/stdio:<pid>:<start ms>`.
    pub name: String,
    pub era: Era,
    pub client: Client,
    /// JSON-RPC ids as strings (`"call-7"`) rather than integers.
    pub string_ids: bool,
    pub host: HostVersion,
    /// Index into [`Installation::configs`].
    pub config: usize,
    pub started_ms: u64,
    /// The client's `clientInfo`.
    pub client_name: &'static str,
    pub client_version: String,
    /// Which `clientCapabilities` it announces.
    pub capabilities: u8,
    /// Whether its `_meta` puts the reserved keys after its own ones.
    pub reserved_last: bool,
}

/// One distinct frame.
#[derive(Debug, Clone)]
pub struct Request {
    pub session: u32,
    /// The number in its JSON-RPC id.
    pub id: u64,
    pub tool: Tool,
    /// `db.execute` only: the SQL names a destructive statement (the guarded rule's match).
    pub destructive: bool,
    /// Bytes the arguments are grown to.
    pub size: usize,
    /// Ends with CRLF rather than LF.
    pub crlf: bool,
}

/// What the safety kernel certifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Safety {
    /// An allow rule: `explicit policy allow`.
    ExplicitAllow,
    /// A guarded call whose approval is consumed: allow, reason the target.
    Approved,
    /// A guarded call without approval: deny, reason the target.
    AwaitingApproval,
    /// No rule names the call: deny.
    NoRule,
}

/// What the budget kernel certifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    NotMetered,
    Within,
    Over { used: u64, cap: u64 },
}

/// One decision, one receipt.
#[derive(Debug, Clone)]
pub struct Decision {
    pub request: usize,
    pub session: u32,
    pub counter: u64,
    pub now: u64,
    /// Events in the session's temporal trace, this one included.
    pub events: u64,
    pub safety: Safety,
    pub budget: Budget,
    /// Index into [`Plan::approvals`] of the approval an `Approved` call consumes.
    pub approval: Option<usize>,
}

impl Decision {
    /// Whether every kernel allows: the call is forwarded.
    pub fn forwarded(&self) -> bool {
        matches!(self.safety, Safety::ExplicitAllow | Safety::Approved)
            && !matches!(self.budget, Budget::Over { .. })
    }
}

/// An approver's signed answer to a blocked call.
#[derive(Debug, Clone)]
pub struct Approval {
    pub request: usize,
    pub authorized_at: u64,
    /// A signed decline rather than an approval.
    pub decline: bool,
    /// Index into [`APPROVERS`].
    pub approver: usize,
    /// Shown by `sealkit approve`'s terminal renderer, else by seal's approve CLI.
    pub terminal: bool,
}

/// The people who approve.
pub const APPROVERS: [&str; 5] = [
    "alice (on-call)",
    "Bob Müller",
    "chen.wei@ops",
    "dana — security",
    "release-bot approver",
];

const CLIENTS: [(&str, &str); 5] = [
    ("mcp", "2.3.0"),
    ("claude-code", "2.1.14"),
    ("cursor-agent", "0.48.2"),
    ("ops-runbook-agent", "1.7.0"),
    ("sealkit-capture-client", "0.1.0"),
];

/// The planned traffic.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub sessions: Vec<Session>,
    pub requests: Vec<Request>,
    pub decisions: Vec<Decision>,
    pub approvals: Vec<Approval>,
}

/// The first host clock value, 2026-08-18 (the 2026-07-28 revision is out).
const EPOCH_MS: u64 = 1_787_000_000_000;

/// Plans `receipts` decisions. Sessions whose first decision falls in the first `v2_share`
/// of them are written by the record_version 2 host; those in the first 55 % run under the
/// first configuration, the rest under the second.
pub fn plan(installation: &Installation, receipts: usize, v2_share: f64) -> Plan {
    let mut rng = Rng::stream(installation.seed, 2, 0);
    let mut plan = Plan::default();
    // Several sessions whatever the count, none longer than 12,000 decisions, lengths
    // log-uniform: many short sessions, a few long ones.
    let longest = (receipts / 3).clamp(8, 12_000);
    let shortest = (longest / 50).max(3);
    let mut clock = EPOCH_MS + rng.below(86_400_000);
    while plan.decisions.len() < receipts {
        let first = plan.decisions.len();
        let length = rng.log_uniform(shortest, longest).min(receipts - first);
        let index = plan.sessions.len() as u32;
        let fraction = first as f64 / receipts as f64;
        let (client_name, client_version) = *rng.pick(&CLIENTS);
        let session = Session {
            index,
            name: format!("seal-host-rs/stdio:{}:{clock}", rng.range(1_000, 4_000_000)),
            era: if rng.chance(0.35) {
                Era::Legacy
            } else {
                Era::Modern
            },
            client: if rng.chance(0.6) {
                Client::Python
            } else {
                Client::TypeScript
            },
            string_ids: rng.chance(0.3),
            host: if fraction < v2_share {
                HostVersion::V2
            } else {
                HostVersion::V3
            },
            config: usize::from(fraction >= 0.55),
            started_ms: clock,
            client_name,
            client_version: client_version.to_owned(),
            capabilities: rng.below(4) as u8,
            reserved_last: rng.chance(0.5),
        };
        clock = plan_session(installation, &mut rng, &mut plan, session, length, clock);
        // The next host starts minutes to hours later.
        clock += rng.long_tail(20_000, 8 * 3_600_000, 0.8) as u64;
    }
    plan
}

/// Plans one session's `length` decisions from `clock`; returns the clock at its end.
fn plan_session(
    installation: &Installation,
    rng: &mut Rng,
    plan: &mut Plan,
    session: Session,
    length: usize,
    mut clock: u64,
) -> u64 {
    let config = &installation.configs[session.config];
    let index = session.index;
    plan.sessions.push(session);
    let cap = super::argument_cap_from_env();
    let (mut used, mut next_id) = (0u64, 1u64);
    let mut resend: Option<(usize, usize, u64)> = None;
    for counter in 0..length as u64 {
        let (request, safety, approval) = match resend.take() {
            Some((request, approval, at)) => {
                clock = at;
                (request, Safety::Approved, Some(approval))
            }
            None => {
                clock += rng.long_tail(40, 120_000, 1.1) as u64;
                let tool = Tool::ALL[rng.weighted(&Tool::WEIGHTS)];
                let destructive = tool == Tool::DbExecute && rng.chance(0.75);
                // A few hundred bytes mostly, tens of kilobytes now and then: reads and
                // queries up to 8 KB, writes, mails, payments and scripts up to 64 KB.
                let size = match tool {
                    Tool::DocsRead | Tool::SearchQuery | Tool::DbQuery => {
                        rng.long_tail(200, 8_192, 1.9)
                    }
                    _ => rng.long_tail(200, 65_536, 1.6),
                };
                let size = cap.map_or(size, |cap| size.min(cap.max(200)));
                next_id += 1;
                plan.requests.push(Request {
                    session: index,
                    id: next_id,
                    tool,
                    destructive,
                    size,
                    crlf: rng.chance(0.01),
                });
                let safety = match tool {
                    Tool::DocsRead | Tool::SearchQuery | Tool::DbQuery => Safety::ExplicitAllow,
                    Tool::DbExecute if !destructive => Safety::NoRule,
                    Tool::MailSend if !config.mail_guarded => Safety::NoRule,
                    Tool::ShellExec => Safety::NoRule,
                    _ => Safety::AwaitingApproval,
                };
                (plan.requests.len() - 1, safety, None)
            }
        };
        let tool = plan.requests[request].tool;
        let budget = if tool.metered() {
            if used < config.budget_cap {
                Budget::Within
            } else {
                Budget::Over {
                    used,
                    cap: config.budget_cap,
                }
            }
        } else {
            Budget::NotMetered
        };
        let decision = Decision {
            request,
            session: index,
            counter,
            now: clock,
            events: counter + 1,
            safety,
            budget,
            approval,
        };
        if decision.forwarded() && tool.metered() {
            used += 1;
        }
        plan.decisions.push(decision);
        // A blocked guarded call: an approver answers half of them; an approved call is sent
        // again, byte for byte, once the approval is in the control file.
        if safety == Safety::AwaitingApproval {
            let roll = rng.unit();
            let approver = rng.below(APPROVERS.len() as u64) as usize;
            let terminal = rng.chance(0.5);
            if roll < 0.5 && counter + 1 < length as u64 {
                let authorized_at = clock + rng.range(2_000, 100_000);
                plan.approvals.push(Approval {
                    request,
                    authorized_at,
                    decline: false,
                    approver,
                    terminal,
                });
                let at = authorized_at + rng.range(300, 8_000);
                resend = Some((request, plan.approvals.len() - 1, at));
            } else if roll < 0.58 {
                plan.approvals.push(Approval {
                    request,
                    authorized_at: clock + rng.range(2_000, 60_000),
                    decline: true,
                    approver,
                    terminal,
                });
            }
        }
    }
    clock
}
