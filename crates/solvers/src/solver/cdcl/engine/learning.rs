//! Learning from conflicts (first-UIP analysis, minimisation, backjump)
//! and keeping the learnt clauses in check (deletion by LBD, compaction).

use super::{var, Conflict, Engine, Kind, Lit, Why, DELETED, HEADER, LBD_MASK, VAR_DECAY};

impl Engine {
    /// The false literals that explain `why` (all but the one it implied).
    fn reason_into(&self, why: Why, out: &mut Vec<Lit>) {
        match why {
            Why::Decided => {}
            Why::Excluded(x) => out.push(2 * x + 1),
            Why::Clause(c) => out.extend_from_slice(&self.lits(c as usize)[1..]),
        }
    }

    fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.bump;
        if self.activity[v] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        if self.heap.contains(v) {
            let i = self.heap.pos[v] as usize;
            self.heap.up(i, &self.activity);
        }
    }

    /// Learns from a conflict above level 0: backjumps and asserts the
    /// learnt clause's first literal. Returns the level jumped to.
    pub(in crate::solver::cdcl) fn learn(&mut self, conflict: Conflict) -> usize {
        self.conflicts += 1;
        let here = self.depth() as u32;
        let mut learnt: Vec<Lit> = vec![0];
        let mut reason = std::mem::take(&mut self.scratch);
        reason.clear();
        match conflict {
            Conflict::Pair(x, y) => reason.extend([2 * x + 1, 2 * y + 1]),
            Conflict::Clause(c) => reason.extend_from_slice(self.lits(c as usize)),
        }
        let mut open = 0;
        let mut index = self.trail.len();
        let asserted = loop {
            for &q in &reason {
                let v = var(q);
                if !self.seen[v] && self.level[v] > 0 {
                    self.seen[v] = true;
                    self.bump_var(v);
                    if self.level[v] >= here {
                        open += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            let p = loop {
                index -= 1;
                let p = self.trail[index];
                if self.seen[var(p)] {
                    break p;
                }
            };
            self.seen[var(p)] = false;
            open -= 1;
            if open == 0 {
                break p;
            }
            reason.clear();
            self.reason_into(self.why[var(p)], &mut reason);
        };
        learnt[0] = asserted ^ 1;
        // Local minimisation: a literal whose reason lies wholly in the clause goes.
        let mut kept = Vec::with_capacity(learnt.len());
        kept.push(learnt[0]);
        for &q in &learnt[1..] {
            let why = self.why[var(q)];
            reason.clear();
            self.reason_into(why, &mut reason);
            let redundant = why != Why::Decided
                && reason
                    .iter()
                    .all(|&r| self.seen[var(r)] || self.level[var(r)] == 0);
            if !redundant {
                kept.push(q);
            }
        }
        for &q in &learnt[1..] {
            self.seen[var(q)] = false;
        }
        self.scratch = reason;
        let mut learnt = kept;
        // The highest level below this one goes second: it is where to jump.
        let target = if learnt.len() == 1 {
            0
        } else {
            let mut best = 1;
            for k in 2..learnt.len() {
                if self.level[var(learnt[k])] > self.level[var(learnt[best])] {
                    best = k;
                }
            }
            learnt.swap(1, best);
            self.level[var(learnt[1])] as usize
        };
        self.stamp += 1;
        let mut lbd = 0;
        for &q in &learnt {
            let l = self.level[var(q)] as usize;
            if self.level_stamp[l] != self.stamp {
                self.level_stamp[l] = self.stamp;
                lbd += 1;
            }
        }
        self.backtrack(target);
        if learnt.len() == 1 {
            self.assign(learnt[0], Why::Decided);
        } else {
            let first = learnt[0];
            let id = self.attach(&learnt, Kind::Learnt, lbd);
            self.assign(first, Why::Clause(id));
        }
        self.bump /= VAR_DECAY;
        target
    }

    /// Deletes the less useful half of the learnt clauses once there are too
    /// many: those with the highest LBD, never a clause of LBD 2 or less nor
    /// one that is the reason of a current assignment.
    pub(in crate::solver::cdcl) fn reduce_if_due(&mut self) {
        if self.learnt < self.keep {
            return;
        }
        self.keep += self.growth;
        let mut candidates = Vec::new();
        let mut c = 0;
        while c < self.arena.len() {
            let meta = self.arena[c + 1];
            let lbd = meta & LBD_MASK;
            if meta & DELETED == 0 && self.kind(c) == Kind::Learnt && lbd > 2 && !self.locked(c) {
                candidates.push((lbd, c));
            }
            c += HEADER + self.arena[c] as usize;
        }
        // Highest LBD first, then the oldest.
        candidates.sort_by_key(|&(lbd, c)| (std::cmp::Reverse(lbd), c));
        for &(_, c) in &candidates[..candidates.len() / 2] {
            self.arena[c + 1] |= DELETED;
            self.wasted += HEADER + self.arena[c] as usize;
            self.learnt -= 1;
        }
        let arena = &self.arena;
        for ws in &mut self.watches {
            ws.retain(|w| arena[w.clause as usize + 1] & DELETED == 0);
        }
        if 2 * self.wasted > self.arena.len() {
            self.compact();
        }
    }

    /// True when clause `c` is the reason of its first literal's value.
    fn locked(&self, c: usize) -> bool {
        let first = self.arena[c + HEADER];
        self.lit_value(first) > 0 && self.why[var(first)] == Why::Clause(c as u32)
    }

    /// Copies the live clauses to a new arena and renames them in the
    /// watches and reasons (an old header's second word holds the new id).
    fn compact(&mut self) {
        let mut old = std::mem::take(&mut self.arena);
        let mut c = 0;
        while c < old.len() {
            let len = old[c] as usize;
            if old[c + 1] & DELETED == 0 {
                let id = self.arena.len() as u32;
                self.arena.extend_from_slice(&old[c..c + HEADER + len]);
                old[c + 1] = id;
            }
            c += HEADER + len;
        }
        for ws in &mut self.watches {
            for w in ws.iter_mut() {
                w.clause = old[w.clause as usize + 1];
            }
        }
        // Only an assigned variable's reason is read (and it is never deleted).
        for (why, &value) in self.why.iter_mut().zip(self.value.iter().step_by(2)) {
            match why {
                Why::Clause(c) if value != 0 => *c = old[*c as usize + 1],
                Why::Clause(_) => *why = Why::Decided,
                _ => {}
            }
        }
        self.wasted = 0;
        self.compactions += 1;
    }
}
