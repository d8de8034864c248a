//! Records and summaries as written: CSV and markdown snapshots, read-backs.

use super::csv::CsvSink;
use crate::columns::Columns;
use crate::harness::*;

fn fixed_result(i: u64) -> PuzzleResult {
    PuzzleResult {
        strategy: "dlx".into(),
        variant: "dlx-first-column".into(),
        dataset: "tiny".into(),
        puzzle_index: i,
        round: 0,
        status: if i == 0 {
            RowStatus::Unique
        } else {
            RowStatus::Wrong
        },
        solutions: 1,
        nodes: Some(12 + i),
        guesses: (i != 2).then_some(i),
        solves: 3,
        median_ns: 1500 * (i + 1),
        min_ns: 1400 * (i + 1),
        own_ns: (i == 1).then_some(900),
        threads: 1,
        detail: if i == 0 {
            String::new()
        } else {
            "differs from the expected answer at r1c2".into()
        },
        timing: crate::contender::Timing::Call,
        checked: Default::default(),
        instructions: (i == 2).then_some(48_000),
        cycles: None,
        branch_misses: None,
        task_clock_ns: None,
    }
}

#[test]
fn results_csv_snapshot() {
    let mut sink = CsvSink::new(Vec::new(), None).unwrap();
    for i in 0..2 {
        sink.puzzle(&fixed_result(i)).unwrap();
    }
    let (text, solves) = sink.into_inner().unwrap();
    assert!(solves.is_none());
    insta::assert_snapshot!(String::from_utf8(text).unwrap());
}

#[test]
fn results_csv_has_its_header_before_any_row() {
    let (text, solves) = CsvSink::new(Vec::new(), Some(Vec::new()))
        .unwrap()
        .into_inner()
        .unwrap();
    assert_eq!(
        String::from_utf8(text).unwrap(),
        format!("{}\n", PuzzleResult::COLUMNS.join(","))
    );
    assert_eq!(
        String::from_utf8(solves.unwrap()).unwrap(),
        format!("{}\n", SolveRecord::COLUMNS.join(","))
    );
}

#[test]
fn results_csv_rows_read_back_through_serde() {
    // The sink writes fields by hand; serde must read the same records back,
    // awkward text included, under the struct's own header.
    let mut awkward = fixed_result(1);
    awkward.dataset = "odd, \"quoted\" name".into();
    awkward.detail = "panicked: line one\nline two, with \"quotes\"".into();
    awkward.puzzle_index = u64::MAX;
    awkward.median_ns = 0;
    let records = [fixed_result(0), awkward, fixed_result(2)];
    let mut sink = CsvSink::new(Vec::new(), None).unwrap();
    for r in &records {
        sink.puzzle(r).unwrap();
    }
    let text = sink.into_inner().unwrap().0;
    let mut serde_writer = ::csv::Writer::from_writer(Vec::new());
    serde_writer.serialize(&records[0]).unwrap();
    let serde_text = serde_writer.into_inner().unwrap();
    let header = |t: &[u8]| t.split(|&b| b == b'\n').next().unwrap().to_vec();
    assert_eq!(header(&text), header(&serde_text));
    let back: Vec<PuzzleResult> = ::csv::Reader::from_reader(&text[..])
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back, records);
}

fn fixed_report() -> crate::export::RunReport {
    let mut b = summary::SummaryBuilder::default();
    for i in 0..2 {
        b.add(&fixed_result(i));
    }
    let row = b.finish("dlx", "dlx-first-column", "tiny", 1, 0.5);
    let info = RunInfo {
        tool: "sudoku-bench".into(),
        version: "0.1.0".into(),
        git_commit: "abc123".into(),
        rustc: "rustc 1.95.0".into(),
        cpu_model: "Test CPU".into(),
        cores: 2,
        gpus: Vec::new(),
        isa: "x86-64 AVX2".into(),
        valgrind_isa: None,
        os: "TestOS".into(),
        command: vec!["sudoku-bench".into(), "bench".into()],
        options: RunOptions {
            solvers: vec!["dlx-first-column".into()],
            datasets: vec!["tiny".into()],
            threads: 1,
            mode: crate::solver::Mode::Unique,
            node_budget: crate::harness::Budget::Unlimited,
            ..RunOptions::default()
        },
        started: "2026-01-01T00:00:00Z".into(),
        finished: "2026-01-01T00:00:01Z".into(),
        interrupted: false,
        wrong: 1,
        errors: 0,
        skipped: Vec::new(),
        rounds_complete: None,
        own_time: None,
        pipe_floor_ns: None,
        incomplete: Vec::new(),
        resumed: 0,
        contender_prints: None,
        given_up: Vec::new(),
        verdicts: None,
        datasets: vec![DatasetInfo {
            name: "tiny".into(),
            source: "embedded:tiny".into(),
            size: "4x4".into(),
            bytes: 17,
            sha256: "00".repeat(32),
            puzzles_in_source: 2,
            puzzles_run: 2,
            skipped: 0,
            pencilmarks: 0,
            rounds: None,
        }],
    };
    crate::export::RunReport {
        info,
        summary: vec![row],
    }
}

#[test]
fn summary_writers_snapshot() {
    use crate::export::Exporter;
    let report = fixed_report();
    let csv = String::from_utf8(crate::export::csv::SummaryCsv.render(&report).unwrap()).unwrap();
    insta::assert_snapshot!("summary_csv", csv);
    let md = String::from_utf8(
        crate::export::markdown::SummaryMarkdown
            .render(&report)
            .unwrap(),
    )
    .unwrap();
    insta::assert_snapshot!("summary_md", md);
    let json = String::from_utf8(crate::export::json::RunJson.render(&report).unwrap()).unwrap();
    let back: RunInfo = serde_json::from_str(&json).unwrap();
    assert_eq!(back, report.info);
}

/// Each schema's `COLUMNS` is the header serde writes above its rows.
#[test]
fn each_columns_list_is_the_header_serde_writes() {
    use crate::columns::{header, serde_header, Columns};
    fn pinned<T: Columns + serde::Serialize>(row: &T) {
        assert_eq!(
            String::from_utf8(serde_header(row).unwrap()).unwrap(),
            String::from_utf8(header::<T>()).unwrap(),
            "{}",
            std::any::type_name::<T>()
        );
    }
    let r = fixed_result(2);
    pinned(&r);
    pinned(&SolveRecord {
        strategy: r.strategy,
        variant: r.variant,
        dataset: r.dataset,
        puzzle_index: 2,
        round: 0,
        repeat: 1,
        status: RowStatus::Budget,
        solutions: 0,
        nodes: None,
        guesses: Some(3),
        solve_ns: 10,
        own_ns: None,
        threads: 2,
        detail: String::new(),
        timing: Default::default(),
        instructions: None,
        cycles: Some(4),
        branch_misses: None,
        task_clock_ns: None,
        heap_bytes: Some(64),
    });
    pinned(&SummaryRow::default());
    pinned(&crate::rate::RateRow::default());
    pinned(&crate::history::write::HistoryRow::default());
    pinned(&crate::hunt::write::ProgressLine::default());
}
