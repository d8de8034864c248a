//! The CPU/wall ratio and its flag from faked readings: no machine speed.

use crate::harness::schedule::cpu_ratio;
use crate::harness::workers::PassUse;
use crate::harness::SummaryRow;
use crate::usage::CallUse;
use std::time::Duration;

const TICK: Duration = Duration::from_millis(10);

fn flagged(ratio: (Option<f64>, String, Option<f64>)) -> bool {
    let row = SummaryRow {
        cpu_ratio: ratio.0,
        cpu_clock: ratio.1,
        cpu_margin: ratio.2,
        ..SummaryRow::default()
    };
    row.over_cores()
}

#[test]
fn a_programs_ratio_is_read_inside_its_calls_on_its_cpu_clock() {
    let us = Duration::from_micros;
    // 300 calls of 33 µs, 30 µs of CPU each inside them; between the calls
    // the ticks saw 10 ms more (the old reading's 1.70×).
    let used = PassUse {
        busy: us(300 * 33),
        cpu: TICK,
        calls: CallUse {
            cpu: us(300 * 30),
            wall: us(300 * 33),
        },
        ticked: 1,
        ..PassUse::default()
    };
    let r = cpu_ratio(&used, 1, TICK);
    assert_eq!(r.1, "process");
    assert!((r.0.unwrap() - 30.0 / 33.0).abs() < 1e-9, "{r:?}");
    assert_eq!(r.2, Some(0.0));
    assert!(!flagged(r));
    // Three spinning threads beside the one answering: 4× inside the calls.
    let spun = PassUse {
        calls: CallUse {
            cpu: us(4 * 1000),
            wall: us(1000),
        },
        ..used
    };
    assert!(flagged(cpu_ratio(&spun, 1, TICK)));
}

#[test]
fn ticks_flag_only_beyond_their_margin() {
    let ms = Duration::from_millis;
    // No CPU clock: 20 ms in ticks over 17.6 ms busy in one pass is 1.14×,
    // but a tick either way is ±0.57: not flagged.
    let coarse = PassUse {
        busy: ms(176) / 10,
        cpu: ms(20),
        ticked: 1,
        ..PassUse::default()
    };
    let r = cpu_ratio(&coarse, 1, TICK);
    assert_eq!(r.1, "ticks");
    assert!((r.2.unwrap() - 10.0 / 17.6).abs() < 1e-9, "{r:?}");
    assert!(!flagged(r));
    // 2 s of ticks over 1 s busy in 10 passes: 2.00× ± 0.10, flagged.
    let heavy = PassUse {
        busy: ms(1000),
        cpu: ms(2000),
        ticked: 10,
        ..PassUse::default()
    };
    assert!(flagged(cpu_ratio(&heavy, 1, TICK)));
    // 1.8 s over 8 workers (a process each): 1.80× ± 0.80, not flagged.
    let spread = PassUse {
        cpu: ms(1800),
        ..heavy
    };
    assert!(flagged(cpu_ratio(&spread, 1, TICK)));
    assert!(!flagged(cpu_ratio(&spread, 8, TICK)));
}

#[test]
fn a_built_in_reads_its_thread_clock_and_nothing_reads_nothing() {
    let ms = Duration::from_millis;
    let built_in = PassUse {
        busy: ms(100),
        cpu: ms(99),
        ..PassUse::default()
    };
    let r = cpu_ratio(&built_in, 4, TICK);
    assert_eq!((r.1.as_str(), r.2), ("thread", Some(0.0)));
    assert!(!flagged(r));
    let r = cpu_ratio(&PassUse::default(), 1, TICK);
    assert_eq!(r, (None, String::new(), None));
    assert!(!flagged(r));
}
