//! The search: negamax alpha-beta over canonical positions, with static bounds
//! and a table of bounds.

use std::sync::atomic::AtomicBool;

use super::geometry::Geometry;
use super::limits::Limits;
use super::pairing::{defender_pairs, pairing_reply};
use super::table::{Bounds, Table};
use super::word::Word;

/// A position under every symmetry of the board at once (index 0: as it is), so
/// the canonical form is a minimum instead of a transformation.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<W: Word> {
    /// The side to move's stones, per symmetry.
    pub current: [W; 8],
    /// All stones, per symmetry.
    pub mask: [W; 8],
    pub moves: i32,
}

impl<W: Word> Node<W> {
    /// The node of the position `(current, mask)` with `moves` stones.
    pub fn new(geo: &Geometry<W>, current: W, mask: W, moves: i32) -> Node<W> {
        let mut node = Node {
            current: [W::ZERO; 8],
            mask: [W::ZERO; 8],
            moves,
        };
        for s in 0..geo.symmetry_count() {
            node.current[s] = image(geo, s, current);
            node.mask[s] = image(geo, s, mask);
        }
        node
    }

    /// The node after the side to move takes the empty `cell`.
    #[inline(always)]
    pub fn play(&self, geo: &Geometry<W>, cell: usize) -> Node<W> {
        let mut child = *self;
        for s in 0..geo.symmetry_count() {
            child.current[s] = self.current[s] ^ self.mask[s];
            child.mask[s] = self.mask[s] | geo.map[s][cell];
        }
        child.moves += 1;
        child
    }

    /// The canonical form `(mask, current)` (the smallest image) and the
    /// symmetry that gives it.
    #[inline(always)]
    pub fn canonical(&self, symmetries: usize) -> (W, W, usize) {
        let mut best = (self.mask[0], self.current[0], 0);
        for s in 1..symmetries {
            let key = (self.mask[s], self.current[s]);
            if key < (best.0, best.1) {
                best = (key.0, key.1, s);
            }
        }
        best
    }
}

/// The image of a set of cells under symmetry `s`.
pub(super) fn image<W: Word>(geo: &Geometry<W>, s: usize, cells: W) -> W {
    let mut out = W::ZERO;
    let mut rest = cells;
    while !rest.is_empty() {
        out |= geo.map[s][rest.first()];
        rest = rest.without_first();
    }
    out
}

/// The canonical form of the position `(x, o)` (x's and o's stones): the
/// smallest `(x, o)` of its images under the board's symmetries, and the first
/// symmetry that gives it.
pub(super) fn canonical<W: Word>(geo: &Geometry<W>, x: W, o: W) -> ((W, W), usize) {
    (0..geo.symmetry_count())
        .map(|s| ((image(geo, s, x), image(geo, s, o)), s))
        .min()
        .expect("the identity")
}

/// Move-ordering weight of an empty cell per own stone count of a line through
/// it that the opponent has not blocked, and per opponent stone count of a line
/// free of own stones.
const OWN_WEIGHT: [u32; 8] = [1, 4, 16, 64, 256, 1024, 4096, 16384];
const BLOCK_WEIGHT: [u32; 8] = [0, 3, 12, 48, 192, 768, 3072, 12288];

/// Shortest line for which nodes look for pairing strategies.
const PAIRING_MIN_K: usize = 4;

/// The move-ordering weight of each of `cells` (empty) for the side with stones
/// `mine` against `theirs`: [`OWN_WEIGHT`] per run of `k` through the cell free
/// of `theirs`, by its stones of `mine`, and [`BLOCK_WEIGHT`] per run free of
/// `mine`, by its stones of `theirs`.
pub(super) fn line_weights<W: Word>(
    geo: &Geometry<W>,
    mine: W,
    theirs: W,
    cells: W,
) -> W::PerCell<u32> {
    let mut weight = W::per_cell(0u32);
    for &line in &geo.lines {
        let own = (line & mine).count() as usize;
        let other = (line & theirs).count() as usize;
        let w = match (own, other) {
            (a, 0) => OWN_WEIGHT[a.min(7)] + BLOCK_WEIGHT[0],
            (0, b) => BLOCK_WEIGHT[b.min(7)],
            _ => continue,
        };
        let mut rest = line & cells;
        while !rest.is_empty() {
            weight[rest.first()] += w;
            rest = rest.without_first();
        }
    }
    weight
}

/// Cells handed out heaviest first by a weight, then a history, then the lower
/// cell, each picked when asked for: most nodes search one or two moves, so a
/// full sort would be wasted.
pub(super) struct MovePicker<W: Word> {
    /// Each cell's keys packed into one number ([`packed_key`]), so a pick
    /// compares numbers rather than looking up two tables.
    keys: W::PerCell<u128>,
    count: usize,
}

