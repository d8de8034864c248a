//! One worker's puzzles through a [`Program`]: puzzle lines written (a batch
//! of up to `batch = K` in protocol version 2), answer lines read and made
//! rows, a batch's wall time shared out, and a crash or a hang blamed on the
//! puzzle it cost.

use super::process::{Process, ReadError};
use super::spec::MAX_BATCH_BYTES;
use super::{protocol, Program};
use crate::contender::{Job, Solved, Timing};
use crate::format::Alphabet;
use crate::solver::Status;
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// [`Engine::work`](crate::contender::Engine::work) for a [`Program`]: the
/// job's puzzles fed through one of its processes, taken from its pool and
/// put back after.
pub(super) fn work(
    program: &Program,
    job: &Job<'_>,
    next: &mut dyn FnMut() -> Option<usize>,
    done: &mut dyn FnMut(usize, Solved),
) {
    let Some(first) = job.puzzles.first() else {
        return;
    };
    let mut feed = Feed {
        program,
        job,
        alphabet: Alphabet::default_for(first.grid.geometry()),
        side: first.grid.geometry().side(),
        pencilmarks: program.takes_pencilmarks(),
        resend: Default::default(),
        suspects: Default::default(),
        out: Vec::new(),
        slots: Vec::with_capacity(program.batch),
        held: Vec::new(),
        proc: None,
    };
    loop {
        feed.fill(next, done);
        if feed.slots.is_empty() {
            break;
        }
        if feed.proc.is_none() {
            match program.take(job.mode, feed.side, job.pin) {
                Ok(p) => feed.proc = Some(p),
                Err(msg) => return feed.give_up(&msg, next, done),
            }
        }
        if feed.exchange(done).is_break() {
            return; // cancelled: the process is killed as it drops
        }
    }
    if let Some(p) = feed.proc {
        program.put_back(p);
    }
}

/// Why no answer came for a puzzle: its row, and for a crash (not a hang) what ended the process.
struct Failure {
    row: Solved,
    crash: Option<String>,
}

impl Program {
    /// The row of an answer line read `ns` after the one before it.
    fn answer(
        &self,
        line: &str,
        puzzle: &crate::grid::Grid,
        alphabet: &Alphabet,
        ns: u64,
        now: Instant,
    ) -> Solved {
        match protocol::parse_answer(line, puzzle, alphabet) {
            Ok(a) if self.timing == Timing::Call => match a.ns {
                Some(_) if a.counts.instructions.is_none() && crate::callgrind::counting() => {
                    Solved::failed("the host counted no instructions".into(), ns, now)
                }
                Some(_) if a.counts == Default::default() && !crate::perf::events().is_empty() => {
                    Solved::failed("the host read none of the CPU's counters".into(), ns, now)
                }
                Some(call) => Solved {
                    result: Ok(a.outcome),
                    ns: call,
                    nodes: a.nodes,
                    guesses: a.guesses,
                    own_ns: None,
                    counts: a.counts,
                    at: now,
                    note: None,
                    memory: false,
                },
                None => Solved::failed("the host gave no time".into(), ns, now),
            },
            Ok(a) => Solved {
                result: Ok(a.outcome),
                ns,
                nodes: a.nodes,
                guesses: a.guesses,
                own_ns: a.ns,
                counts: Default::default(),
                at: now,
                note: None,
                memory: false,
            },
            Err(why) => Solved::failed(why.0, ns, now),
        }
    }

