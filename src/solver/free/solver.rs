//! The free-placement solver: its table, and the calls (`solve`, `analyze`,
//! `best_move`) over the search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

use super::super::choice::{MoveValue, TimedMove};
use super::super::deadline::Deadline;
use super::super::driver::{search_moves, MoveSearch, Searched};
use super::super::error::SolveError;
use super::geometry::{fits_one_word, Geometry};
use super::position::{exact, FreePosition};
use super::search::{Node, Search};
use super::table::Table;
use super::word::Word;
use super::zone::{outcome_shared, SOLO_NODES};
use super::zone_table::{PinnedOutcome, ZoneTable};

/// Runs `$body` on the engine of either word, bound to `$e`.
macro_rules! on_engine {
    ($engine:expr, $e:ident => $body:expr) => {
        match $engine {
            AnyEngine::One($e) => $body,
            AnyEngine::Two($e) => $body,
        }
    };
}

/// An exact solver for 2-player free-placement boards of at most 128 cells
/// ([`super::MAX_FREE_CELLS`]): boards of up to 64 cells are searched in one
/// 64-bit word, larger ones in a `u128`. Owns its transposition table. `Send +
/// Sync`.
pub struct FreeSolver {
    /// The table and shape, in the word of the last board searched.
    engine: AnyEngine,
    /// The most memory the table may take.
    tt_bytes: usize,
    nodes: u64,
    node_limit: Option<u64>,
    /// Whether move ordering breaks ties by the history heuristic.
    history: bool,
    /// Whether weak values come from the zone search (else from negamax).
    zones: bool,
    /// Threads of the zone search.
    threads: usize,
    /// The zone search keeps the positions of at most this many stones apart
    /// (0: none).
    pinned_stones: u32,
    pin_sink: Option<Sender<PinnedOutcome>>,
}

impl FreeSolver {
    /// A solver with a table of at most `tt_bytes`, and for weak values (the
    /// zone search) a second one of at most `tt_bytes`, made on its first use.
    pub fn new(tt_bytes: usize) -> Result<FreeSolver, SolveError> {
        Ok(FreeSolver {
            engine: AnyEngine::One(Engine::new(tt_bytes)?),
            tt_bytes,
            nodes: 0,
            node_limit: None,
            history: true,
            zones: true,
            threads: 1,
            pinned_stones: 0,
            pin_sink: None,
        })
    }

    /// Keeps the zone search's outcomes of the positions of at most `stones`
    /// stones (0, the default: none) apart from its table, never replaced, and
    /// sends each one it proves to `sink`. A search too long for one run saves
    /// them as it goes, and a later run resumes from them
    /// ([`FreeSolver::add_pinned`]): the search finds them where it would
    /// search again.
    pub fn set_pinned_stones(&mut self, stones: u32, sink: Option<Sender<PinnedOutcome>>) {
        self.pinned_stones = stones;
        self.pin_sink = sink;
        let sink = self.pin_sink.clone();
        on_engine!(&mut self.engine, e => {
            if let Some(t) = &mut e.zone_table {
                t.pin(stones, sink);
            }
        });
    }

    /// Adds outcomes an earlier search of `pos`'s board pinned: the search
    /// trusts them, so they must come from a search of the same board and rule.
    /// Refused ([`SolveError::InvalidPosition`]) if one has a cell off the board.
    pub fn add_pinned(
        &mut self,
        pos: &FreePosition,
        outcomes: &[PinnedOutcome],
    ) -> Result<(), SolveError> {
        self.use_shape(pos)?;
        let board = if pos.cells() == 128 {
            u128::MAX
        } else {
            (1u128 << pos.cells()) - 1
        };
        for o in outcomes {
            let cells = o.attacker | o.defender | o.zone.unwrap_or(0);
            if cells & !board != 0 || o.attacker & o.defender != 0 {
                return Err(SolveError::InvalidPosition(format!(
                    "a pinned outcome of attacker {:#x}, defender {:#x} is not a position of a {}x{} board",
                    o.attacker, o.defender, pos.width, pos.height
                )));
            }
        }
        let pins = (self.pinned_stones, self.pin_sink.clone());
        on_engine!(&mut self.engine, e => e.add_pinned(&pins, outcomes))
    }

