//! Solve traces: the decisions a strategy makes, recorded only when asked.
//!
//! Strategies guard every event with `if T::ENABLED`, so with [`NoTrace`]
//! the events are never built and tracing costs nothing.

use crate::grid::{Geometry, Unit};
use std::fmt;

/// Why a digit was placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Tried at a branch point.
    Guess,
    /// The only candidate left in its cell.
    NakedSingle,
    /// The only place left for the digit in a unit.
    HiddenSingle,
    /// The only option at a branch point with one alternative.
    Forced,
}

/// One decision of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A branch point: `options` alternatives for `cell` (or for an exact-cover column, `cell` is `None`).
    Branch {
        /// Search depth.
        depth: usize,
        /// The cell branched on, when the strategy branches on cells.
        cell: Option<usize>,
        /// Alternatives open.
        options: u32,
    },
    /// A digit placed in a cell.
    Place {
        /// Search depth.
        depth: usize,
        /// Row-major cell index.
        cell: usize,
        /// The digit.
        digit: u8,
        /// Why.
        reason: Reason,
    },
    /// A guess that confines a digit to some cells (a band configuration) without placing it.
    Confine {
        /// Search depth.
        depth: usize,
        /// The digit.
        digit: u8,
        /// Row-major cells it is confined to.
        cells: Vec<usize>,
    },
    /// The search returns to depth `depth`, and why.
    Backtrack {
        /// Depth returned to.
        depth: usize,
        /// What sent it back.
        why: Why,
    },
    /// The `index`-th solution was found.
    Solution {
        /// 1-based index.
        index: u64,
    },
}

/// Why a search turned back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// An empty cell has no candidate left.
    NoCandidate {
        /// Row-major cell index.
        cell: usize,
    },
    /// A digit has no cell left in a unit.
    NoPlace {
        /// The digit.
        digit: u8,
        /// The kind of unit.
        unit: Unit,
        /// 0-based index of the unit.
        index: usize,
    },
    /// Every alternative of a branch point was tried (on `cell`, when the
    /// strategy branches on cells).
    Tried {
        /// The cell branched on.
        cell: Option<usize>,
    },
    /// An exact-cover constraint no option left can meet.
    Uncoverable,
    /// The propagation met a contradiction the strategy does not name
    /// (`band`'s triads, a clause of `cdcl`).
    Contradiction,
    /// No dead end: the search starts again from the top (a restart, a
    /// found solution's blocking clause, `cdcl-hybrid`'s handover).
    Restart,
}

/// Names the dead end a cell search met, from its board: the first empty
/// cell with no candidate (`value` 0 and `candidates` empty), else the first
/// digit with no place in a unit, else an unnamed contradiction. Only tracing
/// calls it, so it costs an untraced search nothing.
pub fn dead_end(
    g: Geometry,
    value: impl Fn(usize) -> u8,
    candidates: impl Fn(usize) -> u64,
) -> Why {
    if let Some(cell) = (0..g.cells()).find(|&c| value(c) == 0 && candidates(c) == 0) {
        return Why::NoCandidate { cell };
    }
    for unit in Unit::ALL {
        for index in 0..g.side() {
            let mut seen = 0u64;
            for c in g.unit_cells(unit, index) {
                seen |= match value(c) {
                    0 => candidates(c),
                    d => 1u64 << (d - 1),
                };
            }
            if let Some(d) = (1..=g.side() as u8).find(|&d| seen & (1u64 << (d - 1)) == 0) {
                return Why::NoPlace {
                    digit: d,
                    unit,
                    index,
                };
            }
        }
    }
    Why::Contradiction
}

/// Receives trace events.
pub trait Tracer {
    /// False for [`NoTrace`]: strategies skip building events.
    const ENABLED: bool;
    /// Receives one event.
    fn event(&mut self, event: Event);
}

/// The tracer that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

/// A tracer that keeps every event, up to a cap.
#[derive(Clone, Debug)]
pub struct TraceLog {
    /// Events in order.
    pub events: Vec<Event>,
    /// Events beyond the cap that were dropped.
    pub dropped: u64,
    cap: usize,
}

impl TraceLog {
    /// A log keeping at most `cap` events.
    pub fn with_cap(cap: usize) -> TraceLog {
        TraceLog {
            events: Vec::new(),
            dropped: 0,
            cap,
        }
    }
}

impl Default for TraceLog {
    fn default() -> Self {
        TraceLog::with_cap(1_000_000)
    }
}

impl Tracer for TraceLog {
    const ENABLED: bool = true;
    fn event(&mut self, event: Event) {
        if self.events.len() < self.cap {
            self.events.push(event);
        } else {
            self.dropped += 1;
        }
    }
}

/// Formats an event for a grid of side `side`: cells as `r1c2`.
pub struct Display<'a> {
    /// The event.
    pub event: &'a Event,
    /// Grid side, for naming cells.
    pub side: usize,
    /// Alphabet to write digits with.
    pub alphabet: &'a crate::format::Alphabet,
}

impl fmt::Display for Display<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |c: usize| format!("r{}c{}", c / self.side + 1, c % self.side + 1);
        match self.event {
            Event::Branch {
                depth,
                cell: Some(c),
                options,
            } => {
                write!(
                    f,
                    "{:indent$}branch  {} on {options} candidates",
                    "",
                    cell(*c),
                    indent = depth * 2
                )
            }
            Event::Branch {
                depth,
                cell: None,
                options,
            } => {
                write!(
                    f,
                    "{:indent$}branch  on a column of {options} options",
                    "",
                    indent = depth * 2
                )
            }
            Event::Place {
                depth,
                cell: c,
                digit,
                reason,
            } => {
                let why = match reason {
                    Reason::Guess => "guess",
                    Reason::NakedSingle => "naked single",
                    Reason::HiddenSingle => "hidden single",
                    Reason::Forced => "forced",
                };
                write!(
                    f,
                    "{:indent$}place   {}={} ({why})",
                    "",
                    cell(*c),
                    self.alphabet.symbol(*digit),
                    indent = depth * 2
                )
            }
            Event::Confine {
                depth,
                digit,
                cells,
            } => {
                let at: Vec<String> = cells.iter().map(|&c| cell(c)).collect();
                write!(
                    f,
                    "{:indent$}confine {} to {} (guess)",
                    "",
                    self.alphabet.symbol(*digit),
                    at.join(" "),
                    indent = depth * 2
                )
            }
            Event::Backtrack { depth, why } => {
                let pad = depth * 2;
                let why = match *why {
                    Why::NoCandidate { cell: c } => format!("{} has no candidate left", cell(c)),
                    Why::NoPlace { digit, unit, index } => format!(
                        "digit {} has no place left in {unit} {}",
                        self.alphabet.symbol(digit),
                        index + 1
                    ),
                    Why::Tried { cell: Some(c) } => format!("every candidate of {} tried", cell(c)),
                    Why::Tried { cell: None } => "every option here tried".into(),
                    Why::Uncoverable => "a constraint no option left can meet".into(),
                    Why::Contradiction => "the propagation met a contradiction".into(),
                    Why::Restart => return write!(f, "{:pad$}restart from depth {depth}", ""),
                };
                write!(f, "{:pad$}backtrack to depth {depth}: {why}", "")
            }
            Event::Solution { index } => write!(f, "solution #{index}"),
        }
    }
}
