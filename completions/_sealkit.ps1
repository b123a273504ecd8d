
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
        'sealkit;help' {
            [CompletionResult]::new('target', 'target', [CompletionResultType]::ParameterValue, 'Compute the identities Seal derives for captured JSON-RPC frames, under every profile')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sealkit;help;target' {
            break
        }
        'sealkit;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
