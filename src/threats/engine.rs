//! The threat engine's move choice: threat searches at the root, then an
//! iterative-deepening alpha-beta search over the learned evaluation (lines of
//! five; [`super::learned_eval`]) or the line evaluation, with a
//! transposition table, candidate moves near the stones ordered by their windows
//! and their line patterns ([`super::cell_patterns`]), forced blocks searched
//! past the depth limit, and a short VCF probe at the leaves.
//!
//! At the root, in order: complete a line; block the opponent's only cell to
//! complete; play the first move of a VCF, then of a VCT; drop the moves after
//! which the opponent wins by VCF (when some move avoids it); search the rest.
//!
//! Every rule: the board's windows follow it, and under renju black's moves are
//! only the cells it may play (a forced block it may not play loses).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use super::board::ThreatBoard;
use super::cell_patterns::CellPatterns;
use super::learned_eval::{
    shape_of, LearnedTables, ALL_FEATURES, FEATURES, SHAPES, SIDE_FEATURES, WINDOW_COUNTS,
};
use super::learned_order::{self, OrderWeights};
use super::patterns::{class::SCORED as CLASSES, classify, unpack, FLEX3};
use super::prove::{Prover, ProverTables, Stop, ThreatKind};
use super::shallow::{self, ShallowCuts};
use super::table::{Bound, Table};
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::{Rules, WinRule};

/// A won position's value at the root, less one per ply to the win.
const WIN: i32 = 1_000_000_000;
const INFINITY: i32 = WIN + 1;
/// Values beyond this are wins or losses.
const DECIDED: i32 = WIN - 1000;
/// Deepest ply of the alpha-beta search (forced blocks past the depth limit reach it).
const MAX_PLY: usize = 64;
/// The most moves tried at a node below the root, best-looking first.
const WIDTH: usize = 12;
/// Move-count pruning: the most moves tried at a node one and two plies above the
/// leaves (a late move there rarely changes the value; the nodes saved go deeper).
const FRONTIER_WIDTH: [usize; 2] = [7, 10];

/// The most moves tried at a node with `depth` plies left (forced blocks and the
/// replies to a threat of fours are not counted against it).
fn width(depth: u32) -> usize {
    match depth {
        0 | 1 => FRONTIER_WIDTH[0],
        2 => FRONTIER_WIDTH[1],
        _ => WIDTH,
    }
}

/// Late move reductions: the fewest plies left at a node whose later moves are
/// reduced (a node with one ply left has none to spare).
const REDUCE_FROM_DEPTH: u32 = 2;

/// The value of a move after a node's first, for the mover, where `search(depth,
/// alpha, beta)` searches it `depth` plies with the window `(alpha, beta)` (the
/// mover's view) and says whether the search halted:
///
/// - where `reduction` is positive, first `next_depth - reduction` plies with a
///   null window, the value kept if no better than `alpha` (or the search halted);
/// - then, with `null_window_first` (principal-variation search) and an open
///   window, `next_depth` plies with a null window, and with the whole window
///   `(alpha, beta)` only where that beats `alpha` and stays below `beta`;
/// - else `next_depth` plies with the whole window at once.
///
/// A move that beats `alpha` searched shallower is always searched again at full
/// depth: its value never comes from the reduced search.
#[inline]
pub(super) fn late_move_sequence(
    next_depth: u32,
    reduction: u32,
    (alpha, beta): (i32, i32),
    null_window_first: bool,
    mut search: impl FnMut(u32, i32, i32) -> (i32, bool),
) -> i32 {
    if reduction > 0 {
        let (v, halted) = search(next_depth - reduction, alpha, alpha + 1);
        if v <= alpha || halted {
            return v;
        }
    }
    if !null_window_first || beta - alpha == 1 {
        return search(next_depth, alpha, beta).0;
    }
    let (probe, halted) = search(next_depth, alpha, alpha + 1);
    if probe > alpha && probe < beta && !halted {
        search(next_depth, alpha, beta).0
    } else {
        probe
    }
}

/// The plies the `i`-th move searched (from 0) at a node with `depth` plies left
/// is reduced by, where it is quiet: the product of the logarithms of `depth`
/// and of its place `i + 1`, rounded down (none for the first move; 1 for the
/// fourth at depth 3, 2 for the sixth at depth 4, 3 for the twelfth at depth 4).
/// Moves past the twelfth (the root's: it is not pruned to a width) are reduced
/// as the twelfth; depths past [`MAX_PLY`] as `MAX_PLY`.
pub(super) fn late_move_reduction(depth: u32, i: usize) -> u32 {
    static TABLE: LazyLock<Vec<[u8; WIDTH]>> = LazyLock::new(|| {
        (0..=MAX_PLY)
            .map(|d| {
                std::array::from_fn(|i| ((d.max(1) as f32).ln() * ((i + 1) as f32).ln()) as u8)
            })
            .collect()
    });
    TABLE[(depth as usize).min(MAX_PLY)][i.min(WIDTH - 1)] as u32
}

/// Depth in attacker moves of the root's threat searches.
const ROOT_VCF_DEPTH: u32 = 40;
const ROOT_VCT_DEPTH: u32 = 14;
/// Depth of the VCT searches that check the root moves against the opponent's threats.
const DEFENCE_VCT_DEPTH: u32 = 8;
/// Depth of the VCT search that checks the search's chosen move, and the share of
/// the budget the search ends by to leave it time.
const VERIFY_VCT_DEPTH: u32 = 20;
const SEARCH_SHARE: f64 = 0.85;
/// The most moves that check tries.
const VERIFY_MOVES: usize = 4;
/// Depth and node budget of the VCF probe at the leaves.
const LEAF_VCF_DEPTH: u32 = 6;
const LEAF_VCF_NODES: u64 = 64;
/// Node budget of the probe for the opponent's threat of fours inside the search.
const THREAT_PROBE_NODES: u64 = 64;
/// Chebyshev distance from a stone within which empty cells are candidates.
const NEAR: usize = 2;
/// The weight of a move's pattern score beside its window value in the ordering:
/// a strong shape (a flex three, 940) outweighs the windows, which decide among
/// quiet moves (a line's two, a few units).
const PATTERN_ORDER_SCALE: i64 = 4;

/// How long one move may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Wall-clock time per move.
    Time(Duration),
    /// Nodes (of every search together) per move: the same move on any machine.
    Nodes(u64),
}

