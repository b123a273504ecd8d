#!/usr/bin/env bash
# Runs one fuzz target on the stable toolchain: fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags]
# New inputs go to fuzz/work/TARGET (ignored by git); the committed seeds in
# fuzz/corpus/TARGET are read, never written. Crashes land in fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
target="$1"
seconds="${2:-600}"
shift $(( $# < 2 ? $# : 2 ))
mkdir -p "fuzz/work/$target"
# -s none: no sanitizer, so no -Z flag and no nightly (the crate forbids unsafe code);
# -a: debug assertions and overflow checks on.
exec cargo fuzz run -s none -a "$target" "fuzz/work/$target" "fuzz/corpus/$target" -- \
  -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$@"
