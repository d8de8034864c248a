//! The words of a run: the sentences that say who is faster and by how
//! much ([`sentences`], [`counted_sentences`]), what its intervals cover
//! ([`interval_note`]) and which are too wide, and the notes under them
//! ([`run_notes`]: how answers were checked, transport, memory, more cores).
//! `summary.md`, the terminal, and the reports all say them from here.

use super::cells::{num, opt, times};
use super::first_seen;
use crate::harness::plan::Measure;
use crate::harness::SummaryRow;

/// The findings of a run measured by `measure`: [`counted_sentences`] for
/// a run that counted instructions, [`sentences`] for one that timed.
pub fn findings(rows: &[SummaryRow], measure: Option<Measure>) -> Vec<String> {
    match measure.map(|m| m.metric()) {
        Some(Measure::Instructions) => counted_sentences(rows),
        _ => sentences(rows),
    }
}

/// A counted run's sentence for each dataset with two or more counted
/// contenders whose figures stand: the fewest instructions a puzzle
/// against the runner-up's, exact (a count has no noise).
pub fn counted_sentences(rows: &[SummaryRow]) -> Vec<String> {
    let datasets = first_seen(rows.iter().map(|r| r.dataset.as_str()));
    let mut out = Vec::new();
    for d in datasets {
        let mut here: Vec<(&SummaryRow, f64)> = rows
            .iter()
            .filter(|r| r.dataset == d && r.stands())
            .filter_map(|r| r.instructions_per_puzzle.map(|n| (r, n.max(1.0))))
            .collect();
        if here.len() < 2 {
            continue;
        }
        here.sort_by(|a, b| a.1.total_cmp(&b.1));
        let ((best, b), (next, n)) = (here[0], here[1]);
        out.push(format!(
            "`{}` takes {} fewer instructions a puzzle than `{}` on {d} ({} against {}{}; counted by callgrind, the same on every run of this build).",
            best.variant,
            times(n / b),
            next.variant,
            crate::stats::thousands(b.round() as u64),
            crate::stats::thousands(n.round() as u64),
            [best.over(), next.over()]
                .iter()
                .filter(|o| !o.is_empty())
                .map(|o| format!(", {o}"))
                .collect::<String>(),
        ));
    }
    out
}

/// What the run's 95% intervals cover, in one line: rounds (re-runs should land
/// inside) or puzzles only (older runs, `--rounds 1`, small datasets).
pub fn interval_note(rows: &[SummaryRow], complete: Option<usize>, asked: usize) -> String {
    // A row without figures has no interval to describe.
    let few = first_seen(
        rows.iter()
            .filter(|r| r.rounds <= 1 && r.stands())
            .map(|r| r.dataset.as_str()),
    );
    let most = rows.iter().map(|r| r.rounds).max().unwrap_or(0);
    let partial = match complete {
        Some(c) if c < asked => format!(" ({c} of {asked} rounds complete: the run was stopped)"),
        _ => String::new(),
    };
    if most <= 1 {
        return format!("95% intervals cover the puzzles only (a bootstrap over puzzles; order statistics for medians): they do not carry the machine's drift, and a re-run may land outside them{partial}.");
    }
    let mut line = format!(
        "95% intervals are t-intervals over up to {most} rounds spread over the run, each on its own share of the puzzles: they carry the machine's drift and the puzzles' spread, so a re-run should land inside about 95% of the time{partial}."
    );
    if !few.is_empty() {
        line.push_str(&format!(
            " On {} (too few puzzles for rounds) they cover the puzzles only.",
            few.join(", ")
        ));
    }
    line
}

/// The widest a comparison's 95% interval may be (half its width, as a share
/// of the speed) and still decide a difference worth naming.
pub const DECISIVE: f64 = 0.10;

