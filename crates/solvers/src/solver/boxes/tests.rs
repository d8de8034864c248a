use super::state::*;
use super::*;
use crate::format::test_grid as grid;
use crate::solver::{Dlx, Limits, Mode};

/// The triads that lie on a permutation, for every 9-bit pattern, by brute force.
fn fitting(t: u16) -> u16 {
    let mut keep = 0;
    for p in permutations(t) {
        keep |= p as u16;
    }
    keep
}

#[test]
fn every_triad_pattern_keeps_exactly_its_permutations() {
    // The closure is computed lane by lane with rotations; compare it with the
    // permutations themselves on all 512 patterns, nine digits at a time, as
    // bands and as stacks, on every path.
    for start in (0..512).step_by(9) {
        let pattern = |d: usize| (start + d).min(511) as u16;
        let fit: Vec<u16> = (0..9).map(|d| fitting(pattern(d))).collect();
        for stack in [false, true] {
            let mut st = State::OPEN;
            let bx = if stack { [1, 4, 7] } else { [3, 4, 5] };
            for d in 0..9 {
                let t = pattern(d);
                for (k, &b) in bx.iter().enumerate() {
                    st.boxes[b][d] = match stack {
                        false => ((t >> k) & 0o111) * 7,
                        true => ((t >> (3 * k)) & 7) * 0o111,
                    };
                }
            }
            assert_eq!(
                &st.triads(bx, stack)[..9],
                &(0..9).map(pattern).collect::<Vec<_>>()[..]
            );
            for isa in Isa::available() {
                let mut st = st;
                let dead = rule(isa, &mut st, 1 + stack as usize, 1).is_none();
                assert_eq!(dead, fit.contains(&0), "{isa:?} {stack} from {start}");
                if !dead {
                    assert_eq!(
                        &st.triads(bx, stack)[..9],
                        &fit[..],
                        "{isa:?} {stack} from {start}"
                    );
                }
            }
        }
    }
}

/// Rule `rule` (0 box, 1 band, 2 stack, 3 triad) on `k` of one path: what
/// it changed, or `None` for a dead end.
fn rule(isa: Isa, st: &mut State, rule: usize, k: usize) -> Option<u32> {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 | Isa::Avx512 => super::x86::single::run(st, rule, k),
        _ => match rule {
            0 => st.box_rule(k).map(u32::from),
            1 | 2 => st.line_rule(k, rule == 2),
            _ => st.triad_rule(k).map(u32::from),
        }
        .ok(),
    }
}

#[test]
fn every_path_applies_each_rule_alike() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(84);
    let (mut dead, mut changed) = ([0; 4], [0; 4]);
    for round in 0..20_000 {
        // Boxes with some digits single and the rest random, sparser as rounds go.
        let mut st = State::OPEN;
        for b in 0..9 {
            for d in 0..9 {
                st.boxes[b][d] = match rng.gen_range(0..4) {
                    0 => 1 << rng.gen_range(0..9),
                    _ => {
                        rng.gen_range(0..512) & rng.gen_range(0..512)
                            | rng.gen_range(0..512) >> (round % 4)
                    }
                };
            }
        }
        let (r, k) = (rng.gen_range(0..4), rng.gen_range(0..9));
        let k = if r == 1 || r == 2 { k % 3 } else { k };
        let mut want = st;
        let out = rule(Isa::Portable, &mut want, r, k);
        dead[r] += out.is_none() as usize;
        changed[r] += out.is_some_and(|c| c != 0) as usize;
        for isa in Isa::available() {
            let mut got = st;
            assert_eq!(
                rule(isa, &mut got, r, k),
                out,
                "{isa:?} rule {r} on {k}, round {round}"
            );
            if out.is_some() {
                assert_eq!(
                    got.boxes, want.boxes,
                    "{isa:?} rule {r} on {k}, round {round}"
                );
            }
        }
    }
    // The random states reach every outcome of every rule.
    assert!(
        dead.iter().chain(&changed).all(|&n| n > 100),
        "{dead:?} {changed:?}"
    );
}

