//! Many trees searched together: threads split the trees (a tree never spans
//! threads, so results do not depend on the thread count), leaves go out one
//! round at a time (one per unfinished tree), and a failed call restores every tree.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::node::Values;
use super::state::{SearchState, Status, WordState};
use super::tree::{Priors, Settings, Tree};
use super::{Config, Evaluation, SearchError, MAX_VALUE};
use crate::game::Game;
use crate::rng::{splitmix64, Rng};
use crate::rules::{Rules, MAX_PLAYERS};

/// The root of each tree after a run: `(trees, num_actions)` visit counts and
/// policy, `(trees, value_width)` values (`value_width` is 1 for 2 players,
/// else `players`, egocentric), and the chosen actions (-1 for finished games).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutput {
    pub num_actions: usize,
    pub value_width: usize,
    pub visit_counts: Vec<i32>,
    pub policy: Vec<f32>,
    pub values: Vec<f32>,
    pub actions: Vec<i64>,
}

/// The trees of one search, for one kind of position.
struct Forest<S: SearchState> {
    geometry: S::Geometry,
    trees: Vec<Tree<S>>,
    /// During a run, the trees it replaced by fresh ones (by their old index; all
    /// of them when the number of trees changed). A kept tree takes its run back
    /// from its own undo log instead, so nothing is copied.
    replaced: Option<Vec<Option<Tree<S>>>>,
    /// The leaf each tree waits on in the current round.
    leaves: Vec<Option<u32>>,
    /// Rows of the current round: observations and masks of the waiting leaves,
    /// in tree order, and which tree each row belongs to.
    obs: Vec<f32>,
    mask: Vec<bool>,
    rows: Vec<u32>,
}

