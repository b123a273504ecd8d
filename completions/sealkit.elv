
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
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand target 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
            cand keygen 'Create an Ed25519 approval key pair in seal-host''s key file format'
            cand approve 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves'
            cand verify 'Verify approvals, receipts and audit chains'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;target'= {
            cand --server 'The operator''s server identity (Seal''s `server` config; never read from a frame)'
            cand --era 'Protocol era: detect it from the capture, or force one'
            cand --profile 'Which profiles'' targets the human table shows (JSON always carries all three)'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --explain 'Show the exact parts framed and hashed for every identity, and where profiles differ'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;keygen'= {
            cand --out-dir 'Directory for the key files (created with mode 0700 when missing)'
            cand --name 'Base name: writes NAME.key (secret seed) and NAME.pub'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;approve'= {
            cand --token-file 'NDJSON token file the host reads (seal-host''s --token-file); one line is appended'
            cand --refusal 'The host''s refusal line (`approval required: <hex>` with result.framed_subject)'
            cand --frame 'The exact blocked frame, including its LF (or CRLF) delimiter'
            cand --target 'The challenged target (64 lowercase hex) from `approval required: <hex>`'
            cand --key-file 'Secret key file (64 hex + LF, mode 0600); default: $SEALKIT_APPROVAL_KEY_FILE'
            cand --server 'The host''s configured server identity (Seal''s `server`; never read from a frame)'
            cand --nonce 'Nonce (default: 32 random hex digits)'
            cand --authorized-at 'authorized_at in Unix milliseconds (default: now)'
            cand --expiry 'expiry in Unix milliseconds (default: authorized_at + TTL)'
            cand --ttl 'Lifetime in seconds: expiry = authorized_at + TTL (default 120; the host caps its own TTL at 300)'
            cand --session 'Approval session label (default: sealkit-approve/<random hex>)'
            cand --approver 'Who approves, as recorded in the signed payload'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --yes 'Sign without asking (for scripts; no terminal needed)'
            cand --deny 'Write seal-host''s signed decline for the target instead of an approval'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;verify'= {
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand approval 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;verify;approval'= {
            cand --pubkey 'The trusted approval public key (seal-host''s --approval-pubkey), 64 hex'
            cand --pubkey-file 'File holding the trusted approval public key (64 hex + LF)'
            cand --frame 'The exact frame (with delimiter) each approval must be bound to'
            cand --target 'The challenged target each record must name'
            cand --now 'Check freshness at this time (Unix milliseconds)'
            cand --ttl 'The host''s approval TTL in seconds (capped at 300, as the host caps it)'
            cand --format 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts'
            cand --color 'When to use colour in human output'
            cand --deny-warnings 'Treat warning-severity findings as problems (exit status 1)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'sealkit;verify;help'= {
            cand approval 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;verify;help;approval'= {
        }
        &'sealkit;verify;help;help'= {
        }
        &'sealkit;help'= {
            cand target 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
            cand keygen 'Create an Ed25519 approval key pair in seal-host''s key file format'
            cand approve 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves'
            cand verify 'Verify approvals, receipts and audit chains'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;help;target'= {
        }
        &'sealkit;help;keygen'= {
        }
        &'sealkit;help;approve'= {
        }
        &'sealkit;help;verify'= {
            cand approval 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding'
        }
        &'sealkit;help;verify;approval'= {
        }
        &'sealkit;help;help'= {
        }
    ]
    $completions[$command]
}
