
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'sealkit' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'sealkit'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'sealkit' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('target', 'target', [CompletionResultType]::ParameterValue, 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile')
            [CompletionResult]::new('keygen', 'keygen', [CompletionResultType]::ParameterValue, 'Create an Ed25519 approval key pair; the secret key is encrypted with a passphrase')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Inspect or protect key files')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Verify evidence: approval tokens, receipts, audit chains, statement bundles')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Audit whole receipt directories: every receipt, names, counters, chain state, files')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Pair old receipts with new ones (or with a migration output) and show what changed')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Migrate _meta-blind receipts: one record per receipt (label, changes, old and committed identity) written to NEW_DIR')
            [CompletionResult]::new('envelope', 'envelope', [CompletionResultType]::ParameterValue, 'Build the V2.3 `seal.effect/v2` signed message for one frame; optionally check an Ed25519 signature over it')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'One offline HTML page (or, with --format json, one JSON document) joining receipts, approval tokens, chain entries and captured frames for an incident')
            [CompletionResult]::new('evidence', 'evidence', [CompletionResultType]::ParameterValue, 'Trust-annotation evidence: name receipts in `evidenceRef` objects, and check the references responses carry against local evidence')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;target' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The operator''s server identity (Seal''s `server` config; never read from a frame)')
            [CompletionResult]::new('--era', '--era', [CompletionResultType]::ParameterName, 'Protocol era: detect it from the capture, or force one')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Which profiles'' targets the human table shows (JSON always carries all three)')
            [CompletionResult]::new('--tool-spec', '--tool-spec', [CompletionResultType]::ParameterName, 'JSON file mapping tool names to {"version", "manifest_digest"}: frames carrying `params.action` also get Seal''s V2 typed target (`identities.typed`)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Show the exact parts framed and hashed for every identity, and where profiles differ')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;keygen' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Directory for the key files (created with mode 0700 when missing)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Base name: writes NAME.key (secret key) and NAME.pub')
            [CompletionResult]::new('--passphrase-file', '--passphrase-file', [CompletionResultType]::ParameterName, 'Read the new key''s passphrase from the first line of FILE instead of the terminal')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--unencrypted', '--unencrypted', [CompletionResultType]::ParameterName, 'Write the secret key unencrypted, in seal-host''s bare-hex format (64 hex + LF)')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;key' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret')
            [CompletionResult]::new('protect', 'protect', [CompletionResultType]::ParameterValue, 'Encrypt a plain secret key file in place with a passphrase (atomically)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;key;show' {
            [CompletionResult]::new('--passphrase-file', '--passphrase-file', [CompletionResultType]::ParameterName, 'For an encrypted secret key written before keys stated their public key (newer ones need no passphrase): read the passphrase from the first line of FILE')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;key;protect' {
            [CompletionResult]::new('--passphrase-file', '--passphrase-file', [CompletionResultType]::ParameterName, 'Read the new passphrase from the first line of FILE instead of the terminal')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;key;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret')
            [CompletionResult]::new('protect', 'protect', [CompletionResultType]::ParameterValue, 'Encrypt a plain secret key file in place with a passphrase (atomically)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;key;help;show' {
            break
        }
        'sealkit;key;help;protect' {
            break
        }
        'sealkit;key;help;help' {
            break
        }
        'sealkit;approve' {
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'NDJSON token file the host reads (seal-host''s --token-file); one line is appended')
            [CompletionResult]::new('--refusal', '--refusal', [CompletionResultType]::ParameterName, 'The host''s refusal line (`approval required: <hex>` with result.framed_subject)')
            [CompletionResult]::new('--frame', '--frame', [CompletionResultType]::ParameterName, 'The exact blocked frame, including its LF (or CRLF) delimiter ("-" for stdin)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'The challenged target (64 lowercase hex) from `approval required: <hex>`')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'Secret key file (encrypted, or 64 hex + LF; mode 0600); default: $SEALKIT_APPROVAL_KEY_FILE')
            [CompletionResult]::new('--passphrase-file', '--passphrase-file', [CompletionResultType]::ParameterName, 'For an encrypted key file: read the passphrase from the first line of FILE')
            [CompletionResult]::new('--ssh-key', '--ssh-key', [CompletionResultType]::ParameterName, 'With --ssh-agent: the OpenSSH public key file of the agent key to sign with')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The host''s configured server identity (Seal''s `server`; never read from a frame)')
            [CompletionResult]::new('--nonce', '--nonce', [CompletionResultType]::ParameterName, 'Nonce (default: 32 random hex digits)')
            [CompletionResult]::new('--authorized-at', '--authorized-at', [CompletionResultType]::ParameterName, 'authorized_at: `now`, RFC 3339 or Unix milliseconds (default: --now)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'The signing time: `now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix milliseconds (default: the system clock). authorized_at defaults to it, and an approval already expired at it is refused')
            [CompletionResult]::new('--expiry', '--expiry', [CompletionResultType]::ParameterName, 'expiry: `now`, RFC 3339 or Unix milliseconds (default: authorized_at + TTL)')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Lifetime in SECONDS: expiry = authorized_at + TTL (default 120; the host caps its own TTL at 300)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Approval session label (default: sealkit-approve/<random hex>)')
            [CompletionResult]::new('--approver', '--approver', [CompletionResultType]::ParameterName, 'Who approves, as recorded in the signed payload')
            [CompletionResult]::new('--renderer-version', '--renderer-version', [CompletionResultType]::ParameterName, 'Approval screen layout: 3 (the default: every signed value shown, fitted to the terminal''s width), 2 (signer, validity and a one-line question first, lines as long as their values) or 1 (the first layout). Records of every version verify alike; the record names the renderer version it used')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--ssh-agent', '--ssh-agent', [CompletionResultType]::ParameterName, 'Sign with an Ed25519 key held by the running ssh-agent (SSH_AUTH_SOCK; Unix only)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Sign without asking (for scripts; no terminal needed)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Write seal-host''s signed decline for the target instead of an approval')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;verify' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('approval', 'approval', [CompletionResultType]::ParameterValue, 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding')
            [CompletionResult]::new('receipt', 'receipt', [CompletionResultType]::ParameterValue, 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)')
            [CompletionResult]::new('chain', 'chain', [CompletionResultType]::ParameterValue, 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines')
            [CompletionResult]::new('bundle', 'bundle', [CompletionResultType]::ParameterValue, 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;verify;approval' {
            [CompletionResult]::new('--pubkey', '--pubkey', [CompletionResultType]::ParameterName, 'The trusted approval public key (seal-host''s --approval-pubkey): 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either (64 hex + LF, or an OpenSSH public key line; --pubkey-file is the same option). Secret key files are refused')
            [CompletionResult]::new('--pubkey-file', '--pubkey-file', [CompletionResultType]::ParameterName, 'The trusted approval public key (seal-host''s --approval-pubkey): 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either (64 hex + LF, or an OpenSSH public key line; --pubkey-file is the same option). Secret key files are refused')
            [CompletionResult]::new('--trusted-approvers', '--trusted-approvers', [CompletionResultType]::ParameterName, 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME]')
            [CompletionResult]::new('--frame', '--frame', [CompletionResultType]::ParameterName, 'The exact frame (with delimiter) each approval must be bound to')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'The challenged target each record must name')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Check freshness at this time: `now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix milliseconds')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'The host''s approval TTL in SECONDS (capped at 300, as the host caps it)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;verify;receipt' {
            [CompletionResult]::new('--receipt-key', '--receipt-key', [CompletionResultType]::ParameterName, 'The installation''s receipt key, kept apart from the receipts (the public key recorded when the host was installed): 64 hex digits, a public key file or a raw 32-byte seed file. Without it no receipt can be authenticated; a key read from beside the receipts (where seal-host keeps its seed) authenticates nothing independent (receipt-key-in-evidence)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;verify;chain' {
            [CompletionResult]::new('--audit-lines', '--audit-lines', [CompletionResultType]::ParameterName, 'Recompute the head from raw audit lines instead (trimmed, empty lines dropped; "-" for stdin)')
            [CompletionResult]::new('--head', '--head', [CompletionResultType]::ParameterName, 'The head the chain must end at')
            [CompletionResult]::new('--state', '--state', [CompletionResultType]::ParameterName, 'A receipt directory''s .seal-audit-head.state whose head must equal the recomputed one')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;verify;bundle' {
            [CompletionResult]::new('--issuer-pubkey', '--issuer-pubkey', [CompletionResultType]::ParameterName, 'Trusted issuer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either')
            [CompletionResult]::new('--request-pubkey', '--request-pubkey', [CompletionResultType]::ParameterName, 'Trusted request-signer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either')
            [CompletionResult]::new('--approval-pubkey', '--approval-pubkey', [CompletionResultType]::ParameterName, 'Trusted approval-signer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;verify;help' {
            [CompletionResult]::new('approval', 'approval', [CompletionResultType]::ParameterValue, 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding')
            [CompletionResult]::new('receipt', 'receipt', [CompletionResultType]::ParameterValue, 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)')
            [CompletionResult]::new('chain', 'chain', [CompletionResultType]::ParameterValue, 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines')
            [CompletionResult]::new('bundle', 'bundle', [CompletionResultType]::ParameterValue, 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;verify;help;approval' {
            break
        }
        'sealkit;verify;help;receipt' {
            break
        }
        'sealkit;verify;help;chain' {
            break
        }
        'sealkit;verify;help;bundle' {
            break
        }
        'sealkit;verify;help;help' {
            break
        }
        'sealkit;audit' {
            [CompletionResult]::new('--receipt-key', '--receipt-key', [CompletionResultType]::ParameterName, 'The installation''s receipt key, kept apart from the directories audited (the public key recorded when the host was installed): 64 hex, a public key file or a raw 32-byte seed file. A key read from inside them authenticates nothing independent (receipt-key-in-evidence)')
            [CompletionResult]::new('--trusted-approvers', '--trusted-approvers', [CompletionResultType]::ParameterName, 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME] (as `verify approval`). Each approval-authorized ALLOW receipt names the approver its signed approval statement names; a key not listed, or used outside its window, is a finding. Needs --receipt-key: only an authenticated receipt''s statement is believed')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Worker threads (default: the number of cores)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;diff' {
            [CompletionResult]::new('--frames', '--frames', [CompletionResultType]::ParameterName, 'Captures of the client''s frames (as for `sealkit migrate`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The server identity to compute identities under [default: each receipt''s own]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;migrate' {
            [CompletionResult]::new('--frames', '--frames', [CompletionResultType]::ParameterName, 'Captures of the client''s frames: files of LF-terminated frames, single .frame files, or directories of them ("-" for stdin). Frames are matched by exact-frame subject')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The server identity to compute identities under [default: each receipt''s own kernel_config server, else empty]')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Where to write migration.jsonl and summary.json (created if missing; never inside an OLD_DIR)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;envelope' {
            [CompletionResult]::new('--era', '--era', [CompletionResultType]::ParameterName, 'Protocol era the frame is validated under: from its own `_meta` markers, or forced (the same validation `target` applies; a refused frame gets no message)')
            [CompletionResult]::new('--params', '--params', [CompletionResultType]::ParameterName, 'JSON file of envelope parameters (authority_hex, key_id, nonce_hex, issued_at, expires_at, adapter, session, policy_version, effect); flags override its values')
            [CompletionResult]::new('--authority', '--authority', [CompletionResultType]::ParameterName, 'The config trust root: 32 bytes as 64 hex digits')
            [CompletionResult]::new('--key-id', '--key-id', [CompletionResultType]::ParameterName, 'The principal''s registry key id')
            [CompletionResult]::new('--nonce', '--nonce', [CompletionResultType]::ParameterName, 'The envelope nonce: 32 bytes as 64 hex digits')
            [CompletionResult]::new('--issued-at', '--issued-at', [CompletionResultType]::ParameterName, 'Issue time in Unix SECONDS (or `now`, or RFC 3339 such as 2026-12-01T10:00:00Z)')
            [CompletionResult]::new('--expires-at', '--expires-at', [CompletionResultType]::ParameterName, 'Signer-declared deadline in Unix SECONDS (or `now`, or RFC 3339); Seal requires it nonzero')
            [CompletionResult]::new('--adapter-type', '--adapter-type', [CompletionResultType]::ParameterName, 'Adapter type [default: mcp]')
            [CompletionResult]::new('--adapter-version', '--adapter-version', [CompletionResultType]::ParameterName, 'Adapter version [default: 2025-06-18]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session the host issued')
            [CompletionResult]::new('--policy-version', '--policy-version', [CompletionResultType]::ParameterName, 'The policy version the signer pins')
            [CompletionResult]::new('--effect', '--effect', [CompletionResultType]::ParameterName, 'The effect claim: derived from the frame by Seal''s kernel rule, or declared absent [default: derive, unless the parameter file gives one]')
            [CompletionResult]::new('--verify', '--verify', [CompletionResultType]::ParameterName, 'Check this Ed25519 signature (128 hex digits) over the message')
            [CompletionResult]::new('--pubkey', '--pubkey', [CompletionResultType]::ParameterName, 'The signer''s Ed25519 public key, for --verify: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;report' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Where to write the page (the JSON model with --format json; with --format jsonl one row per receipt, then the annotations on no row, the findings and the verdict); replaced atomically, and never one of the inputs')
            [CompletionResult]::new('--receipt-key', '--receipt-key', [CompletionResultType]::ParameterName, 'The installation''s receipt key, kept apart from the directories reported on (the public key recorded when the host was installed): 64 hex, a public key file or a raw 32-byte seed file. A key read from inside them authenticates nothing independent (receipt-key-in-evidence)')
            [CompletionResult]::new('--pubkey', '--pubkey', [CompletionResultType]::ParameterName, 'The trusted approval public key the token files are checked against: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either')
            [CompletionResult]::new('--trusted-approvers', '--trusted-approvers', [CompletionResultType]::ParameterName, 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME] (as `verify approval` and `audit`): tokens and approval receipts name their approver')
            [CompletionResult]::new('--tokens', '--tokens', [CompletionResultType]::ParameterName, 'Approval token files (NDJSON); needs --pubkey or --trusted-approvers')
            [CompletionResult]::new('--chain', '--chain', [CompletionResultType]::ParameterName, 'Sealed logs (seal-verifiable-record/v1) whose entries are joined by request hash')
            [CompletionResult]::new('--audit-lines', '--audit-lines', [CompletionResultType]::ParameterName, 'Raw kernel audit lines, joined by request hash like a sealed log''s entries')
            [CompletionResult]::new('--frames', '--frames', [CompletionResultType]::ParameterName, 'Captures of the client''s frames (files of LF-terminated frames, .frame files or directories of them), joined by canonical request hash')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The server identity identities are computed under [default: each receipt''s own]')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'The host''s approval TTL in SECONDS, for freshness when a token was used (capped at 300, as the host caps it)')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'The page title')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Worker threads for the receipt checks (default: the number of cores)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--timestamp', '--timestamp', [CompletionResultType]::ParameterName, 'Record the generation time in the output (otherwise the same inputs give the same bytes)')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;evidence' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('ref', 'ref', [CompletionResultType]::ParameterValue, 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;evidence;ref' {
            [CompletionResult]::new('--receipt-key', '--receipt-key', [CompletionResultType]::ParameterName, 'The installation''s receipt key (64 hex, raw 32-byte seed file, or public key file). Without it no receipt authenticates, so none gets a reference')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;evidence;verify' {
            [CompletionResult]::new('--frames', '--frames', [CompletionResultType]::ParameterName, 'Captures of JSON-RPC frames (requests and responses, one per line): the references in each response''s `result._meta[ANNOTATION_KEY]`, paired with their requests')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'Files of references: one JSON value (a reference, an object with `evidenceRef`, or an array of those) or JSON Lines of them, as `sealkit evidence ref` prints')
            [CompletionResult]::new('--evidence', '--evidence', [CompletionResultType]::ParameterName, 'Where evidence is looked for: directories (a `ref` is resolved under them and never leaves them) or files. Nothing is fetched from the network')
            [CompletionResult]::new('--receipt-key', '--receipt-key', [CompletionResultType]::ParameterName, 'The installation''s receipt key (64 hex, raw 32-byte seed file, or public key file): references to Seal receipts verify only when the receipt authenticates under it')
            [CompletionResult]::new('--annotation-key', '--annotation-key', [CompletionResultType]::ParameterName, 'The `result._meta` key responses carry trust annotations under')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors (on stderr); the exit status is unchanged')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;evidence;help' {
            [CompletionResult]::new('ref', 'ref', [CompletionResultType]::ParameterValue, 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;evidence;help;ref' {
            break
        }
        'sealkit;evidence;help;verify' {
            break
        }
        'sealkit;evidence;help;help' {
            break
        }
        'sealkit;help' {
            [CompletionResult]::new('target', 'target', [CompletionResultType]::ParameterValue, 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile')
            [CompletionResult]::new('keygen', 'keygen', [CompletionResultType]::ParameterValue, 'Create an Ed25519 approval key pair; the secret key is encrypted with a passphrase')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Inspect or protect key files')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Verify evidence: approval tokens, receipts, audit chains, statement bundles')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Audit whole receipt directories: every receipt, names, counters, chain state, files')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Pair old receipts with new ones (or with a migration output) and show what changed')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Migrate _meta-blind receipts: one record per receipt (label, changes, old and committed identity) written to NEW_DIR')
            [CompletionResult]::new('envelope', 'envelope', [CompletionResultType]::ParameterValue, 'Build the V2.3 `seal.effect/v2` signed message for one frame; optionally check an Ed25519 signature over it')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'One offline HTML page (or, with --format json, one JSON document) joining receipts, approval tokens, chain entries and captured frames for an incident')
            [CompletionResult]::new('evidence', 'evidence', [CompletionResultType]::ParameterValue, 'Trust-annotation evidence: name receipts in `evidenceRef` objects, and check the references responses carry against local evidence')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;help;target' {
            break
        }
        'sealkit;help;keygen' {
            break
        }
        'sealkit;help;key' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret')
            [CompletionResult]::new('protect', 'protect', [CompletionResultType]::ParameterValue, 'Encrypt a plain secret key file in place with a passphrase (atomically)')
            break
        }
        'sealkit;help;key;show' {
            break
        }
        'sealkit;help;key;protect' {
            break
        }
        'sealkit;help;approve' {
            break
        }
        'sealkit;help;verify' {
            [CompletionResult]::new('approval', 'approval', [CompletionResultType]::ParameterValue, 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding')
            [CompletionResult]::new('receipt', 'receipt', [CompletionResultType]::ParameterValue, 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)')
            [CompletionResult]::new('chain', 'chain', [CompletionResultType]::ParameterValue, 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines')
            [CompletionResult]::new('bundle', 'bundle', [CompletionResultType]::ParameterValue, 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)')
            break
        }
        'sealkit;help;verify;approval' {
            break
        }
        'sealkit;help;verify;receipt' {
            break
        }
        'sealkit;help;verify;chain' {
            break
        }
        'sealkit;help;verify;bundle' {
            break
        }
        'sealkit;help;audit' {
            break
        }
        'sealkit;help;diff' {
            break
        }
        'sealkit;help;migrate' {
            break
        }
        'sealkit;help;envelope' {
            break
        }
        'sealkit;help;report' {
            break
        }
        'sealkit;help;evidence' {
            [CompletionResult]::new('ref', 'ref', [CompletionResultType]::ParameterValue, 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call')
            break
        }
        'sealkit;help;evidence;ref' {
            break
        }
        'sealkit;help;evidence;verify' {
            break
        }
        'sealkit;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