impl<W: Word> MovePicker<W> {
    /// No cells.
    pub fn empty() -> MovePicker<W> {
        MovePicker {
            keys: W::per_cell(0),
            count: 0,
        }
    }

    pub fn new(cells: W, weight: &W::PerCell<u32>, history: &W::PerCell<u64>) -> MovePicker<W> {
        let mut keys = W::per_cell(0u128);
        let mut count = 0;
        let mut rest = cells;
        while !rest.is_empty() {
            let cell = rest.first();
            rest = rest.without_first();
            keys[count] = packed_key(weight[cell], history[cell], cell);
            count += 1;
        }
        MovePicker { keys, count }
    }
}

impl<W: Word> Iterator for MovePicker<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let keys = &mut self.keys.as_mut()[..self.count];
        let (best, &key) = keys.iter().enumerate().max_by_key(|&(_, k)| *k)?;
        keys[best] = keys[self.count - 1];
        self.count -= 1;
        Some(255 - key as u8 as usize)
    }
}

/// A cell's ordering keys packed so that a larger number comes first: the
/// weight, then the history, then the lower cell.
#[inline(always)]
fn packed_key(weight: u32, history: u64, cell: usize) -> u128 {
    (weight as u128) << 72 | (history as u128) << 8 | (255 - cell) as u128
}

/// One search: the geometry and table it works on, and when it must stop.
pub(super) struct Search<'a, W: Word> {
    geo: &'a Geometry<W>,
    table: &'a mut Table<W>,
    pub limits: Limits<'a>,
    /// Whether nodes look for pairing strategies (lines of at least four).
    pairings: bool,
    /// Per side (the parity of the empty cells) and cell, how often a move there
    /// cut a node off, weighted by the square of the empty cells left (the
    /// history heuristic): ties of the line weights go to the larger.
    history: [W::PerCell<u64>; 2],
    /// Whether move ordering reads `history` (off only to measure what it pays).
    pub use_history: bool,
}

