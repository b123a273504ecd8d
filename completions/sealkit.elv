
use builtin;
use str;

set edit:completion:arg-completer[sealkit] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'sealkit'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'sealkit'= {
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand target 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
            cand keygen 'Create an Ed25519 approval key pair; the secret key is encrypted with a passphrase'
            cand key 'Inspect or protect key files'
            cand approve 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves'
            cand verify 'Verify evidence: approval tokens, receipts, audit chains, statement bundles'
            cand audit 'Audit whole receipt directories: every receipt, names, counters, chain state, files'
            cand diff 'Pair old receipts with new ones (or with a migration output) and show what changed'
            cand migrate 'Migrate _meta-blind receipts: one record per receipt (label, changes, old and committed identity) written to NEW_DIR'
            cand envelope 'Build the V2.3 `seal.effect/v2` signed message for one frame; optionally check an Ed25519 signature over it'
            cand report 'One offline HTML page (or, with --format json, one JSON document) joining receipts, approval tokens, chain entries and captured frames for an incident'
            cand evidence 'Trust-annotation evidence: name receipts in `evidenceRef` objects, and check the references responses carry against local evidence'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;target'= {
            cand --server 'The operator''s server identity (Seal''s `server` config; never read from a frame)'
            cand --era 'Protocol era: detect it from the capture, or force one'
            cand --profile 'Which profiles'' targets the human table shows (JSON always carries all three)'
            cand --tool-spec 'JSON file mapping tool names to {"version", "manifest_digest"}: frames carrying `params.action` also get Seal''s V2 typed target (`identities.typed`)'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --explain 'Show the exact parts framed and hashed for every identity, and where profiles differ'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;keygen'= {
            cand --out-dir 'Directory for the key files (created with mode 0700 when missing)'
            cand --name 'Base name: writes NAME.key (secret key) and NAME.pub'
            cand --passphrase-file 'Read the new key''s passphrase from the first line of FILE instead of the terminal'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --unencrypted 'Write the secret key unencrypted, in seal-host''s bare-hex format (64 hex + LF)'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;key'= {
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret'
            cand protect 'Encrypt a plain secret key file in place with a passphrase (atomically)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;key;show'= {
            cand --passphrase-file 'For an encrypted secret key written before keys stated their public key (newer ones need no passphrase): read the passphrase from the first line of FILE'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;key;protect'= {
            cand --passphrase-file 'Read the new passphrase from the first line of FILE instead of the terminal'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;key;help'= {
            cand show 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret'
            cand protect 'Encrypt a plain secret key file in place with a passphrase (atomically)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;key;help;show'= {
        }
        &'sealkit;key;help;protect'= {
        }
        &'sealkit;key;help;help'= {
        }
        &'sealkit;approve'= {
            cand --token-file 'NDJSON token file the host reads (seal-host''s --token-file); one line is appended'
            cand --refusal 'The host''s refusal line (`approval required: <hex>` with result.framed_subject)'
            cand --frame 'The exact blocked frame, including its LF (or CRLF) delimiter ("-" for stdin)'
            cand --target 'The challenged target (64 lowercase hex) from `approval required: <hex>`'
            cand --key-file 'Secret key file (encrypted, or 64 hex + LF; mode 0600); default: $SEALKIT_APPROVAL_KEY_FILE'
            cand --passphrase-file 'For an encrypted key file: read the passphrase from the first line of FILE'
            cand --ssh-key 'With --ssh-agent: the OpenSSH public key file of the agent key to sign with'
            cand --server 'The host''s configured server identity (Seal''s `server`; never read from a frame)'
            cand --nonce 'Nonce (default: 32 random hex digits)'
            cand --authorized-at 'authorized_at: `now`, RFC 3339 or Unix milliseconds (default: --now)'
            cand --now 'The signing time: `now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix milliseconds (default: the system clock). authorized_at defaults to it, and an approval already expired at it is refused'
            cand --expiry 'expiry: `now`, RFC 3339 or Unix milliseconds (default: authorized_at + TTL)'
            cand --ttl 'Lifetime in SECONDS: expiry = authorized_at + TTL (default 120; the host caps its own TTL at 300)'
            cand --session 'Approval session label (default: sealkit-approve/<random hex>)'
            cand --approver 'Who approves, as recorded in the signed payload'
            cand --renderer-version 'Approval screen layout: 3 (the default: every signed value shown, fitted to the terminal''s width), 2 (signer, validity and a one-line question first, lines as long as their values) or 1 (the first layout). Records of every version verify alike; the record names the renderer version it used'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --ssh-agent 'Sign with an Ed25519 key held by the running ssh-agent (SSH_AUTH_SOCK; Unix only)'
            cand --yes 'Sign without asking (for scripts; no terminal needed)'
            cand --deny 'Write seal-host''s signed decline for the target instead of an approval'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;verify'= {
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand approval 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding'
            cand receipt 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)'
            cand chain 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines'
            cand bundle 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;verify;approval'= {
            cand --pubkey 'The trusted approval public key (seal-host''s --approval-pubkey): 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either (64 hex + LF, or an OpenSSH public key line; --pubkey-file is the same option). Secret key files are refused'
            cand --pubkey-file 'The trusted approval public key (seal-host''s --approval-pubkey): 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either (64 hex + LF, or an OpenSSH public key line; --pubkey-file is the same option). Secret key files are refused'
            cand --trusted-approvers 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME]'
            cand --frame 'The exact frame (with delimiter) each approval must be bound to'
            cand --target 'The challenged target each record must name'
            cand --now 'Check freshness at this time: `now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix milliseconds'
            cand --ttl 'The host''s approval TTL in SECONDS (capped at 300, as the host caps it)'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;verify;receipt'= {
            cand --receipt-key 'The installation''s receipt key, kept apart from the receipts (the public key recorded when the host was installed): 64 hex digits, a public key file or a raw 32-byte seed file. Without it no receipt can be authenticated; a key read from beside the receipts (where seal-host keeps its seed) authenticates nothing independent (receipt-key-in-evidence)'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;verify;chain'= {
            cand --audit-lines 'Recompute the head from raw audit lines instead (trimmed, empty lines dropped; "-" for stdin)'
            cand --head 'The head the chain must end at'
            cand --state 'A receipt directory''s .seal-audit-head.state whose head must equal the recomputed one'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;verify;bundle'= {
            cand --issuer-pubkey 'Trusted issuer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either'
            cand --request-pubkey 'Trusted request-signer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either'
            cand --approval-pubkey 'Trusted approval-signer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;verify;help'= {
            cand approval 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding'
            cand receipt 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)'
            cand chain 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines'
            cand bundle 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;verify;help;approval'= {
        }
        &'sealkit;verify;help;receipt'= {
        }
        &'sealkit;verify;help;chain'= {
        }
        &'sealkit;verify;help;bundle'= {
        }
        &'sealkit;verify;help;help'= {
        }
        &'sealkit;audit'= {
            cand --receipt-key 'The installation''s receipt key, kept apart from the directories audited (the public key recorded when the host was installed): 64 hex, a public key file or a raw 32-byte seed file. A key read from inside them authenticates nothing independent (receipt-key-in-evidence)'
            cand --trusted-approvers 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME] (as `verify approval`). Each approval-authorized ALLOW receipt names the approver its signed approval statement names; a key not listed, or used outside its window, is a finding. Needs --receipt-key: only an authenticated receipt''s statement is believed'
            cand --jobs 'Worker threads (default: the number of cores)'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;diff'= {
            cand --frames 'Captures of the client''s frames (as for `sealkit migrate`)'
            cand --server 'The server identity to compute identities under [default: each receipt''s own]'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;migrate'= {
            cand --frames 'Captures of the client''s frames: files of LF-terminated frames, single .frame files, or directories of them ("-" for stdin). Frames are matched by exact-frame subject'
            cand --server 'The server identity to compute identities under [default: each receipt''s own kernel_config server, else empty]'
            cand --out 'Where to write migration.jsonl and summary.json (created if missing; never inside an OLD_DIR)'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;envelope'= {
            cand --era 'Protocol era the frame is validated under: from its own `_meta` markers, or forced (the same validation `target` applies; a refused frame gets no message)'
            cand --params 'JSON file of envelope parameters (authority_hex, key_id, nonce_hex, issued_at, expires_at, adapter, session, policy_version, effect); flags override its values'
            cand --authority 'The config trust root: 32 bytes as 64 hex digits'
            cand --key-id 'The principal''s registry key id'
            cand --nonce 'The envelope nonce: 32 bytes as 64 hex digits'
            cand --issued-at 'Issue time in Unix SECONDS (or `now`, or RFC 3339 such as 2026-12-01T10:00:00Z)'
            cand --expires-at 'Signer-declared deadline in Unix SECONDS (or `now`, or RFC 3339); Seal requires it nonzero'
            cand --adapter-type 'Adapter type [default: mcp]'
            cand --adapter-version 'Adapter version [default: 2025-06-18]'
            cand --session 'The session the host issued'
            cand --policy-version 'The policy version the signer pins'
            cand --effect 'The effect claim: derived from the frame by Seal''s kernel rule, or declared absent [default: derive, unless the parameter file gives one]'
            cand --verify 'Check this Ed25519 signature (128 hex digits) over the message'
            cand --pubkey 'The signer''s Ed25519 public key, for --verify: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;report'= {
            cand --out 'Where to write the page (the JSON model with --format json; with --format jsonl one row per receipt, then the annotations on no row, the findings and the verdict); replaced atomically, and never one of the inputs'
            cand --receipt-key 'The installation''s receipt key, kept apart from the directories reported on (the public key recorded when the host was installed): 64 hex, a public key file or a raw 32-byte seed file. A key read from inside them authenticates nothing independent (receipt-key-in-evidence)'
            cand --pubkey 'The trusted approval public key the token files are checked against: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either'
            cand --trusted-approvers 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME] (as `verify approval` and `audit`): tokens and approval receipts name their approver'
            cand --tokens 'Approval token files (NDJSON); needs --pubkey or --trusted-approvers'
            cand --chain 'Sealed logs (seal-verifiable-record/v1) whose entries are joined by request hash'
            cand --audit-lines 'Raw kernel audit lines, joined by request hash like a sealed log''s entries'
            cand --frames 'Captures of the client''s frames (files of LF-terminated frames, .frame files or directories of them), joined by canonical request hash'
            cand --server 'The server identity identities are computed under [default: each receipt''s own]'
            cand --ttl 'The host''s approval TTL in SECONDS, for freshness when a token was used (capped at 300, as the host caps it)'
            cand --title 'The page title'
            cand --jobs 'Worker threads for the receipt checks (default: the number of cores)'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --timestamp 'Record the generation time in the output (otherwise the same inputs give the same bytes)'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;evidence'= {
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand ref 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead'
            cand verify 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;evidence;ref'= {
            cand --receipt-key 'The installation''s receipt key (64 hex, raw 32-byte seed file, or public key file). Without it no receipt authenticates, so none gets a reference'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;evidence;verify'= {
            cand --frames 'Captures of JSON-RPC frames (requests and responses, one per line): the references in each response''s `result._meta[ANNOTATION_KEY]`, paired with their requests'
            cand --refs 'Files of references: one JSON value (a reference, an object with `evidenceRef`, or an array of those) or JSON Lines of them, as `sealkit evidence ref` prints'
            cand --evidence 'Where evidence is looked for: directories (a `ref` is resolved under them and never leaves them) or files. Nothing is fetched from the network'
            cand --receipt-key 'The installation''s receipt key (64 hex, raw 32-byte seed file, or public key file): references to Seal receipts verify only when the receipt authenticates under it'
            cand --annotation-key 'The `result._meta` key responses carry trust annotations under'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -q 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand --quiet 'Print nothing but errors (on stderr); the exit status is unchanged'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;evidence;help'= {
            cand ref 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead'
            cand verify 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;evidence;help;ref'= {
        }
        &'sealkit;evidence;help;verify'= {
        }
        &'sealkit;evidence;help;help'= {
        }
        &'sealkit;help'= {
            cand target 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
            cand keygen 'Create an Ed25519 approval key pair; the secret key is encrypted with a passphrase'
            cand key 'Inspect or protect key files'
            cand approve 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves'
            cand verify 'Verify evidence: approval tokens, receipts, audit chains, statement bundles'
            cand audit 'Audit whole receipt directories: every receipt, names, counters, chain state, files'
            cand diff 'Pair old receipts with new ones (or with a migration output) and show what changed'
            cand migrate 'Migrate _meta-blind receipts: one record per receipt (label, changes, old and committed identity) written to NEW_DIR'
            cand envelope 'Build the V2.3 `seal.effect/v2` signed message for one frame; optionally check an Ed25519 signature over it'
            cand report 'One offline HTML page (or, with --format json, one JSON document) joining receipts, approval tokens, chain entries and captured frames for an incident'
            cand evidence 'Trust-annotation evidence: name receipts in `evidenceRef` objects, and check the references responses carry against local evidence'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;help;target'= {
        }
        &'sealkit;help;keygen'= {
        }
        &'sealkit;help;key'= {
            cand show 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret'
            cand protect 'Encrypt a plain secret key file in place with a passphrase (atomically)'
        }
        &'sealkit;help;key;show'= {
        }
        &'sealkit;help;key;protect'= {
        }
        &'sealkit;help;approve'= {
        }
        &'sealkit;help;verify'= {
            cand approval 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding'
            cand receipt 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)'
            cand chain 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines'
            cand bundle 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)'
        }
        &'sealkit;help;verify;approval'= {
        }
        &'sealkit;help;verify;receipt'= {
        }
        &'sealkit;help;verify;chain'= {
        }
        &'sealkit;help;verify;bundle'= {
        }
        &'sealkit;help;audit'= {
        }
        &'sealkit;help;diff'= {
        }
        &'sealkit;help;migrate'= {
        }
        &'sealkit;help;envelope'= {
        }
        &'sealkit;help;report'= {
        }
        &'sealkit;help;evidence'= {
            cand ref 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead'
            cand verify 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call'
        }
        &'sealkit;help;evidence;ref'= {
        }
        &'sealkit;help;evidence;verify'= {
        }
        &'sealkit;help;help'= {
        }
    ]
    $completions[$command]
}
