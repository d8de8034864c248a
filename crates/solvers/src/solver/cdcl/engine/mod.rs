//! The clause-learning engine: two watched literals, at-most-one groups
//! propagated natively, first-UIP learning with local minimisation, VSIDS,
//! phase saving, Luby restarts and LBD-ranked clause deletion.
//!
//! A literal is `2 * var + negated`. Every variable stands for one candidate
//! (a cell and a digit) and sits in four "exactly one" groups: its cell, and
//! its digit in its row, column and box. A group's "at least one" is an
//! ordinary clause; its "at most one" is never written out (a 64-candidate
//! group would need 2,016 binary clauses): when a candidate becomes true, the
//! others of its groups become false with the implicit clause `¬x ∨ ¬y` as
//! their reason. Learning and the upkeep of learnt clauses are in
//! `learning.rs`.

mod learning;

use super::heap::Heap;

/// A literal: `2 * var + 1` when negated.
pub(super) type Lit = u32;

#[inline]
fn var(l: Lit) -> usize {
    (l >> 1) as usize
}

#[inline]
fn negated(l: Lit) -> bool {
    l & 1 == 1
}

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Why {
    /// A decision, or a fact at level 0.
    Decided,
    /// False because the candidate of this variable is true (the implicit `¬x ∨ ¬y`).
    Excluded(u32),
    /// Implied by this clause, whose first literal it is.
    Clause(u32),
}

/// What made a clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A cell's "at least one digit".
    Cell,
    /// A unit's "the digit goes somewhere".
    Unit,
    /// Learnt from a conflict (may be deleted).
    Learnt,
    /// Blocks a solution already reported (kept).
    Block,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Cell, Kind::Unit, Kind::Learnt, Kind::Block];
}

/// A clause in the arena: its length, then `kind << 30 | deleted << 29 |
/// lbd` (literal block distance, distinct decision levels, when learnt),
/// then its literals. Its id is the offset of the length. One flat array
/// keeps a clause's header and literals on the same cache lines.
const HEADER: usize = 2;
const DELETED: u32 = 1 << 29;
const LBD_MASK: u32 = DELETED - 1;

#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    /// A literal of the clause: when true, the clause needs no visit.
    blocker: Lit,
}

/// A conflict: every literal of its clause is false.
#[derive(Clone, Copy, Debug)]
pub(super) enum Conflict {
    /// Two true candidates of one group (`¬x ∨ ¬y`).
    Pair(u32, u32),
    Clause(u32),
}

/// Conflicts per unit of the Luby restart sequence.
const RESTART_UNIT: u64 = 100;
/// How many learnt clauses are kept: `first` before the first deletion, and
/// `growth` more after each.
#[derive(Clone, Copy, Debug)]
pub(super) struct Keep {
    pub first: usize,
    pub growth: usize,
}

impl Keep {
    pub(super) const DEFAULT: Keep = Keep {
        first: 4_000,
        growth: 500,
    };
}
/// VSIDS decay: each conflict makes later bumps this much larger.
const VAR_DECAY: f64 = 0.95;

/// The solver's state over one puzzle's candidates.
pub(super) struct Engine {
    /// The four groups of each variable (indices into `group_start`).
    var_groups: Vec<[u32; 4]>,
    group_start: Vec<u32>,
    group_vars: Vec<u32>,

    /// Per literal: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    level: Vec<u32>,
    why: Vec<Why>,
    /// True literals in assignment order.
    trail: Vec<Lit>,
    /// Trail length at the start of each decision level.
    levels: Vec<usize>,
    head: usize,

    arena: Vec<u32>,
    /// Arena words held by deleted clauses.
    wasted: usize,
    /// Times the arena was compacted.
    pub(super) compactions: u32,
    /// Clauses watching each literal, visited when it becomes false.
    watches: Vec<Vec<Watch>>,
    learnt: usize,
    keep: usize,
    growth: usize,

    activity: Vec<f64>,
    bump: f64,
    heap: Heap,
    /// The value each variable last had (its next decision's sign).
    phase: Vec<bool>,
    seen: Vec<bool>,
    level_stamp: Vec<u64>,
    stamp: u64,

    /// Conflicts so far, and when the next restart falls due.
    conflicts: u64,
    restarts: u32,
    next_restart: u64,
    scratch: Vec<Lit>,
    /// The literals of a clause being added.
    buffer: Vec<Lit>,
}

