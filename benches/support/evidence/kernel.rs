//! What the kernels emit for one planned decision, in seal-host's shapes: the certificates
//! (safety, temporal, consensus for high-stakes tools, budget for metered ones; each
//! `certHash` from `sealkit::receipt::cert_hash`), the audit line the host chains, and the
//! step output (`emitted_bytes`) with its route and, on a block, the client's error response.
//! The receipt's verdict, reason, `deny_kernel` and authorization follow from them as the host
//! derives them.

use super::plan::{Budget, Decision, Safety, Tool};
use serde_json::{json, Map, Value};

/// One kernel certificate.
#[derive(Debug, Clone)]
pub struct Cert {
    pub kernel: &'static str,
    pub allow: bool,
    pub reason: String,
}

impl Cert {
    fn verdict(&self) -> &'static str {
        if self.allow {
            "allow"
        } else {
            "deny"
        }
    }

    /// `{"certHash","kernel","reason","verdict"}` (the kernel's member order).
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert(
            "certHash".into(),
            json!(sealkit::receipt::cert_hash(
                self.kernel,
                self.verdict(),
                &self.reason
            )),
        );
        map.insert("kernel".into(), json!(self.kernel));
        map.insert("reason".into(), json!(self.reason));
        map.insert("verdict".into(), json!(self.verdict()));
        Value::Object(map)
    }
}

/// The kernels' output for one call.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub certs: Vec<Cert>,
    /// The audit line (the chained payload).
    pub audit_line: String,
    /// The step output, verbatim.
    pub emitted_bytes: String,
}

impl Outcome {
    pub fn forwarded(&self) -> bool {
        self.certs.iter().all(|c| c.allow)
    }

    /// The first denying certificate.
    pub fn denied_by(&self) -> Option<&Cert> {
        self.certs.iter().find(|c| !c.allow)
    }

    pub fn verdict(&self) -> &'static str {
        if self.forwarded() {
            "ALLOW"
        } else {
            "BLOCK"
        }
    }

    /// The receipt's `reason`.
    pub fn reason(&self) -> String {
        match self.denied_by() {
            Some(cert) => format!("{} kernel: {}", cert.kernel, cert.reason),
            None => "every gating kernel allows".into(),
        }
    }

    /// The receipt's `authorization` (ALLOW only).
    pub fn authorization(&self) -> Option<&'static str> {
        self.forwarded().then(|| match self.certs.first() {
            Some(cert) if cert.reason == "explicit policy allow" => "explicit_policy_allow",
            _ => "approval",
        })
    }

    /// The safety certificate's reason when it is a guard target.
    pub fn target(&self) -> Option<&str> {
        let safety = &self.certs.first()?.reason;
        sealkit::digest::is_sha256_hex(safety).then_some(safety.as_str())
    }
}

/// Runs the planned decision through the kernels. `target` is the call's guard target (the
/// host-profile target for the current host, the legacy one for the older host), needed when
/// the safety kernel names it; `id` is the frame's JSON-RPC id, echoed in a block's response.
pub fn run(
    decision: &Decision,
    tool: Tool,
    epoch: u64,
    request_sha256: &str,
    target: &str,
    id: &Value,
) -> Outcome {
    let mut certs = vec![match decision.safety {
        Safety::ExplicitAllow => cert("safety", true, "explicit policy allow".into()),
        Safety::Approved => cert("safety", true, target.to_owned()),
        Safety::AwaitingApproval => cert("safety", false, target.to_owned()),
        Safety::NoRule => cert("safety", false, "no matching policy rule".into()),
    }];
    certs.push(cert(
        "temporal",
        true,
        format!("trace ok ({} events)", decision.events),
    ));
    if tool.high_stakes() {
        certs.push(cert(
            "consensus",
            true,
            format!(
                "quorum 2 of 3 (votes {})",
                ["1,2", "1,3", "2,3"][decision.events as usize % 3]
            ),
        ));
    }
    match decision.budget {
        Budget::NotMetered => {}
        Budget::Within => certs.push(cert(
            "budget",
            true,
            format!("within budget: {}", tool.name()),
        )),
        Budget::Over { used, cap } => certs.push(cert(
            "budget",
            false,
            format!("over budget db-calls ({used}+1>{cap}): {}", tool.name()),
        )),
    }
    let forwarded = certs.iter().all(|c| c.allow);
    let mut audit = Map::new();
    audit.insert(
        "certs".into(),
        Value::Array(certs.iter().map(Cert::to_value).collect()),
    );
    audit.insert("epoch".into(), json!(epoch));
    audit.insert("request_sha256".into(), json!(request_sha256));
    audit.insert("tool".into(), json!(tool.name()));
    audit.insert(
        "verdict".into(),
        json!(if forwarded { "allow" } else { "deny" }),
    );
    let audit_line = serde_json::to_string(&audit).unwrap();
    let mut step = Map::new();
    step.insert("audit".into(), json!(audit_line));
    if let Some(denied) = certs.iter().find(|c| !c.allow) {
        let response = json!({
            "id": id,
            "jsonrpc": "2.0",
            "result": {"content": [{"text": format!("approval required: {}", denied.reason), "type": "text"}], "isError": true},
        });
        step.insert(
            "response".into(),
            json!(serde_json::to_string(&response).unwrap() + "\n"),
        );
    }
    step.insert(
        "route".into(),
        json!(if forwarded { "forward" } else { "block" }),
    );
    Outcome {
        certs,
        audit_line,
        emitted_bytes: serde_json::to_string(&step).unwrap(),
    }
}

fn cert(kernel: &'static str, allow: bool, reason: String) -> Cert {
    Cert {
        kernel,
        allow,
        reason,
    }
}