/// Sentences on the comparisons whose 95% interval is wider than
/// ±[`DECISIVE`]. One for each that also holds 1× (which of the two is
/// faster is not decided): what would narrow it, from the run's own spread.
/// The width falls about as one over the square root of the measuring (more
/// rounds, or more time in each), so `(w / 10%)²` times the measuring brings
/// ±w to about ±10%: as `--min-time`, that many times the passes' wall time on
/// the dataset; as `--rounds`, that many times the rounds, where the dataset
/// has two puzzles for each. Past [`FAR`] times the measuring the rule is not
/// stretched: the sentence says the run cannot tell. The wide ones that
/// decide who is faster, only not by how much, are counted in one sentence.
pub fn wide_intervals(rows: &[SummaryRow]) -> Vec<String> {
    let mut out = Vec::new();
    let mut decided: Vec<(&SummaryRow, f64)> = Vec::new();
    for r in rows {
        let (Some(s), Some(lo), Some(hi), Some(_)) =
            (r.speed, r.speed_lo, r.speed_hi, r.faster_pct)
        else {
            continue; // not compared, or the reference itself
        };
        if s <= 0.0 || lo <= 0.0 {
            continue;
        }
        let half = (hi / s - 1.0).max(1.0 - lo / s);
        // Judged as it is printed, in whole percent: ±10% is never "too wide".
        if (100.0 * half).round() <= (100.0 * DECISIVE).round() {
            continue;
        }
        if lo > 1.0 || hi < 1.0 {
            decided.push((r, half));
            continue;
        }
        let k = (half / DECISIVE).powi(2);
        let head = format!(
            "The interval of `{}` against `{}` on {} is {} ({}–{}): too wide to decide which is faster",
            r.variant,
            r.reference,
            r.dataset,
            width(half),
            times(lo),
            times(hi),
        );
        if k > FAR {
            // So wide that the square-root rule would be stretched past
            // anything this run measured (two rounds give a t-interval of
            // one degree of freedom, 12.7 standard errors wide).
            let rounds = if r.rounds == 2 {
                " (a t-interval over 2 rounds has one degree of freedom: --rounds 5 or more narrows it most)"
            } else {
                ""
            };
            out.push(format!(
                "{head}, and too wide for this run's spread to say what would narrow it to ±{:.0}%{rounds}.",
                100.0 * DECISIVE
            ));
            continue;
        }
        let wall = rows
            .iter()
            .filter(|x| {
                x.dataset == r.dataset && (x.variant == r.variant || x.variant == r.reference)
            })
            .map(|x| x.wall_s)
            .fold(0.0, f64::max);
        let mut ways = vec![format!("--min-time {}", seconds(wall * k))];
        let rounds = (f64::from(r.rounds.max(1)) * k).ceil() as u64;
        if r.rounds > 1 && rounds * 2 <= r.puzzles {
            ways.push(format!("--rounds {rounds}"));
        }
        out.push(format!(
            "{head}. This run's spread says {} would narrow it to about ±{:.0}%.",
            ways.join(" or "),
            100.0 * DECISIVE
        ));
    }
    if let Some(&(w, half)) = decided.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
        let n = decided.len();
        let faster = if w.speed_lo.unwrap_or(0.0) > 1.0 {
            &w.variant
        } else {
            &w.reference
        };
        out.push(format!(
            "{n} {}comparison{} {} wider than ±{:.0}% (the widest: `{}` against `{}` on {}, {}, where `{faster}` is faster): {} which is faster, not by how much to within {:.0}%.",
            if out.is_empty() { "" } else { "more " },
            if n == 1 { "" } else { "s" },
            if n == 1 { "is" } else { "are" },
            100.0 * DECISIVE,
            w.variant,
            w.reference,
            w.dataset,
            width(half),
            if n == 1 { "it decides" } else { "they decide" },
            100.0 * DECISIVE
        ));
    }
    out
}

/// The notes every view of a run gives under its sentences: how answers
/// were checked ([`checking_notes`]), then the [`transport_notes`].
pub fn run_notes(rows: &[SummaryRow], floor_ns: Option<u64>) -> Vec<String> {
    let mut out = checking_notes(rows);
    out.extend(transport_notes(rows, floor_ns));
    out.extend(memory_notes(rows));
    out
}

/// Each contender and dataset with puzzles over the memory limit: said
/// even where its figures stand (they are not failures, but not verified).
pub fn memory_notes(rows: &[SummaryRow]) -> Vec<String> {
    rows.iter()
        .filter(|r| r.memory > 0)
        .map(|r| {
            format!(
                "`{}` on {}: {} of {} puzzles went over the memory limit (`memory` rows in {}); its figures are over the {} verified.",
                r.variant,
                r.dataset,
                r.memory,
                r.puzzles,
                crate::harness::files::RESULTS_CSV,
                r.solved
            )
        })
        .collect()
}

