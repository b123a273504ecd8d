//! The integration tests, in one binary: one link instead of one per file, which was most of
//! the suite's build time. Each module is one area; `support` holds the shared helpers.
//! `cargo test --test it MODULE::` runs one area.

mod report_support;
// Signed copies of one fixture receipt (the benchmarks' generator), for reports of many receipts.
#[path = "../../benches/support/receipts.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod generated_receipts;
// The benchmarks' seeded generator of varied evidence (its own checks: bench_inputs).
#[path = "../../benches/support/evidence/mod.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod bench_evidence;
mod support;

mod allocator;
mod approval_approve_cli;
mod approval_approve_refusals;
mod approval_fixtures;
mod approval_key_in_evidence;
mod approval_pty;
mod approval_screen;
mod approval_verify_cli;
mod approval_verify_conflicts;
mod approval_wycheproof;
mod audit_approvers;
mod audit_copies;
mod audit_head_state;
mod audit_map_reduce;
mod bench_inputs;
mod canonical_work;
mod chain_stream;
mod ci_hygiene;
mod cli_audit;
mod cli_bundle;
mod cli_chain;
mod cli_diff;
mod cli_envelope;
mod cli_flags;
mod cli_migrate;
mod cli_quiet_color;
mod cli_transcripts;
mod closed_stdout;
mod contract_matrix;
mod duplicate_members;
mod empty_evidence;
mod evidence_cli;
mod evidence_hostile;
mod fuzz_corpus;
mod fuzz_regressions;
mod generated_files;
mod help_screens;
mod identity_invariants;
mod identity_vectors;
mod inert_output;
mod jcs_vectors;
mod json_schemas;
mod json_test_suite;
mod json_test_suite_evidence;
mod keys_agent;
mod keys_approvers;
mod keys_cli;
mod keys_hostile;
mod keys_pty;
mod meta_edges;
mod migrate_labels;
mod migration_integrity;
mod mutation_pins;
mod readme_codes;
mod readme_examples;
mod real_clients;
mod receipt_flips;
mod receipt_key_in_evidence;
mod receipt_unsupported_version;
mod receipts;
mod refusal_agreement;
mod regression;
mod report_browser;
mod report_frame_joins;
mod report_model;
mod report_page;
mod report_tamper;
mod robust_cli;
mod signature_batching;
mod spec_conformance;
mod structure;
mod summary_counts;
mod target_refusals;
mod target_tool_spec;
mod terminal_tables;
mod typed_errors;
mod v2_signed_approval;
mod verdict_pins;
mod watched_mutations;
