use super::*;

#[test]
fn triad_table_keeps_permutations_only() {
    // Every row may use every box: everything stays.
    assert_eq!(FEASIBLE[0x1ff], 0x1ff);
    // Row 0 only in box 0: rows 1 and 2 lose box 0.
    let t = 0b111_111_001;
    assert_eq!(FEASIBLE[t], 0b110_110_001);
    // Two rows confined to the same single box: nothing fits.
    assert_eq!(FEASIBLE[0b111_001_001], 0);
    assert_eq!(COMPLEX[0b111_001_001], 0);
    assert_eq!(COMPLEX[0x1ff], BAND);
}

#[test]
fn exactly_three_forces_and_refuses() {
    // Nothing known: every digit may use every triad; nothing changes.
    assert_eq!(exactly_three(&[0x1ff; 9]), Some([0; 9]));
    // Triad 0 (row 0, box 0) is reachable by digits 0, 1, 2 only: each takes
    // it, losing the rest of row 0 and of box 0.
    let mut t = [0x1ff; 9];
    for x in &mut t[3..] {
        *x = 0x1fe;
    }
    let lose = exactly_three(&t).unwrap();
    for l in &lose[..3] {
        assert_eq!(*l, TRIAD_PEERS[0] as u32);
        assert_eq!(*l, 0b001_001_110);
    }
    assert!(lose[3..].iter().all(|&l| l == 0));
    // Digits 0, 1, 2 settled in triad 0 (their row 0 has no other triad):
    // digit 3 loses it.
    let mut t = [0x1ff; 9];
    for x in &mut t[..3] {
        *x = 0b110_110_001;
    }
    let lose = exactly_three(&t).unwrap();
    assert!(lose[..3].iter().all(|&l| l == 0));
    assert!(lose[3..].iter().all(|&l| l == 1));
    // Only two digits reach triad 0, or four are settled there: a contradiction.
    let mut t = [0x1fe; 9];
    t[0] = 0x1ff;
    t[1] = 0x1ff;
    assert_eq!(exactly_three(&t), None);
    let mut t = [0x1ff; 9];
    for x in &mut t[..4] {
        *x = 0b110_110_001;
    }
    assert_eq!(exactly_three(&t), None);
}

#[test]
fn root_state_is_the_givens_placed_in_turn() {
    let check = |puzzle: &Grid| {
        let line = crate::format::write_line(
            puzzle,
            &crate::format::Alphabet::default_for(puzzle.geometry()),
        );
        let mut stepwise = State::BLANK;
        for d in 0..9 {
            stepwise.cand[4 * d..4 * d + 3].fill(BAND);
        }
        let mut conflict = false;
        for (c, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let (d, b, p) = (v as usize - 1, c / 27, (c % 27) as u32);
                conflict |= stepwise.cand[4 * d + b] & (1 << p) == 0;
                stepwise.place::<Scalar>(d, b, p);
            }
        }
        let mut st = State::BLANK;
        match st.set_givens(puzzle) {
            false => assert!(conflict, "{line}"),
            true => {
                assert!(!conflict, "{line}");
                assert_eq!(st.cand, stepwise.cand, "{line}");
                assert_eq!(st.unsolved, stepwise.unsolved, "{line}");
                assert_eq!(st.rows, stepwise.rows, "{line}");
            }
        }
    };
    let opts = crate::format::ReadOptions::default();
    let mut seen = 0;
    // The workbench's embedded 9×9 sets.
    let sets = [
        include_str!("../../../../../datasets/reference/seeds-9x9.txt"),
        include_str!("../../../../../datasets/easy-9x9.txt"),
        include_str!("../../../../../datasets/medium-9x9.txt"),
        include_str!("../../../../../datasets/hard-9x9.txt"),
        include_str!("../../../../../datasets/extreme-9x9.txt"),
    ];
    for (i, text) in sets.into_iter().enumerate() {
        let ds = crate::format::read_str(&format!("set {i}"), text, &opts).unwrap();
        for p in ds.puzzles.iter().filter(|p| p.grid.geometry().side() == 9) {
            check(&p.grid);
            seen += 1;
        }
    }
    assert!(seen > 100, "{seen}");
    // Conflicts in a row, a column and a box, and the empty and full grids.
    let g = crate::format::test_grid;
    check(&g(&format!("11{}", ".".repeat(79))));
    check(&g(&format!("1{}1{}", ".".repeat(8), ".".repeat(71))));
    check(&g(&format!("1{}1{}", ".".repeat(9), ".".repeat(70))));
    check(&g(&".".repeat(81)));
    check(&g(
        "534678912672195348198342567859761423426913756713824691961537284287419635345286179",
    ));
}