/// What one move's search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes of the threat searches (this thread's) and of the alpha-beta search
    /// (every thread's).
    pub threat_nodes: u64,
    pub search_nodes: u64,
    /// Deepest alpha-beta iteration completed.
    pub depth: u32,
    /// Whether the move came from a proven forced win.
    pub proven_win: bool,
    /// Nodes of the alpha-beta search settled by a shallow cut (this thread's).
    pub shallow_cuts: u64,
    /// Root moves the search chose and the check after it rejected (the
    /// opponent then wins by VCT).
    pub rejected: u32,
}

/// What the learned move ordering knows of a candidate move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CandidateFeatures {
    pub cell: usize,
    /// The shapes (`0..330`: the four line patterns as a multiset) of the
    /// patterns a stone of the mover there makes, and of those it takes from the
    /// opponent (what the opponent's stone there would make).
    pub made: usize,
    pub taken: usize,
    /// Their classes (`0..10`: five, flex four, four and flex three...).
    pub made_class: usize,
    pub taken_class: usize,
    /// Its window profile ([`ThreatBoard::window_profile`]).
    pub windows: [u32; 10],
}

/// Most threads of one move's search.
pub const MAX_THREADS: usize = 256;

/// The engine and its tables, reused from move to move (one rule set).
pub struct Engine {
    board: ThreatBoard,
    prover: ProverTables,
    /// Shared with the helpers.
    table: Arc<Table>,
    /// Engines that search beside this one (lazy SMP), sharing its table.
    helpers: Vec<Engine>,
    /// 0 for the main search; a helper's number, which varies its move order.
    diversity: u64,
    /// The best move of the deepest iteration this engine completed in the last move.
    completed_best: Option<usize>,
    /// Per cell: how many stones lie within `NEAR`.
    near: Vec<u16>,
    moves: Vec<Vec<(usize, i64)>>,
    nodes: u64,
    /// Set once the alpha-beta search ran out of budget (stays set for the move).
    halted: bool,
    stats: SearchStats,
    shallow_cuts: ShallowCuts,
    /// Whether the forced reply to the opponent's four is searched without using
    /// up depth (off: it uses a ply like any move; a leaf still searches it).
    extend_four_replies: bool,
    /// Every cell's line patterns, kept while a pattern switch is on (and the
    /// rules' `k` has pattern tables).
    patterns: Option<CellPatterns>,
    /// Whether the ordering adds the moves' pattern scores.
    pattern_ordering: bool,
    /// Whether the evaluation adds the pattern values.
    pattern_evaluation: bool,
    /// Whether the search's choice is checked against the opponent's VCT, deeper
    /// than the root's checks, and replaced when it loses.
    verify_choice: bool,
    /// Whether the moves after a node's first are searched with a null window
    /// first (principal-variation search), again with the full one where they beat alpha.
    principal_variation: bool,
    /// Late move reductions: late moves searched shallower first.
    late_move_reductions: bool,
    /// Whether the threat probes are skipped where the patterns show no four for
    /// the attacker (the probe could find nothing: the same values, less work).
    four_gate: bool,
    /// The learned evaluation's tables where it replaces the line evaluation
    /// ([`super::learned_eval`]; lines of five only).
    learned: Option<&'static LearnedTables>,
    /// The learned move ordering's weights where it replaces the hand-set one
    /// ([`super::learned_order`]; freestyle lines of five).
    learned_order: Option<&'static OrderWeights>,
    /// The cells played, the game's and then the search's (the learned
    /// ordering's distances to the last two moves); empty while it is off.
    path: Vec<usize>,
}

/// The stop conditions of one move, split into phases.
struct Clock<'a> {
    start: Instant,
    budget: Budget,
    cancel: &'a AtomicBool,
}

impl Clock<'_> {
    /// The stop of a phase that may use up to `share` of the whole budget,
    /// `used` nodes already spent.
    fn phase(&self, share: f64, used: u64) -> Stop<'_> {
        match self.budget {
            Budget::Time(t) => Stop {
                max_nodes: u64::MAX,
                deadline: Some(self.start + t.mul_f64(share)),
                cancel: self.cancel,
            },
            Budget::Nodes(n) => Stop {
                max_nodes: ((n as f64 * share) as u64).saturating_sub(used).max(1),
                deadline: None,
                cancel: self.cancel,
            },
        }
    }
}

impl Engine {
    /// An engine for `rules` (2 players, no gravity: see [`super::check_rules`]).
    pub fn new(rules: Rules) -> Engine {
        Engine::sharing(rules, Arc::new(Table::new(18)), 0)
    }

    /// An engine searching into `table`; `diversity` 0 for a main search.
    fn sharing(rules: Rules, table: Arc<Table>, diversity: u64) -> Engine {
        let mut engine = Engine {
            board: ThreatBoard::new(rules),
            prover: ProverTables::new(),
            table,
            helpers: Vec::new(),
            diversity,
            completed_best: None,
            near: vec![0; rules.num_cells()],
            moves: Vec::new(),
            nodes: 0,
            halted: false,
            stats: SearchStats::default(),
            shallow_cuts: ShallowCuts::default(),
            extend_four_replies: false,
            patterns: None,
            pattern_ordering: false,
            pattern_evaluation: false,
            four_gate: true,
            principal_variation: true,
            late_move_reductions: true,
            verify_choice: false,
            learned: None,
            learned_order: None,
            path: Vec::new(),
        };
        // Every rule's lines of five have fitted weights.
        engine.learned = engine.learned_tables(true);
        engine.set_patterns(true, false);
        engine
    }

    /// Switches the pattern scores in the move ordering on or off (on by
    /// default: measured, it gains), its helpers' too (no effect where `k` has no
    /// pattern tables).
    pub fn set_pattern_ordering(&mut self, on: bool) {
        self.set_patterns(on, self.pattern_evaluation);
    }

    /// Switches the pattern values in the evaluation on or off (off by default:
    /// measured, they cost strength), its helpers' too (no effect where `k` has
    /// no pattern tables).
    pub fn set_pattern_evaluation(&mut self, on: bool) {
        self.set_patterns(self.pattern_ordering, on);
    }

    /// Switches the four gate on or off, its helpers' too: the threat probes are
    /// skipped where the cell patterns show the attacker no four (they would
    /// find nothing). Exact; it saves the probes' work while the patterns are kept.
    pub fn set_four_gate(&mut self, on: bool) {
        self.four_gate = on;
        for helper in &mut self.helpers {
            helper.set_four_gate(on);
        }
    }