    /// The threads that share a zone search (weak values under the freestyle
    /// rule) past its first nodes; one by default. The values are the same
    /// whatever the count; the node counts vary from run to run with more than one.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The threads of the zone search and of a proof bundle's writer.
    pub(super) fn threads(&self) -> usize {
        self.threads
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Limits the nodes of each later call; past it the call fails with
    /// [`SolveError::NodeLimit`], keeping its table. `None`: no limit.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
    }

    /// Switches the history heuristic of move ordering (on by default) off or on:
    /// for measuring what it pays; the values are the same either way.
    pub fn set_move_history(&mut self, on: bool) {
        self.history = on;
    }

    /// Switches the zone search of weak values under the freestyle rule (on by
    /// default) off or on: for measuring what it pays; the values are the same
    /// either way.
    pub fn set_zone_search(&mut self, on: bool) {
        self.zones = on;
    }

    /// Whether weak values under the freestyle rule come from the zone search.
    pub(super) fn zone_search_on(&self) -> bool {
        self.zones
    }

    /// Whether a weak solve of `pos` is the zone search's (the freestyle rule,
    /// the zone search on): only it pins outcomes.
    pub(super) fn zone_search_for(&self, pos: &FreePosition) -> bool {
        self.zones && !exact(pos.rule)
    }

    /// The node limit of each call ([`FreeSolver::set_node_limit`]).
    pub(super) fn node_limit(&self) -> Option<u64> {
        self.node_limit
    }

    /// Sets the count [`FreeSolver::nodes`] reports (a call made of several searches).
    pub(super) fn set_nodes(&mut self, nodes: u64) {
        self.nodes = nodes;
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        on_engine!(&mut self.engine, e => e.clear_tables());
    }

    /// The table size in bytes (of the table of the last board's word).
    pub fn tt_bytes(&self) -> usize {
        on_engine!(&self.engine, e => e.table.bytes())
    }

    /// The exact score of `pos` for the side to move (Pons' convention, see the
    /// module docs), or its sign if `weak`. A position that is over: a line made
    /// by the last move scores `-((N + 2 - moves) / 2)` (-1 if `weak`), a full
    /// board 0.
    pub fn solve(
        &mut self,
        pos: &FreePosition,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        self.nodes = 0;
        self.use_shape(pos)?;
        self.value(pos, weak, cancel)
    }