/// A state's words with each cell kept at `percent` per cent (padding zero);
/// `around` keeps a solution's cells as well, so that fewer states contradict.
fn random_words(seed: u64, percent: u32, around: bool) -> [u32; 40] {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut cand = [0u32; 40];
    if around {
        let solution =
            b"534678912672195348198342567859761423426913756713824691961537284287419635345286179";
        for (c, v) in solution.iter().enumerate() {
            cand[4 * (v - b'1') as usize + c / 27] |= 1 << (c % 27);
        }
    }
    for d in 0..9 {
        for b in 0..3 {
            for p in 0..27 {
                if rng.gen_range(0..100) < percent {
                    cand[4 * d + b] |= 1 << p;
                }
            }
        }
    }
    cand
}

proptest::proptest! {
    /// The vector forms of the digit-wide rules change the same words to the
    /// same bits as the scalar forms and see the same contradictions, and the
    /// vector branch choice is the scalar one.
    #[test]
    fn wide_rules_agree_with_the_scalar_rules(
        seed in proptest::prelude::any::<u64>(),
        percent in 0u32..=100,
        around in proptest::prelude::any::<bool>(),
    ) {
        if !Isa::Avx2.supported() {
            return Ok(());
        }
        let start = random_words(seed, percent, around);
        let (mut s, mut v) = (start, start);
        let (ds, dv) = (Scalar::stacks(&mut s, ALL_WORDS), x86::Avx2::stacks(&mut v, ALL_WORDS));
        proptest::prop_assert_eq!(ds, dv);
        if ds.is_some() {
            proptest::prop_assert_eq!(s, v);
        }
        let (mut s, mut v) = (start, start);
        let (ds, dv) = (Scalar::triad_rule(&mut s), x86::Avx2::triad_rule(&mut v));
        proptest::prop_assert_eq!(ds, dv);
        if ds.is_some() {
            proptest::prop_assert_eq!(s, v);
        }
        proptest::prop_assert_eq!(
            Scalar::choose_config(&start),
            x86::Avx2::choose_config(&start)
        );
        for w in start {
            proptest::prop_assert_eq!(Scalar::singles(w), x86::Avx2::singles(w));
        }
    }
}

#[test]
fn singles_are_the_rows_left_with_one_cell() {
    for x in 0u32..512 {
        for a in [
            x | x << 9 | x << 18,
            x | (x ^ 0x1ff) << 9 | ((x * 7) & 0x1ff) << 18,
        ] {
            let one = |r: u32| ((a >> (9 * r) & 0x1ff).count_ones() == 1) as u32;
            let expected = one(0) | one(1) << 1 | one(2) << 2;
            assert_eq!(Scalar::singles(a), expected, "{a:#x}");
            #[cfg(target_arch = "x86_64")]
            assert_eq!(x86::Avx2::singles(a), expected, "{a:#x}");
        }
    }
}

#[test]
fn keep_mask_clears_row_and_box_peers() {
    // Cell r0c0: its row and box go, the rest of the band stays.
    let k = KEEP[0];
    assert_eq!(k & 0x1ff, 1);
    assert_eq!(k >> 9 & 7, 0);
    assert_eq!(k >> 18 & 7, 0);
    assert_eq!((k >> 9 & 0x1ff).count_ones(), 6);
    assert_eq!(k.count_ones(), 1 + 6 + 6);
}
