
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
        &'sealkit;help'= {
            cand target 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sealkit;help;target'= {
        }
        &'sealkit;help;help'= {
        }
    ]
    $completions[$command]
}