enum Trees {
    Word(Forest<WordState>),
    Wide(Forest<Game>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Pending,
    Done,
}

/// A batch of search trees over one set of rules.
pub struct Search {
    rules: Rules,
    config: Config,
    trees: Trees,
    pool: Option<rayon::ThreadPool>,
    runs: u64,
    phase: Phase,
    evaluation: Evaluation,
    /// The phase and evaluation before the step-by-step search in progress, which
    /// `abort` returns to (the last finished search stays readable).
    before_start: (Phase, Evaluation),
}

/// Bytes per arena node for these rules.
fn node_bytes(rules: &Rules) -> u64 {
    let sums = if rules.players() > 2 {
        8 * rules.players()
    } else {
        0
    };
    (std::mem::size_of::<super::node::Node>() + sums) as u64
}

/// Refuses a run that would pass the visit counter of kept tree `i`'s root.
pub(crate) fn check_visit_room(visits: u32, i: usize, simulations: u32) -> Result<(), SearchError> {
    let limit = u32::MAX as u64 - 1;
    if visits as u64 + simulations as u64 > limit {
        return Err(SearchError::Config(format!(
            "tree {i} holds {visits} root visits: {simulations} more simulations would pass the \
             visit counter's {limit}; advance(), or search fresh trees (reuse_tree=False)"
        )));
    }
    Ok(())
}

/// Bytes per undo-log entry for these rules (a node's index and earlier state).
fn undo_entry_bytes(rules: &Rules) -> u64 {
    node_bytes(rules) + 4
}

impl<S: SearchState> Forest<S> {
    fn new(rules: Rules) -> Forest<S> {
        Forest {
            geometry: S::geometry(rules),
            trees: Vec::new(),
            replaced: None,
            leaves: Vec::new(),
            obs: Vec::new(),
            mask: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// The trees for `games`: a kept tree where its root is the same position (its
    /// run undoable), else a fresh one (the old tree set aside). Checked against the
    /// memory budget and reserved before anything changes.
    fn begin(
        &mut self,
        games: &[Game],
        rules: &Rules,
        config: &Config,
        run: u64,
    ) -> Result<(), SearchError> {
        let players = rules.players();
        let same_count = self.trees.len() == games.len();
        let roots: Vec<S> = games
            .iter()
            .map(|g| S::from_game(g, &self.geometry))
            .collect();
        let kept: Vec<bool> = roots
            .iter()
            .enumerate()
            .map(|(i, root)| {
                config.reuse_tree && same_count && self.trees[i].root.same_position(root)
            })
            .collect();
        let mut bytes = 0u64;
        for (i, game) in games.iter().enumerate() {
            let mut nodes = 1u64;
            if kept[i] {
                let tree = &self.trees[i];
                check_visit_room(tree.root_visits(), i, config.num_simulations)?;
                nodes += tree.num_nodes() as u64;
                let empty = rules.num_cells() - game.stones_on_board();
                let log = tree.undo_needed(empty, config.num_simulations);
                bytes = bytes.saturating_add(log.saturating_mul(undo_entry_bytes(rules)));
            }
            nodes += Tree::nodes_needed_from(&roots[i], &self.geometry, config.num_simulations);
            bytes = bytes.saturating_add(nodes.saturating_mul(node_bytes(rules)));
        }
        if bytes > config.max_memory {
            return Err(SearchError::Memory(format!(
                "the search trees would need up to {bytes} bytes ({} games x {} simulations, up to \
                 {} children per node), over max_memory={}: search fewer games at once, use fewer \
                 simulations, or raise max_memory",
                games.len(),
                config.num_simulations,
                rules.num_actions(),
                config.max_memory
            )));
        }
        let old = std::mem::take(&mut self.trees);
        let mut replaced: Vec<Option<Tree<S>>> = Vec::with_capacity(old.len());
        let mut trees = Vec::with_capacity(games.len());
        if same_count {
            for ((tree, root), kept) in old.into_iter().zip(roots).zip(&kept) {
                if *kept {
                    trees.push(tree);
                    replaced.push(None);
                } else {
                    trees.push(Tree::new(root, players));
                    replaced.push(Some(tree));
                }
            }
        } else {
            replaced.extend(old.into_iter().map(Some));
            trees.extend(roots.into_iter().map(|root| Tree::new(root, players)));
        }
        self.trees = trees;
        self.replaced = Some(replaced);
        for tree in &mut self.trees {
            let extra = tree.nodes_needed(&self.geometry, config.num_simulations) as usize;
            if !tree.reserve(extra) {
                self.restore();
                return Err(SearchError::Memory(format!(
                    "cannot allocate the search trees ({bytes} bytes for {} games)",
                    games.len()
                )));
            }
        }
        let settings = Settings {
            geometry: &self.geometry,
            players,
            config,
            uct: false,
        };
        let seed = config.seed ^ splitmix64(run);
        for ((i, tree), kept) in self.trees.iter_mut().enumerate().zip(kept) {
            let i = i as u64;
            let (noise, playouts) = (Rng::new(seed, 2 * i), Rng::new(seed, 2 * i + 1));
            tree.begin_run(&settings, noise, playouts, kept);
        }
        self.leaves = vec![None; games.len()];
        Ok(())
    }

    /// Takes the current run back: kept trees undo their logs, replaced trees return.
    fn restore(&mut self) {
        if let Some(replaced) = self.replaced.take() {
            if replaced.len() != self.trees.len() {
                self.trees = replaced.into_iter().flatten().collect();
            } else {
                for (tree, old) in self.trees.iter_mut().zip(replaced) {
                    match old {
                        Some(old) => *tree = old,
                        None => tree.rollback(),
                    }
                }
            }
        }
        self.rows.clear();
    }

    /// Keeps the current run (its undo logs and the replaced trees are dropped).
    fn commit(&mut self) {
        if self.replaced.take().is_some() {
            for tree in &mut self.trees {
                tree.commit();
            }
        }
    }

    /// Moves every unfinished tree to its next leaf and gathers the round's rows.
    fn next_round(
        &mut self,
        config: &Config,
        rules: &Rules,
        pool: Option<&rayon::ThreadPool>,
    ) -> usize {
        let s = settings(&self.geometry, config, rules, Evaluation::External);
        let obs_len = rules.players() * rules.num_cells();
        let actions = rules.num_actions();
        let n = self.trees.len();
        self.obs.resize(n * obs_len, 0.0);
        self.mask.resize(n * actions, false);
        let step = |(((tree, leaf), obs), mask): Slot<'_, S>| {
            *leaf = None;
            if tree.root_status(s.geometry) != Status::Ongoing {
                return;
            }
            if let Some(l) = tree.next_leaf(&s) {
                *leaf = Some(l);
                let state = tree.leaf_state();
                state.write_planes(s.geometry, obs);
                mask.fill(false);
                state.for_each_legal(s.geometry, |a| mask[a] = true);
            }
        };
        let work = self
            .trees
            .iter_mut()
            .zip(self.leaves.iter_mut())
            .zip(self.obs.chunks_exact_mut(obs_len))
            .zip(self.mask.chunks_exact_mut(actions));
        for_each_tree(pool, n, work, step);
        // Compact the waiting rows to the front, in tree order.
        self.rows.clear();
        for i in 0..n {
            if self.leaves[i].is_some() {
                let j = self.rows.len();
                if j != i {
                    self.obs
                        .copy_within(i * obs_len..(i + 1) * obs_len, j * obs_len);
                    self.mask
                        .copy_within(i * actions..(i + 1) * actions, j * actions);
                }
                self.rows.push(i as u32);
            }
        }
        self.rows.len()
    }

    /// Checks a round's evaluator outputs against the waiting rows: every logit of a
    /// legal action finite, no NaN or +inf anywhere, every value finite.
    fn check_outputs(
        &self,
        rules: &Rules,
        logits: &[f32],
        values: &[f32],
    ) -> Result<(), SearchError> {
        let (rows, actions) = (self.rows.len(), rules.num_actions());
        let width = value_width(rules);
        if logits.len() != rows * actions {
            return Err(SearchError::Input(format!(
                "logits hold {} numbers: expected {rows} leaves x {actions} actions",
                logits.len()
            )));
        }
        if values.len() != rows * width {
            return Err(SearchError::Input(format!(
                "values hold {} numbers: expected {rows} leaves x {width}",
                values.len()
            )));
        }
        let masks = self.mask.chunks_exact(actions);
        for (row, (l, m)) in logits.chunks_exact(actions).zip(masks).enumerate() {
            for (a, (&x, &legal)) in l.iter().zip(m).enumerate() {
                if x.is_nan() || x == f32::INFINITY || (legal && !x.is_finite()) {
                    return Err(SearchError::Input(format!(
                        "logits[{row}, {a}] = {x}: logits must be finite at legal actions \
                         (-inf is allowed only at illegal ones), never NaN or +inf"
                    )));
                }
            }
        }
        if let Some(i) = values
            .iter()
            .position(|v| !(v.is_finite() && v.abs() <= MAX_VALUE))
        {
            let at = if width == 1 {
                format!("{i}")
            } else {
                format!("{}, {}", i / width, i % width)
            };
            return Err(SearchError::Input(format!(
                "values[{at}] = {:?}: values must be finite and within -{MAX_VALUE:e}..={MAX_VALUE:e} \
                 (results are +1/-1; the bound keeps every sum and normalisation finite)",
                values[i]
            )));
        }
        Ok(())
    }

    /// Applies a checked round of outputs, then moves on to the next round.
    fn feed(
        &mut self,
        config: &Config,
        rules: &Rules,
        logits: &[f32],
        values: &[f32],
        pool: Option<&rayon::ThreadPool>,
    ) -> usize {
        {
            let s = settings(&self.geometry, config, rules, Evaluation::External);
            let (actions, width, players) =
                (rules.num_actions(), value_width(rules), rules.players());
            let n = self.trees.len();
            let mut row_of = vec![u32::MAX; n];
            for (j, &i) in self.rows.iter().enumerate() {
                row_of[i as usize] = j as u32;
            }
            let apply = |((tree, leaf), &row): ((&mut Tree<S>, &mut Option<u32>), &u32)| {
                let Some(l) = leaf.take() else { return };
                let row = row as usize;
                let mover = tree.leaf_state().to_move();
                let absolute =
                    egocentric_to_absolute(&values[row * width..(row + 1) * width], mover, players);
                let priors = Priors::Logits(&logits[row * actions..(row + 1) * actions]);
                tree.apply(l, priors, &absolute, &s);
            };
            let work = self
                .trees
                .iter_mut()
                .zip(self.leaves.iter_mut())
                .zip(row_of.iter());
            for_each_tree(pool, n, work, apply);
        }
        self.next_round(config, rules, pool)
    }

    /// Runs every tree to the end of its budget with random playouts; `false` if
    /// `cancel` stopped it.
    fn rollouts(
        &mut self,
        config: &Config,
        rules: &Rules,
        rollouts: u32,
        cancel: &AtomicBool,
        pool: Option<&rayon::ThreadPool>,
    ) -> bool {
        let s = settings(
            &self.geometry,
            config,
            rules,
            Evaluation::Rollout { rollouts },
        );
        let run_tree = |tree: &mut Tree<S>| {
            if tree.root_status(s.geometry) != Status::Ongoing {
                return;
            }
            let mut count = 0u32;
            while let Some(leaf) = tree.next_leaf(&s) {
                // Checked before a tree's first simulation too, so that a cancel
                // skips the trees not yet started.
                if count.is_multiple_of(CANCEL_POLL) && cancel.load(Ordering::Relaxed) {
                    return;
                }
                count = count.wrapping_add(1);
                let values = tree.playout_values(rollouts, &s);
                tree.apply(leaf, Priors::Uniform, &values, &s);
            }
        };
        match pool {
            Some(pool) => pool.install(|| self.trees.par_iter_mut().for_each(run_tree)),
            None => self.trees.iter_mut().for_each(run_tree),
        }
        !cancel.load(Ordering::Relaxed)
    }

    fn output(&mut self, config: &Config, rules: &Rules, evaluation: Evaluation) -> SearchOutput {
        let s = settings(&self.geometry, config, rules, evaluation);
        let n = self.trees.len();
        let (actions, width) = (rules.num_actions(), value_width(rules));
        let mut out = SearchOutput {
            num_actions: actions,
            value_width: width,
            visit_counts: vec![0; n * actions],
            policy: vec![0.0; n * actions],
            values: vec![0.0; n * width],
            actions: vec![-1; n],
        };
        for (i, tree) in self.trees.iter_mut().enumerate() {
            out.actions[i] = tree.write_output(
                &s,
                &mut out.visit_counts[i * actions..(i + 1) * actions],
                &mut out.policy[i * actions..(i + 1) * actions],
                &mut out.values[i * width..(i + 1) * width],
            );
        }
        out
    }

    /// Plays one action per tree (ignored for finished games), all checked first.
    fn advance(&mut self, actions: &[i64], reuse: bool, rules: &Rules) -> Result<(), SearchError> {
        if actions.len() != self.trees.len() {
            return Err(SearchError::Input(format!(
                "advance got {} actions: expected one per tree ({})",
                actions.len(),
                self.trees.len()
            )));
        }
        for (i, (&a, tree)) in actions.iter().zip(&self.trees).enumerate() {
            if tree.root_status(&self.geometry) != Status::Ongoing {
                continue;
            }
            let mut legal = Vec::new();
            tree.root
                .for_each_legal(&self.geometry, |x| legal.push(x as i64));
            if !legal.contains(&a) {
                return Err(SearchError::IllegalAction(format!(
                    "action {a} for tree {i} is not legal at its root: legal actions are {legal:?} \
                     (actions range over 0..={})",
                    rules.num_actions() - 1
                )));
            }
        }
        for (&a, tree) in actions.iter().zip(&mut self.trees) {
            if tree.root_status(&self.geometry) == Status::Ongoing {
                tree.advance(a as usize, reuse, &self.geometry);
            }
        }
        Ok(())
    }
}

/// One tree's share of a round: the tree, its leaf, its observation and mask rows.
type Slot<'a, S> = (
    ((&'a mut Tree<S>, &'a mut Option<u32>), &'a mut [f32]),
    &'a mut [bool],
);

/// Trees below which a round stays on the calling thread: a round costs about a
/// microsecond per tree, less than waking the pool's threads for small batches.
const PARALLEL_TREES: usize = 512;
/// Runs `f` on each of `n` trees' shares of a round, across `pool` when there are
/// enough trees to pay for waking it.
fn for_each_tree<T: Send>(
    pool: Option<&rayon::ThreadPool>,
    n: usize,
    work: impl Iterator<Item = T>,
    f: impl Fn(T) + Send + Sync,
) {
    match pool {
        Some(pool) if n >= PARALLEL_TREES => {
            let shares: Vec<T> = work.collect();
            pool.install(|| {
                shares
                    .into_par_iter()
                    .with_min_len(PARALLEL_TREES / 2)
                    .for_each(f)
            })
        }
        _ => work.for_each(f),
    }
}

/// Simulations between two looks at the cancel flag.
const CANCEL_POLL: u32 = 64;

fn settings<'a, G>(
    geometry: &'a G,
    config: &'a Config,
    rules: &Rules,
    evaluation: Evaluation,
) -> Settings<'a, G> {
    Settings {
        geometry,
        players: rules.players(),
        config,
        uct: matches!(evaluation, Evaluation::Rollout { .. }),
    }
}

