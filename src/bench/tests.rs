//! The plan: policy on threads and rounds, and what it refuses before
//! anything is written or started.

use super::*;
use crate::external::ContenderSpec;
use crate::harness::plan::{Handicap, RunOptions};
use crate::solver::SolverId;

fn planned(options: RunOptions, cores: usize) -> Result<Plan, BenchError> {
    Plan::new(options, cores, &mut |_| {})
}

fn on(inputs: &[&str]) -> RunOptions {
    RunOptions {
        inputs: inputs.iter().map(|s| s.to_string()).collect(),
        ..RunOptions::default()
    }
}

#[test]
fn the_default_plan_takes_every_embedded_set_on_every_core() {
    let p = planned(RunOptions::default(), 4).unwrap();
    assert_eq!(p.datasets.len(), crate::datasets::EMBEDDED.len());
    assert_eq!((p.options.threads, p.options.rounds), (4, 5));
    assert!(p.solvers.iter().all(|s| s.is_default_variant()));
    // seeds-9x9 has 3 puzzles: fewer rounds, said before the run.
    assert!(
        p.notes
            .iter()
            .any(|n| n.starts_with("seeds-9x9 is measured in 1 round")),
        "{:?}",
        p.notes
    );
    assert_eq!(p.options.datasets.len(), p.datasets.len());
}

#[test]
fn threads_past_what_the_machine_takes_are_refused_even_from_a_run_file() {
    // What --resume reads from a run.json is not parsed by the command line.
    let crowd = RunOptions {
        threads: 100_000,
        ..on(&["easy-9x9"])
    };
    let e = planned(crowd, 2).err().expect("refused").to_string();
    assert!(
        e.starts_with("--threads: 100000 threads is more than this machine takes: at most 16"),
        "{e}"
    );
    let scaling = RunOptions {
        threads: 1,
        scaling: vec![1, 2, 33],
        ..on(&["easy-9x9"])
    };
    let e = planned(scaling, 8).err().expect("refused").to_string();
    assert!(
        e.contains("33 threads is more than this machine takes: at most 32"),
        "{e}"
    );
    let most = RunOptions {
        threads: 16,
        ..on(&["easy-9x9"])
    };
    assert_eq!(planned(most, 1).unwrap().options.threads, 16);
}

#[test]
fn rounds_a_dataset_is_too_small_for_are_fewer_with_a_note() {
    // --rounds 3 given by name: seeds-9x9 (3 puzzles) takes 1, set-4x4 all 3.
    let p = planned(
        RunOptions {
            rounds: 3,
            ..on(&["seeds-9x9", "set-4x4"])
        },
        4,
    )
    .unwrap();
    let rounds: Vec<(&str, Option<usize>)> = p
        .datasets
        .iter()
        .map(|d| (d.name.as_str(), d.info.rounds))
        .collect();
    assert_eq!(rounds, [("seeds-9x9", Some(1)), ("set-4x4", Some(3))]);
    let notes: Vec<&String> = p.notes.iter().filter(|n| n.contains("round")).collect();
    assert_eq!(
        notes,
        ["seeds-9x9 is measured in 1 round, not the 3 asked (3 puzzles; 2 a round at least)"]
    );
    // Each count recomputed from the puzzles: two a round at least.
    for d in &p.datasets {
        let got = d.info.rounds.unwrap();
        assert!(got == 1 || got * crate::harness::MIN_PER_ROUND <= d.len());
        assert!(got <= 3 && (got == 3 || (got + 1) * crate::harness::MIN_PER_ROUND > d.len()));
    }
}

#[test]
fn outside_programs_halve_the_default_threads_and_say_why() {
    let o = RunOptions {
        solvers: Vec::new(),
        contenders: vec![ContenderSpec::program(
            "x",
            vec!["prog".into(), "--flag".into()],
        )],
        ..on(&["easy-9x9"])
    };
    let p = planned(o, 8).unwrap();
    assert_eq!(p.options.threads, external::default_threads(8));
    assert!(
        p.notes.iter().any(|n| n.contains("half of 8 cores")),
        "{:?}",
        p.notes
    );
    assert_eq!(p.options.contender_lines(), ["x: prog --flag"]);
}

