#!/usr/bin/env bash
# Mutation testing of the verification code with cargo-mutants (27.x).
#
# cargo-mutants injects one fault at a time (a function body replaced by a default value, an
# operator swapped, a match arm deleted, ...) and runs the tests: a mutant that no test
# notices ("missed") is a verdict the tests do not pin, or code that makes no difference.
# Run it before resolving any change to the verification code, and record each missed
# mutant in docs/mutants.md: either a test that now catches it, or why it cannot change a
# verdict, an exit status or a code (equivalent, or unreachable).
#
# Usage: scripts/mutants.sh [--all-tests] [GROUP...] [-- EXTRA-CARGO-MUTANTS-OPTIONS...]
#   GROUP: receipt signature (with src/signature/) approval tokens chain migrate wire json keys audit
#   report evidence bundle envelope inert identity (default: all, in that order), contract (the input layer's shortfalls and
#   the exit status each gives, names in JSON; not in the default set), or
#   verdicts: only the functions whose verdicts tests/it/mutation_pins.rs pins (a quick check).
#   Extra options go to cargo-mutants, e.g. `-- --re config_signature` for one function,
#   `-- --list` to list the mutants without running them, `-- --in-diff my.diff` for the
#   functions a change touched.
#   --all-tests: each mutant runs against every test of the integration binary (tests/it,
#   all modules) instead of the group's modules: slower, but nothing a group's list leaves out
#   can let a mutant through. Results then go to mutants.out/<group>-all/.
#   Results: mutants.out/<group>/ (missed.txt, caught.txt, timeout.txt, unviable.txt,
#   outcomes.json); mutants.out is not committed.
#
# Cost: each mutant rebuilds the library and the binary and runs only the test modules
# named for its group (plus the library's unit tests), which takes seconds to a minute per
# mutant on a quiet 2-core machine; the whole set is about 1,500 mutants, so run the group
# (or the --re / --file selection) you changed. CI does not run this.
#
# Environment: CARGO_TARGET_DIR is honoured (one shared target dir for every mutant);
# MUTANTS_JOBS (default 1) is cargo-mutants' -j; MUTANTS_TIMEOUT (default 600) is the
# per-test-run limit in seconds (the baseline run is skipped: run the tests green first), and
# MUTANTS_BUILD_TIMEOUT (default: MUTANTS_TIMEOUT) the per-build one (a loaded machine can
# take longer to build a mutant than to test it);
# MUTANTS_OUT (default mutants.out) is where results go, so that two runs side by side (each
# with its own CARGO_TARGET_DIR) keep theirs apart;
# MUTANTS_TEST_TOOL (default cargo) may be `nextest` (cargo-nextest, when installed), which
# stops a mutant's run at its first failing test: a caught mutant then costs seconds, not the
# whole suite (the filters after `--` work the same).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
    exit 2
fi

groups=()
extra=()
all_tests=0
while [ $# -gt 0 ]; do
    case "$1" in
        --) shift; extra=("$@"); break ;;
        --all-tests) all_tests=1; shift ;;
        *) groups+=("$1"); shift ;;
    esac
