//! The `envelope` fuzz target: parameter files, claims and the signed message.

use sealkit::envelope::{self, EffectChoice, Params, DOMAIN_TAG};
use sealkit::request::{self, Options, Session};
use sealkit::v2;

const FIXED_PARAMS: &str = r#"{"authority_hex":"abababababababababababababababababababababababababababababababab","key_id":"alice","nonce_hex":"0707070707070707070707070707070707070707070707070707070707070707","issued_at":1786000000,"expires_at":1786000300,"session":"s","policy_version":"p"}"#;

/// A `tools/call` frame the validation pipeline accepts, for the parameter-file half.
const FIXED_FRAME: &[u8] =
    b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"action\":\"a\",\"arguments\":{}}}\n";

/// The input as a frame and as a parameter file: a frame reaches the envelope only through
/// the validation pipeline (the library takes nothing else); the signed message of an
/// accepted frame decodes back to exactly the envelope's fields, and the gates never panic.
pub fn envelope(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(params) = Params::from_json(text) {
            let fixed = request::accept(FIXED_FRAME, &Options::default(), &mut Session::default())
                .unwrap_or_else(|r| panic!("the fixed frame is refused: {}", r.message));
            let _ = params.resolve(&fixed);
        }
    }
    if envelope::single_frame_line(data).is_none() {
        return;
    }
    let Ok(accepted) = request::accept(data, &Options::default(), &mut Session::default()) else {
        return;
    };
    let line = accepted.line();
    let _ = envelope::host_effect(&accepted);
    let base = Params::from_json(FIXED_PARAMS).unwrap_or_else(|e| panic!("fixed params: {e}"));
    for effect in [EffectChoice::Derive, EffectChoice::Absent] {
        let params = Params {
            effect: Some(effect),
            ..base.clone()
        };
        let Ok((authority, built)) = params.resolve(&accepted) else {
            continue;
        };
        let message = envelope::signed_message(&authority, &built, &accepted);
        decode::check(&message, &authority, &built, line);
        let _ = envelope::findings(&built, &accepted);
        if data.len() >= 96 {
            let mut signature = [0u8; 64];
            signature.copy_from_slice(&data[..64]);
            let mut key = [0u8; 32];
            key.copy_from_slice(&data[64..96]);
            let _ = envelope::verify_signature(&message, &signature, &key);
        }
        if let Some(claim) = &built.effect {
            assert_eq!(
                envelope::derive_effect(&accepted).as_ref(),
                Ok(claim),
                "the derived claim is deterministic"
            );
            v2::read(claim.args.as_bytes())
                .unwrap_or_else(|r| panic!("derived args are not canonical V2: {r}"));
        }
    }
}

mod decode {
    //! Reads a `seal.effect/v2` message back, field by field, independently of the
    //! writer.

    use super::*;
    use sealkit::envelope::Envelope;

    struct Cursor<'m> {
        bytes: &'m [u8],
    }

    impl<'m> Cursor<'m> {
        fn take(&mut self, n: usize) -> &'m [u8] {
            assert!(self.bytes.len() >= n, "message ends early");
            let (head, tail) = self.bytes.split_at(n);
            self.bytes = tail;
            head
        }

        fn u64(&mut self) -> u64 {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(self.take(8));
            u64::from_be_bytes(raw)
        }

        fn framed(&mut self) -> &'m [u8] {
            let n = usize::try_from(self.u64()).unwrap_or(usize::MAX);
            self.take(n)
        }

        fn byte(&mut self) -> u8 {
            self.take(1)[0]
        }
    }

    pub(super) fn check(message: &[u8], authority: &[u8; 32], e: &Envelope, line: &str) {
        let mut c = Cursor { bytes: message };
        assert_eq!(c.take(DOMAIN_TAG.len()), DOMAIN_TAG);
        assert_eq!(c.take(32), authority);
        assert_eq!(c.framed(), e.key_id.as_bytes());
        assert_eq!(c.take(32), e.nonce);
        assert_eq!(c.u64(), e.issued_at);
        assert_eq!(c.u64(), e.expires_at);
        assert_eq!(c.framed(), line.as_bytes());
        assert_eq!(c.framed(), e.adapter_type.as_bytes());
        assert_eq!(c.framed(), e.adapter_version.as_bytes());
        assert_eq!(c.framed(), e.session.as_bytes());
        assert_eq!(c.framed(), e.policy_version.as_bytes());
        match &e.effect {
            None => assert_eq!(c.byte(), 0),
            Some(claim) => {
                assert_eq!(c.byte(), 1);
                assert_eq!(c.framed(), claim.resource.as_bytes());
                assert_eq!(c.framed(), claim.action.as_bytes());
                assert_eq!(c.framed(), claim.args.as_bytes());
                match &claim.metadata {
                    None => assert_eq!(c.byte(), 0),
                    Some(m) => {
                        assert_eq!(c.byte(), 1);
                        assert_eq!(c.framed(), m.as_bytes());
                    }
                }
                match (&claim.request_state, &claim.input_responses) {
                    (None, None) => {}
                    (Some(s), None) => {
                        assert_eq!(c.byte(), 1);
                        assert_eq!(c.framed(), s.as_bytes());
                    }
                    (None, Some(r)) => {
                        assert_eq!(c.byte(), 2);
                        assert_eq!(c.framed(), r.as_bytes());
                    }
                    (Some(s), Some(r)) => {
                        assert_eq!(c.byte(), 3);
                        assert_eq!(c.framed(), s.as_bytes());
                        assert_eq!(c.framed(), r.as_bytes());
                    }
                }
            }
        }
        assert!(c.bytes.is_empty(), "bytes after the last field");
    }
}