    /// What a failed read means for the puzzle it waited on; `p` is ended.
    fn failure(
        &self,
        e: ReadError,
        p: Process,
        (limit, cpu_limit): (Option<Duration>, Option<Duration>),
        ns: u64,
        now: Instant,
    ) -> Failure {
        let crash = |why: String| Failure {
            row: Solved::failed(why.clone(), ns, now),
            crash: Some(why),
        };
        match e {
            ReadError::Timeout | ReadError::CpuLimit => {
                let (what, bound) = match e {
                    ReadError::Timeout => ("time limit", limit),
                    _ => ("CPU limit", cpu_limit),
                };
                let why = p.kill();
                let mut row = Solved::stopped(Status::Budget, ns, now);
                row.note = Some(format!(
                    "no answer within the {what} ({}); killed ({why})",
                    bound.map_or("none".into(), |t| format!("{t:?}"))
                ));
                Failure { row, crash: None }
            }
            ReadError::TooLong => crash(format!(
                "the answer line ran past {} KiB without a line end; killed ({})",
                protocol::MAX_ANSWER_BYTES / 1024,
                p.kill()
            )),
            ReadError::Io(e) => crash(format!("reading its answer failed: {e} ({})", p.kill())),
            ReadError::Closed | ReadError::Cancelled => {
                // Under callgrind, valgrind may have stopped the host.
                let valgrind = crate::callgrind::host_stopped(p.id())
                    .map(|why| format!(" ({why}: valgrind cannot run this code)"))
                    .unwrap_or_default();
                let (how, over) = p.ended_by();
                // Over the memory limit: a `memory` row, not a crash.
                if let Some(why) = over {
                    let mut row = Solved::failed(format!("{why}; {how}"), ns, now);
                    row.memory = true;
                    return Failure { row, crash: None };
                }
                crash(format!(
                    "the {} ended before answering: {}{valgrind}",
                    if self.spec.library.is_some() {
                        "library's host"
                    } else {
                        "program"
                    },
                    how
                ))
            }
        }
    }
}

/// Shares a batch's wall time out over its answered rows, held until it
/// was read (by the program's own `ns=` when every row has one, else
/// evenly), and hands them on to `done`.
fn share_batch(
    held: &mut Vec<(usize, Solved)>,
    wall: Duration,
    done: &mut dyn FnMut(usize, Solved),
) {
    let wall = wall.as_nanos() as f64;
    let n = held.len().max(1) as f64;
    let own: Option<Vec<u64>> = held.iter().map(|(_, s)| s.own_ns).collect();
    let total: u64 = own.iter().flatten().sum();
    for (i, (_, s)) in held.iter_mut().enumerate() {
        s.ns = match &own {
            Some(own) if total > 0 => (wall * own[i] as f64 / total as f64) as u64,
            _ => (wall / n) as u64,
        };
    }
    for (s, solved) in held.drain(..) {
        done(s, solved);
    }
}

/// An error row for a puzzle that was never sent.
fn unsent(msg: &str, at: Instant) -> Solved {
    Solved::failed(msg.to_string(), 0, at)
}

/// One worker's puzzles on their way through a [`Program`] in
/// [`Engine::work`]: the batch being sent, the puzzles waiting to be sent
/// again, the answers held until their batch is read, and the worker's process.
struct Feed<'w, 'j> {
    program: &'w Program,
    job: &'w Job<'j>,
    alphabet: Alphabet,
    side: usize,
    /// Whether the program takes pencilmark lines.
    pencilmarks: bool,
    /// Puzzles whose lines were not answered: they go to a restarted program.
    resend: VecDeque<usize>,
    /// Puzzles of a failed batch, none of them known to be at fault: each
    /// is sent alone, so that a failure there is its own.
    suspects: VecDeque<usize>,
    /// The batch's lines.
    out: Vec<u8>,
    /// The batch's puzzles (slots in the job), in the order sent.
    slots: Vec<usize>,
    /// A batch-timed program's answers, held until its batch is read.
    held: Vec<(usize, Solved)>,
    proc: Option<Process>,
}

impl Feed<'_, '_> {
    /// Makes the next batch: a suspect alone, else up to the program's
    /// batch of the puzzles to send again and then new ones, their lines
    /// written out. A pencilmark puzzle the program does not take gets its
    /// error row instead.
    fn fill(
        &mut self,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        self.slots.clear();
        self.out.clear();
        let room = if self.suspects.is_empty() {
            self.program.batch
        } else {
            1
        };
        while self.slots.len() < room && self.out.len() < MAX_BATCH_BYTES {
            let Some(slot) = self
                .suspects
                .pop_front()
                .or_else(|| self.resend.pop_front())
                .or_else(&mut *next)
            else {
                break;
            };
            let grid = &self.job.puzzles[slot].grid;
            if grid.is_pencilmark() && !self.pencilmarks {
                // A dataset with pencilmarks is skipped for it; this is a safeguard.
                done(slot, unsent(protocol::NO_PENCILMARKS, Instant::now()));
                continue;
            }
            protocol::puzzle_line(&mut self.out, grid, &self.alphabet);
            self.slots.push(slot);
        }
    }