pub(crate) fn value_width(rules: &Rules) -> usize {
    if rules.players() == 2 {
        1
    } else {
        rules.players()
    }
}

/// Evaluator values (egocentric: entry `i` for the player `i` turns after `mover`;
/// one entry for 2 players) in absolute player order.
fn egocentric_to_absolute(v: &[f32], mover: usize, players: usize) -> Values {
    let mut out = [0.0; MAX_PLAYERS];
    if players == 2 {
        out[mover] = v[0];
        out[1 - mover] = -v[0];
    } else {
        for (i, &x) in v.iter().enumerate() {
            out[(mover + i) % players] = x;
        }
    }
    out
}

macro_rules! dispatch {
    ($trees:expr, $f:ident => $body:expr) => {
        match $trees {
            Trees::Word($f) => $body,
            Trees::Wide($f) => $body,
        }
    };
}

impl Search {
    pub fn new(rules: Rules, config: Config) -> Result<Search, SearchError> {
        config.check()?;
        let pool = if config.threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(config.threads)
                .thread_name(|i| format!("inarow-mcts-{i}"))
                .build()
                .map_err(|e| {
                    SearchError::Config(format!("cannot start {} threads: {e}", config.threads))
                })?;
            Some(pool)
        } else {
            None
        };
        let trees = if rules.fits_word() {
            Trees::Word(Forest::new(rules))
        } else {
            Trees::Wide(Forest::new(rules))
        };
        Ok(Search {
            rules,
            config,
            trees,
            pool,
            runs: 0,
            phase: Phase::Idle,
            evaluation: Evaluation::External,
            before_start: (Phase::Idle, Evaluation::External),
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Changes the simulations of the next runs (0..=`MAX_SIMULATIONS`).
    pub fn set_num_simulations(&mut self, n: u32) -> Result<(), SearchError> {
        let config = Config {
            num_simulations: n,
            ..self.config.clone()
        };
        config.check()?;
        self.abort();
        self.config = config;
        Ok(())
    }

    pub fn num_trees(&self) -> usize {
        dispatch!(&self.trees, f => f.trees.len())
    }
    /// Whether a step-by-step search waits for `feed`.
    pub fn is_pending(&self) -> bool {
        self.phase == Phase::Pending
    }

    fn check_games(&self, games: &[Game]) -> Result<(), SearchError> {
        for (i, g) in games.iter().enumerate() {
            if *g.rules() != self.rules {
                return Err(SearchError::Rules(format!(
                    "board {i} has rules ({}) but this search is for ({})",
                    g.rules(),
                    self.rules
                )));
            }
        }
        Ok(())
    }

    /// Drops an unfinished step-by-step search, restoring every tree and the
    /// search's state: the last finished search stays readable and advanceable.
    pub fn abort(&mut self) {
        if self.phase == Phase::Pending {
            dispatch!(&mut self.trees, f => f.restore());
            (self.phase, self.evaluation) = self.before_start;
        }
    }

    /// Searches `games` (one tree each) with `rollouts` random playouts per leaf.
    /// Polls `cancel`: once set, every tree is restored and `Cancelled` returned.
    pub fn run_rollouts(
        &mut self,
        games: &[Game],
        rollouts: u32,
        cancel: &AtomicBool,
    ) -> Result<SearchOutput, SearchError> {
        if rollouts == 0 {
            return Err(SearchError::Config("rollouts=0 must be at least 1".into()));
        }
        if self.config.forced_playouts > 0.0 {
            return Err(SearchError::Config(format!(
                "forced_playouts={} needs an evaluator's priors: rollouts search the root by \
                 UCT, without priors",
                self.config.forced_playouts
            )));
        }
        self.abort();
        self.check_games(games)?;
        let evaluation = Evaluation::Rollout { rollouts };
        let (rules, config, pool) = (&self.rules, &self.config, self.pool.as_ref());
        let run = self.runs;
        let out = dispatch!(&mut self.trees, f => {
            f.begin(games, rules, config, run)?;
            if !f.rollouts(config, rules, rollouts, cancel, pool) {
                f.restore();
                return Err(SearchError::Cancelled);
            }
            f.commit();
            f.output(config, rules, evaluation)
        });
        self.runs += 1;
        self.evaluation = evaluation;
        self.phase = Phase::Done;
        Ok(out)
    }

    /// Starts a step-by-step search of `games`; returns the number of leaves
    /// waiting for the evaluator (0: the search is already done, see `result`).
    pub fn start(&mut self, games: &[Game]) -> Result<usize, SearchError> {
        self.abort();
        self.check_games(games)?;
        let (rules, config, pool) = (&self.rules, &self.config, self.pool.as_ref());
        let run = self.runs;
        let rows = dispatch!(&mut self.trees, f => {
            f.begin(games, rules, config, run)?;
            f.next_round(config, rules, pool)
        });
        self.before_start = (self.phase, self.evaluation);
        self.evaluation = Evaluation::External;
        self.finish_round(rows);
        Ok(rows)
    }

    fn finish_round(&mut self, rows: usize) {
        if rows == 0 {
            dispatch!(&mut self.trees, f => f.commit());
            // Only finished runs count: a failed one leaves the next run's noise as it was.
            self.runs += 1;
            self.phase = Phase::Done;
        } else {
            self.phase = Phase::Pending;
        }
    }

    /// The waiting leaves: `(rows, players, height, width)` egocentric planes and
    /// `(rows, num_actions)` legal masks, row-major.
    pub fn pending(&self) -> (&[f32], &[bool], usize) {
        if self.phase != Phase::Pending {
            return (&[], &[], 0);
        }
        let obs_len = self.rules.players() * self.rules.num_cells();
        let actions = self.rules.num_actions();
        dispatch!(&self.trees, f => {
            let rows = f.rows.len();
            (&f.obs[..rows * obs_len], &f.mask[..rows * actions], rows)
        })
    }

    /// Which tree each waiting row belongs to.
    pub fn pending_trees(&self) -> &[u32] {
        dispatch!(&self.trees, f => &f.rows)
    }

    /// Feeds the evaluator's outputs for the waiting leaves: `(rows, num_actions)`
    /// logits and `(rows,)` values for 2 players, `(rows, players)` for more
    /// (egocentric). Checks everything before changing any tree. Returns the next
    /// round's number of leaves (0: done).
    pub fn feed(&mut self, logits: &[f32], values: &[f32]) -> Result<usize, SearchError> {
        if self.phase != Phase::Pending {
            return Err(SearchError::State(
                "no leaves are waiting for an evaluation: call start() first".into(),
            ));
        }
        let (rules, config, pool) = (&self.rules, &self.config, self.pool.as_ref());
        let rows = dispatch!(&mut self.trees, f => {
            f.check_outputs(rules, logits, values)?;
            f.feed(config, rules, logits, values, pool)
        });
        self.finish_round(rows);
        Ok(rows)
    }

    /// The result of the last finished search.
    pub fn result(&mut self) -> Result<SearchOutput, SearchError> {
        match self.phase {
            Phase::Done => {}
            Phase::Pending => {
                return Err(SearchError::State(
                    "the search is not finished: feed the waiting leaves until none are left"
                        .into(),
                ))
            }
            Phase::Idle => return Err(SearchError::State("no search has run yet".into())),
        }
        let (rules, config, evaluation) = (&self.rules, &self.config, self.evaluation);
        Ok(dispatch!(&mut self.trees, f => f.output(config, rules, evaluation)))
    }

    /// Plays `actions` (one per tree; ignored for finished games) at the roots,
    /// keeping each chosen subtree when `reuse_tree`. All checked before any move.
    pub fn advance(&mut self, actions: &[i64]) -> Result<(), SearchError> {
        self.check_can_advance()?;
        let (rules, reuse) = (&self.rules, self.config.reuse_tree);
        dispatch!(&mut self.trees, f => f.advance(actions, reuse, rules))
    }

    /// Whether `advance` may be called now (a search has finished).
    pub fn check_can_advance(&self) -> Result<(), SearchError> {
        match self.phase {
            Phase::Done => {}
            Phase::Pending => {
                return Err(SearchError::State(
                    "a search is in progress: feed it to the end before advance()".into(),
                ))
            }
            Phase::Idle => {
                return Err(SearchError::State(
                    "advance() needs a finished search: call run() or start() first".into(),
                ))
            }
        }
        Ok(())
    }
}
