//! The closed registry of strategies: one table, one entry per variant, with
//! every fact about it. Adding a strategy is its file plus one entry here.

use super::*;
use std::fmt;

/// Grid sides every strategy handles unless its entry says otherwise.
pub const ALL_SIZES: &[usize] = &[4, 9, 16, 25, 36, 49, 64];

/// Everything the registry knows of one variant.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Stable name (used on the command line and in CSV files).
    pub name: &'static str,
    /// The strategy family (the name of its default variant).
    pub family: &'static str,
    /// Grid sides handled (4 to 64); other sizes are skipped with a note.
    pub sizes: &'static [usize],
    /// Per-puzzle node budget the harness applies by default (slow strategies only).
    pub default_budget: Option<u64>,
    /// False for a family's default variant that still stays out of the
    /// run with no strategy named (its entry says `default_run: false`).
    pub default_run: bool,
    /// One-line description.
    pub description: &'static str,
}

/// An entry's optional `default_run`, `true` when it says nothing.
macro_rules! or_true {
    () => {
        true
    };
    ($e:expr) => {
        $e
    };
}

/// The registry: one entry per variant, with every fact about it. Adding a
/// strategy is its file plus one entry here.
macro_rules! registry {
    ($(
        $(#[$doc:meta])*
        $id:ident => {
            name: $name:literal,
            family: $family:literal,
            sizes: $sizes:expr,
            budget: $budget:expr,
            $(default_run: $default_run:expr,)?
            solver: $solver:expr,
            about: $about:literal $(,)?
        }
    ),* $(,)?) => {
        /// Every selectable strategy and variant: the closed registry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum SolverId {
            $($(#[$doc])* $id,)*
        }

        impl SolverId {
            /// Every entry of the registry, in listing order.
            pub const ALL: &'static [SolverId] = &[$(SolverId::$id,)*];

            /// This variant's entry.
            pub fn entry(self) -> &'static Entry {
                match self {
                    $(SolverId::$id => &Entry {
                        name: $name,
                        family: $family,
                        sizes: $sizes,
                        default_budget: $budget,
                        default_run: or_true!($($default_run)?),
                        description: $about,
                    },)*
                }
            }
        }

        /// The registry dispatches to the strategy each entry names.
        impl Solver for SolverId {
            fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
                match self {
                    $(SolverId::$id => $solver.search(puzzle, ctl),)*
                }
            }
        }
    };
}