#[test]
fn cells_and_boxes_round_trip() {
    for c in 0..81 {
        let (b, p) = box_of(c);
        assert_eq!(cell_of(b, p), c);
    }
    assert_eq!(box_of(80), (8, 8));
    assert_eq!(box_of(30), (4, 0));
}

#[test]
fn every_path_agrees_with_dlx_on_the_seed_puzzles() {
    let puzzles = [
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        ".9.6..3...3..5..285.1..27....61.8..2.1.....3.8..5.96....97..4.314..2..9...8..6.7.",
        // Two solutions.
        "2.6.3......1.65.7..471.8.5.5......29..8.194.6...42...1....428..6.93....5.7.....1.",
    ];
    for line in puzzles {
        let p = grid(line);
        for mode in [Mode::First, Mode::Unique, Mode::Count(1000)] {
            let want = Dlx {
                rule: crate::solver::ColumnRule::Smallest,
            }
            .solve(&p, &Limits::new(mode));
            let mut counters = None;
            for isa in Isa::available() {
                let got = Boxes { isa }.solve(&p, &Limits::new(mode));
                assert_eq!(got.status, want.status, "{line} {mode:?} {isa:?}");
                assert_eq!(got.solution_count, want.solution_count, "{line} {isa:?}");
                if mode != Mode::First {
                    assert_eq!(got.solutions, want.solutions, "{line} {isa:?}");
                }
                // Every path makes the same decisions.
                let c = (got.counters.nodes, got.counters.guesses);
                assert_eq!(*counters.get_or_insert(c), c, "{line} {isa:?}");
            }
        }
    }
}

#[test]
fn exactly_three_forces_and_refuses() {
    let mut st = State::OPEN;
    // Nothing known: nothing changes.
    assert!(matches!(st.triad_rule(4), Ok(false)));
    // Row 0 of box 4 is reachable by digits 0, 1 and 2 only: each takes it.
    for d in 3..9 {
        st.boxes[4][d] = 0o770;
    }
    assert!(matches!(st.triad_rule(4), Ok(true)));
    for d in 0..3 {
        assert_eq!(st.boxes[4][d], 0o7);
    }
    assert!(st.boxes[4][3..9].iter().all(|&x| x == 0o770));
    // Column 2 holds digits 0, 1 and 2 settled: digit 3 loses it.
    let mut st = State::OPEN;
    for d in 0..3 {
        st.boxes[0][d] = 0o444;
    }
    assert!(matches!(st.triad_rule(0), Ok(true)));
    assert!(st.boxes[0][3..9].iter().all(|&x| x == 0o333));
    // Four digits settled in one column, or only two reaching a row: dead.
    let mut st = State::OPEN;
    for d in 0..4 {
        st.boxes[0][d] = 0o444;
    }
    assert!(st.triad_rule(0).is_err());
    let mut st = State::OPEN;
    for d in 2..9 {
        st.boxes[0][d] = 0o770;
    }
    assert!(st.triad_rule(0).is_err());
}

#[test]
fn pencilmarks_and_givens_are_written_into_their_boxes() {
    // r1c1 given 5; r9c9 open with marks {1, 9}.
    let mut cells = [0u8; 81];
    cells[0] = 5;
    let mut marks = vec![0x1ffu64; 81];
    marks[80] = 0b1_0000_0001;
    let p = Grid::from_cells(Geometry::new(3).unwrap(), &cells)
        .unwrap()
        .with_marks(marks)
        .unwrap();
    let mut st = State::OPEN;
    st.set(&p);
    assert_eq!(st.boxes[0][4], 1);
    assert!(st.boxes[0]
        .iter()
        .enumerate()
        .all(|(d, &x)| d == 4 || x & 1 == 0));
    assert_eq!(st.digits(80), 0b1_0000_0001);
    assert_eq!(st.digits(79), 0x1ff);
}