    /// For each cell (`row * width + col`), the score of playing it for the
    /// player who plays it: the negated score of the position after it, a move
    /// that wins at once scoring `(N + 1 - moves) / 2` (1 if `weak`). `None` for a
    /// taken cell, and for every cell of a position that is over. Cells that are
    /// images of each other under a symmetry of the position are searched once.
    pub fn analyze(
        &mut self,
        pos: &FreePosition,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<i32>>, SolveError> {
        self.nodes = 0;
        self.use_shape(pos)?;
        let mut out = vec![None; pos.cells()];
        if pos.is_over() {
            return Ok(out);
        }
        let mut seen: Vec<((u128, u128), i32)> = Vec::new();
        for (cell, slot) in out.iter_mut().enumerate() {
            if !pos.can_play(cell) {
                continue;
            }
            let child = self.child(pos, cell);
            let key = self.canonical(&child);
            let value = match seen.iter().find(|(k, _)| *k == key) {
                Some(&(_, v)) => v,
                None => {
                    let v = -self.value(&child, weak, cancel)?;
                    seen.push((key, v));
                    v
                }
            };
            *slot = Some(value);
        }
        Ok(out)
    }

    /// An optimal cell for the side to move: the best exact score, ties to the
    /// cell nearest the centre (then the lowest). [`SolveError::GameOver`] if the
    /// game is over.
    pub fn best_move(
        &mut self,
        pos: &FreePosition,
        cancel: &AtomicBool,
    ) -> Result<usize, SolveError> {
        Ok(self.best_move_within(pos, None, cancel)?.column)
    }

    /// [`FreeSolver::best_move`] within a time budget: anytime, never a timeout.
    /// The moves known without a search (an immediate win is played at once),
    /// then the shared move choice (`driver`): each move's outcome in rounds of
    /// growing node budgets, then the exact scores of the moves sharing the best
    /// outcome, until `deadline` passes; the move returned is chosen as the gravity
    /// solver's `best_move_within` chooses (proven outcome, possible outcome, exact
    /// score, nearest the centre). With `deadline = None` the search always finishes.
    pub fn best_move_within(
        &mut self,
        pos: &FreePosition,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<TimedMove, SolveError> {
        self.nodes = 0;
        self.use_shape(pos)?;
        if pos.is_over() {
            return Err(SolveError::GameOver(
                "the game is over: there is no move to choose".into(),
            ));
        }
        let order = centre_first(pos.width, pos.height);
        let mut moves = on_engine!(&self.engine, e => e.known_values(pos));
        let wins_at_once = order
            .iter()
            .copied()
            .find(|&c| moves[c].is_some_and(|m| m.lo == 1));
        if let Some(column) = wins_at_once {
            // The soonest win there is, nearest the centre: nothing to search.
            return Ok(TimedMove {
                column,
                moves,
                complete: true,
            });
        }
        if moves.iter().flatten().all(|m| m.exact.is_some()) {
            return Ok(TimedMove::choose_in(moves, true, &order));
        }
        let complete = search_moves(self, pos, &order, &mut moves, deadline, cancel)?;
        Ok(TimedMove::choose_in(moves, complete, &order))
    }

    /// The value of `pos` (of this solver's shape), or its sign if `weak`.
    fn value(
        &mut self,
        pos: &FreePosition,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        let left = self.nodes_left();
        let threads = self.threads;
        let pins = (self.pinned_stones, self.pin_sink.clone());
        // Under the standard rule an extra stone can spoil a line, zones lose
        // their shortcut and grow, and negamax is far faster.
        if weak && self.zones && !exact(pos.rule) && !pos.is_over() {
            let (v, nodes, aborted) =
                on_engine!(&mut self.engine, e => e.weak_value(pos, left, threads, &pins, cancel))?;
            self.nodes += nodes;
            return match aborted {
                false => Ok(v),
                true if cancel.load(Ordering::Relaxed) => Err(SolveError::Interrupted),
                true => Err(SolveError::NodeLimit),
            };
        }
        match self.search_limited(pos, weak, left, None, None, cancel)? {
            Searched::Done(v) => Ok(v),
            Searched::Stopped { .. } => Err(SolveError::NodeLimit),
        }
    }

    /// Sets the solver's shape to `pos`'s, emptying the table when it changes,
    /// and its word to the one the board needs (a fresh table when it changes).
    fn use_shape(&mut self, pos: &FreePosition) -> Result<(), SolveError> {
        let one = fits_one_word(pos.cells());
        match (&mut self.engine, one) {
            (AnyEngine::One(e), true) => e.use_shape(pos),
            (AnyEngine::Two(e), false) => e.use_shape(pos),
            (_, true) => {
                let mut e = Engine::new(self.tt_bytes)?;
                e.use_shape(pos)?;
                self.engine = AnyEngine::One(e);
                Ok(())
            }
            (_, false) => {
                let mut e = Engine::new(self.tt_bytes)?;
                e.use_shape(pos)?;
                self.engine = AnyEngine::Two(e);
                Ok(())
            }
        }
    }

    /// The canonical form `(mask, current)` of `pos` under the board's symmetries.
    fn canonical(&self, pos: &FreePosition) -> (u128, u128) {
        on_engine!(&self.engine, e => e.canonical(pos))
    }
}

/// The engine of the word the last board needed.
enum AnyEngine {
    One(Engine<u64>),
    Two(Engine<u128>),
}

/// The zone search's pinned positions: most stones, and where new ones go.
type Pins = (u32, Option<Sender<PinnedOutcome>>);

/// A table and the shape its entries belong to, in the word `W`.
struct Engine<W: Word> {
    table: Table<W>,
    /// The zone search's table, made on its first use.
    zone_table: Option<ZoneTable<W>>,
    tt_bytes: usize,
    /// The shape the table's entries belong to (keys of other shapes would clash).
    geometry: Option<Geometry<W>>,
}

impl<W: Word> Engine<W> {
    fn new(tt_bytes: usize) -> Result<Engine<W>, SolveError> {
        Ok(Engine {
            table: Table::new(tt_bytes)?,
            zone_table: None,
            tt_bytes,
            geometry: None,
        })
    }

    fn geometry(&self) -> &Geometry<W> {
        self.geometry.as_ref().expect("shape set")
    }

    /// The zone search's table, made on its first use, pinning positions of at
    /// most `pinned_stones` stones.
    fn zone_table(&mut self, pins: &Pins) -> Result<&ZoneTable<W>, SolveError> {
        if self.zone_table.is_none() {
            let mut table = ZoneTable::new(self.tt_bytes)?;
            table.pin(pins.0, pins.1.clone());
            self.zone_table = Some(table);
        }
        Ok(self.zone_table.as_ref().expect("made above"))
    }

    fn add_pinned(&mut self, pins: &Pins, outcomes: &[PinnedOutcome]) -> Result<(), SolveError> {
        self.zone_table(pins)?.add_saved(outcomes);
        Ok(())
    }

    /// Empties both tables.
    fn clear_tables(&mut self) {
        self.table.clear();
        if let Some(t) = &mut self.zone_table {
            t.clear();
        }
    }

    /// Sets the shape to `pos`'s, emptying the table when it changes.
    fn use_shape(&mut self, pos: &FreePosition) -> Result<(), SolveError> {
        let same = self.geometry.as_ref().is_some_and(|g| {
            (g.width, g.height, g.k, g.exact) == (pos.width, pos.height, pos.k, exact(pos.rule))
        });
        if !same {
            if self.geometry.is_some() {
                self.clear_tables();
            }
            self.geometry = Some(Geometry::new(
                pos.width,
                pos.height,
                pos.k,
                exact(pos.rule),
            )?);
        }
        Ok(())
    }

    /// The sign of `pos` (not over) for the side to move by the zone search
    /// within `budget` nodes: whether the side to move forces a line, else
    /// whether the other side does. Also the nodes and whether it was aborted.
    fn weak_value(
        &mut self,
        pos: &FreePosition,
        budget: u64,
        threads: usize,
        pins: &Pins,
        cancel: &AtomicBool,
    ) -> Result<(i32, u64, bool), SolveError> {
        self.zone_table(pins)?;
        let g = self.geometry.as_ref().expect("shape set");
        let table = self.zone_table.as_ref().expect("made above");
        let (current, mask) = pos.stones::<W>();
        let opponent = current ^ mask;
        let wins = |attacker, defender, to_move, budget| {
            let (outcome, nodes) = outcome_shared(
                g, table, cancel, budget, threads, SOLO_NODES, attacker, defender, to_move,
            );
            (outcome.map(|o| o.is_none()), nodes)
        };
        let (first, nodes) = wins(current, opponent, true, budget);
        let (value, nodes, aborted) = match first {
            None => (0, nodes, true),
            Some(true) => (1, nodes, false),
            Some(false) => match wins(opponent, current, false, budget - nodes) {
                (None, more) => (0, nodes + more, true),
                (Some(second), more) => (if second { -1 } else { 0 }, nodes + more, false),
            },
        };
        Ok((value, nodes, aborted))
    }

    /// The canonical form `(mask, current)` of `pos`, widened.
    fn canonical(&self, pos: &FreePosition) -> (u128, u128) {
        let g = self.geometry();
        let (current, mask) = pos.stones::<W>();
        let node = Node::new(g, current, mask, pos.moves as i32);
        let (mask, current, _) = node.canonical(g.symmetry_count());
        (mask.widen(), current.widen())
    }

    /// Each move's value known without a search: immediate wins, the moves
    /// after which the opponent wins at once, and the last empty cell (a draw).
    fn known_values(&self, pos: &FreePosition) -> Vec<Option<MoveValue>> {
        let g = self.geometry();
        let n = g.cells;
        let moves = pos.moves as i32;
        let (current, mask) = pos.stones::<W>();
        let empty = g.board & !mask;
        let opponent = current ^ mask;
        let wins = g.winning_cells(current, empty);
        let threats = g.winning_cells(opponent, empty);
        let mut out = vec![None; pos.cells()];
        for (cell, slot) in out.iter_mut().enumerate() {
            if !pos.can_play(cell) {
                continue;
            }
            *slot = Some(if wins.has(cell) {
                MoveValue::proven(1, Some((n + 1 - moves) / 2))
            } else if !(threats & !W::bit(cell)).is_empty() {
                // The opponent wins with its next stone.
                MoveValue::proven(-1, Some(-(n - moves) / 2))
            } else if empty.count() == 1 {
                MoveValue::proven(0, Some(0))
            } else {
                MoveValue {
                    lo: -1,
                    hi: 1,
                    exact: None,
                }
            });
        }
        out
    }

    /// The search of `pos` (not over) within `budget` nodes: the value found
    /// (meaningless if aborted), the nodes visited, whether it was aborted.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &FreePosition,
        weak: bool,
        budget: u64,
        window: (i32, i32),
        deadline: Option<&Deadline>,
        history: bool,
        cancel: &AtomicBool,
    ) -> (i32, u64, bool) {
        let g = self.geometry.as_ref().expect("shape set");
        let (current, mask) = pos.stones::<W>();
        let node = Node::new(g, current, mask, pos.moves as i32);
        let mut search = Search::new(g, &mut self.table, cancel);
        search.limits.deadline = deadline;
        search.limits.budget = budget;
        search.use_history = history;
        let v = search.solve(&node, weak, window.0, window.1);
        (v, search.limits.nodes, search.limits.aborted)
    }
}

impl MoveSearch for FreeSolver {
    type Position = FreePosition;
    const FIRST_ROUND_NODES: u64 = 1 << 12;