registry! {
    /// The exact-cover article's DFS over the exact-cover matrix, with the dead-column prune.
    NaiveExactCover => {
        name: "naive-exact-cover",
        family: "naive-exact-cover",
        sizes: ALL_SIZES,
        budget: Some(2_000_000),
        solver: NaiveExactCover { prune: true },
        about: "DFS over the exact-cover matrix in row order, backtracking once a column can no longer be covered",
    },
    /// The exact-cover article's DFS exactly, without any prune.
    NaiveExactCoverPure => {
        name: "naive-exact-cover-pure",
        family: "naive-exact-cover",
        sizes: ALL_SIZES,
        budget: Some(2_000_000),
        solver: NaiveExactCover { prune: false },
        about: "DFS over the exact-cover matrix in row order with no prune: shows the blow-up",
    },
    /// Row-major cell backtracking, digits in increasing order (the state-compression article and the traversal article).
    Backtracking => {
        name: "backtracking",
        family: "backtracking",
        sizes: ALL_SIZES,
        budget: Some(2_000_000),
        solver: Backtracking,
        about: "cell backtracking: empty cells row-major, digits ascending, row/column/box check",
    },
    /// Bitsets + MRV only (the state-compression article's state compression).
    BitsetMrvPlain => {
        name: "bitset-mrv-plain",
        family: "bitset-mrv",
        sizes: ALL_SIZES,
        budget: None,
        solver: BitsetMrv::new(Singles::None),
        about: "row/column/box bitsets, branch on the cell with fewest candidates",
    },
    /// Bitsets + MRV + repeated naked singles (the basic-methods article).
    BitsetMrvNaked => {
        name: "bitset-mrv-naked",
        family: "bitset-mrv",
        sizes: ALL_SIZES,
        budget: None,
        solver: BitsetMrv::new(Singles::Naked),
        about: "cell candidate bitsets, repeated naked singles, then MRV branching",
    },
    /// Bitsets + MRV + naked and hidden singles.
    BitsetMrv => {
        name: "bitset-mrv",
        family: "bitset-mrv",
        sizes: ALL_SIZES,
        budget: None,
        solver: BitsetMrv::new(Singles::NakedAndHidden),
        about: "cell candidate bitsets, naked and hidden singles, then MRV branching (ties between two-candidate cells to the one sharing a candidate with the most peers)",
    },
    /// Bitsets + MRV + naked and hidden singles + locked candidates.
    BitsetMrvLocked => {
        name: "bitset-mrv-locked",
        family: "bitset-mrv",
        sizes: ALL_SIZES,
        budget: None,
        solver: BitsetMrv::new(Singles::NakedHiddenLocked),
        about: "bitset-mrv plus locked candidates (pointing and claiming) before branching",
    },
    /// Knuth's Algorithm X with dancing links, smallest column first (the dancing-links article).
    Dlx => {
        name: "dlx",
        family: "dlx",
        sizes: ALL_SIZES,
        budget: None,
        solver: Dlx { rule: ColumnRule::Smallest },
        about: "Knuth's Algorithm X with dancing links, smallest column first",
    },
    /// Dancing links taking the leftmost live column.
    DlxFirstColumn => {
        name: "dlx-first-column",
        family: "dlx",
        sizes: ALL_SIZES,
        // No column heuristic: fine on 9x9, explodes on 25x25.
        budget: Some(5_000_000),
        solver: Dlx { rule: ColumnRule::First },
        about: "dancing links, leftmost live column first",
    },
    /// Clause learning over the candidates, "exactly one" propagated natively.
    Cdcl => {
        name: "cdcl",
        family: "cdcl",
        sizes: ALL_SIZES,
        budget: None,
        solver: Cdcl,
        about: "clause learning (first-UIP, VSIDS, Luby restarts) over the candidates, each group's \"exactly one\" propagated natively: for big grids near the hardness peak",
    },
    /// bitset-mrv-locked, handing over to cdcl past a node budget.
    CdclHybrid => {
        name: "cdcl-hybrid",
        family: "cdcl",
        sizes: ALL_SIZES,
        budget: None,
        solver: CdclHybrid,
        about: "bitset-mrv-locked for its first 2,000 nodes, then cdcl from the start: solve's default on every size but 9x9 (typical puzzles at bitset-mrv-locked's speed, those near the hardness peak as cdcl solves them)",
    },
    /// Band bitboards with triads, singles and the best instruction set the processor has.
    Band => {
        name: "band",
        family: "band",
        sizes: &[9],
        budget: None,
        solver: Band { isa: Isa::Auto },
        about: "9x9 band bitboards (27-bit word per digit and band): triads, singles, branching on a digit's band configuration; AVX2 when present (chosen at run time)",
    },
    /// The band solver's portable path (no instruction-set extensions).
    BandPortable => {
        name: "band-portable",
        family: "band",
        sizes: &[9],
        budget: None,
        solver: Band { isa: Isa::Portable },
        about: "band with the portable scalar kernels only (same decisions and counters)",
    },
    /// Box vectors: every digit of a box in one vector, triads between boxes.
    Box => {
        name: "box",
        family: "box",
        sizes: &[9],
        budget: None,
        // A ninth series in the default run, past the eight colours a chart
        // tells apart: it runs when named.
        default_run: false,
        solver: Boxes { isa: Isa::Auto },
        about: "9x9 box vectors (a 16-bit lane per digit, a vector per box): singles in boxes, row and column triads between boxes, branching on a digit's band configuration; AVX2 when present (chosen at run time)",
    },
    /// The box solver's portable path (no instruction-set extensions).
    BoxPortable => {
        name: "box-portable",
        family: "box",
        sizes: &[9],
        budget: None,
        solver: Boxes { isa: Isa::Portable },
        about: "box with the portable path only (same decisions and counters)",
    },
    /// Reference: CDCL SAT (the varisat crate) on a CNF encoding.
    SatVarisat => {
        name: "sat-varisat",
        family: "sat-varisat",
        sizes: ALL_SIZES,
        budget: None,
        solver: SatVarisat,
        about: "reference: CDCL SAT solver (varisat crate) on the extended CNF encoding over the candidates the givens leave; unique = a second solve with the first solution blocked; no counters",
    },
    /// Reference: the dlx crate's dancing links.
    DlxCrate => {
        name: "dlx-crate",
        family: "dlx-crate",
        sizes: ALL_SIZES,
        budget: None,
        solver: DlxCrate,
        about: "reference: Algorithm X with dancing links from the dlx crate (smallest column first) on the standard 4n² columns; no counters",
    },
}

impl SolverId {
    /// The 9×9 engine the library uses where none is named: `band`, the
    /// fastest on every machine measured so far (`solve` times it against
    /// `box` on its input first).
    pub const FASTEST: SolverId = SolverId::Band;

    /// The default strategy for a grid size: `band` on 9×9 (`solve` may
    /// take `box` there, timed faster), `cdcl-hybrid` elsewhere (the fastest
    /// on typical puzzles there, and it solves big grids near the hardness peak).
    pub fn fastest_for(g: Geometry) -> SolverId {
        [SolverId::FASTEST, SolverId::CdclHybrid]
            .into_iter()
            .find(|s| s.supports(g))
            .unwrap_or(SolverId::BitsetMrv)
    }

