use super::*;
use crate::format::test_grid as grid;
use crate::solver::{Limits, Mode, SolverId, Status};
use crate::validate::check_solution;

/// A 25×25 grid with half its cells blank (`generate --size 25 --holes
/// --min-clues 312 --max-clues 312 --seed 5`, the 11th): near the hardness
/// peak, where chronological backtracking wanders.
const PEAK_25: &str = "..F.....MG.V.K.H....OIA.N..A.S.KBN.DJR.U.I.C...E.W.T..W...V.O..G.MXN..Q.R.Y...YG..I..ET.ANK.QU.S.BXJ..NER.TQC.X.S.F.BW.APDKHG..YUV.CD.F........ML..J...JSRD.N..V.E...F...TL.C.HE...LKPW.HU.J...ROGCB..QDK..BTG.LJ....V.W.X........Q....R.OS.L.FYD.V..A.UG....TEJHCBP.IFY..OUW..N.AX.S.P.F.KR..D.B...YXJG.T..Q.K..X.....G.PENLMBF.R....B.NF..OW..X.JRP.GSK....UW.R..YEG.NQ..L.......PF.B.N..X..Y..F......RO.UA.ELYM.G...EQ.ROPDLBF.AU.H.KVAROI.L.FU..N..Q..H.....MP....U...I...Y..S.PE.TB.RQT.Q.PMJRDXVHB.A..LIW...OC...AMR...B.P.HS....I..ONT.KEOI..SHMLC...J....R...AV....OI...Y..RD.G.KMJQH..R..HQ......W.EOV...P.U.BI..TCJ..N..BAK.V..EH.XL.DF";

#[test]
fn clause_learning_needs_a_fraction_of_the_nodes_near_the_peak() {
    let p = grid(PEAK_25);
    let limits = Limits::new(Mode::First);
    let mrv = SolverId::BitsetMrvLocked.solve(&p, &limits);
    let cdcl = Cdcl.solve(&p, &limits);
    assert_eq!((mrv.status, cdcl.status), (Status::Solved, Status::Solved));
    check_solution(&p, &cdcl.solutions[0]).unwrap();
    assert!(
        cdcl.counters.nodes * 10 < mrv.counters.nodes,
        "cdcl {:?}, bitset-mrv-locked {:?}",
        cdcl.counters,
        mrv.counters
    );
    // Every decision is a guess; conflicts and the root are the other nodes.
    assert!(cdcl.counters.guesses >= 1 && cdcl.counters.guesses < cdcl.counters.nodes);
}

#[test]
fn the_hybrid_is_bitset_mrv_locked_until_the_handover() {
    // Below the handover the hybrid is bitset-mrv-locked, node for node.
    let easy =
        grid("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......");
    for mode in [Mode::First, Mode::Unique, Mode::Count(3)] {
        let limits = Limits::new(mode);
        let mrv = SolverId::BitsetMrvLocked.solve(&easy, &limits);
        assert!(mrv.counters.nodes < HANDOVER_NODES);
        assert_eq!(CdclHybrid.solve(&easy, &limits), mrv, "{mode}");
    }
    // Past it, cdcl starts over: the nodes add up, and the solutions bitset-mrv-locked
    // found before the handover are not counted twice.
    let p = grid(PEAK_25);
    for mode in [Mode::First, Mode::Count(3)] {
        let limits = Limits::new(mode);
        let hybrid = CdclHybrid.solve(&p, &limits);
        let cdcl = Cdcl.solve(&p, &limits);
        assert_eq!(hybrid.status, cdcl.status, "{mode}");
        assert_eq!(hybrid.solution_count, cdcl.solution_count, "{mode}");
        assert_eq!(hybrid.solutions, cdcl.solutions, "{mode}");
        assert_eq!(
            hybrid.counters.nodes,
            HANDOVER_NODES + cdcl.counters.nodes,
            "{mode}"
        );
    }
}

#[test]
fn the_run_budget_still_binds_across_the_handover() {
    let p = grid(PEAK_25);
    let limits = Limits::new(Mode::First).with_node_budget(Some(HANDOVER_NODES + 50));
    let out = CdclHybrid.solve(&p, &limits);
    assert_eq!(out.status, Status::Budget);
    assert_eq!(out.counters.nodes, HANDOVER_NODES + 50);
    // A budget below the handover ends the search there, as bitset-mrv-locked's would.
    let limits = Limits::new(Mode::First).with_node_budget(Some(100));
    assert_eq!(
        CdclHybrid.solve(&p, &limits),
        SolverId::BitsetMrvLocked.solve(&p, &limits)
    );
}

#[test]
fn counting_blocks_each_solution_once() {
    // The empty 9×9 grid's first solutions, counted by cdcl and dlx alike.
    let empty = crate::grid::Grid::empty(crate::grid::Geometry::from_side(9).unwrap());
    for k in [1, 2, 7, 40] {
        let limits = Limits::new(Mode::Count(k));
        let out = Cdcl.solve(&empty, &limits);
        assert_eq!(out.solution_count, k);
        for s in &out.solutions {
            check_solution(&empty, s).unwrap();
        }
        assert_ne!(out.solutions.first(), out.solutions.get(1));
    }
}

#[test]
fn deleting_and_compacting_learnt_clauses_keeps_the_answers() {
    // Keeping 300 learnt clauses instead of thousands makes the search
    // delete and compact on the way.
    let keep = Keep {
        first: 300,
        growth: 0,
    };
    let p = grid(PEAK_25);
    for mode in [Mode::First, Mode::Count(3)] {
        let limits = Limits::new(mode);
        let mut tracer = crate::solver::NoTrace;
        let mut ctl = Control::new(&limits, &mut tracer);
        let engine = run(&p, &mut ctl, keep).expect("the engine was built");
        assert!(engine.compactions > 0, "{mode}: no compaction");
        let small = ctl.finish();
        let full = Cdcl.solve(&p, &limits);
        assert_eq!(small.status, full.status, "{mode}");
        assert_eq!(small.solution_count, full.solution_count, "{mode}");
        for s in &small.solutions {
            check_solution(&p, s).unwrap();
        }
    }
}