    fn child(&self, pos: &FreePosition, cell: usize) -> FreePosition {
        let mut child = *pos;
        on_engine!(&self.engine, e => child.play_unchecked(e.geometry(), cell));
        child
    }

    /// [`SolveError::Interrupted`] once `cancel` is raised.
    fn search_limited(
        &mut self,
        pos: &FreePosition,
        weak: bool,
        budget: u64,
        window: Option<(i32, i32)>,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<Searched, SolveError> {
        let n = pos.cells() as i32;
        let moves = pos.moves as i32;
        let sign = |v: i32| if weak { v.signum() } else { v };
        if pos.won {
            return Ok(Searched::Done(sign(-((n + 2 - moves) / 2))));
        }
        if moves == n {
            return Ok(Searched::Done(0));
        }
        // Bisection inside the window answers `a` for a value <= a, `b` for one >= b.
        let window = window.unwrap_or((-n, n));
        let history = self.history;
        let (v, nodes, aborted) = on_engine!(&mut self.engine, e => {
            e.search(pos, weak, budget, window, deadline, history, cancel)
        });
        self.nodes += nodes;
        if !aborted {
            return Ok(Searched::Done(sign(v)));
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Interrupted);
        }
        if self.nodes_left() == 0 {
            return Err(SolveError::NodeLimit);
        }
        let (lo, hi) = if weak {
            (-1, 1)
        } else {
            (-(n - moves) / 2, (n + 1 - moves) / 2)
        };
        Ok(Searched::Stopped { lo, hi })
    }

    fn nodes_left(&self) -> u64 {
        self.node_limit
            .unwrap_or(u64::MAX)
            .saturating_sub(self.nodes)
    }
}

/// Every cell of a `width` x `height` board, nearest the centre first (by
/// squared distance), then row-major.
pub fn centre_first(width: usize, height: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..width * height).collect();
    let distance = |cell: usize| {
        let (r, c) = ((cell / width) as i64, (cell % width) as i64);
        let (dr, dc) = (2 * r - (height as i64 - 1), 2 * c - (width as i64 - 1));
        dr * dr + dc * dc
    };
    cells.sort_by_key(|&c| (distance(c), c));
    cells
}
