//! The integration tests, in one binary: one link instead of one per file, which was most of
//! the suite's build time. Each module is one area; `support` holds the shared helpers.
//! `cargo test --test it MODULE::` runs one area.

mod support;

mod approval_approve_cli;
mod approval_approve_refusals;
mod approval_fixtures;
mod approval_pty;
mod approval_verify_cli;
mod approval_verify_conflicts;
mod approval_wycheproof;
mod canonical_work;
mod chain_stream;
mod ci_hygiene;
mod cli_audit;
mod cli_chain;
mod cli_diff;
mod cli_envelope;
mod cli_migrate;
mod cli_transcripts;
mod envelope_corpus;
mod fuzz_corpus;
mod fuzz_regressions;
mod generated_files;
mod identity_invariants;
mod identity_vectors;
mod json_test_suite;
mod json_test_suite_evidence;
mod keys_agent;
mod keys_approvers;
mod keys_cli;
mod keys_pty;
mod migrate_labels;
mod migration_integrity;
mod mutation_pins;
mod readme_codes;
mod readme_examples;
mod real_clients;
mod receipt_flips;
mod receipt_unsupported_version;
mod receipts;
mod refusal_agreement;
mod robust_cli;
mod signature_batching;
mod spec_conformance;
mod target_refusals;
mod target_tool_spec;
mod typed_props;
mod v2_signed_approval;
mod watched_mutations;