    /// Switches the principal-variation search below the root on or off, its
    /// helpers' too (on by default).
    pub fn set_principal_variation(&mut self, on: bool) {
        self.principal_variation = on;
        for helper in &mut self.helpers {
            helper.set_principal_variation(on);
        }
    }

    /// Switches late move reductions on or off, its helpers' too (on by default):
    /// at a node with 2 plies or more left and no threat to answer, the `i`-th
    /// move searched (from 0) first goes `floor(ln(depth) * ln(i + 1))` plies
    /// shallower with a null window, one ply less for a move making the mover a
    /// flex three or better, and again at full depth where it beats alpha; the
    /// root's moves too, the table read at their own plies left.
    pub fn set_late_move_reductions(&mut self, on: bool) {
        self.late_move_reductions = on;
        for helper in &mut self.helpers {
            helper.set_late_move_reductions(on);
        }
    }

    /// Switches the check of the search's choice against the opponent's VCT on
    /// or off (off by default: measured against Rapfi, it does not gain).
    pub fn set_verify_choice(&mut self, on: bool) {
        self.verify_choice = on;
    }

    /// Switches the learned move ordering on or off, its helpers' too (freestyle
    /// lines of five only: elsewhere the hand-set ordering stays). Off by
    /// default: measured against Rapfi, it does not gain.
    pub fn set_learned_ordering(&mut self, on: bool) {
        self.learned_order = self.order_weights(on);
        for helper in &mut self.helpers {
            helper.set_learned_ordering(on);
        }
    }