/// Which contenders were checked by verdict alone (they return no
/// solutions), and which rows no reference could decide (`unchecked`: neither
/// verified nor wrong).
pub fn checking_notes(rows: &[SummaryRow]) -> Vec<String> {
    let mut out = Vec::new();
    let by_verdict = first_seen(
        rows.iter()
            .filter(|r| r.checked == crate::contender::Checked::Verdict.word())
            .map(|r| r.variant.as_str()),
    );
    if !by_verdict.is_empty() {
        out.push(format!(
            "Checked by verdict alone (they return no solutions; each verdict is checked against the reference): {}.",
            by_verdict
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for r in rows.iter().filter(|r| r.unchecked > 0) {
        out.push(format!(
            "`{}` on {}: {} of {} puzzles unchecked: the reference search could not decide them within its budget, so they are counted neither verified nor wrong.",
            r.variant, r.dataset, r.unchecked, r.puzzles
        ));
    }
    out
}

/// Sentences on the program contenders timed mostly as transport: those
/// whose median time per puzzle is under [`crate::external::floor::FLOOR_FACTOR`]
/// times the pipe's floor (`floor_ns`, measured by the run), pointing to the
/// ways that take the pipe out of the timed region.
pub fn transport_notes(rows: &[SummaryRow], floor_ns: Option<u64>) -> Vec<String> {
    let Some(floor) = floor_ns.filter(|&f| f > 0) else {
        return Vec::new();
    };
    let factor = crate::external::floor::FLOOR_FACTOR;
    let floor_us = floor as f64 / 1e3;
    rows.iter()
        .filter(|r| r.timing == "pipe" && r.median_us.is_some_and(|m| m > 0.0 && m < factor * floor_us))
        .map(|r| {
            format!(
                "`{}` on {}: its median, {} µs, is under {factor:.0}× the pipe's own round trip ({} µs, measured this run): transport is most of what its rows time. Race it as a library (`--library`) or with `batch = K` in its contenders entry.",
                r.variant,
                r.dataset,
                opt(r.median_us),
                num(floor_us)
            )
        })
        .collect()
}

/// A duration for a command line, rounded up: `750ms`, `3s`, `2m`.
/// The most measuring, in times this run's, that [`wide_intervals`] will
/// extrapolate to from the run's own spread.
const FAR: f64 = 100.0;

/// A comparison's half width as a share of its speed: `±22%`, and past
/// ±100% (where a share stops reading as one) `over ±100%`.
fn width(half: f64) -> String {
    if half > 1.0 {
        "over ±100%".into()
    } else {
        format!("±{:.0}%", 100.0 * half)
    }
}

fn seconds(s: f64) -> String {
    if s < 10.0 {
        format!("{}ms", ((s * 1e3 / 50.0).ceil() * 50.0).max(50.0) as u64)
    } else if s < 120.0 {
        format!("{}s", s.ceil() as u64)
    } else {
        format!("{}m", (s / 60.0).ceil() as u64)
    }
}

/// One sentence per dataset with two or more compared variants: who is fastest
/// and by how much against the runner-up, and whether that is inside the noise;
/// then the [`wide_intervals`].
pub fn sentences(rows: &[SummaryRow]) -> Vec<String> {
    let datasets = first_seen(rows.iter().map(|r| r.dataset.as_str()));
    let mut out = Vec::new();
    for d in datasets {
        let mut here: Vec<&SummaryRow> = rows
            .iter()
            .filter(|r| r.dataset == d && r.speed.is_some())
            .collect();
        if here.len() < 2 {
            continue;
        }
        here.sort_by(|a, b| b.speed.unwrap_or(0.0).total_cmp(&a.speed.unwrap_or(0.0)));
        let (best, next) = (here[0], here[1]);
        // Each speed is against the same reference, so best/next is their ratio; its
        // interval is read from the runner-up's own interval when the best is the
        // reference, and from the best's otherwise.
        let (ratio, lo, hi, faster) = if best.variant == best.reference {
            let s = next.speed.unwrap_or(1.0);
            (
                1.0 / s,
                next.speed_hi.map(|h| 1.0 / h),
                next.speed_lo.map(|l| 1.0 / l),
                next.faster_pct.map(|p| 100.0 - p),
            )
        } else if next.variant == next.reference {
            // The runner-up is the reference (the fastest by puzzles/s, slower
            // paired puzzle by puzzle): the best's own interval is the ratio's.
            (
                best.speed.unwrap_or(1.0),
                best.speed_lo,
                best.speed_hi,
                best.faster_pct,
            )
        } else {
            (
                best.speed.unwrap_or(1.0) / next.speed.unwrap_or(1.0),
                None,
                None,
                None,
            )
        };
        let mut parts = Vec::new();
        if let (Some(lo), Some(hi)) = (lo, hi) {
            parts.push(format!("95% CI {}–{}", times(lo), times(hi)));
        }
        if let Some(p) = faster {
            parts.push(format!("faster on {p:.0}% of puzzles"));
        }
        let ci = if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(", "))
        };
        let noise = match (lo, hi) {
            (Some(lo), Some(_)) if lo <= 1.0 => "; the difference is inside the noise",
            _ => "",
        };
        // Figures over fewer than every puzzle say over how many.
        let over: Vec<String> = [best, next]
            .iter()
            .filter(|r| !r.over().is_empty())
            .map(|r| format!("`{}` {} puzzles", r.variant, r.over()))
            .collect();
        let ci = match (ci.is_empty(), over.is_empty()) {
            (_, true) => ci,
            (true, false) => format!(" ({})", over.join(", ")),
            (false, false) => format!("{}; {})", ci.trim_end_matches(')'), over.join(", ")),
        };
        out.push(format!(
            "`{}` is {} faster than `{}` on {d}{ci}{noise}.",
            best.variant,
            times(ratio),
            next.variant
        ));
    }
    out.extend(wide_intervals(rows));
    out.extend(more_cores(rows));
    out
}

/// A sentence for each contender and dataset whose CPU time exceeded its
/// wall time by more than [`crate::harness::record::CPU_RATIO_FLAG`] beyond
/// its clock's margin ([`SummaryRow::over_cores`]): it ran on more cores
/// than it was given, so its wall times do not compare.
pub fn more_cores(rows: &[SummaryRow]) -> Vec<String> {
    rows.iter()
        .filter(|r| r.over_cores())
        .filter_map(|r| {
            let ratio = r.cpu_ratio?;
            let margin = r.cpu_margin.unwrap_or(0.0);
            let read = match r.cpu_clock.as_str() {
                "process" => " inside its calls (its process's CPU clock, read within each call's wall time)".to_string(),
                "ticks" => format!(" over its passes (in clock ticks, ±{margin:.2})"),
                _ => String::new(),
            };
            Some(format!(
                "`{}` on {} used {ratio:.2}× as much CPU time as wall time{read}: it ran on more cores than the one each worker gives it, so its wall times are not comparable with the others'.",
                r.variant, r.dataset
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::cells::relative_table;

    fn row(variant: &str, speed: f64, lo: f64, hi: f64, faster: f64) -> SummaryRow {
        SummaryRow {
            dataset: "top1465".into(),
            variant: variant.into(),
            reference: "bitset-mrv".into(),
            speed: Some(speed),
            speed_lo: Some(lo),
            speed_hi: Some(hi),
            faster_pct: Some(faster),
            puzzles: 10,
            solved: 10,
            ..SummaryRow::default()
        }
    }

    #[test]
    fn sentences_say_who_is_faster_and_whether_it_is_noise() {
        let rows = [
            row("bitset-mrv", 1.0, 1.0, 1.0, 0.0),
            row("dlx", 0.4, 0.38, 0.42, 1.0),
        ];
        assert_eq!(
            sentences(&rows),
            ["`bitset-mrv` is 2.50× faster than `dlx` on top1465 (95% CI 2.38×–2.63×, faster on 99% of puzzles)."]
        );
        let close = [
            row("bitset-mrv", 1.0, 1.0, 1.0, 0.0),
            row("dlx", 0.99, 0.95, 1.03, 48.0),
        ];
        let parts = sentences(&close);
        assert!(
            parts[0].ends_with("the difference is inside the noise."),
            "{parts:?}"
        );
        // Faster paired than the reference, which was fastest by puzzles/s:
        // the interval and the noise verdict are still said.
        let flipped = [
            row("bitset-mrv", 1.0, 1.0, 1.0, 0.0),
            row("backtracking", 1.02, 0.94, 1.10, 55.0),
        ];
        assert_eq!(
            sentences(&flipped),
            ["`backtracking` is 1.02× faster than `bitset-mrv` on top1465 (95% CI 0.94×–1.10×, faster on 55% of puzzles); the difference is inside the noise."]
        );
        let table = relative_table(&rows);
        assert!(
            table.contains("0.40×") && table.contains("0.38×–0.42×"),
            "{table}"
        );
        assert!(relative_table(&[SummaryRow::default()]).is_empty());
    }

    #[test]
    fn a_wide_interval_is_named_with_what_would_narrow_it() {
        let mut rows = vec![
            row("ref", 1.0, 1.0, 1.0, 50.0),
            row("tight", 0.5, 0.48, 0.52, 10.0),
            row("wide", 1.1, 0.86, 1.34, 60.0),
        ];
        for r in &mut rows {
            (r.rounds, r.puzzles, r.wall_s) = (5, 300, 0.25);
            (r.dataset, r.reference) = ("d".into(), "ref".into());
        }
        rows[0].faster_pct = None; // the reference
        let wide = wide_intervals(&rows);
        assert_eq!(wide.len(), 1, "{wide:?}");
        let w = &wide[0];
        // ±22% (1.34 / 1.1 - 1): 2.18² = 4.76 times the measuring.
        assert!(w.contains("`wide` against `ref` on d is ±22%"), "{w}");
        assert!(w.contains("too wide to decide which is faster"), "{w}");
        assert!(w.contains("--min-time 1200ms or --rounds 24"), "{w}");
        assert!(sentences(&rows).contains(w));
        // Too few puzzles for that many rounds: only --min-time is offered.
        for r in &mut rows {
            r.puzzles = 40;
        }
        let w = &wide_intervals(&rows)[0];
        assert!(w.contains("--min-time 1200ms would narrow it"), "{w}");
        // Two rounds' t-interval from 1/20,000× to 17×: no extrapolation
        // (it asked for --min-time 2825997986641m), and no share of 5 million %.
        let mut far = rows.clone();
        for r in &mut far {
            r.rounds = 2;
        }
        (far[2].speed, far[2].speed_lo, far[2].speed_hi) = (Some(3e-5), Some(5e-11), Some(17.0));
        let w = &wide_intervals(&far)[0];
        assert!(
            w.contains("`wide` against `ref` on d is over ±100% (")
                && w.contains("too wide for this run's spread to say what would narrow it to ±10%")
                && w.contains("--rounds 5 or more"),
            "{w}"
        );
        assert!(!w.contains("--min-time"), "{w}");
        // Wide, but clear of 1×: counted, not listed.
        rows[2].speed_lo = Some(1.02);
        rows[2].speed_hi = Some(1.5);
        let wide = wide_intervals(&rows);
        assert_eq!(wide.len(), 1, "{wide:?}");
        assert!(
            wide[0].starts_with(
                "1 comparison is wider than ±10% (the widest: `wide` against `ref` on d, ±36%, where `wide` is faster)"
            ),
            "{}",
            wide[0]
        );
    }

    #[test]
    fn programs_timed_mostly_as_transport_are_named() {
        let mut rows = vec![
            row("fast", 1.0, 1.0, 1.0, 50.0),
            row("slow", 1.0, 1.0, 1.0, 50.0),
        ];
        rows[0].median_us = Some(11.0);
        rows[1].median_us = Some(40.0);
        for r in &mut rows {
            r.timing = "pipe".into();
        }
        let notes = transport_notes(&rows, Some(5_000));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("`fast` on top1465: its median, 11.0 µs, is under 3× the pipe's own round trip (5.00 µs"), "{}", notes[0]);
        // A library's call, and a run without programs, say nothing.
        rows[0].timing = "call".into();
        assert!(transport_notes(&rows, Some(5_000)).is_empty());
        assert!(transport_notes(&rows, None).is_empty());
    }

    #[test]
    fn a_contender_on_more_cores_than_given_is_flagged() {
        let mut over = row("spinner", 1.0, 0.9, 1.1, 50.0);
        (over.cpu_ratio, over.cpu_us) = (Some(1.86), Some(8000.0));
        let mut fair = row("calm", 1.0, 0.9, 1.1, 50.0);
        fair.cpu_ratio = Some(1.08);
        over.cpu_clock = "process".into();
        // Read in ticks, 1.70× with a tick's margin of 0.65: within what
        // the clock can tell, so not flagged.
        let mut coarse = row("ticked", 1.0, 0.9, 1.1, 50.0);
        (coarse.cpu_ratio, coarse.cpu_margin) = (Some(1.70), Some(0.65));
        coarse.cpu_clock = "ticks".into();
        let mut sure = coarse.clone();
        sure.variant = "sure".into();
        sure.cpu_margin = Some(0.2);
        let said = more_cores(&[over, fair, coarse, sure]);
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].starts_with("`spinner` on "), "{}", said[0]);
        assert!(
            said[0].contains("1.86×") && said[0].contains("inside its calls"),
            "{}",
            said[0]
        );
        assert!(
            said[1].contains("`sure`") && said[1].contains("±0.20"),
            "{}",
            said[1]
        );
    }
}
