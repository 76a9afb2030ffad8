//! Checking a bundle's proofs, several at a time: each part still meets only
//! the roots of the parts before it, and waits for one it meets to be checked.

use std::collections::HashMap;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Condvar, Mutex, MutexGuard};

use super::check::{replay_all, root_turn, stones_of, Claim, ProofError, Replayed, Shape, Verdict};
use super::format::{another_part, parse_board, parse_sections, Board, Key, Lines, Section};

/// What a check has done so far, for a progress display.
#[derive(Debug, Default)]
pub struct CheckProgress {
    /// Parts checked (a single proof is one part).
    pub parts: AtomicU64,
    /// Positions proven in those parts.
    pub positions: AtomicU64,
}

/// A root of a bundle's part for one claim: the first part whose root it is,
/// and once that part is checked, the zone found there (`None` if the part
/// failed or its root is over: not a root others may meet).
#[derive(Clone, Copy)]
struct Root {
    part: usize,
    checked: Option<Option<u128>>,
}

/// The roots of a bundle's parts, per claim and canonical key.
#[derive(Default)]
pub(super) struct Roots {
    roots: Mutex<HashMap<(Claim, Key<u128>), Root>>,
    settled: Condvar,
}

impl Roots {
    fn lock(&self) -> MutexGuard<'_, HashMap<(Claim, Key<u128>), Root>> {
        // Nothing panics while holding it; a poisoned map still holds valid data.
        self.roots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records that `part` proves `claim` at `key` (unless an earlier part
    /// does), before any later part is checked.
    fn expect(&self, part: usize, claim: Claim, key: Key<u128>) {
        self.lock().entry((claim, key)).or_insert(Root {
            part,
            checked: None,
        });
    }

    /// `part` is checked: its roots in `proven` hold with their zones; its
    /// other expected roots do not.
    fn settle(&self, part: usize, proven: &[((Claim, Key<u128>), u128)]) {
        let mut roots = self.lock();
        for root in roots.values_mut().filter(|r| r.part == part) {
            root.checked = Some(None);
        }
        for (at, zone) in proven {
            if let Some(root) = roots.get_mut(at).filter(|r| r.part == part) {
                root.checked = Some(Some(*zone));
            }
        }
        drop(roots);
        self.settled.notify_all();
    }

    /// The zone of `claim` at `key` if a part before `part` proves it; waits
    /// for that part's check to end.
    pub fn before(&self, part: usize, claim: Claim, key: Key<u128>) -> Option<u128> {
        let mut roots = self.lock();
        loop {
            match roots.get(&(claim, key)) {
                Some(root) if root.part < part => match root.checked {
                    Some(zone) => return zone,
                    None => roots = self.settled.wait(roots).unwrap_or_else(|p| p.into_inner()),
                },
                _ => return None,
            }
        }
    }
}

/// A parsed part, to be replayed.
enum Parsed {
    Narrow(Vec<Section<u64>>),
    Wide(Vec<Section<u128>>),
}

/// Checks the proof or bundle read from `reader` with `threads` parts replayed
/// at a time (see [`super::check_bundle`]); also returns each claim's zone at
/// the last part's root.
pub(super) fn check_parts(
    reader: impl BufRead,
    threads: usize,
    progress: &CheckProgress,
    cancel: &AtomicBool,
) -> Result<(Verdict, Vec<u128>), ProofError> {
    let roots = Roots::default();
    let stop = AtomicBool::new(false);
    // Each part's outcome, by its index.
    let outcomes: Mutex<Vec<Option<Result<Replayed, ProofError>>>> = Mutex::new(Vec::new());
    let replay = |part: usize, board: &Board, shape: &Shape, parsed: Parsed| {
        let replayed = match parsed {
            Parsed::Narrow(sections) => replay_all(board, shape, sections, &roots, part, cancel),
            Parsed::Wide(sections) => replay_all(board, shape, sections, &roots, part, cancel),
        };
        let proven = replayed.as_ref().map_or(&[][..], |r| r.roots.as_slice());
        roots.settle(part, proven);
        if let Ok(r) = &replayed {
            progress.parts.fetch_add(1, Ordering::Relaxed);
            let positions = r.verdict.positions as u64;
            progress.positions.fetch_add(positions, Ordering::Relaxed);
        } else {
            // Later parts are not needed once one fails.
            stop.store(true, Ordering::Relaxed);
        }
        let mut outcomes = outcomes.lock().unwrap_or_else(|p| p.into_inner());
        if outcomes.len() <= part {
            outcomes.resize_with(part + 1, || None);
        }
        outcomes[part] = Some(replayed);
    };
    let mut lines = Lines::new(reader);
    // A part is handed over when a worker is free; the workers end when `send`
    // drops, as the reading closure returns.
    let (send, receive) = mpsc::sync_channel::<(usize, Board, Shape, Parsed)>(0);
    let receive = Mutex::new(receive);
    let read = std::thread::scope(|scope| -> Result<usize, ProofError> {
        let send = send;
        let workers = if threads > 1 { threads } else { 0 };
        for _ in 0..workers {
            scope.spawn(|| loop {
                let next = receive.lock().unwrap_or_else(|p| p.into_inner()).recv();
                let Ok((part, board, shape, parsed)) = next else {
                    return;
                };
                replay(part, &board, &shape, parsed);
            });
        }
        let mut shape_of = None;
        let mut part = 0;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(part);
            }
            if cancel.load(Ordering::Relaxed) {
                return Err(ProofError::Interrupted);
            }
            let board = parse_board(&mut lines)?;
            let this = (board.width, board.height, board.k, board.exact);
            match shape_of {
                Some(s) if s != this => {
                    return Err(ProofError::Format {
                        line: 0,
                        why: format!("a bundle's proofs are of one board: {this:?} after {s:?}"),
                    })
                }
                _ => shape_of = Some(this),
            }
            let parsed = if board.width * board.height <= 64 {
                Parsed::Narrow(parse_sections::<u64, _>(&mut lines, &board)?)
            } else {
                Parsed::Wide(parse_sections::<u128, _>(&mut lines, &board)?)
            };
            let shape = Shape::of(&board);
            let (key, _) = shape.key(
                stones_of(&board.root, 1),
                stones_of(&board.root, 2),
                root_turn(&board.root),
            );
            let claims: Vec<Claim> = match &parsed {
                Parsed::Narrow(s) => s.iter().map(|s| s.claim).collect(),
                Parsed::Wide(s) => s.iter().map(|s| s.claim).collect(),
            };
            for claim in claims {
                roots.expect(part, claim, key);
            }
            let more = another_part(&mut lines)?;
            if workers == 0 {
                replay(part, &board, &shape, parsed);
            } else if send.send((part, board, shape, parsed)).is_err() {
                unreachable!("the workers wait for parts until the channel closes");
            }
            part += 1;
            if !more {
                return Ok(part);
            }
        }
    });
    let outcomes = outcomes.into_inner().unwrap_or_else(|p| p.into_inner());
    // The first part that fails is the one reported, as one at a time would.
    let mut positions = 0;
    let mut last = None;
    for outcome in outcomes {
        let replayed = outcome.expect("every part read is replayed")?;
        positions += replayed.verdict.positions;
        last = Some(replayed);
    }
    let parts = read?;
    let last = last.expect("a proof has a part");
    Ok((
        Verdict {
            positions,
            lemmas: parts - 1,
            ..last.verdict
        },
        last.zones,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::ClaimKind;

    #[test]
    fn a_part_waits_for_an_earlier_root_and_never_meets_a_later_one() {
        let roots = Roots::default();
        let claim = Claim {
            player: 1,
            kind: ClaimKind::NoLoss,
        };
        let other = Claim {
            player: 0,
            kind: ClaimKind::NoLoss,
        };
        let key = (0b11, 0b100, 1);
        roots.expect(3, claim, key);
        roots.expect(5, claim, key);
        assert_eq!(roots.before(3, claim, key), None, "its own root");
        assert_eq!(roots.before(2, claim, key), None, "a later part's root");
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| roots.before(4, claim, key));
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert!(!waiting.is_finished(), "part 3 is not checked yet");
            roots.settle(3, &[((claim, key), 0b1000)]);
            assert_eq!(waiting.join().unwrap(), Some(0b1000));
        });
        assert_eq!(roots.before(9, other, key), None, "another claim");
        // A part that fails (or whose root is over) proves no root.
        roots.expect(6, other, key);
        roots.settle(6, &[]);
        assert_eq!(roots.before(9, other, key), None);
    }
}