impl<'a, W: Word> Search<'a, W> {
    pub fn new(
        geo: &'a Geometry<W>,
        table: &'a mut Table<W>,
        cancel: &'a AtomicBool,
    ) -> Search<'a, W> {
        Search {
            geo,
            table,
            limits: Limits::new(cancel),
            pairings: geo.k >= PAIRING_MIN_K,
            history: [W::per_cell(0); 2],
            use_history: true,
        }
    }

    /// The score of `node` (not over) for the side to move by null-window
    /// probes bisecting `lo..=hi`, its sign if `weak`; 0 once aborted.
    pub fn solve(&mut self, node: &Node<W>, weak: bool, lo: i32, hi: i32) -> i32 {
        let n = self.geo.cells;
        let (mut min, mut max) = (-(n - node.moves) / 2, (n + 1 - node.moves) / 2);
        if weak {
            (min, max) = (-1, 1);
        }
        (min, max) = (min.max(lo), max.min(hi));
        while min < max && !self.limits.aborted {
            // The sign first (is it a win? a loss?): draws are common, and the
            // probes far from 0 cost the most; then halving.
            let med = if min <= 0 && max >= 1 {
                0
            } else if min <= -1 && max >= 0 {
                -1
            } else {
                min + (max - min) / 2
            };
            let r = self.negamax(node, med, med + 1);
            if r <= med {
                max = if weak { r.max(-1) } else { r };
            } else {
                min = if weak { r.min(1) } else { r };
            }
        }
        if self.limits.aborted {
            0
        } else {
            min
        }
    }

    /// The score of `node` (not over, no line) for the side to move, fail-soft:
    /// a value `<= alpha` bounds it from above, one `>= beta` from below.
    pub fn negamax(&mut self, node: &Node<W>, mut alpha: i32, mut beta: i32) -> i32 {
        if self.limits.count_node() {
            return 0;
        }
        let g = self.geo;
        let n = g.cells;
        let moves = node.moves;
        let current = node.current[0];
        let mask = node.mask[0];
        // The slot's load (a miss in a large table) overlaps the tests below.
        let (key_mask, key_current, sym) = node.canonical(g.symmetry_count());
        self.table.prefetch(key_mask, key_current);
        let opponent = current ^ mask;
        let empty = g.board & !mask;
        if !g.winning_cells(current, empty).is_empty() {
            return (n + 1 - moves) / 2;
        }
        let threats = g.winning_cells(opponent, empty);
        if threats.count() >= 2 {
            return -(n - moves) / 2;
        }
        if empty.count() <= 1 {
            return 0; // the last stone makes no line
        }
        let mine_open = g.open_cells(opponent);
        let theirs_open = g.open_cells(current);
        let (mut min, mut max) = self.static_bounds(moves, mine_open, theirs_open);
        if self.pairings && max > 0 && beta > 0 && defender_pairs(g, opponent, empty) {
            max = 0;
        }
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let mut table_move = None;
        if let Some(b) = self.table.get(key_mask, key_current) {
            if b.lower >= beta {
                return b.lower;
            }
            if b.upper <= alpha {
                return b.upper;
            }
            alpha = alpha.max(b.lower);
            beta = beta.min(b.upper);
            if alpha >= beta {
                return alpha;
            }
            table_move = Some(g.inverse[sym][b.best as usize] as usize);
        }
        // The side to move holds by a pairing, now or after a move (after the
        // table: a bound stored from it spares the next probe the search).
        if self.pairings && min < 0 && alpha < 0 {
            if let Some((reply, _)) = pairing_reply(g, current, empty) {
                min = 0;
                alpha = 0;
                if alpha >= beta {
                    let cell = reply.unwrap_or_else(|| empty.first());
                    let best = g.map[sym][cell].first() as u8;
                    self.table.put(
                        key_mask,
                        key_current,
                        Bounds {
                            lower: 0,
                            upper: max,
                            best,
                        },
                    );
                    return alpha;
                }
            }
        }
        let choices = if !threats.is_empty() {
            NodeMoves::only(threats.first())
        } else {
            self.order_moves(
                current,
                opponent,
                empty,
                mine_open | theirs_open,
                table_move,
            )
        };
        let alpha_in = alpha;
        let mut best = i32::MIN;
        let mut best_move = u8::MAX;
        for cell in choices {
            let cell = cell as u8;
            if best_move == u8::MAX {
                best_move = cell;
            }
            let child = node.play(g, cell as usize);
            let v = -self.negamax(&child, -beta, -alpha);
            if self.limits.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = cell;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        if self.use_history {
                            let left = (n - moves) as u64;
                            let h = &mut self.history[(empty.count() & 1) as usize][cell as usize];
                            *h = h.saturating_add(left * left);
                        }
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best <= alpha_in {
            (min, best)
        } else if best >= beta {
            (best, max)
        } else {
            (best, best)
        };
        let canonical_move = g.map[sym][best_move as usize].first() as u8;
        self.table.put(
            key_mask,
            key_current,
            Bounds {
                lower,
                upper,
                best: canonical_move,
            },
        );
        best
    }

    /// The lowest and highest scores the side to move can have at a node where
    /// neither side wins with its next stone, from stone counts and open lines
    /// (`mine_open`, `theirs_open`: the cells of lines each side can still make).
    #[inline]
    fn static_bounds(&self, moves: i32, mine_open: W, theirs_open: W) -> (i32, i32) {
        let n = self.geo.cells;
        let k = self.geo.k as i32;
        // The side to move has moves / 2 stones and wins at the earliest with its
        // second stone from now; the opponent with its second reply.
        let max = if mine_open.is_empty() {
            0
        } else {
            let stones = (2).max(k - moves / 2);
            let at = moves + 2 * (stones - 1);
            if at > n - 1 {
                0
            } else {
                (n + 1 - at) / 2
            }
        };
        let min = if theirs_open.is_empty() {
            0
        } else {
            let stones = (2).max(k - (moves + 1) / 2);
            let at = moves + 1 + 2 * (stones - 1);
            if at > n - 1 {
                0
            } else {
                -(n + 1 - at) / 2
            }
        };
        (min, max)
    }

    /// The moves worth searching, best first: the table move, then the empty
    /// cells by the lines through them; of the dead cells (on no line either
    /// side can still make: each is a pass) only one, last.
    fn order_moves(
        &self,
        current: W,
        opponent: W,
        empty: W,
        live: W,
        table_move: Option<usize>,
    ) -> NodeMoves<W> {
        let history = &self.history[(empty.count() & 1) as usize];
        let weight = line_weights(self.geo, current, opponent, empty);
        let mut live_cells = empty & live;
        let first = table_move.filter(|&t| live_cells.has(t));
        if let Some(t) = first {
            live_cells &= !W::bit(t);
        }
        let dead = empty & !live;
        let last = (!dead.is_empty()).then(|| match table_move {
            Some(t) if dead.has(t) => t,
            _ => dead.first(),
        });
        // Ties of the weights by history (all zero when it is off).
        NodeMoves {
            first,
            rest: MovePicker::new(live_cells, &weight, history),
            last,
        }
    }
}

/// A node's moves in the order negamax searches them: one move first (the
/// table's, or the block of a four), the picker's, then one move last.
struct NodeMoves<W: Word> {
    first: Option<usize>,
    rest: MovePicker<W>,
    last: Option<usize>,
}

impl<W: Word> NodeMoves<W> {
    fn only(cell: usize) -> NodeMoves<W> {
        NodeMoves {
            first: Some(cell),
            rest: MovePicker::empty(),
            last: None,
        }
    }
}

impl<W: Word> Iterator for NodeMoves<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.first
            .take()
            .or_else(|| self.rest.next())
            .or_else(|| self.last.take())
    }
}
