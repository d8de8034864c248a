//! From a study's samples to its findings: per strategy and mode, the peak of
//! a clue study or the growth of a size study, in time (or instructions),
//! in nodes and in peak heap.

use super::fit::{self, Growth, Obs, Peak, SizePoint};
use super::{Axis, PointState, StudyData, StudyOptions};
use crate::export::first_seen;
use serde::{Deserialize, Serialize};

/// The cost a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cost {
    /// Time per puzzle, µs.
    Time,
    /// Search nodes per puzzle.
    Nodes,
    /// Instructions per puzzle, counted by callgrind.
    Instructions,
    /// The most heap bytes a call held at once (built-in strategies).
    Memory,
}

impl Cost {
    /// The cost's name in files.
    pub fn name(self) -> &'static str {
        match self {
            Cost::Time => "time",
            Cost::Nodes => "nodes",
            Cost::Instructions => "instructions",
            Cost::Memory => "memory",
        }
    }

    /// The unit it is counted in.
    pub fn unit(self) -> &'static str {
        match self {
            Cost::Time => "µs",
            Cost::Nodes => "nodes",
            Cost::Instructions => "instructions",
            Cost::Memory => "bytes",
        }
    }
}

/// A clue study's finding for one strategy and mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PeakFinding {
    /// The variant.
    pub variant: String,
    /// The mode.
    pub mode: String,
    /// Time or nodes.
    pub cost: Cost,
    /// The peak (absent without measured points).
    pub peak: Option<Peak>,
}

/// A size study's finding for one strategy and mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GrowthFinding {
    /// The variant.
    pub variant: String,
    /// The mode.
    pub mode: String,
    /// Time or nodes.
    pub cost: Cost,
    /// Both fits (absent with fewer than three sizes whose median is known).
    pub growth: Option<Growth>,
    /// Sides not fitted because their median is censored.
    pub censored: Vec<usize>,
    /// Sides not run: the strategy was censored at a smaller one.
    pub not_run: Vec<usize>,
}

/// Everything a study found.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    /// Clue studies: one per strategy, mode and cost.
    pub peaks: Vec<PeakFinding>,
    /// Size studies: one per strategy, mode and cost.
    pub growth: Vec<GrowthFinding>,
}

/// The findings of a study's data.
pub fn analyse(opts: &StudyOptions, data: &StudyData) -> Findings {
    let mut out = Findings::default();
    let variants = first_seen(data.samples.iter().map(|s| s.variant.as_str()));
    let modes = first_seen(data.samples.iter().map(|s| s.mode.as_str()));
    for mode in &modes {
        for v in &variants {
            let here: Vec<_> = data
                .samples
                .iter()
                .filter(|s| s.variant == *v && s.mode == *mode)
                .collect();
            for cost in opts.costs() {
                let series: Vec<(usize, &Vec<Obs>)> = here
                    .iter()
                    .map(|s| {
                        let obs = match cost {
                            Cost::Time => &s.times,
                            Cost::Nodes => &s.nodes,
                            Cost::Instructions => &s.instructions,
                            Cost::Memory => &s.heap,
                        };
                        (s.point, obs)
                    })
                    .filter(|(_, o)| !o.is_empty())
                    .collect();
                if series.is_empty() {
                    continue;
                }
                match opts.axis {
                    Axis::Clues => {
                        let pts: Vec<(f64, Vec<Obs>)> = series
                            .iter()
                            .map(|(p, o)| (opts.points[*p].givens as f64, (*o).clone()))
                            .collect();
                        out.peaks.push(PeakFinding {
                            variant: v.to_string(),
                            mode: mode.to_string(),
                            cost,
                            peak: fit::peak(&pts),
                        });
                    }
                    Axis::Size => {
                        let pts: Vec<SizePoint> = series
                            .iter()
                            .map(|(p, o)| SizePoint {
                                side: opts.points[*p].side as f64,
                                obs: (*o).clone(),
                            })
                            .collect();
                        let growth = fit::growth(&pts);
                        let censored: Vec<usize> = match &growth {
                            Some(g) => g.censored.clone(),
                            None => pts
                                .iter()
                                .filter(|p| fit::median(&p.obs).is_some_and(|m| !m.known))
                                .map(|p| p.side as usize)
                                .collect(),
                        };
                        let not_run = data
                            .rows
                            .iter()
                            .filter(|r| {
                                r.variant == *v && r.mode == *mode && r.state == PointState::Skipped
                            })
                            .map(|r| r.side)
                            .collect();
                        out.growth.push(GrowthFinding {
                            variant: v.to_string(),
                            mode: mode.to_string(),
                            cost,
                            growth,
                            censored,
                            not_run,
                        });
                    }
                }
            }
        }
    }
    out
}
