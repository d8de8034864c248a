//! The integration tests, one binary (one link instead of one per file):
//! the command line end to end, outside programs, comparisons, the embedded
//! and public datasets, and property tests. The tests that count heap bytes
//! live in `tests/bounded`, whose counting allocator would see these too.

mod common;

mod bench_cli;
mod cli;
mod compare_cli;
mod contenders;
mod counters;
mod download;
mod embedded;
mod faults;
mod figures;
mod figures_truth;
mod history_cli;
mod history_month;
mod hunt_cli;
mod hygiene;
mod inputs;
mod instructions;
mod libraries;
mod page;
mod properties;
mod public_datasets;
mod reference;
mod repository;
mod resources;
mod resume;
mod round_trip;
mod run_facts;
mod study_cli;
mod verdicts;
mod writers;
