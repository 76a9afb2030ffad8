//! A journal that makes a long weak solve resumable: the outcomes the zone
//! search proves for positions of few stones ([`FreeSolver::set_pinned_stones`])
//! are appended to a file as they come, and a later solve of the same board
//! reads them back ([`FreeSolver::add_pinned`]) and goes on where the earlier
//! one stopped (Ctrl-C, a kill, a node limit, a power cut).
//!
//! The file is text: a header `inarow-pinned 1 WIDTH HEIGHT K RULE`, then one
//! outcome a line, `ATTACKER DEFENDER a|d ZONE|win` (cell sets in hex, bit
//! `row * width + col`; `a` or `d`: the side to move). It is flushed every tenth
//! of a second; a line a kill cut short is cut off the file when it is next
//! opened (only whole lines are read: a zone cut short would read as a smaller,
//! wrong one).

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use super::position::FreePosition;
use super::solver::FreeSolver;
use super::zone_table::PinnedOutcome;
use crate::solver::SolveError;

/// Positions of at most this many stones are journalled by default: on 8,8,5
/// some tens of thousands of lines an hour, each a subtree worth seconds to hours.
pub const DEFAULT_JOURNAL_STONES: u32 = 6;

/// How often the journal is flushed.
const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// The journal's first line for `pos`'s board.
pub fn journal_header(pos: &FreePosition) -> String {
    format!(
        "inarow-pinned 1 {} {} {} {}",
        pos.width(),
        pos.height(),
        pos.k(),
        pos.rule().name()
    )
}

/// The outcomes in the journal at `path` for `pos`'s board (none if the file
/// is missing or empty). A last line cut short is cut off the file. A journal
/// of another board, or a line that is not an outcome, is
/// [`SolveError::InvalidPosition`]; a file that cannot be read or cut,
/// [`SolveError::Io`].
pub fn read_journal(path: &Path, pos: &FreePosition) -> Result<Vec<PinnedOutcome>, SolveError> {
    let Some(text) = whole_lines(path, "a journal")? else {
        return Ok(Vec::new());
    };
    let mut lines = text.lines();
    let header = journal_header(pos);
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(first) if first == header => {}
        Some(first) => {
            return Err(SolveError::InvalidPosition(format!(
            "{} is the journal of another board: its header is {first:?}, this board's {header:?}",
            path.display()
        )))
        }
    }
    lines
        .enumerate()
        .map(|(i, line)| {
            parse_outcome(line).ok_or_else(|| {
                SolveError::InvalidPosition(format!(
                    "{} line {}: not an outcome: {line:?}",
                    path.display(),
                    i + 2
                ))
            })
        })
        .collect()
}

/// The whole lines of the text file at `path` (`what` it should be, for the
/// error), or `None` if there is no such file. A last line cut short (by a
/// kill) is cut off the file. Not text: [`SolveError::InvalidPosition`]; a
/// file that cannot be read or cut, [`SolveError::Io`].
pub(super) fn whole_lines(path: &Path, what: &str) -> Result<Option<String>, SolveError> {
    let io = |e: std::io::Error| SolveError::Io(format!("{}: {e}", path.display()));
    let mut text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| {
            SolveError::InvalidPosition(format!("{} is not {what} (not text)", path.display()))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        let file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(whole as u64).map_err(io)?;
        text.truncate(whole);
    }
    Ok(Some(text))
}

/// One journal line (see the module docs).
pub fn format_outcome(o: &PinnedOutcome) -> String {
    let zone = o.zone.map_or("win".to_string(), |z| format!("{z:x}"));
    let side = if o.defender_to_move { 'd' } else { 'a' };
    format!("{:x} {:x} {side} {zone}", o.attacker, o.defender)
}

/// The outcome of one journal line, if it is one.
pub fn parse_outcome(line: &str) -> Option<PinnedOutcome> {
    let mut fields = line.split(' ');
    let attacker = u128::from_str_radix(fields.next()?, 16).ok()?;
    let defender = u128::from_str_radix(fields.next()?, 16).ok()?;
    let defender_to_move = match fields.next()? {
        "d" => true,
        "a" => false,
        _ => return None,
    };
    let zone = match fields.next()? {
        "win" => None,
        z => Some(u128::from_str_radix(z, 16).ok()?),
    };
    fields.next().is_none().then_some(PinnedOutcome {
        attacker,
        defender,
        defender_to_move,
        zone,
    })
}

/// What a journalled solve has done so far, for progress reports.
#[derive(Debug, Default)]
pub struct JournalProgress {
    /// Outcomes read from earlier runs.
    pub earlier: AtomicUsize,
    /// Outcomes proven and written by this run.
    pub proven: AtomicUsize,
}