    /// No process could be started: the batch and every puzzle this worker
    /// would still get are error rows saying why.
    fn give_up(
        &mut self,
        msg: &str,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        let now = Instant::now();
        for &slot in &self.slots {
            done(slot, unsent(msg, now));
        }
        for slot in self.suspects.drain(..).chain(self.resend.drain(..)) {
            done(slot, unsent(msg, now));
        }
        while let Some(slot) = next() {
            done(slot, unsent(msg, now));
        }
    }

    /// Sends the batch to the running process and reads its answers, each
    /// timed from the one before it (the first from just before the lines
    /// are written). Rows go to `done` as they are read, a batch-timed
    /// program's once its batch is; a failure is blamed ([`Feed::blame`]).
    /// A process gone before its lines are written is counted as crashed
    /// and dropped, and the batch waits for the next one. Breaks when the
    /// run is cancelled.
    fn exchange(&mut self, done: &mut dyn FnMut(usize, Solved)) -> ControlFlow<()> {
        let (program, job) = (self.program, self.job);
        let p = self.proc.as_mut().expect("running");
        let window = p.begin_call();
        let start = Instant::now();
        if p.send(&self.out).is_err() {
            // The program is gone (it ended after its last answer): a new one gets these.
            let why = self.proc.take().expect("running").ended();
            program.crashed(&why, self.side);
            for &slot in self.slots.iter().rev() {
                self.resend.push_front(slot);
            }
            return ControlFlow::Continue(());
        }
        let mut last = start;
        let mut answered = 0;
        let mut failure: Option<Failure> = None;
        for &slot in &self.slots {
            let p = self.proc.as_mut().expect("running");
            let deadline = job.time_limit.map(|t| last + t);
            // Each answer's CPU time is its own (a batch's first holds
            // the work done for the others before it).
            p.limit_cpu(job.cpu_limit);
            let read = p.read_line(deadline, job.cancel);
            let now = Instant::now();
            let ns = (now - last).as_nanos() as u64;
            match read {
                Ok(line) => {
                    let puzzle = &job.puzzles[slot].grid;
                    let solved = program.answer(line, puzzle, &self.alphabet, ns, now);
                    program.answered(self.side);
                    if program.timing == Timing::Batch {
                        self.held.push((slot, solved));
                    } else {
                        done(slot, solved);
                    }
                    last = now;
                    answered += 1;
                }
                Err(ReadError::Cancelled) => {
                    share_batch(&mut self.held, last - start, done);
                    done(slot, Solved::stopped(Status::Cancelled, 0, now));
                    return ControlFlow::Break(());
                }
                Err(e) => {
                    let p = self.proc.take().expect("running");
                    failure = Some(program.failure(e, p, (job.time_limit, job.cpu_limit), ns, now));
                    break;
                }
            }
        }
        if let Some(p) = &self.proc {
            p.end_call(window);
        }
        share_batch(&mut self.held, last - start, done);
        if let Some(f) = failure {
            self.blame(answered, f, done);
        }
        ControlFlow::Continue(())
    }

    /// After failure `f` with the batch's first `answered` lines answered:
    /// where answers come one at a time, the first unanswered puzzle is the
    /// one that failed (its row is the failure's) and the rest are sent
    /// again; a batch program may hold its answers, so none is blamed yet,
    /// and each unanswered puzzle is sent alone.
    fn blame(&mut self, answered: usize, f: Failure, done: &mut dyn FnMut(usize, Solved)) {
        let unanswered = &self.slots[answered..];
        let known =
            unanswered.len() == 1 || self.program.batch == 1 || self.program.spec.library.is_some();
        if known {
            if let Some(why) = &f.crash {
                self.program.crashed(why, self.side);
            }
            done(unanswered[0], f.row);
            for &slot in unanswered[1..].iter().rev() {
                self.resend.push_front(slot);
            }
        } else {
            self.suspects.extend(unanswered);
        }
    }
}
