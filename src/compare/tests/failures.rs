//! Failures as a change of their own: the month of a solver's versions,
//! v7 to v9, where v8 answered 13 puzzles wrongly and v9 fixed them.

use super::{side, write_info_of};
use crate::compare::{compare, write, Comparison, Failures, Verdict};
use crate::harness::plan::Measure;
use crate::harness::RunOptions;
use std::path::Path;

/// One puzzle of [`puzzle_folder`]: its status, time and instructions.
pub(crate) type Puzzle = (&'static str, u64, Option<u64>);

/// A run folder of variant `mine` over a `tiny` of 100 puzzles, a row
/// each, in one round; puzzle i is `puzzle(i)`. A counted run (`measure`
/// instructions) has its summary's mean over the verified puzzles.
pub(crate) fn puzzle_folder(dir: &Path, measure: Measure, puzzle: impl Fn(u64) -> Puzzle) {
    std::fs::create_dir_all(dir).unwrap();
    let mut results = format!(
        "{}\n",
        <crate::harness::PuzzleResult as crate::columns::Columns>::COLUMNS.join(",")
    );
    let (mut verified, mut wrong, mut counted) = (0u64, 0u64, Vec::new());
    for i in 0..100u64 {
        let (status, ns, instructions) = puzzle(i);
        let count = instructions.map_or(String::new(), |n| n.to_string());
        results.push_str(&format!(
            "mine,mine,tiny,{i},0,{status},1,10,1,1,{ns},{ns},,1,,call,solution,{count},,,\n"
        ));
        match status {
            "unique" => {
                verified += 1;
                counted.extend(instructions);
            }
            _ => wrong += 1,
        }
    }
    std::fs::write(dir.join("results.csv"), results).unwrap();
    let mean = counted.iter().sum::<u64>() as f64 / counted.len().max(1) as f64;
    std::fs::write(
        dir.join("summary.csv"),
        format!("strategy,variant,dataset,threads,puzzles,solved,budget,wrong,errors,puzzles_per_sec,mean_us,median_us,p90_us,p99_us,max_us,guesses_per_puzzle,no_guess_pct,wall_s,instructions_per_puzzle\nmine,mine,tiny,1,100,{verified},0,{wrong},0,1000,1,1,1,1,1,1,0,0.1,{mean}\n"),
    )
    .unwrap();
    let options = RunOptions {
        solvers: vec!["mine".into()],
        mode: crate::solver::Mode::Unique,
        rounds: 1,
        measure,
        ..RunOptions::default()
    };
    write_info_of(dir, options, "aa", 100);
}

/// Puzzle i's instructions in the month's versions: 50,000 to 149,000.
fn work(i: u64) -> u64 {
    50_000 + (i * 7919) % 100 * 1_000
}

/// Puzzles 0 to 12 answered wrongly (v8's bug), or by a fix that costs
/// them 10× (v9): the other 87 cost `work(i) * cost`.
pub(crate) fn month(bug: bool, cost: f64) -> impl Fn(u64) -> Puzzle {
    move |i| {
        let n = (work(i) as f64 * cost) as u64;
        match i < 13 {
            true if bug => ("wrong", n, Some(n)),
            true => ("unique", 10 * n, Some(10 * n)),
            false => ("unique", n, Some(n)),
        }
    }
}

/// The sentence said of the comparison's only row.
fn said(c: &Comparison) -> String {
    write::sentences(c).join("\n")
}

#[test]
fn a_fix_costing_the_same_on_the_puzzles_both_verified_is_an_improvement() {
    let tmp = tempfile::tempdir().unwrap();
    let (v8, v9) = (tmp.path().join("v8"), tmp.path().join("v9"));
    puzzle_folder(&v8, Measure::Instructions, month(true, 1.0));
    puzzle_folder(&v9, Measure::Instructions, month(false, 1.0));
    let c = compare(side(&v8), side(&v9), None).unwrap();
    let r = &c.rows[0];
    // The summaries' means differ (87 puzzles against 100, 13 of them 10×),
    // the same 87 puzzles cost the same.
    let (_, base) = side(&v8);
    let (_, cur) = side(&v9);
    let means = (
        base.summary[0].instructions_per_puzzle.unwrap(),
        cur.summary[0].instructions_per_puzzle.unwrap(),
    );
    assert!(means.1 > 1.5 * means.0, "{means:?}");
    assert_eq!(r.puzzles, 87, "{r:?}");
    assert!(!r.means_only);
    assert_eq!(r.base_instructions, r.cur_instructions);
    assert_eq!(r.time_change_pct, 0.0, "{r:?}");
    let fixed = Failures {
        before: 13,
        after: 0,
        fixed: 13,
        new: 0,
    };
    assert_eq!(r.failures, fixed);
    assert_eq!(
        (r.cost, r.verdict),
        (Verdict::WithinNoise, Verdict::Improved)
    );
    assert!(!c.regressed());
    let said = said(&c);
    assert!(
        said.starts_with("mine on tiny: improved: fixed 13 puzzles (13 → 0 failed); +0.0% instructions per puzzle over the 87 puzzles both verified"),
        "{said}"
    );
    assert!(write::table_text(&c).contains("fixed 13; improved"));
}

#[test]
fn a_fix_is_never_a_regression_and_says_its_cost_on_the_puzzles_both_verified() {
    let tmp = tempfile::tempdir().unwrap();
    let (v8, v9) = (tmp.path().join("v8"), tmp.path().join("v9"));
    puzzle_folder(&v8, Measure::Instructions, month(true, 1.0));
    // The fix costs 3.5% more on the 87 puzzles both verified.
    puzzle_folder(&v9, Measure::Instructions, month(false, 1.035));
    let at = |t| compare(side(&v8), side(&v9), t).unwrap();
    // Within a 5% threshold: the fix is an improvement, and says so first.
    let c = at(Some(0.05));
    let r = &c.rows[0];
    assert!((r.time_change_pct - 3.5).abs() < 0.01, "{r:?}");
    assert_eq!((r.failures.fixed, r.failures.new), (13, 0));
    assert_eq!(
        (r.cost, r.verdict),
        (Verdict::WithinNoise, Verdict::Improved)
    );
    assert!(!c.regressed());
    assert!(
        said(&c).starts_with(
            "mine on tiny: improved: fixed 13 puzzles (13 → 0 failed); +3.5% instructions"
        ),
        "{}",
        said(&c)
    );
    // Beyond the default 1%, the cost is said beside the fix, and the fix
    // is not blocked by it: a correctness fix never fails the gate.
    let c = at(None);
    let r = &c.rows[0];
    assert_eq!((r.cost, r.verdict), (Verdict::Regressed, Verdict::Improved));
    assert!(!c.regressed());
    assert!(
        said(&c).starts_with("mine on tiny: improved: fixed 13 puzzles (13 → 0 failed); +3.5% instructions per puzzle over the 87 puzzles both verified (100,207 → 103,714)"),
        "{}",
        said(&c)
    );
    assert!(
        said(&c).ends_with("beyond ±1.0%: the fix's cost, not a regression."),
        "{}",
        said(&c)
    );
}

#[test]
fn puzzles_failing_anew_are_a_regression_whatever_the_cost() {
    let tmp = tempfile::tempdir().unwrap();
    let (v7, v8) = (tmp.path().join("v7"), tmp.path().join("v8"));
    // The bug makes the 87 others 4.3% cheaper: still a regression.
    for (measure, threshold) in [(Measure::Instructions, None), (Measure::Time, Some(0.03))] {
        puzzle_folder(&v7, measure, month(false, 1.0));
        puzzle_folder(&v8, measure, month(true, 0.957));
        let c = compare(side(&v7), side(&v8), threshold).unwrap();
        let r = &c.rows[0];
        assert_eq!(r.failures.new, 13, "{r:?}");
        assert_eq!((r.cost, r.verdict), (Verdict::Improved, Verdict::Regressed));
        assert!(c.regressed());
        let said = said(&c);
        assert!(
            said.starts_with("mine on tiny: regressed: 13 puzzles now fail (0 → 13 failed); "),
            "{said}"
        );
        assert!(
            said.contains(" over the 87 puzzles both verified"),
            "{said}"
        );
        assert!(write::table_text(&c).contains("13 now fail; regressed"));
    }
}

#[test]
fn a_slowdown_on_the_same_puzzles_is_a_regression() {
    let tmp = tempfile::tempdir().unwrap();
    let (v4, v5) = (tmp.path().join("v4"), tmp.path().join("v5"));
    for measure in [Measure::Instructions, Measure::Time] {
        puzzle_folder(&v4, measure, month(false, 1.0));
        puzzle_folder(&v5, measure, month(false, 1.28));
        let c = compare(side(&v4), side(&v5), None).unwrap();
        let r = &c.rows[0];
        assert_eq!(r.failures, Failures::default());
        assert_eq!(r.puzzles, 100);
        assert!((r.time_change_pct - 28.0).abs() < 0.1, "{r:?}");
        assert_eq!(
            (r.cost, r.verdict),
            (Verdict::Regressed, Verdict::Regressed)
        );
        assert!(c.regressed());
        // Every puzzle verified in both: nothing to say of which.
        let said = said(&c);
        assert!(
            said.starts_with("mine on tiny: regressed, +28.0%")
                || said.starts_with("mine on tiny: regressed, time per puzzle +28.0%"),
            "{said}"
        );
        assert!(!said.contains("both verified"), "{said}");
    }
}

#[test]
fn counted_runs_without_each_puzzles_count_fall_back_to_the_means_and_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let (v8, v9) = (tmp.path().join("v8"), tmp.path().join("v9"));
    puzzle_folder(&v8, Measure::Instructions, month(true, 1.0));
    puzzle_folder(&v9, Measure::Instructions, month(false, 1.0));
    // v8 as saved before results.csv kept instructions: the column empty.
    puzzle_folder(&v8, Measure::Instructions, |i| {
        let (status, ns, _) = month(true, 1.0)(i);
        (status, ns, None)
    });
    let c = compare(side(&v8), side(&v9), None).unwrap();
    let r = &c.rows[0];
    assert!(r.means_only, "{r:?}");
    assert!(r.time_change_pct > 50.0, "{r:?}");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("each run's mean over its own verified puzzles (87 and 100)")),
        "{:?}",
        c.warnings
    );
    // The fix is still said first, and the cost says what it is over.
    let said = said(&c);
    assert!(
        said.starts_with("mine on tiny: improved: fixed 13 puzzles (13 → 0 failed); +"),
        "{said}"
    );
    assert!(
        said.contains("each run's mean over its own verified puzzles"),
        "{said}"
    );
}

#[test]
fn puzzles_stopped_by_a_limit_fail_as_history_and_the_exports_count_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (v1, v2) = (tmp.path().join("v1"), tmp.path().join("v2"));
    puzzle_folder(&v1, Measure::Instructions, month(false, 1.0));
    // Two puzzles run out of the time budget, one goes over the memory
    // limit, and one is interrupted (neither solved nor failed).
    puzzle_folder(&v2, Measure::Instructions, |i| match i {
        0 | 1 => ("budget", 1, None),
        2 => ("memory", 1, None),
        3 => ("cancelled", 1, None),
        _ => month(false, 1.0)(i),
    });
    let c = compare(side(&v1), side(&v2), None).unwrap();
    let r = &c.rows[0];
    assert_eq!((r.failures.new, r.failures.after), (3, 3), "{r:?}");
    assert_eq!(r.verdict, Verdict::Regressed);
    assert!(said(&c).starts_with("mine on tiny: regressed: 3 puzzles now fail (0 → 3 failed)"));
}
