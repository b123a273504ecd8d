#!/usr/bin/env bash
# Times two or more builds of sealkit on the same command, alternately, for same-run ratios
# on a machine whose speed drifts (docs/performance.md, issue 40 phase 8).
#
# Usage: scripts/alternate.sh ROUNDS LABEL:BINARY [LABEL:BINARY...] -- ARGS...
#   Each round runs every binary once with ARGS (output to /dev/null), the order rotated by
#   one each round so that no build always runs first (the first run after a pause is often
#   the fastest here). Prints, per round, the load average and each run's CPU seconds (user +
#   system), wall-clock seconds and peak resident set (KB, GNU time's %M); then each label's
#   CPU seconds over all rounds. The exit status of the runs is not checked: audits of the
#   benchmark directories exit 1 on their planted problems.
# Needs GNU time at /usr/bin/time and bc.
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,12p "$0" >&2; exit 2; }
rounds=$1
shift
specs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    specs+=("$1")
    shift
done
[ "${1:-}" = "--" ] || { echo "missing -- before the command's arguments" >&2; exit 2; }
shift
count=${#specs[@]}
times=$(mktemp)
trap 'rm -f "$times"' EXIT
declare -A total
for ((round = 0; round < rounds; round++)); do
    line="round $round load $(cut -d' ' -f1 /proc/loadavg):"
    for ((i = 0; i < count; i++)); do
        spec=${specs[$(((i + round) % count))]}
        label=${spec%%:*}
        binary=${spec#*:}
        /usr/bin/time -o "$times" -f "%U %S %e %M" "$binary" "$@" >/dev/null 2>&1 || true
        read -r user system wall peak < <(tail -n 1 "$times")
        cpu=$(echo "$user + $system" | bc)
        total[$label]=$(echo "${total[$label]:-0} + $cpu" | bc)
        line="$line  $label ${cpu}s ($wall wall, $peak KB)"
    done
    echo "$line"
done
for spec in "${specs[@]}"; do
    label=${spec%%:*}
    echo "cpu in all rounds: $label ${total[$label]} s"
done