/// The `i`-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 …
fn luby(mut i: u64) -> u64 {
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

impl Engine {
    /// An engine over `vars` candidates and their "exactly one" groups
    /// (group `g` is `members[starts[g]..starts[g + 1]]`, as
    /// [`crate::solver::cnf::Candidates`] gives them), the groups' "at least one" not yet added
    /// ([`Engine::add_groups`]). `keep` says how many learnt clauses are kept.
    pub(super) fn new(vars: usize, starts: Vec<u32>, members: Vec<u32>, keep: Keep) -> Engine {
        let mut var_groups = vec![[u32::MAX; 4]; vars];
        let mut filled = vec![0u8; vars];
        for (g, w) in starts.windows(2).enumerate() {
            for &v in &members[w[0] as usize..w[1] as usize] {
                let slot = &mut filled[v as usize];
                if (*slot as usize) < 4 {
                    var_groups[v as usize][*slot as usize] = g as u32;
                }
                *slot += 1;
            }
        }
        Engine {
            var_groups,
            group_start: starts,
            group_vars: members,
            value: vec![0; 2 * vars],
            level: vec![0; vars],
            why: vec![Why::Decided; vars],
            trail: Vec::with_capacity(vars),
            levels: Vec::new(),
            head: 0,
            arena: Vec::new(),
            wasted: 0,
            compactions: 0,
            watches: vec![Vec::new(); 2 * vars],
            learnt: 0,
            keep: keep.first,
            growth: keep.growth,
            activity: vec![0.0; vars],
            bump: 1.0,
            heap: Heap::new(vars),
            phase: vec![true; vars],
            seen: vec![false; vars],
            level_stamp: vec![0; vars + 1],
            stamp: 0,
            conflicts: 0,
            restarts: 0,
            next_restart: RESTART_UNIT,
            scratch: Vec::new(),
            buffer: Vec::new(),
        }
    }

    /// Adds each group's "at least one" (the first `cell_groups` are cells').
    /// Returns `false` when one is false at once (no solution).
    pub(super) fn add_groups(&mut self, cell_groups: usize) -> bool {
        let mut lits = Vec::new();
        for g in 0..self.group_start.len() - 1 {
            let (from, to) = (
                self.group_start[g] as usize,
                self.group_start[g + 1] as usize,
            );
            lits.clear();
            lits.extend(self.group_vars[from..to].iter().map(|&v| 2 * v));
            let kind = if g < cell_groups {
                Kind::Cell
            } else {
                Kind::Unit
            };
            if !self.add_clause(&lits, kind) {
                return false;
            }
        }
        true
    }

    /// The current decision level.
    pub(super) fn depth(&self) -> usize {
        self.levels.len()
    }

    /// True when the variable is true.
    pub(super) fn is_true(&self, v: usize) -> bool {
        self.value[2 * v] > 0
    }

    #[inline]
    fn lit_value(&self, l: Lit) -> i8 {
        self.value[l as usize]
    }

    /// Makes `l` true at the current level. The caller knows it is unassigned.
    #[inline]
    fn assign(&mut self, l: Lit, why: Why) {
        let v = var(l);
        self.value[l as usize] = 1;
        self.value[(l ^ 1) as usize] = -1;
        self.level[v] = self.levels.len() as u32;
        self.why[v] = why;
        self.trail.push(l);
    }

    /// The kind of the clause that made variable `v` true, if a clause did.
    pub(super) fn implied_by(&self, v: usize) -> Option<Kind> {
        match self.why[v] {
            Why::Clause(c) => Some(self.kind(c as usize)),
            _ => None,
        }
    }

    /// Adds a clause. Returns `false` when it is false at level 0 (no
    /// solution). The engine must be at level 0 with propagation done.
    pub(super) fn add_clause(&mut self, lits: &[Lit], kind: Kind) -> bool {
        debug_assert_eq!(self.depth(), 0);
        let mut open = std::mem::take(&mut self.buffer);
        open.clear();
        let mut satisfied = false;
        for &l in lits {
            match self.lit_value(l) {
                0 => open.push(l),
                1 => satisfied = true,
                _ => {}
            }
        }
        let ok = satisfied
            || match open.len() {
                0 => false,
                1 => {
                    self.assign(open[0], Why::Decided);
                    true
                }
                _ => {
                    self.attach(&open, kind, 0);
                    true
                }
            };
        self.buffer = open;
        ok
    }

    /// Stores a clause of two or more literals and watches its first two.
    fn attach(&mut self, lits: &[Lit], kind: Kind, lbd: u32) -> u32 {
        let (a, b) = (lits[0], lits[1]);
        let id = self.arena.len() as u32;
        self.arena.push(lits.len() as u32);
        self.arena.push((kind as u32) << 30 | lbd.min(LBD_MASK));
        self.arena.extend_from_slice(lits);
        self.watches[a as usize].push(Watch {
            clause: id,
            blocker: b,
        });
        self.watches[b as usize].push(Watch {
            clause: id,
            blocker: a,
        });
        if kind == Kind::Learnt {
            self.learnt += 1;
        }
        id
    }

    /// The literals of clause `c`.
    #[inline]
    fn lits(&self, c: usize) -> &[Lit] {
        let len = self.arena[c] as usize;
        &self.arena[c + HEADER..c + HEADER + len]
    }

    fn kind(&self, c: usize) -> Kind {
        Kind::ALL[(self.arena[c + 1] >> 30) as usize]
    }

    /// Propagates every assignment not yet propagated.
    pub(super) fn propagate(&mut self) -> Option<Conflict> {
        while self.head < self.trail.len() {
            let p = self.trail[self.head];
            self.head += 1;
            if !negated(p) {
                if let Some(c) = self.exclude_others(var(p)) {
                    return Some(c);
                }
            }
            if let Some(c) = self.visit_watches(p ^ 1) {
                return Some(c);
            }
        }
        None
    }

    /// `x` is true: every other candidate of its four groups becomes false.
    fn exclude_others(&mut self, x: usize) -> Option<Conflict> {
        for k in 0..4 {
            let g = self.var_groups[x][k] as usize;
            let (from, to) = (self.group_start[g], self.group_start[g + 1]);
            for i in from..to {
                let y = self.group_vars[i as usize] as usize;
                match self.value[2 * y] {
                    0 => self.assign(2 * y as Lit + 1, Why::Excluded(x as u32)),
                    1 if y != x => return Some(Conflict::Pair(x as u32, y as u32)),
                    _ => {}
                }
            }
        }
        None
    }

    /// `f` has become false: the clauses watching it find another watch or propagate.
    fn visit_watches(&mut self, f: Lit) -> Option<Conflict> {
        let mut ws = std::mem::take(&mut self.watches[f as usize]);
        let (mut i, mut j) = (0, 0);
        let mut conflict = None;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if self.lit_value(w.blocker) > 0 {
                ws[j] = w;
                j += 1;
                continue;
            }
            let c = w.clause as usize;
            let len = self.arena[c] as usize;
            let at = c + HEADER;
            if self.arena[at] == f {
                self.arena.swap(at, at + 1);
            }
            let first = self.arena[at];
            let kept = Watch {
                clause: w.clause,
                blocker: first,
            };
            if first != w.blocker && self.lit_value(first) > 0 {
                ws[j] = kept;
                j += 1;
                continue;
            }
            let mut moved = false;
            for k in at + 2..at + len {
                let l = self.arena[k];
                if self.lit_value(l) >= 0 {
                    self.arena.swap(at + 1, k);
                    self.watches[l as usize].push(kept);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            ws[j] = kept;
            j += 1;
            if self.lit_value(first) < 0 {
                conflict = Some(Conflict::Clause(w.clause));
                while i < ws.len() {
                    ws[j] = ws[i];
                    i += 1;
                    j += 1;
                }
            } else {
                self.assign(first, Why::Clause(w.clause));
            }
        }
        ws.truncate(j);
        self.watches[f as usize] = ws;
        conflict
    }

    /// Undoes every level above `target`.
    pub(super) fn backtrack(&mut self, target: usize) {
        if self.depth() <= target {
            return;
        }
        let from = self.levels[target];
        for k in (from..self.trail.len()).rev() {
            let l = self.trail[k];
            let v = var(l);
            self.value[l as usize] = 0;
            self.value[(l ^ 1) as usize] = 0;
            self.phase[v] = !negated(l);
            self.heap.insert(v, &self.activity);
        }
        self.trail.truncate(from);
        self.levels.truncate(target);
        self.head = from;
    }

    /// True when a restart is due (Luby sequence); counts it.
    pub(super) fn restart_due(&mut self) -> bool {
        if self.conflicts < self.next_restart {
            return false;
        }
        self.restarts += 1;
        self.next_restart = self.conflicts + RESTART_UNIT * luby(self.restarts as u64 + 1);
        true
    }

    /// Opens a new level deciding the most active unassigned variable, with
    /// its saved phase; `None` when every variable has a value.
    pub(super) fn decide(&mut self) -> Option<Lit> {
        loop {
            let v = self.heap.pop(&self.activity)?;
            if self.value[2 * v] == 0 {
                self.levels.push(self.trail.len());
                let l = 2 * v as Lit + if self.phase[v] { 0 } else { 1 };
                self.assign(l, Why::Decided);
                return Some(l);
            }
        }
    }

    /// The decisions that led to the current state, negated: the clause that
    /// forbids every assignment they imply (at least one must differ).
    pub(super) fn blocking_clause(&self) -> Vec<Lit> {
        self.levels.iter().map(|&k| self.trail[k] ^ 1).collect()
    }

    /// The variables set true since trail position `from`, for traces.
    pub(super) fn trail_from(&self, from: usize) -> &[Lit] {
        &self.trail[from..]
    }

    /// The trail's length.
    pub(super) fn trail_len(&self) -> usize {
        self.trail.len()
    }
}

/// The variable and sign of a literal, for the driver.
pub(super) fn split(l: Lit) -> (usize, bool) {
    (var(l), !negated(l))
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_sequence_starts_as_published() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