    /// The learned ordering's weights for these rules, where `on` and they have some.
    fn order_weights(&self, on: bool) -> Option<&'static OrderWeights> {
        let rules = self.board.rules();
        (on && rules.k() == 5 && rules.rule() == WinRule::Freestyle)
            .then_some(&learned_order::FREESTYLE)
    }

    /// Switches the learned evaluation on or off, its helpers' too (lines of five
    /// only: elsewhere it stays off).
    pub fn set_learned_evaluation(&mut self, on: bool) {
        self.learned = self.learned_tables(on);
        self.set_patterns(self.pattern_ordering, self.pattern_evaluation);
        for helper in &mut self.helpers {
            helper.set_learned_evaluation(on);
        }
    }

    /// The learned evaluation's tables for these rules, where `on` and the lines
    /// are of five.
    fn learned_tables(&self, on: bool) -> Option<&'static LearnedTables> {
        let rules = self.board.rules();
        (on && rules.k() == 5).then(|| LearnedTables::for_rule(rules.rule()))
    }

    /// The learned evaluation's features of `game`'s position (same rules, lines
    /// of five), for fitting its weights: a constant 1, then for the side to move
    /// and then the other its live windows of 1 to 4 stones and its pattern
    /// counts, then the side to move's shape counts and the other's
    /// (`src/threats/learned_eval.rs`): 697 in all (`ALL_FEATURES`).
    pub fn evaluation_features(&mut self, game: &Game) -> Option<Vec<f64>> {
        if self.board.k() != 5 {
            return None;
        }
        if self.patterns.is_none() {
            self.patterns = CellPatterns::new(self.board.rules());
        }
        self.load(game);
        let p = self.patterns.as_ref()?;
        let me = self.board.to_move();
        let mut features = vec![0.0; ALL_FEATURES];
        features[0] = 1.0;
        for (role, player) in [me, 1 - me].into_iter().enumerate() {
            let side = &mut features[1 + role * SIDE_FEATURES..1 + (role + 1) * SIDE_FEATURES];
            let windows = self.board.live_counts_of_five(player);
            let patterns = p.pattern_counts(player);
            for (f, &n) in side.iter_mut().zip(windows.iter().chain(&patterns)) {
                *f = n as f64;
            }
            let shapes = &mut features[FEATURES + role * SHAPES..FEATURES + (role + 1) * SHAPES];
            for (f, n) in shapes.iter_mut().zip(p.shape_counts(player)) {
                *f = n as f64;
            }
        }
        Some(features)
    }

    fn set_patterns(&mut self, ordering: bool, evaluation: bool) {
        self.pattern_ordering = ordering;
        self.pattern_evaluation = evaluation;
        let wanted = ordering || evaluation || self.learned.is_some();
        if wanted && self.patterns.is_none() {
            self.patterns = CellPatterns::new(self.board.rules());
        }
        if let Some(p) = self.patterns.as_mut() {
            p.set_learned(self.learned);
        }
        if !wanted {
            self.patterns = None;
        }
        for helper in &mut self.helpers {
            helper.set_patterns(ordering, evaluation);
        }
    }

    /// Switches the extension of the reply to the opponent's four on or off (off
    /// by default: measured, it costs strength), its helpers' too.
    pub fn set_four_reply_extension(&mut self, on: bool) {
        self.extend_four_replies = on;
        for helper in &mut self.helpers {
            helper.extend_four_replies = on;
        }
    }

    /// Switches the search's shallow cuts (futility pruning) on or off, its
    /// helpers' too: the engine's strength with and without them.
    pub fn set_shallow_cuts(&mut self, cuts: ShallowCuts) {
        self.shallow_cuts = cuts;
        for helper in &mut self.helpers {
            helper.shallow_cuts = cuts;
        }
    }

    pub fn rules(&self) -> &Rules {
        self.board.rules()
    }

    /// The candidate moves of `game`'s position (same rules, not over) in the
    /// order the search tries them at a node without a table move or a threat:
    /// empty cells within two of a stone, best-looking first (for measuring the
    /// ordering, e.g. where a stronger player's move ranks).
    pub fn candidate_order(&mut self, game: &Game) -> Vec<usize> {
        self.load(game);
        let me = self.board.to_move();
        let mut moves = Vec::new();
        self.candidates(me, usize::MAX, &mut moves, usize::MAX);
        moves.into_iter().map(|(c, _)| c).collect()
    }

    /// Per candidate move of [`Engine::candidate_order`], in that order, the
    /// learned move ordering's features ([`CandidateFeatures`]); empty where `k`
    /// has no pattern tables.
    pub fn candidate_features(&mut self, game: &Game) -> Vec<CandidateFeatures> {
        let order = self.candidate_order(game);
        let me = self.board.to_move();
        let Some(p) = &self.patterns else {
            return Vec::new();
        };
        order
            .into_iter()
            .map(|cell| {
                let [made, taken] = [p.combo(cell, me), p.combo(cell, 1 - me)];
                CandidateFeatures {
                    cell,
                    made: shape_of(made),
                    taken: shape_of(taken),
                    made_class: classify(unpack(made)),
                    taken_class: classify(unpack(taken)),
                    windows: self.board.window_profile(cell, me),
                }
            })
            .collect()
    }

    /// What the last [`Engine::choose`] did.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// A move for the side to move in `game` (not over, same rules). `rng` breaks
    /// ties between equally ordered root moves; `cancel` stops the search, which
    /// then plays the best move found so far.
    pub fn choose(
        &mut self,
        game: &Game,
        budget: Budget,
        rng: &mut Rng,
        cancel: &AtomicBool,
    ) -> usize {
        self.choose_with_threads(game, budget, 1, rng, cancel)
    }

    /// [`Engine::choose`] with `threads` threads (1..=[`MAX_THREADS`]): helpers
    /// run the same alpha-beta search beside it, filling the shared table (lazy
    /// SMP), and the root moves are checked against the opponent's threats in
    /// parallel. A node budget counts this thread's nodes; with more than one
    /// thread the move may differ from run to run.
    pub fn choose_with_threads(
        &mut self,
        game: &Game,
        budget: Budget,
        threads: usize,
        rng: &mut Rng,
        cancel: &AtomicBool,
    ) -> usize {
        let threads = threads.clamp(1, MAX_THREADS);
        self.load(game);
        self.table.next_age();
        self.stats = SearchStats::default();
        let clock = Clock {
            start: Instant::now(),
            budget,
            cancel,
        };
        let me = self.board.to_move();
        let them = 1 - me;
        if self.board.stones() == 0 {
            return self.centre(rng);
        }
        if let (Some(win), _) = self.board.threat_pair(me) {
            return win;
        }
        if let (Some(block), _) = self.board.threat_pair(them) {
            if self.board.allowed(block, me) {
                return block;
            }
        }
        if let Some(first) = self.proven_win(&clock) {
            self.stats.proven_win = true;
            return first;
        }
        // Helpers are needed only past the moves decided above.
        while self.helpers.len() < threads - 1 {
            let helper = self.helper();
            self.helpers.push(helper);
        }
        for helper in &mut self.helpers[..threads - 1] {
            helper.load(game);
            helper.stats = SearchStats::default();
        }
        let mut roots = self.root_moves(rng);
        self.drop_losing(&mut roots, &clock, threads);
        let search_share = if self.verify_choice {
            SEARCH_SHARE
        } else {
            1.0
        };
        let stop = clock.phase(search_share, self.stats.threat_nodes);
        if threads == 1 {
            let best = self.deepen(&mut roots, &stop, 1);
            return self.verified(best, &roots, &clock);
        }
        let helpers_stop = AtomicBool::new(false);
        let helper_stop = Stop {
            max_nodes: u64::MAX,
            deadline: stop.deadline,
            cancel: &helpers_stop,
        };
        let mut helpers = std::mem::take(&mut self.helpers);
        let helper_stop = &helper_stop;
        let (best, _) = crate::threads::alongside(
            "inarow-threats",
            helpers[..threads - 1].iter_mut().enumerate(),
            |(i, helper)| {
                // Half the helpers start a ply deeper, so that the threads spread
                // over two depths and fill the table ahead of the main search.
                let mut own_roots = roots.clone();
                helper.deepen(&mut own_roots, helper_stop, 1 + (i as u32 % 2));
            },
            Some(&helpers_stop),
            || self.deepen(&mut roots.clone(), &stop, 1),
        );
        let helpers_used = &helpers[..threads - 1];
        self.stats.search_nodes += helpers_used.iter().map(|h| h.nodes).sum::<u64>();
        // A helper that completed a deeper iteration than the main search has the
        // better-founded move.
        let deepest = helpers_used
            .iter()
            .filter(|h| h.stats.depth > self.stats.depth)
            .max_by_key(|h| h.stats.depth)
            .and_then(|h| h.completed_best.map(|m| (h.stats.depth, m)));
        let best = match deepest {
            Some((depth, m)) => {
                self.stats.depth = depth;
                m
            }
            None => best,
        };
        self.helpers = helpers;
        self.verified(best, &roots, &clock)
    }

    /// The search's choice `best` if the opponent has no VCT after it (depth
    /// [`VERIFY_VCT_DEPTH`], deeper than the root's checks), else the first of
    /// the next root moves, in the search's order, that passes the same check or
    /// is left unchecked when the budget ends. Where [`VERIFY_MOVES`] moves all
    /// lose the position is likely lost: `best` stays, the search's longest resistance.
    fn verified(&mut self, best: usize, roots: &[(usize, i64)], clock: &Clock<'_>) -> usize {
        if !self.verify_choice {
            return best;
        }
        let stop = clock.phase(1.0, self.stats.threat_nodes + self.nodes);
        let me = self.board.to_move();
        let order =
            std::iter::once(best).chain(roots.iter().map(|&(c, _)| c).filter(|&c| c != best));
        let mut prover = Prover::new(&mut self.board, &mut self.prover, &stop);
        let mut line = Vec::new();
        let mut chosen = best;
        for (i, cell) in order.take(VERIFY_MOVES).enumerate() {
            prover.board.put(cell, me);
            line.clear();
            let loses = prover.vct(1 - me, VERIFY_VCT_DEPTH, 0, &mut line);
            prover.board.take(cell, me);
            if prover.stopped {
                // A move left unchecked beats one that loses.
                if i > 0 {
                    chosen = cell;
                }
                break;
            }
            if !loses {
                chosen = cell;
                break;
            }
            self.stats.rejected += 1;
        }
        self.stats.threat_nodes += prover.nodes;
        chosen
    }

    /// An engine for the same rules sharing this one's table.
    fn helper(&self) -> Engine {
        let diversity = self.helpers.len() as u64 + 1;
        let mut helper = Engine::sharing(*self.rules(), Arc::clone(&self.table), diversity);
        helper.shallow_cuts = self.shallow_cuts;
        helper.extend_four_replies = self.extend_four_replies;
        helper.learned = self.learned;
        helper.set_patterns(self.pattern_ordering, self.pattern_evaluation);
        helper.four_gate = self.four_gate;
        helper.principal_variation = self.principal_variation;
        helper.late_move_reductions = self.late_move_reductions;
        helper.learned_order = self.learned_order;
        helper
    }

    /// The first move of a VCF, else of a VCT, within their shares of the budget.
    fn proven_win(&mut self, clock: &Clock<'_>) -> Option<usize> {
        let me = self.board.to_move();
        for (share, vct) in [(0.05, false), (0.25, true)] {
            let stop = clock.phase(share, self.stats.threat_nodes);
            let mut prover = Prover::new(&mut self.board, &mut self.prover, &stop);
            let mut line = Vec::new();
            let won = if vct {
                prover.vct(me, ROOT_VCT_DEPTH, 0, &mut line)
            } else {
                prover.vcf(me, ROOT_VCF_DEPTH, 0, &mut line)
            };
            self.stats.threat_nodes += prover.nodes;
            if won {
                return line.first().copied();
            }
        }
        None
    }

    /// Every candidate root move, best-looking first, ties in random order.
    fn root_moves(&mut self, rng: &mut Rng) -> Vec<(usize, i64)> {
        let me = self.board.to_move();
        let mut roots: Vec<(usize, i64)> = (0..self.board.num_cells())
            .filter(|&c| self.board.is_empty(c) && self.near[c] > 0)
            .map(|c| (c, self.order_value(c, me)))
            .collect();
        let board = &mut self.board;
        roots.retain(|&(c, _)| board.allowed(c, me));
        if roots.is_empty() {
            // (Renju: black, to move in a game not over, may play some cell.)
            roots = (0..board.num_cells())
                .filter(|&c| board.is_empty(c) && board.allowed(c, me))
                .map(|c| (c, 0))
                .collect();
        }
        for i in (1..roots.len()).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            roots.swap(i, j);
        }
        roots.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        roots
    }

    /// Removes the root moves after which the opponent wins by VCF, then, if the
    /// opponent threatens a VCT, those after which it wins by VCT, unless every
    /// move does (then the list stays: the search picks the longest resistance).
    /// Moves left unchecked when a phase's budget runs out stay, after the others.
    fn drop_losing(&mut self, roots: &mut Vec<(usize, i64)>, clock: &Clock<'_>, threads: usize) {
        self.keep_safe(
            roots,
            ThreatKind::Vcf,
            ROOT_VCF_DEPTH,
            clock.phase(0.35, self.stats.threat_nodes),
            threads,
        );
        let me = self.board.to_move();
        let stop = clock.phase(0.45, self.stats.threat_nodes);
        let mut prover = Prover::new(&mut self.board, &mut self.prover, &stop);
        let mut threat = Vec::new();
        let threatened = prover.vct(1 - me, DEFENCE_VCT_DEPTH, 0, &mut threat);
        self.stats.threat_nodes += prover.nodes;
        if !threatened {
            return;
        }
        // The cells of the threat's line and the counter-fours are tried first.
        let k = self.board.k();
        let mut fours = Vec::new();
        self.board
            .cells_of_windows_with(me, k - 2, k - 2, &mut fours);
        let likely = |c: &usize| threat.contains(c) || fours.contains(c);
        let (mut first, rest): (Vec<_>, Vec<_>) =
            roots.iter().copied().partition(|(c, _)| likely(c));
        first.extend(rest);
        *roots = first;
        self.keep_safe(
            roots,
            ThreatKind::Vct,
            DEFENCE_VCT_DEPTH,
            clock.phase(0.6, self.stats.threat_nodes),
            threads,
        );
    }

    /// Keeps the root moves after which the opponent has no win of `kind` within
    /// `depth` (all of them if none is safe); unchecked ones stay, after the others.
    /// With more than one thread, thread `t` checks the moves `t`, `t + threads`...
    fn keep_safe(
        &mut self,
        roots: &mut Vec<(usize, i64)>,
        kind: ThreatKind,
        depth: u32,
        stop: Stop<'_>,
        threads: usize,
    ) {
        let cells: Vec<usize> = roots.iter().map(|&(c, _)| c).collect();
        // Per root move: None unchecked, else whether the opponent then wins.
        let mut verdicts: Vec<Option<bool>> = vec![None; cells.len()];
        if threads == 1 || cells.len() < 2 {
            self.stats.threat_nodes +=
                self.check_moves(&cells, 0, 1, kind, depth, &stop, &mut verdicts);
        } else {
            let mut helpers = std::mem::take(&mut self.helpers);
            let (cells, stop) = (&cells, &stop);
            let (own, others) = crate::threads::alongside(
                "inarow-threats",
                helpers[..threads - 1].iter_mut().enumerate(),
                |(i, helper)| {
                    let mut part = vec![None; cells.len()];
                    let nodes =
                        helper.check_moves(cells, i + 1, threads, kind, depth, stop, &mut part);
                    (nodes, part)
                },
                None,
                || {
                    let mut own = vec![None; cells.len()];
                    let nodes = self.check_moves(cells, 0, threads, kind, depth, stop, &mut own);
                    (nodes, own)
                },
            );
            // A share whose thread was refused (or failed) is checked here.
            let mut parts = vec![own];
            for (i, part) in others.into_iter().enumerate() {
                parts.push(part.unwrap_or_else(|| {
                    let mut part = vec![None; cells.len()];
                    let nodes =
                        self.check_moves(cells, i + 1, threads, kind, depth, stop, &mut part);
                    (nodes, part)
                }));
            }
            self.helpers = helpers;
            for (t, (nodes, part)) in parts.into_iter().enumerate() {
                if t == 0 {
                    self.stats.threat_nodes += nodes;
                }
                for (verdict, checked) in verdicts.iter_mut().zip(part) {
                    *verdict = verdict.or(checked);
                }
            }
        }
        let mut safe: Vec<(usize, i64)> = roots
            .iter()
            .zip(&verdicts)
            .filter(|(_, v)| **v == Some(false))
            .map(|(&r, _)| r)
            .collect();
        safe.extend(
            roots
                .iter()
                .zip(&verdicts)
                .filter(|(_, v)| v.is_none())
                .map(|(&r, _)| r),
        );
        if !safe.is_empty() {
            *roots = safe;
        }
    }

    /// Checks the root moves `first`, `first + step`... in turn until `stop`:
    /// whether the opponent has a win of `kind` within `depth` after each. The nodes.
    #[allow(clippy::too_many_arguments)]
    fn check_moves(
        &mut self,
        cells: &[usize],
        first: usize,
        step: usize,
        kind: ThreatKind,
        depth: u32,
        stop: &Stop<'_>,
        verdicts: &mut [Option<bool>],
    ) -> u64 {
        let me = self.board.to_move();
        let mut prover = Prover::new(&mut self.board, &mut self.prover, stop);
        let mut line = Vec::new();
        for i in (first..cells.len()).step_by(step) {
            let cell = cells[i];
            prover.board.put(cell, me);
            line.clear();
            let loses = match kind {
                ThreatKind::Vcf => prover.vcf(1 - me, depth, 0, &mut line),
                ThreatKind::Vct => prover.vct(1 - me, depth, 0, &mut line),
            };
            prover.board.take(cell, me);
            if prover.stopped {
                break;
            }
            verdicts[i] = Some(loses);
        }
        prover.nodes
    }

    /// Iterative deepening over `roots` until the budget is spent; the best move
    /// of the deepest search (a partial iteration counts once its first move is done).
    /// Starts at `first_depth`.
    fn deepen(&mut self, roots: &mut [(usize, i64)], stop: &Stop<'_>, first_depth: u32) -> usize {
        let mut best = roots[0].0;
        self.nodes = 0;
        self.halted = false;
        self.completed_best = None;
        let me = self.board.to_move();
        for depth in first_depth..=MAX_PLY as u32 {
            let mut alpha = -INFINITY;
            let mut iteration_best = None;
            let mut values = Vec::with_capacity(roots.len());
            let next_depth = depth - 1;
            for (i, &(cell, _)) in roots.iter().enumerate() {
                // Late root moves too are searched shallower first (the table's row
                // is their own plies left: the root reduces less than a node below).
                let reduction = if self.late_move_reductions && depth > REDUCE_FROM_DEPTH {
                    self.reduction(next_depth, i, cell, me, next_depth)
                } else {
                    0
                };
                self.make(cell);
                let v = if i == 0 {
                    -self.search(next_depth, 1, -INFINITY, -alpha, stop)
                } else {
                    self.late_move_value(next_depth, reduction, 0, alpha, INFINITY, stop)
                };
                self.unmake(cell);
                if self.halted {
                    break;
                }
                values.push((cell, v));
                if v > alpha {
                    alpha = v;
                    iteration_best = Some(cell);
                }
            }
            if let Some(b) = iteration_best {
                best = b;
            }
            if self.halted {
                break;
            }
            self.stats.depth = depth;
            self.completed_best = iteration_best;
            // The next iteration starts from this one's order.
            let order: Vec<usize> = {
                let mut v = values.clone();
                v.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
                v.into_iter().map(|(c, _)| c).collect()
            };
            for (slot, &cell) in roots.iter_mut().zip(&order) {
                slot.0 = cell;
            }
            if alpha.abs() >= DECIDED {
                break;
            }
        }
        self.stats.search_nodes = self.nodes;
        best
    }

    /// Counts a node; whether the search must stop (then it stays stopped).
    #[inline]
    fn tick(&mut self, stop: &Stop<'_>) -> bool {
        if self.halted {
            return true;
        }
        self.nodes += 1;
        if self.nodes > stop.max_nodes {
            self.halted = true;
        } else if self.nodes.is_multiple_of(512) {
            let late = stop.deadline.is_some_and(|d| Instant::now() >= d);
            self.halted = late || stop.cancel.load(Ordering::Relaxed);
        }
        self.halted
    }

    /// The value of the position for the side to move, searched `depth` plies.
    fn search(
        &mut self,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        stop: &Stop<'_>,
    ) -> i32 {
        if self.tick(stop) {
            return 0;
        }
        let me = self.board.to_move();
        if self.board.has_threat(me) {
            return WIN - ply as i32 - 1;
        }
        let forced = match self.board.threat_pair(1 - me) {
            (Some(_), Some(_)) => return -(WIN - ply as i32 - 2),
            (Some(block), None) if !self.board.allowed(block, me) => {
                return -(WIN - ply as i32 - 2)
            }
            (Some(block), None) => Some(block),
            _ => None,
        };
        if self.board.is_full() {
            return 0;
        }
        if ply >= MAX_PLY || (depth == 0 && forced.is_none()) {
            return self.leaf_value(ply, stop);
        }
        let key = self.board.hash() ^ SIDE_KEYS[me];
        let mut hint = usize::MAX;
        if let Some(e) = self.table.probe(key) {
            hint = e.best as usize;
            if e.depth as u32 >= depth {
                let v = from_table(e.value, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cut {
                    return v;
                }
            }
        }
        let mut moves = self.take_moves(ply);
        let mut reducible = false;
        let next_depth = match forced {
            Some(block) => {
                moves.push((block, 0));
                if self.extend_four_replies {
                    depth
                } else {
                    depth.saturating_sub(1)
                }
            }
            None => {
                if !self.defences(me, hint, &mut moves, stop) {
                    if let Some(v) = self.shallow_cut(depth, ply, alpha, beta, stop) {
                        self.moves[ply] = moves;
                        return v;
                    }
                    self.candidates(me, hint, &mut moves, width(depth));
                    reducible = self.late_move_reductions && depth >= REDUCE_FROM_DEPTH;
                }
                depth - 1
            }
        };
        if moves.is_empty() {
            // Renju: no cell near the stones that black may play.
            self.moves[ply] = moves;
            return self.leaf_value(ply, stop);
        }
        let alpha_in = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = moves[0].0;
        for (i, &(cell, _)) in moves.iter().enumerate() {
            let reduction = if reducible {
                self.reduction(depth, i, cell, me, next_depth)
            } else {
                0
            };
            self.make(cell);
            let v = if i == 0 {
                -self.search(next_depth, ply + 1, -beta, -alpha, stop)
            } else {
                self.late_move_value(next_depth, reduction, ply, alpha, beta, stop)
            };
            self.unmake(cell);
            if self.halted {
                break;
            }
            if v > best_value {
                best_value = v;
                best_move = cell;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.moves[ply] = moves;
        if self.halted {
            return 0;
        }
        let bound = if best_value <= alpha_in {
            Bound::Upper
        } else if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table
            .store(key, to_table(best_value, ply), depth, bound, best_move);
        best_value
    }

    /// The value, for the mover at `ply`, of a move after the first (already made),
    /// by [`late_move_sequence`]. The root (`ply` 0, its window always open) always
    /// probes with a null window first, whatever the principal-variation switch.
    fn late_move_value(
        &mut self,
        next_depth: u32,
        reduction: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        stop: &Stop<'_>,
    ) -> i32 {
        let null_window_first = self.principal_variation || ply == 0;
        let window = (alpha, beta);
        late_move_sequence(
            next_depth,
            reduction,
            window,
            null_window_first,
            |d, a, b| {
                let v = -self.search(d, ply + 1, -b, -a, stop);
                (v, self.halted)
            },
        )
    }

    /// The value at the depth limit: a win if a short VCF probe finds one, else the
    /// mover's line evaluation minus the opponent's.
    fn leaf_value(&mut self, ply: usize, stop: &Stop<'_>) -> i32 {
        self.leaf_win(ply, stop)
            .unwrap_or_else(|| self.evaluation())
    }

    /// The leaves' short VCF probe: the value of the win it finds for the mover.
    fn leaf_win(&mut self, ply: usize, stop: &Stop<'_>) -> Option<i32> {
        let me = self.board.to_move();
        if !self.may_have_fours(me) {
            return None;
        }
        let probe = Stop {
            max_nodes: LEAF_VCF_NODES,
            deadline: None,
            cancel: stop.cancel,
        };
        let mut prover = Prover::new(&mut self.board, &mut self.prover, &probe);
        let mut line = Vec::new();
        let won = prover.vcf(me, LEAF_VCF_DEPTH, 0, &mut line);
        self.nodes += prover.nodes;
        won.then(|| WIN - (ply + line.len()) as i32)
    }

    /// The evaluation of the side to move, within the undecided values: the
    /// learned one where it is on, else the line evaluation (its windows' weight
    /// minus the opponent's, plus the pattern values where that switch is on).
    fn evaluation(&self) -> i32 {
        let me = self.board.to_move();
        if let (Some(t), Some(p)) = (self.learned, &self.patterns) {
            let mut v = t.bias[me] + p.learned_sum(me, 0) + p.learned_sum(1 - me, 1);
            for (role, player) in [me, 1 - me].into_iter().enumerate() {
                let counts = self.board.live_counts_of_five(player);
                v += (0..WINDOW_COUNTS)
                    .map(|n| t.windows[me][role][n] * counts[n])
                    .sum::<i64>();
            }
            return v.clamp(-(DECIDED as i64) + 1, DECIDED as i64 - 1) as i32;
        }
        let mut v = self.board.score(me) - self.board.score(1 - me);
        if let (true, Some(p)) = (self.pattern_evaluation, &self.patterns) {
            v += p.value(me) - p.value(1 - me);
        }
        v.clamp(-(DECIDED as i64) + 1, DECIDED as i64 - 1) as i32
    }

    /// The value of a node that futility pruning or razoring settles without
    /// searching its moves (see [`shallow::futile`], [`shallow::razor`]), if one
    /// does; the opponent threatens no VCF.
    fn shallow_cut(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        stop: &Stop<'_>,
    ) -> Option<i32> {
        let cuts = self.shallow_cuts;
        if !(cuts.futility || cuts.razoring) || alpha.abs() >= DECIDED || beta.abs() >= DECIDED {
            return None;
        }
        let eval = self.evaluation();
        let k = self.board.k();
        let learned = self.learned.is_some();
        if shallow::futile(cuts, k, depth, i64::from(eval), beta, learned) {
            self.stats.shallow_cuts += 1;
            return Some(eval);
        }
        if shallow::razor(cuts, k, depth, i64::from(eval), alpha, learned) {
            self.stats.shallow_cuts += 1;
            // The evaluation is the one above: only the probe is left to do.
            return Some(self.leaf_win(ply, stop).unwrap_or(eval));
        }
        None
    }

    /// When the opponent would win by fours were it to move (a short probe), the
    /// only moves that can save the mover: the cells of that line and those that
    /// give the mover a four (see [`Prover::relevant_replies`]), best-looking first.
    /// Whether the opponent threatens so.
    fn defences(
        &mut self,
        me: usize,
        hint: usize,
        moves: &mut Vec<(usize, i64)>,
        stop: &Stop<'_>,
    ) -> bool {
        if !self.may_have_fours(1 - me) {
            return false;
        }
        let probe = Stop {
            max_nodes: THREAT_PROBE_NODES,
            deadline: None,
            cancel: stop.cancel,
        };
        let mut prover = Prover::new(&mut self.board, &mut self.prover, &probe);
        let mut cells = Vec::new();
        let threatened = prover.relevant_replies(1 - me, LEAF_VCF_DEPTH, 0, &mut cells);
        self.nodes += prover.nodes;
        // (`relevant_replies` keeps only the cells the mover may play.)
        if threatened {
            moves.extend(cells.into_iter().map(|c| {
                let value = if c == hint {
                    i64::MAX
                } else {
                    self.order_value(c, me)
                };
                (c, value)
            }));
            moves.sort_unstable_by_key(|&(c, v)| (std::cmp::Reverse(v), c));
        }
        threatened
    }

    /// The moves worth searching at a node, best-looking first, at most `width`;
    /// the table's move (`hint`) first.
    fn candidates(&mut self, me: usize, hint: usize, moves: &mut Vec<(usize, i64)>, width: usize) {
        for c in 0..self.board.num_cells() {
            if self.near[c] > 0 && self.board.is_empty(c) {
                let value = if c == hint {
                    i64::MAX
                } else {
                    let v = self.order_value(c, me);
                    if self.diversity == 0 {
                        v
                    } else {
                        // Helpers order moves of near values differently, so that the
                        // threads spread over the tree rather than race down one path.
                        v + (mix((c as u64) ^ (self.diversity << 16)) % (v.unsigned_abs() / 4 + 1))
                            as i64
                    }
                };
                moves.push((c, value));
            }
        }
        moves.sort_unstable_by_key(|&(c, v)| (std::cmp::Reverse(v), c));
        if self.board.restricted(me) {
            // The judge only for the best-looking cells, up to `width` allowed ones.
            let mut kept = 0;
            let board = &mut self.board;
            moves.retain(|&(c, _)| {
                let keep = kept < width && board.allowed(c, me);
                kept += usize::from(keep);
                keep
            });
        }
        moves.truncate(width);
    }

    /// The plies the `i`-th move (from 0), `cell` of `me`, is first searched
    /// shallower by: [`late_move_reduction`] at `row` plies left, one less where
    /// the move is not quiet, at most `next_depth` (the plies its search has).
    #[inline]
    fn reduction(&self, row: u32, i: usize, cell: usize, me: usize, next_depth: u32) -> u32 {
        // The pattern look-up only where the table reduces at all.
        match late_move_reduction(row, i) {
            0 => 0,
            r if self.is_quiet(cell, me) => r.min(next_depth),
            r => (r - 1).min(next_depth),
        }
    }

    /// Whether a stone of `me` on `cell` makes no flex three, four or five
    /// (where the cell patterns are kept; elsewhere no move is quiet).
    #[inline]
    fn is_quiet(&self, cell: usize, me: usize) -> bool {
        self.patterns
            .as_ref()
            .is_some_and(|p| unpack(p.combo(cell, me)).iter().all(|&l| l < FLEX3))
    }

    /// Whether `player` may have a four to play (no win by fours without one):
    /// false only where the cell patterns are kept, the four gate is on, and no
    /// empty cell gives `player` a four or a five.
    #[inline]
    fn may_have_fours(&self, player: usize) -> bool {
        match (&self.patterns, self.four_gate) {
            (Some(p), true) => p.has_four_cell(player),
            _ => true,
        }
    }

    /// How promising the empty `cell` looks for `player`, for ordering: what it
    /// adds to `player`'s windows and takes from the other's, plus, where that
    /// switch is on, its pattern score ([`PATTERN_ORDER_SCALE`] times).
    #[inline]
    fn order_value(&self, cell: usize, player: usize) -> i64 {
        if let (Some(w), Some(p)) = (self.learned_order, &self.patterns) {
            return self.learned_order_value(w, p, cell, player);
        }
        let windows = self.board.move_value(cell, player);
        match (&self.patterns, self.pattern_ordering) {
            (Some(p), true) => PATTERN_ORDER_SCALE * p.order_score(cell, player) + windows,
            _ => windows,
        }
    }

    /// The learned ordering's score of `cell` for `player` (the side to move),
    /// see [`super::learned_order`].
    #[inline]
    fn learned_order_value(
        &self,
        w: &'static OrderWeights,
        p: &CellPatterns,
        cell: usize,
        player: usize,
    ) -> i64 {
        let [made, taken] = [p.combo(cell, player), p.combo(cell, 1 - player)];
        let f = &w.profile;
        let (make, take) = w.combo_scores();
        let mut v = make[made as usize] + take[taken as usize];
        let windows = self.board.window_profile(cell, player);
        for (weight, &n) in f[2 * CLASSES..2 * CLASSES + 10].iter().zip(&windows) {
            v += weight * n as i32;
        }
        let width = self.board.width();
        let near = |last: Option<&usize>| -> usize {
            last.map_or(3, |&l| {
                let d = (l / width)
                    .abs_diff(cell / width)
                    .max((l % width).abs_diff(cell % width));
                d.clamp(1, 4) - 1
            })
        };
        let mut last = self.path.iter().rev();
        v += f[2 * CLASSES + 10 + near(last.next())];
        v += f[2 * CLASSES + 14 + near(last.next())];
        i64::from(v)
    }

    fn take_moves(&mut self, ply: usize) -> Vec<(usize, i64)> {
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut m = std::mem::take(&mut self.moves[ply]);
        m.clear();
        m
    }

    /// Sets the board to `game`'s position (rebuilding the near counts).
    fn load(&mut self, game: &Game) {
        self.board.load(game);
        self.path.clear();
        if self.learned_order.is_some() {
            self.path.extend(game.history().iter().map(|&c| c as usize));
        }
        self.near.fill(0);
        if let Some(p) = self.patterns.as_mut() {
            p.reset();
        }
        for cell in 0..self.board.num_cells() {
            if !self.board.is_empty(cell) {
                self.touch_near(cell, 1);
                if let Some(p) = self.patterns.as_mut() {
                    p.place(cell, self.board.owner(cell) as usize - 1);
                }
            }
        }
    }

    fn make(&mut self, cell: usize) {
        if let Some(p) = self.patterns.as_mut() {
            p.place(cell, self.board.to_move());
        }
        self.board.play(cell);
        self.touch_near(cell, 1);
        if self.learned_order.is_some() {
            self.path.push(cell);
        }
    }

    fn unmake(&mut self, cell: usize) {
        if self.learned_order.is_some() {
            self.path.pop();
        }
        self.board.unplay(cell);
        self.touch_near(cell, -1);
        if let Some(p) = self.patterns.as_mut() {
            p.remove(cell, self.board.to_move());
        }
    }

    /// Adds `delta` to the near count of every cell within `NEAR` of `cell`.
    fn touch_near(&mut self, cell: usize, delta: i16) {
        let w = self.board.width() as isize;
        let h = (self.board.num_cells() / self.board.width()) as isize;
        let (row, col) = (cell as isize / w, cell as isize % w);
        let d = NEAR as isize;
        for r in (row - d).max(0)..=(row + d).min(h - 1) {
            for c in (col - d).max(0)..=(col + d).min(w - 1) {
                let n = &mut self.near[(r * w + c) as usize];
                *n = n.wrapping_add_signed(delta);
            }
        }
    }

    /// A centre cell (random among the central ones of an even side).
    fn centre(&mut self, rng: &mut Rng) -> usize {
        let (w, h) = (
            self.board.width(),
            self.board.num_cells() / self.board.width(),
        );
        let row = (h - 1) / 2 + if h % 2 == 0 { rng.below(2) as usize } else { 0 };
        let col = (w - 1) / 2 + if w % 2 == 0 { rng.below(2) as usize } else { 0 };
        row * w + col
    }
}

/// A well-spread hash of `x` (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Keys of the side to move, so that a position's two sides never share an entry.
const SIDE_KEYS: [u64; 2] = [0x5851_F42D_4C95_7F2D, 0x1405_7B7E_F767_814F];

/// A value as stored: wins and losses counted from the node, not the root.
fn to_table(v: i32, ply: usize) -> i32 {
    if v >= DECIDED {
        v + ply as i32
    } else if v <= -DECIDED {
        v - ply as i32
    } else {
        v
    }
}

fn from_table(v: i32, ply: usize) -> i32 {
    if v >= DECIDED {
        v - ply as i32
    } else if v <= -DECIDED {
        v + ply as i32
    } else {
        v
    }
}