#[test]
fn bad_combinations_are_refused_before_anything_runs() {
    let refused = |o: RunOptions| match planned(o, 4) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    };
    let e = refused(on(&["no-such-set"]));
    assert!(e.contains("no-such-set"), "{e}");
    let e = refused(RunOptions {
        min_time: Some(Duration::from_millis(3)),
        ..on(&["easy-9x9"])
    });
    assert!(e.contains("--min-time 3ms"), "{e}");
    let dlx = |o: RunOptions| RunOptions {
        solvers: vec![SolverId::Dlx.name().to_string()],
        ..o
    };
    let e = refused(RunOptions {
        reference: Some("band".into()),
        ..dlx(on(&["easy-9x9"]))
    });
    assert!(
        e.contains("--reference band is not a strategy of this run (dlx)"),
        "{e}"
    );
    let e = refused(RunOptions {
        handicaps: vec![Handicap {
            variant: "band".into(),
            share: 0.2,
        }],
        ..dlx(on(&["easy-9x9"]))
    });
    assert!(
        e.contains("--handicap band=20% is not a strategy of this run"),
        "{e}"
    );
}

#[test]
fn the_options_read_back_from_run_json_as_they_were() {
    let o = RunOptions {
        handicaps: vec![Handicap {
            variant: "band".into(),
            share: 0.2,
        }],
        contenders: vec![ContenderSpec::program("x", vec!["prog".into()])],
        reference: Some("band".into()),
        scaling: vec![1, 2],
        ..on(&["easy-9x9"])
    };
    let p = planned(o, 2).unwrap().options;
    let text = serde_json::to_string_pretty(&p).unwrap();
    // The command line's words, not Rust's.
    assert!(text.contains("\"mode\": \"unique\""), "{text}");
    assert!(text.contains("\"schedule\": \"interleaved\""), "{text}");
    assert!(
        text.contains("\"node_budget\": \"strategy-default\""),
        "{text}"
    );
    assert!(text.contains("\"min_time_ms\": 250.0"), "{text}");
    let back: RunOptions = serde_json::from_str(&text).unwrap();
    assert_eq!(back, p);
    // Handicaps read back as written: a whole percentage, or the share.
    for (share, text) in [(0.2, "band=20%"), (0.07, "band=7%"), (0.075, "band=0.075")] {
        let h = Handicap {
            variant: "band".into(),
            share,
        };
        assert_eq!(h.to_string(), text);
        assert_eq!(text.parse::<Handicap>().unwrap().share, share);
    }
}

#[test]
fn options_written_before_they_were_typed_still_read() {
    let old = r#"{"solvers":["band","dlx"],"datasets":["easy-9x9"],"threads":2,
        "mode":"count:5","node_budget":"1000","time_limit_ms":100.0,"warmup":20,
        "repeat":1,"rounds":5,"min_time_ms":250.0,"schedule":"interleaved",
        "limit":null,"sample":null,"seed":1,"permute":false,
        "contenders":["jcz: ./jcz --quiet"],"handicaps":["band=20%"]}"#;
    let o: RunOptions = serde_json::from_str(old).unwrap();
    assert_eq!(o.version, 1);
    assert_eq!(o.mode, crate::solver::Mode::Count(5));
    assert_eq!(o.node_budget, crate::harness::Budget::Nodes(1000));
    assert_eq!(o.time_limit, Some(Duration::from_millis(100)));
    assert_eq!(o.contender_names(), ["band", "dlx", "jcz"]);
    assert_eq!(o.handicaps[0].share, 0.2);
    let bad = old.replace("count:5", "count");
    let e = serde_json::from_str::<RunOptions>(&bad)
        .unwrap_err()
        .to_string();
    assert!(e.contains("is not a mode"), "{e}");
}

#[test]
fn a_run_recorded_before_typed_options_is_not_resumed() {
    let dir = std::path::Path::new("old-run");
    let mut info = crate::harness::RunInfo::new(RunOptions::default(), vec![], vec![]);
    assert_eq!(recorded(&info, dir).unwrap(), RunOptions::default());
    info.options.version = 1;
    let e = recorded(&info, dir).unwrap_err().to_string();
    assert!(
        e.starts_with("old-run: recorded by an older sudoku-bench"),
        "{e}"
    );
    assert!(e.contains("`sudoku-bench report old-run`"), "{e}");
}
