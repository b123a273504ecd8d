
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
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('target', 'target', [CompletionResultType]::ParameterValue, 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile')
            [CompletionResult]::new('keygen', 'keygen', [CompletionResultType]::ParameterValue, 'Create an Ed25519 approval key pair in seal-host''s key file format')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Verify approvals, receipts and audit chains')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;target' {
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The operator''s server identity (Seal''s `server` config; never read from a frame)')
            [CompletionResult]::new('--era', '--era', [CompletionResultType]::ParameterName, 'Protocol era: detect it from the capture, or force one')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Which profiles'' targets the human table shows (JSON always carries all three)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Show the exact parts framed and hashed for every identity, and where profiles differ')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;keygen' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Directory for the key files (created with mode 0700 when missing)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Base name: writes NAME.key (secret seed) and NAME.pub')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;approve' {
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'NDJSON token file the host reads (seal-host''s --token-file); one line is appended')
            [CompletionResult]::new('--refusal', '--refusal', [CompletionResultType]::ParameterName, 'The host''s refusal line (`approval required: <hex>` with result.framed_subject)')
            [CompletionResult]::new('--frame', '--frame', [CompletionResultType]::ParameterName, 'The exact blocked frame, including its LF (or CRLF) delimiter')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'The challenged target (64 lowercase hex) from `approval required: <hex>`')
            [CompletionResult]::new('--key-file', '--key-file', [CompletionResultType]::ParameterName, 'Secret key file (64 hex + LF, mode 0600); default: $SEALKIT_APPROVAL_KEY_FILE')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The host''s configured server identity (Seal''s `server`; never read from a frame)')
            [CompletionResult]::new('--nonce', '--nonce', [CompletionResultType]::ParameterName, 'Nonce (default: 32 random hex digits)')
            [CompletionResult]::new('--authorized-at', '--authorized-at', [CompletionResultType]::ParameterName, 'authorized_at in Unix milliseconds (default: now)')
            [CompletionResult]::new('--expiry', '--expiry', [CompletionResultType]::ParameterName, 'expiry in Unix milliseconds (default: authorized_at + TTL)')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'Lifetime in seconds: expiry = authorized_at + TTL (default 120; the host caps its own TTL at 300)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Approval session label (default: sealkit-approve/<random hex>)')
            [CompletionResult]::new('--approver', '--approver', [CompletionResultType]::ParameterName, 'Who approves, as recorded in the signed payload')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Sign without asking (for scripts; no terminal needed)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Write seal-host''s signed decline for the target instead of an approval')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
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
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('approval', 'approval', [CompletionResultType]::ParameterValue, 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;verify;approval' {
            [CompletionResult]::new('--pubkey', '--pubkey', [CompletionResultType]::ParameterName, 'The trusted approval public key (seal-host''s --approval-pubkey), 64 hex')
            [CompletionResult]::new('--pubkey-file', '--pubkey-file', [CompletionResultType]::ParameterName, 'File holding the trusted approval public key (64 hex + LF)')
            [CompletionResult]::new('--frame', '--frame', [CompletionResultType]::ParameterName, 'The exact frame (with delimiter) each approval must be bound to')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'The challenged target each record must name')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Check freshness at this time (Unix milliseconds)')
            [CompletionResult]::new('--ttl', '--ttl', [CompletionResultType]::ParameterName, 'The host''s approval TTL in seconds (capped at 300, as the host caps it)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colour in human output')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Treat warning-severity findings as problems (exit status 1)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sealkit;verify;help' {
            [CompletionResult]::new('approval', 'approval', [CompletionResultType]::ParameterValue, 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;verify;help;approval' {
            break
        }
        'sealkit;verify;help;help' {
            break
        }
        'sealkit;help' {
            [CompletionResult]::new('target', 'target', [CompletionResultType]::ParameterValue, 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile')
            [CompletionResult]::new('keygen', 'keygen', [CompletionResultType]::ParameterValue, 'Create an Ed25519 approval key pair in seal-host''s key file format')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Verify approvals, receipts and audit chains')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;help;target' {
            break
        }
        'sealkit;help;keygen' {
            break
        }
        'sealkit;help;approve' {
            break
        }
        'sealkit;help;verify' {
            [CompletionResult]::new('approval', 'approval', [CompletionResultType]::ParameterValue, 'Check ApprovalRecord v2 token lines with seal-host''s rules, then their binding')
            break
        }
        'sealkit;help;verify;approval' {
            break
        }
        'sealkit;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