    /// Stable name (used on the command line and in CSV files).
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The strategy family this variant belongs to (the name of its default variant).
    pub fn strategy(self) -> &'static str {
        self.entry().family
    }

    /// What runs when no strategy is named, in registry order: each
    /// strategy's default variant whose entry does not leave it out
    /// ([`Entry::default_run`]).
    pub fn defaults() -> impl Iterator<Item = SolverId> {
        SolverId::ALL
            .iter()
            .copied()
            .filter(|s| s.is_default_variant() && s.entry().default_run)
    }

    /// The variants a list of names asks for, each once, in order: `all` is
    /// every variant, and no names is [`SolverId::defaults`].
    pub fn resolve(names: &[String]) -> Result<Vec<SolverId>, crate::words::UnknownWord> {
        if names.is_empty() {
            return Ok(SolverId::defaults().collect());
        }
        let mut out = Vec::new();
        for n in names {
            match n.as_str() {
                "all" => out.extend(SolverId::ALL.iter().copied()),
                _ => out.push(n.parse()?),
            }
        }
        let mut seen = std::collections::HashSet::new();
        out.retain(|s| seen.insert(*s));
        Ok(out)
    }

    /// `sudoku-bench solvers`: a line a variant, with its sizes, what it
    /// does, and the strategy it is a variant of.
    pub fn listing() -> String {
        let mut out = String::new();
        for s in SolverId::ALL {
            let e = s.entry();
            let sizes = match e.sizes {
                ALL_SIZES => "all sizes".to_string(),
                sizes => sizes
                    .iter()
                    .map(|n| format!("{n}x{n}"))
                    .collect::<Vec<_>>()
                    .join(","),
            };
            let mark = match s.is_default_variant() {
                true => String::new(),
                false => format!("  (variant of {})", e.family),
            };
            out += &format!("{:<24} {:<10} {}{mark}\n", e.name, sizes, e.description);
        }
        out
    }

    /// True for the default variant of each strategy.
    pub fn is_default_variant(self) -> bool {
        self.name() == self.strategy()
    }

    /// True for the reference entries: well-known outside solvers shipped for comparison.
    pub fn is_reference(self) -> bool {
        matches!(self, SolverId::SatVarisat | SolverId::DlxCrate)
    }

    /// True when the node budget, time limit and cancel flag can stop a solve
    /// (every entry but the reference ones: their crates offer no hook).
    pub fn honours_limits(self) -> bool {
        !self.is_reference()
    }

    /// True when the entry's `nodes` and `guesses` mean what the counters say
    /// (every entry but the reference ones, whose crates count otherwise).
    pub fn counts_search(self) -> bool {
        !self.is_reference()
    }

    /// One-line description.
    pub fn description(self) -> &'static str {
        self.entry().description
    }

    /// Grid sides this variant handles.
    pub fn sizes(self) -> &'static [usize] {
        self.entry().sizes
    }

    /// True when this variant handles grids of this geometry.
    pub fn supports(self, g: Geometry) -> bool {
        self.sizes().contains(&g.side())
    }

    /// Looks a name up in the registry.
    pub fn from_name(name: &str) -> Option<SolverId> {
        SolverId::ALL.iter().copied().find(|s| s.name() == name)
    }

    /// The per-puzzle node budget the harness applies by default (slow strategies only).
    pub fn default_node_budget(self) -> Option<u64> {
        self.entry().default_budget
    }

    /// Validates the givens first (conflict → [`Status::Invalid`]), then solves.
    pub fn solve_checked(self, puzzle: &Grid, limits: &Limits) -> Outcome {
        if crate::validate::find_flaw(puzzle).is_some() {
            return Outcome::invalid();
        }
        self.solve(puzzle, limits)
    }
}

/// True when `puzzle` has a solution with `digit` not in the empty `cell`
/// (first solution; `band` on 9×9, `bitset-mrv` elsewhere). The generator asks
/// this after removing a clue: the puzzle stays unique exactly when it is false.
pub(crate) fn solvable_without(puzzle: &Grid, cell: usize, digit: u8) -> bool {
    let limits = Limits::new(Mode::First);
    let mut tracer = NoTrace;
    let mut ctl = Control::new(&limits, &mut tracer);
    let exclude = Some((cell, digit));
    if SolverId::Band.supports(puzzle.geometry()) {
        Band { isa: Isa::Auto }.search_excluding(puzzle, exclude, &mut ctl);
    } else {
        bitset_mrv::search_excluding(puzzle, exclude, &mut ctl);
    }
    ctl.finish().solution_count > 0
}

impl std::str::FromStr for SolverId {
    type Err = crate::words::UnknownWord;

    /// Reads a variant's name (see [`SolverId::name`]).
    fn from_str(name: &str) -> Result<SolverId, Self::Err> {
        SolverId::from_name(name).ok_or_else(|| {
            let names: Vec<_> = SolverId::ALL.iter().map(|s| s.name()).collect();
            crate::words::UnknownWord::new("a strategy", name, names.join(", "))
        })
    }
}

impl fmt::Display for SolverId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
