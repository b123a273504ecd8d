# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_sealkit_global_optspecs
    string join \n format= deny-warnings color= h/help V/version
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
complete -c sealkit -n "__fish_sealkit_needs_command" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_needs_command" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_needs_command" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "target" -d 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
complete -c sealkit -n "__fish_sealkit_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l server -d 'The operator\'s server identity (Seal\'s `server` config; never read from a frame)' -r
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l era -d 'Protocol era: detect it from the capture, or force one' -r -f -a "auto\t'From `initialize` / `server/discover` and the frame\'s own `_meta` markers'
legacy\t'MCP before 2026-07-28: `_meta` optional'
2026-07-28\t'MCP 2026-07-28: `_meta` with protocolVersion and clientCapabilities required'"
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l profile -d 'Which profiles\' targets the human table shows (JSON always carries all three)' -r -f -a "committed\t''
host\t''
legacy\t''
all\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l format -d 'Output format: tables and diagnostics for people, JSON or JSON Lines for scripts' -r -f -a "human\t'Tables and diagnostics for a person at a terminal'
json\t'One JSON document (an array or an object) on stdout'
jsonl\t'One JSON object per line on stdout'"
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l color -d 'When to use colour in human output' -r -f -a "auto\t'Colour when stdout is a terminal and NO_COLOR is unset'
always\t''
never\t''"
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l explain -d 'Show the exact parts framed and hashed for every identity, and where profiles differ'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -l deny-warnings -d 'Treat warning-severity findings as problems (exit status 1)'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sealkit -n "__fish_sealkit_using_subcommand target" -s V -l version -d 'Print version'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target help" -f -a "target" -d 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
complete -c sealkit -n "__fish_sealkit_using_subcommand help; and not __fish_seen_subcommand_from target help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