done
[ ${#groups[@]} -gt 0 ] || groups=(receipt signature approval tokens chain migrate wire json keys audit report evidence bundle envelope inert identity)

# Per group: the source files (cargo-mutants --file globs) and the test modules that
# exercise them (modules of the one integration-test binary, or --lib for the unit tests). The slowest
# modules that add nothing for a group are left out (e.g. receipts, about a minute, from
# the signature group, whose receipt paths mutation_pins and signature_batching cover; and
# report_browser, headless Chromium, from the report group, whose page report_page reads).
files_of() {
    case "$1" in
        receipt) echo "src/receipt.rs src/receipt/*.rs" ;;
        signature) echo "src/signature.rs src/signature/*.rs" ;;
        approval) echo "src/approval.rs src/approval/*.rs src/approvers.rs" ;;
        tokens) echo "src/v2.rs src/tokenfile.rs" ;;
        chain) echo "src/chain.rs src/chain/*.rs" ;;
        migrate) echo "src/migrate.rs src/migrate/*.rs src/migrate/*/*.rs" ;;
        wire) echo "src/meta.rs src/request.rs src/request/*.rs src/wire.rs src/frame.rs src/canonical.rs" ;;
        bundle) echo "src/bundle.rs src/cmd/verify_bundle.rs" ;;
        envelope) echo "src/envelope.rs src/cmd/envelope.rs" ;;
        inert) echo "src/inert.rs" ;;
        identity) echo "src/identity.rs src/identity/*.rs" ;;
        json) echo "src/json.rs" ;;
        keys) echo "src/keys/*.rs" ;;
        audit) echo "src/audit.rs src/audit/*.rs" ;;
        report) echo "src/report.rs src/report/*.rs" ;;
        evidence) echo "src/jcs.rs src/evidence.rs src/evidence/*.rs src/cmd/evidence.rs" ;;
        verdicts) echo "src/receipt.rs src/receipt/*.rs src/approval/verify.rs" ;;
        contract) echo "src/input.rs src/outcome.rs src/finding.rs src/path_json.rs src/cmd/diagnostic.rs" ;;
        *) return 1 ;;
    esac
}
tests_of() {
    case "$1" in
        receipt) echo "--lib receipt mutation_pins receipts receipt_flips signature_batching duplicate_members receipt_unsupported_version cli_transcripts regression" ;;
        signature) echo "--lib signature mutation_pins approval_wycheproof approval_fixtures signature_batching cli_envelope" ;;
        approval) echo "--lib approval mutation_pins approval_verify_cli approval_fixtures approval_wycheproof v2_signed_approval approval_verify_conflicts approval_approve_refusals approval_approve_cli keys_approvers audit_approvers empty_evidence signature_batching cli_transcripts regression" ;;
        tokens) echo "--lib v2 tokenfile v2_signed_approval cli_envelope approval_screen approval_verify_cli approval_approve_cli approval_approve_refusals approval_pty inert_output regression" ;;
        chain) echo "--lib chain cli_audit cli_chain chain_stream cli_transcripts closed_stdout duplicate_members report_model regression" ;;
        migrate) echo "--lib migrate migrate_labels cli_migrate cli_diff migration_integrity cli_transcripts regression" ;;
        json) echo "--lib json identity json_test_suite chain_stream duplicate_members identity_vectors fuzz_regressions regression" ;;
        report) echo "--lib report report_model report_tamper report_page report_frame_joins evidence_cli evidence_hostile verdict_pins audit_copies receipt_key_in_evidence" ;;
        wire) echo "--lib meta request wire canonical target_refusals target_tool_spec json_test_suite fuzz_regressions identity_vectors spec_conformance watched_mutations meta_edges refusal_agreement regression" ;;
        bundle) echo "--lib bundle cli_bundle cli_flags cli_transcripts closed_stdout duplicate_members evidence_hostile json_schemas keys_cli terminal_tables inert_output regression" ;;
        envelope) echo "--lib envelope cli_envelope refusal_agreement robust_cli terminal_tables inert_output cli_transcripts regression" ;;
        inert) echo "--lib inert inert_output report_page terminal_tables regression" ;;
        identity) echo "--lib identity typed identity_vectors identity_invariants spec_conformance target_refusals real_clients meta_edges regression" ;;
        keys) echo "--lib keys keys_cli keys_hostile keys_approvers keys_agent regression" ;;
        audit) echo "--lib audit audit_head_state audit_map_reduce cli_audit audit_approvers audit_copies receipt_key_in_evidence approval_key_in_evidence verdict_pins empty_evidence duplicate_members regression" ;;
        evidence) echo "--lib jcs evidence frame jcs_vectors evidence_cli evidence_hostile fuzz_corpus" ;;
        verdicts) echo "mutation_pins approval_verify_cli" ;;
        contract) echo "--lib input in_process outcome finding path_json diagnostic target_record regression empty_evidence typed_errors" ;;
        *) return 1 ;;
    esac
}

for group in "${groups[@]}"; do
    files=$(files_of "$group") || { echo "unknown group: $group" >&2; exit 2; }
    file_args=()
    for f in $files; do file_args+=(--file "$f"); done
    # --cargo-arg reaches both the build (`cargo test --no-run`) and the test run, so only
    # these targets are built and run for each mutant.
    # The library's unit tests (--lib) compile the crate a second time, so they are named
    # only for the groups whose rules are mostly unit-tested.
    # The integration tests are one binary (tests/it); each area is a module of it, so the
    # areas named for a group become test-name filters after `--`.
    test_args=()
    filters=()
    out="${MUTANTS_OUT:-mutants.out}/$group"
    if [ "$all_tests" = 1 ]; then
        # Every module of the integration binary, no filter.
        test_args+=(--cargo-arg=--test=it)
        out="${MUTANTS_OUT:-mutants.out}/$group-all"
    else
        for t in $(tests_of "$group"); do
            case "$t" in
                --lib) test_args+=(--cargo-arg=--lib) ;;
                *) filters+=("--cargo-test-arg=${t}::") ;;
            esac
        done
        if [ ${#filters[@]} -gt 0 ]; then
            test_args+=(--cargo-arg=--test=it --cargo-test-arg=-- "${filters[@]}")
        fi
    fi
    if [ "$group" = verdicts ]; then
        test_args+=(--re 'signature_block|release_tag|durability_tag|config_signature|u64_number_or_text|payload_over_limits')
    fi
    echo "== $group: ${files} with ${test_args[*]}" >&2
    mkdir -p "$out"
    # Exit status 2 means missed mutants: report them and go on to the next group.
    status=0
    cargo mutants \
        --jobs "${MUTANTS_JOBS:-1}" \
        --test-tool "${MUTANTS_TEST_TOOL:-cargo}" \
        --baseline skip \
        --timeout "${MUTANTS_TIMEOUT:-600}" \
        --build-timeout "${MUTANTS_BUILD_TIMEOUT:-${MUTANTS_TIMEOUT:-600}}" \
        --no-shuffle \
        --output "$out" \
        "${file_args[@]}" \
        "${test_args[@]}" \
        "${extra[@]}" || status=$?
    case $status in
        0 | 2 | 3) ;; # all caught / some missed / some timed out
        *) echo "cargo mutants failed for $group (exit $status)" >&2; exit "$status" ;;
    esac
done