impl FreeSolver {
    /// The outcome of `pos` (a weak solve, [`FreeSolver::solve`] with `weak`),
    /// resumable through the journal at `path` (see the module docs): it starts
    /// from the outcomes there and appends those it proves for positions of at
    /// most `stones` stones. `progress` counts them as it goes. The journal
    /// needs the zone search (the freestyle rule; [`SolveError::Unsupported`]
    /// otherwise). Afterwards the solver pins nothing more.
    pub fn solve_with_journal(
        &mut self,
        pos: &FreePosition,
        path: &Path,
        stones: u32,
        progress: &JournalProgress,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        if !self.zone_search_for(pos) {
            return Err(SolveError::Unsupported(format!(
                "a journal needs the zone search: weak values under the freestyle rule with \
                 the zone search on, got rule={:?}",
                pos.rule().name()
            )));
        }
        let io = |e: std::io::Error| SolveError::Io(format!("{}: {e}", path.display()));
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        // Locked before it is read: reading cuts off a line cut short.
        lock_alone(&file, path)?;
        let earlier = read_journal(path, pos)?;
        progress.earlier.store(earlier.len(), Ordering::Relaxed);
        let fresh = !std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        let mut out = BufWriter::new(file);
        if fresh {
            writeln!(out, "{}", journal_header(pos)).map_err(io)?;
        }
        let (sink, proven) = channel();
        self.set_pinned_stones(stones, Some(sink));
        let result = self.add_pinned(pos, &earlier).and_then(|()| {
            let done = AtomicBool::new(false);
            std::thread::scope(|scope| {
                let (done, out) = (&done, &mut out);
                let writer = std::thread::Builder::new()
                    .name("inarow-journal".into())
                    .spawn_scoped(scope, move || record(&proven, out, done, progress))
                    .map_err(io)?;
                let value = self.solve(pos, true, cancel);
                // The search drops its sink, so the writer gets every outcome sent.
                self.set_pinned_stones(0, None);
                done.store(true, Ordering::Relaxed);
                writer
                    .join()
                    .expect("the journal's writer ends")
                    .map_err(io)?;
                value
            })
        });
        self.set_pinned_stones(0, None);
        result
    }
}

/// Locks `file` (at `path`) for this process alone until it is closed: two
/// runs appending to one journal or bundle would each redo what the other
/// proves. Where the system has no file locks, nothing is locked.
pub(super) fn lock_alone(file: &File, path: &Path) -> Result<(), SolveError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(SolveError::Io(format!(
            "{} is in use by another run (one run at a time writes it)",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            Ok(())
        }
        Err(std::fs::TryLockError::Error(e)) => {
            Err(SolveError::Io(format!("{}: locking: {e}", path.display())))
        }
    }
}

/// Appends each outcome the search sends to `out` until `done`, flushing every
/// [`FLUSH_EVERY`].
fn record(
    proven: &Receiver<PinnedOutcome>,
    out: &mut BufWriter<File>,
    done: &AtomicBool,
    progress: &JournalProgress,
) -> std::io::Result<()> {
    loop {
        match proven.recv_timeout(FLUSH_EVERY) {
            Ok(o) => {
                append(out, &o, progress)?;
                continue;
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {}
        }
        out.flush()?;
        if done.load(Ordering::Relaxed) {
            while let Ok(o) = proven.try_recv() {
                append(out, &o, progress)?;
            }
            return out.flush();
        }
    }
}

/// Writes one outcome's line and counts it.
fn append(
    out: &mut BufWriter<File>,
    o: &PinnedOutcome,
    progress: &JournalProgress,
) -> std::io::Result<()> {
    writeln!(out, "{}", format_outcome(o))?;
    progress.proven.fetch_add(1, Ordering::Relaxed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_read_back_as_written_and_other_lines_are_refused() {
        let outcomes = [
            PinnedOutcome {
                attacker: 1 << 127 | 5,
                defender: 1 << 64,
                defender_to_move: true,
                zone: Some(u128::MAX),
            },
            PinnedOutcome {
                attacker: 0,
                defender: 0,
                defender_to_move: false,
                zone: None,
            },
            PinnedOutcome {
                attacker: 3,
                defender: 12,
                defender_to_move: false,
                zone: Some(0),
            },
        ];
        for o in outcomes {
            assert_eq!(parse_outcome(&format_outcome(&o)), Some(o));
        }
        for bad in [
            "",
            "1 2 a",
            "1 2 x win",
            "1 2 a win extra",
            "g 2 a win",
            "1 2 d 1z",
        ] {
            assert_eq!(parse_outcome(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_journal_of_another_board_is_refused_and_a_cut_line_dropped() {
        let dir = std::env::temp_dir().join(format!("inarow-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("j");
        let pos = FreePosition::new(5, 5, 4).unwrap();
        assert!(read_journal(&path, &pos).unwrap().is_empty());
        let line = format_outcome(&PinnedOutcome {
            attacker: 1,
            defender: 2,
            defender_to_move: true,
            zone: Some(12),
        });
        std::fs::write(&path, format!("{}\n{line}\n1f 3", journal_header(&pos))).unwrap();
        assert_eq!(read_journal(&path, &pos).unwrap().len(), 1);
        let kept = std::fs::read_to_string(&path).unwrap();
        assert!(kept.ends_with(&format!("{line}\n")), "{kept:?}");
        let other = FreePosition::new(5, 5, 3).unwrap();
        assert!(matches!(
            read_journal(&path, &other),
            Err(SolveError::InvalidPosition(m)) if m.contains("another board")
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
