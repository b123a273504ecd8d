# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_sealkit_global_optspecs
    string join \n format= deny-warnings color= q/quiet h/help V/version
end

function __fish_sealkit_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_sealkit_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_sealkit_using_subcommand
    set -l cmd (__fish_sealkit_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c sealkit -n "__fish_sealkit_needs_command" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_needs_command" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_needs_command" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_needs_command" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_needs_command" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "target" -d 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "keygen" -d 'Create an Ed25519 approval key pair; the secret key is encrypted with a passphrase'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "key" -d 'Inspect or protect key files'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "approve" -d 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "verify" -d 'Verify evidence: approval tokens, receipts, audit chains, statement bundles'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "audit" -d 'Audit whole receipt directories: every receipt, names, counters, chain state, files'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "diff" -d 'Pair old receipts with new ones (or with a migration output) and show what changed'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "migrate" -d 'Migrate _meta-blind receipts: one record per receipt (label, changes, old and committed identity) written to NEW_DIR'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "envelope" -d 'Build the V2.3 `seal.effect/v2` signed message for one frame; optionally check an Ed25519 signature over it'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "report" -d 'One offline HTML page (or, with --format json, one JSON document) joining receipts, approval tokens, chain entries and captured frames for an incident'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "evidence" -d 'Trust-annotation evidence: name receipts in `evidenceRef` objects, and check the references responses carry against local evidence'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l server -d 'The operator\'s server identity (Seal\'s `server` config; never read from a frame)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l era -d 'Protocol era: detect it from the capture, or force one' -r -f -a "auto\t'From `initialize` / `server/discover` and the frame\'s own `_meta` markers'
legacy\t'MCP before 2026-07-28: `_meta` optional'
2026-07-28\t'MCP 2026-07-28: `_meta` with protocolVersion and clientCapabilities required'"
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l profile -d 'Which profiles\' targets the human table shows (JSON always carries all three)' -r -f -a "committed\t''
host\t''
legacy\t''
all\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l tool-spec -d 'JSON file mapping tool names to {"version", "manifest_digest"}: frames carrying `params.action` also get Seal\'s V2 typed target (`identities.typed`)' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l explain -d 'Show the exact parts framed and hashed for every identity, and where profiles differ'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -l out-dir -d 'Directory for the key files (created with mode 0700 when missing)' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -l name -d 'Base name: writes NAME.key (secret key) and NAME.pub' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -l passphrase-file -d 'Read the new key\'s passphrase from the first line of FILE instead of the terminal' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -l unencrypted -d 'Write the secret key unencrypted, in seal-host\'s bare-hex format (64 hex + LF)'
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand keygen" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -f -a "show" -d 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -f -a "protect" -d 'Encrypt a plain secret key file in place with a passphrase (atomically)'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and not __fish_seen_subcommand_from show protect help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from show" -l passphrase-file -d 'For an encrypted secret key written before keys stated their public key (newer ones need no passphrase): read the passphrase from the first line of FILE' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from show" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from show" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from show" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from protect" -l passphrase-file -d 'Read the new passphrase from the first line of FILE instead of the terminal' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from protect" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from protect" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from protect" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from protect" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from protect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from protect" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "show" -d 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "protect" -d 'Encrypt a plain secret key file in place with a passphrase (atomically)'
complete -c sealkit -n "__fish_sealkit_using_subcommand key; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l token-file -d 'NDJSON token file the host reads (seal-host\'s --token-file); one line is appended' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l refusal -d 'The host\'s refusal line (`approval required: <hex>` with result.framed_subject)' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l frame -d 'The exact blocked frame, including its LF (or CRLF) delimiter ("-" for stdin)' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l target -d 'The challenged target (64 lowercase hex) from `approval required: <hex>`' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l key-file -d 'Secret key file (encrypted, or 64 hex + LF; mode 0600); default: $SEALKIT_APPROVAL_KEY_FILE' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l passphrase-file -d 'For an encrypted key file: read the passphrase from the first line of FILE' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l ssh-key -d 'With --ssh-agent: the OpenSSH public key file of the agent key to sign with' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l server -d 'The host\'s configured server identity (Seal\'s `server`; never read from a frame)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l nonce -d 'Nonce (default: 32 random hex digits)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l authorized-at -d 'authorized_at: `now`, RFC 3339 or Unix milliseconds (default: --now)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l now -d 'The signing time: `now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix milliseconds (default: the system clock). authorized_at defaults to it, and an approval already expired at it is refused' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l expiry -d 'expiry: `now`, RFC 3339 or Unix milliseconds (default: authorized_at + TTL)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l ttl -d 'Lifetime in SECONDS: expiry = authorized_at + TTL (default 120; the host caps its own TTL at 300)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l session -d 'Approval session label (default: sealkit-approve/<random hex>)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l approver -d 'Who approves, as recorded in the signed payload' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l renderer-version -d 'Approval screen layout: 3 (the default: every signed value shown, fitted to the terminal\'s width), 2 (signer, validity and a one-line question first, lines as long as their values) or 1 (the first layout). Records of every version verify alike; the record names the renderer version it used' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l ssh-agent -d 'Sign with an Ed25519 key held by the running ssh-agent (SSH_AUTH_SOCK; Unix only)'
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l yes -d 'Sign without asking (for scripts; no terminal needed)'
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l deny -d 'Write seal-host\'s signed decline for the target instead of an approval'
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand approve" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -f -a "approval" -d 'Check ApprovalRecord v2 token lines with seal-host\'s rules, then their binding'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -f -a "receipt" -d 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -f -a "chain" -d 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -f -a "bundle" -d 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and not __fish_seen_subcommand_from approval receipt chain bundle help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l pubkey -l pubkey-file -d 'The trusted approval public key (seal-host\'s --approval-pubkey): 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either (64 hex + LF, or an OpenSSH public key line; --pubkey-file is the same option). Secret key files are refused' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l trusted-approvers -d 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME]' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l frame -d 'The exact frame (with delimiter) each approval must be bound to' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l target -d 'The challenged target each record must name' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l now -d 'Check freshness at this time: `now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix milliseconds' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l ttl -d 'The host\'s approval TTL in SECONDS (capped at 300, as the host caps it)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from approval" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from receipt" -l receipt-key -d 'The installation\'s receipt key, kept apart from the receipts (the public key recorded when the host was installed): 64 hex digits, a public key file or a raw 32-byte seed file. Without it no receipt can be authenticated; a key read from beside the receipts (where seal-host keeps its seed) authenticates nothing independent (receipt-key-in-evidence)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from receipt" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from receipt" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from receipt" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from receipt" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from receipt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from receipt" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -l audit-lines -d 'Recompute the head from raw audit lines instead (trimmed, empty lines dropped; "-" for stdin)' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -l head -d 'The head the chain must end at' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -l state -d 'A receipt directory\'s .seal-audit-head.state whose head must equal the recomputed one' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from chain" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -l issuer-pubkey -d 'Trusted issuer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -l request-pubkey -d 'Trusted request-signer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -l approval-pubkey -d 'Trusted approval-signer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from bundle" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from help" -f -a "approval" -d 'Check ApprovalRecord v2 token lines with seal-host\'s rules, then their binding'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from help" -f -a "receipt" -d 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from help" -f -a "chain" -d 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from help" -f -a "bundle" -d 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)'
complete -c sealkit -n "__fish_sealkit_using_subcommand verify; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -l receipt-key -d 'The installation\'s receipt key, kept apart from the directories audited (the public key recorded when the host was installed): 64 hex, a public key file or a raw 32-byte seed file. A key read from inside them authenticates nothing independent (receipt-key-in-evidence)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -l trusted-approvers -d 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME] (as `verify approval`). Each approval-authorized ALLOW receipt names the approver its signed approval statement names; a key not listed, or used outside its window, is a finding. Needs --receipt-key: only an authenticated receipt\'s statement is believed' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -l jobs -d 'Worker threads (default: the number of cores)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand audit" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand diff" -l frames -d 'Captures of the client\'s frames (as for `sealkit migrate`)' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand diff" -l server -d 'The server identity to compute identities under [default: each receipt\'s own]' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand diff" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand diff" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand diff" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand diff" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand diff" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -l frames -d 'Captures of the client\'s frames: files of LF-terminated frames, single .frame files, or directories of them ("-" for stdin). Frames are matched by exact-frame subject' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -l server -d 'The server identity to compute identities under [default: each receipt\'s own kernel_config server, else empty]' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -l out -d 'Where to write migration.jsonl and summary.json (created if missing; never inside an OLD_DIR)' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand migrate" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l era -d 'Protocol era the frame is validated under: from its own `_meta` markers, or forced (the same validation `target` applies; a refused frame gets no message)' -r -f -a "auto\t'From `initialize` / `server/discover` and the frame\'s own `_meta` markers'
legacy\t'MCP before 2026-07-28: `_meta` optional'
2026-07-28\t'MCP 2026-07-28: `_meta` with protocolVersion and clientCapabilities required'"
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l params -d 'JSON file of envelope parameters (authority_hex, key_id, nonce_hex, issued_at, expires_at, adapter, session, policy_version, effect); flags override its values' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l authority -d 'The config trust root: 32 bytes as 64 hex digits' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l key-id -d 'The principal\'s registry key id' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l nonce -d 'The envelope nonce: 32 bytes as 64 hex digits' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l issued-at -d 'Issue time in Unix SECONDS (or `now`, or RFC 3339 such as 2026-12-01T10:00:00Z)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l expires-at -d 'Signer-declared deadline in Unix SECONDS (or `now`, or RFC 3339); Seal requires it nonzero' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l adapter-type -d 'Adapter type [default: mcp]' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l adapter-version -d 'Adapter version [default: 2025-06-18]' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l session -d 'The session the host issued' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l policy-version -d 'The policy version the signer pins' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l effect -d 'The effect claim: derived from the frame by Seal\'s kernel rule, or declared absent [default: derive, unless the parameter file gives one]' -r -f -a "derive\t'Seal\'s kernel derivation from the frame (needs `params.action`)'
absent\t'Declared absent (one signed 0x00 byte)'"
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l verify -d 'Check this Ed25519 signature (128 hex digits) over the message' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l pubkey -d 'The signer\'s Ed25519 public key, for --verify: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand envelope" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l out -d 'Where to write the page (the JSON model with --format json; with --format jsonl one row per receipt, then the annotations on no row, the findings and the verdict); replaced atomically, and never one of the inputs' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l receipt-key -d 'The installation\'s receipt key, kept apart from the directories reported on (the public key recorded when the host was installed): 64 hex, a public key file or a raw 32-byte seed file. A key read from inside them authenticates nothing independent (receipt-key-in-evidence)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l pubkey -d 'The trusted approval public key the token files are checked against: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file holding either' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l trusted-approvers -d 'Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME] (as `verify approval` and `audit`): tokens and approval receipts name their approver' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l tokens -d 'Approval token files (NDJSON); needs --pubkey or --trusted-approvers' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l chain -d 'Sealed logs (seal-verifiable-record/v1) whose entries are joined by request hash' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l audit-lines -d 'Raw kernel audit lines, joined by request hash like a sealed log\'s entries' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l frames -d 'Captures of the client\'s frames (files of LF-terminated frames, .frame files or directories of them), joined by canonical request hash' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l server -d 'The server identity identities are computed under [default: each receipt\'s own]' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l ttl -d 'The host\'s approval TTL in SECONDS, for freshness when a token was used (capped at 300, as the host caps it)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l title -d 'The page title' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l jobs -d 'Worker threads for the receipt checks (default: the number of cores)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l timestamp -d 'Record the generation time in the output (otherwise the same inputs give the same bytes)'
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand report" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -f -a "ref" -d 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -f -a "verify" -d 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and not __fish_seen_subcommand_from ref verify help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from ref" -l receipt-key -d 'The installation\'s receipt key (64 hex, raw 32-byte seed file, or public key file). Without it no receipt authenticates, so none gets a reference' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from ref" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from ref" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from ref" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from ref" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from ref" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from ref" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -l frames -d 'Captures of JSON-RPC frames (requests and responses, one per line): the references in each response\'s `result._meta[ANNOTATION_KEY]`, paired with their requests' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -l refs -d 'Files of references: one JSON value (a reference, an object with `evidenceRef`, or an array of those) or JSON Lines of them, as `sealkit evidence ref` prints' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -l evidence -d 'Where evidence is looked for: directories (a `ref` is resolved under them and never leaves them) or files. Nothing is fetched from the network' -r -F
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -l receipt-key -d 'The installation\'s receipt key (64 hex, raw 32-byte seed file, or public key file): references to Seal receipts verify only when the receipt authenticates under it' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -l annotation-key -d 'The `result._meta` key responses carry trust annotations under' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when the output is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -s q -l quiet -d 'Print nothing but errors (on stderr); the exit status is unchanged'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from verify" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from help" -f -a "ref" -d 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call'
complete -c sealkit -n "__fish_sealkit_using_subcommand evidence; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "target" -d 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "keygen" -d 'Create an Ed25519 approval key pair; the secret key is encrypted with a passphrase'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "key" -d 'Inspect or protect key files'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "approve" -d 'Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "verify" -d 'Verify evidence: approval tokens, receipts, audit chains, statement bundles'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "audit" -d 'Audit whole receipt directories: every receipt, names, counters, chain state, files'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "diff" -d 'Pair old receipts with new ones (or with a migration output) and show what changed'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "migrate" -d 'Migrate _meta-blind receipts: one record per receipt (label, changes, old and committed identity) written to NEW_DIR'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "envelope" -d 'Build the V2.3 `seal.effect/v2` signed message for one frame; optionally check an Ed25519 signature over it'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "report" -d 'One offline HTML page (or, with --format json, one JSON document) joining receipts, approval tokens, chain entries and captured frames for an incident'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "evidence" -d 'Trust-annotation evidence: name receipts in `evidenceRef` objects, and check the references responses carry against local evidence'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target keygen key approve verify audit diff migrate envelope report evidence help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "show" -d 'Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and __fish_seen_subcommand_from key" -f -a "protect" -d 'Encrypt a plain secret key file in place with a passphrase (atomically)'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and __fish_seen_subcommand_from verify" -f -a "approval" -d 'Check ApprovalRecord v2 token lines with seal-host\'s rules, then their binding'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and __fish_seen_subcommand_from verify" -f -a "receipt" -d 'Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned)'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and __fish_seen_subcommand_from verify" -f -a "chain" -d 'Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and __fish_seen_subcommand_from verify" -f -a "bundle" -d 'Verify a detached statement bundle (receipt-verifier/verify.mjs input)'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and __fish_seen_subcommand_from evidence" -f -a "ref" -d 'One `evidenceRef` object for each receipt that authenticates (its digest under RFC 8785, its file name as `ref`); a receipt that does not gets its findings instead'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and __fish_seen_subcommand_from evidence" -f -a "verify" -d 'Check `evidenceRef` objects from captured responses and reference files against local evidence: digest, canonicalization, and for Seal receipts authentication and the call'
