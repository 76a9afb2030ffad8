//! One search tree: a dense node arena (children of a node contiguous), descent to
//! a leaf, expansion, backup (negamax for 2 players, max^n for more), proven
//! results, the root's output and subtree reuse.

use super::halving::considered_visits;
use super::node::proven_of;
use super::node::{value_of, values_of, won_by, Node, Values, UNKNOWN};
use super::noise;
use super::select::{self, log_prior};
use super::state::{SearchState, Status};
use super::{Config, RootPolicy};
use crate::rng::Rng;
use crate::rules::MAX_PLAYERS;

/// Read-only settings shared by the trees of one run.
pub(crate) struct Settings<'a, G> {
    pub geometry: &'a G,
    pub players: usize,
    pub config: &'a Config,
    /// Rollouts (no priors): UCT below the root, and at the root under PUCT.
    pub uct: bool,
}

/// Where leaf priors come from.
pub(crate) enum Priors<'a> {
    Uniform,
    /// Logits over all actions; only the legal ones are read.
    Logits(&'a [f32]),
}

/// What one run keeps about the root: the output of the last run reads it.
struct RunState {
    /// Per root child, this run: priors with noise (PUCT), Gumbel draws, visits.
    root_priors: Vec<f32>,
    gumbel: Vec<f32>,
    /// Per root child: visits since the halving schedule started.
    run_visits: Vec<u32>,
    /// Sequential halving's visit count for each simulation from `schedule_start`.
    schedule: Vec<u32>,
    schedule_start: u32,
    /// Root children not proven lost when the schedule started.
    eligible_at_start: usize,
    sims_done: u32,
    /// Root noise of this run.
    rng: Rng,
    /// Random playouts of this run (a separate stream, so that noise and
    /// playouts do not shift each other).
    playout_rng: Rng,
}

impl RunState {
    fn new() -> RunState {
        RunState {
            root_priors: Vec::new(),
            gumbel: Vec::new(),
            run_visits: Vec::new(),
            schedule: Vec::new(),
            schedule_start: 0,
            eligible_at_start: 0,
            sims_done: 0,
            rng: Rng::new(0, 0),
            playout_rng: Rng::new(0, 0),
        }
    }
}

/// How to take a run back: the arena's lengths before it, the first earlier state
/// of each node it changed, and the previous run's root state. Its size follows
/// what the run touched, not what the tree holds.
struct Undo {
    /// Nodes (and player sums) that existed when the run began; 0 when there is
    /// nothing to take back (a fresh tree, or between runs).
    nodes: usize,
    sums: usize,
    log: Vec<(u32, Node)>,
    /// `players` sums per logged node when there are more than 2 players.
    log_sums: Vec<f64>,
    previous: RunState,
    /// `Tree::catch_up` when the run began.
    catch_up: u32,
}

pub(crate) struct Tree<S> {
    pub root: S,
    nodes: Vec<Node>,
    /// `players` values per node when there are more than 2 players.
    player_sums: Vec<f64>,
    players: usize,
    scratch: S,
    path: Vec<u32>,
    run: RunState,
    undo: Undo,
    q: Vec<Option<f32>>,
    log_priors: Vec<f32>,
    sigma: Vec<f32>,
    /// Per root child: may it compete in sequential halving (not proven lost)?
    eligible: Vec<bool>,
    buf: Vec<f32>,
    legal: Vec<u16>,
    /// Visits a kept root received as a child proven at its first visit, to replay
    /// once it is expanded ([`Tree::catch_up`]).
    catch_up: u32,
    /// The arena `keep_subtree` builds into (kept for its capacity).
    spare_nodes: Vec<Node>,
    spare_sums: Vec<f64>,
    /// `keep_subtree`'s children to lay out, by visits.
    order: Vec<(u32, u32)>,
}

impl<S: SearchState> Tree<S> {
    pub fn new(root: S, players: usize) -> Tree<S> {
        let mut tree = Tree {
            scratch: root.clone(),
            root,
            nodes: Vec::new(),
            player_sums: Vec::new(),
            players,
            path: Vec::new(),
            run: RunState::new(),
            undo: Undo {
                nodes: 0,
                sums: 0,
                log: Vec::new(),
                log_sums: Vec::new(),
                previous: RunState::new(),
                catch_up: 0,
            },
            q: Vec::new(),
            log_priors: Vec::new(),
            sigma: Vec::new(),
            eligible: Vec::new(),
            buf: Vec::new(),
            legal: Vec::new(),
            catch_up: 0,
            spare_nodes: Vec::new(),
            spare_sums: Vec::new(),
            order: Vec::new(),
        };
        tree.clear();
        tree
    }

    fn clear(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::default());
        self.player_sums.clear();
        if self.players > 2 {
            self.player_sums.resize(self.players, 0.0);
        }
    }

    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    pub fn root_status(&self, geometry: &S::Geometry) -> Status {
        self.root.status(geometry)
    }

    /// Upper bound on the nodes a run of `simulations` adds: one expansion per
    /// simulation plus the root's, each with at most the root's number of legal
    /// actions (no position below has more).
    pub fn nodes_needed(&self, geometry: &S::Geometry, simulations: u32) -> u64 {
        Self::nodes_needed_from(&self.root, geometry, simulations)
    }

    /// [`Tree::nodes_needed`] for a tree rooted at `root`.
    pub fn nodes_needed_from(root: &S, geometry: &S::Geometry, simulations: u32) -> u64 {
        if root.status(geometry) != Status::Ongoing {
            return 0;
        }
        let mut legal = 0u64;
        root.for_each_legal(geometry, |_| legal += 1);
        (simulations as u64 + 1) * legal
    }

    /// Reserves room for `extra` nodes; `false` if the allocation fails.
    pub fn reserve(&mut self, extra: usize) -> bool {
        self.nodes.try_reserve(extra).is_ok()
            && (self.players <= 2
                || self
                    .player_sums
                    .try_reserve(extra.saturating_mul(self.players))
                    .is_ok())
    }

    /// Root visits so far (runs on a kept tree add to them).
    pub fn root_visits(&self) -> u32 {
        self.nodes[0].visits
    }

    /// Most undo-log entries a run of `simulations` can write: each node at most
    /// once, and only the nodes on its paths (at most one per empty cell, plus the root).
    pub fn undo_needed(&self, empty_cells: usize, simulations: u32) -> u64 {
        let paths = (simulations as u64 + 1).saturating_mul(empty_cells as u64 + 1);
        paths.min(self.nodes.len() as u64)
    }

    /// Starts a run with its own random streams (noise, playouts). With `undoable`,
    /// the run can be taken back by [`Tree::rollback`] until [`Tree::commit`].
    pub fn begin_run(
        &mut self,
        s: &Settings<'_, S::Geometry>,
        rng: Rng,
        playout_rng: Rng,
        undoable: bool,
    ) {
        std::mem::swap(&mut self.run, &mut self.undo.previous);
        if undoable {
            self.undo.nodes = self.nodes.len();
            self.undo.sums = self.player_sums.len();
            self.undo.catch_up = self.catch_up;
        }
        let run = &mut self.run;
        run.rng = rng;
        run.playout_rng = playout_rng;
        run.sims_done = 0;
        run.root_priors.clear();
        run.gumbel.clear();
        run.run_visits.clear();
        run.schedule.clear();
        if self.nodes[0].num_children > 0 {
            self.prove_root_wins(s);
            self.prepare_root(s);
        }
    }

    /// Keeps what the run did: drops the undo log (cost: the nodes it touched).
    pub fn commit(&mut self) {
        for &(idx, _) in &self.undo.log {
            self.nodes[idx as usize].logged = false;
        }
        self.undo.log.clear();
        self.undo.log_sums.clear();
        self.undo.nodes = 0;
        self.undo.sums = 0;
    }

    /// Takes the run back: the arena and the root's run state as they were at
    /// `begin_run` (cost: what the run changed).
    pub fn rollback(&mut self) {
        self.nodes.truncate(self.undo.nodes);
        self.player_sums.truncate(self.undo.sums);
        let p = self.players;
        for (j, &(idx, node)) in self.undo.log.iter().enumerate() {
            let idx = idx as usize;
            self.nodes[idx] = node;
            if p > 2 {
                self.player_sums[idx * p..(idx + 1) * p]
                    .copy_from_slice(&self.undo.log_sums[j * p..(j + 1) * p]);
            }
        }
        self.undo.log.clear();
        self.undo.log_sums.clear();
        self.undo.nodes = 0;
        self.undo.sums = 0;
        std::mem::swap(&mut self.run, &mut self.undo.previous);
        self.scratch = self.root.clone();
        self.catch_up = self.undo.catch_up;
    }

    /// Logs `idx`'s state before the run first changes it (only nodes older than the run).
    #[inline]
    fn touch(&mut self, idx: usize) {
        if idx < self.undo.nodes && !self.nodes[idx].logged {
            self.log(idx);
        }
    }

    #[cold]
    fn log(&mut self, idx: usize) {
        self.undo.log.push((idx as u32, self.nodes[idx]));
        let p = self.players;
        if p > 2 {
            self.undo
                .log_sums
                .extend_from_slice(&self.player_sums[idx * p..(idx + 1) * p]);
        }
        self.nodes[idx].logged = true;
    }

    /// Root noise and halving schedule, once the root is expanded.
    fn prepare_root(&mut self, s: &Settings<'_, S::Geometry>) {
        let children = self.nodes[0].children();
        let n = children.len();
        self.run.run_visits.clear();
        self.run.run_visits.resize(n, 0);
        self.run.root_priors.clear();
        self.run
            .root_priors
            .extend(self.nodes[children.clone()].iter().map(|c| c.prior));
        let config = s.config;
        match config.root {
            RootPolicy::Puct if !s.uct && config.dirichlet_fraction > 0.0 => {
                let mut noise = vec![0.0; n];
                noise::dirichlet(config.dirichlet_alpha as f64, &mut noise, &mut self.run.rng);
                let f = config.dirichlet_fraction;
                for (p, e) in self.run.root_priors.iter_mut().zip(noise) {
                    *p = (1.0 - f) * *p + f * e;
                }
            }
            RootPolicy::Puct => {}
            RootPolicy::Gumbel => {
                self.run.gumbel.clear();
                for _ in 0..n {
                    let g = noise::gumbel(&mut self.run.rng);
                    self.run.gumbel.push(g);
                }
                let mover = self.root.to_move();
                self.start_halving(mover, s);
            }
        }
    }

    /// Runs simulations until one reaches a leaf that needs the evaluator (returned,
    /// with `scratch` at its position) or the run's budget is spent (`None`).
    /// Simulations ending on terminal or proven nodes are backed up on the way.
    pub fn next_leaf(&mut self, s: &Settings<'_, S::Geometry>) -> Option<u32> {
        loop {
            if self.nodes[0].num_children == 0 {
                self.scratch.rewind_to(&self.root);
                self.path.clear();
                self.path.push(0);
                return Some(0);
            }
            if self.run.sims_done >= s.config.num_simulations
                || (s.config.stop_early
                    && self.settled(s.config.num_simulations - self.run.sims_done))
            {
                return None;
            }
            if let Some(leaf) = self.simulate(s) {
                return Some(leaf);
            }
        }
    }

    /// One simulation from the root: the leaf that needs the evaluator, or `None`
    /// once a simulation ending on a terminal or proven node is backed up.
    fn simulate(&mut self, s: &Settings<'_, S::Geometry>) -> Option<u32> {
        self.scratch.rewind_to(&self.root);
        self.path.clear();
        self.path.push(0);
        let mut mover = self.root.to_move();
        let (mut node, mut depth) = (0usize, 0usize);
        loop {
            let child = if s.uct && (depth > 0 || s.config.root == RootPolicy::Puct) {
                self.select_uct(node, mover, s.config.c_uct)
            } else {
                self.select(node, depth, mover, s)
            };
            self.scratch
                .play(self.nodes[child].action as usize, s.geometry);
            self.path.push(child as u32);
            depth += 1;
            mover += 1;
            if mover == s.players {
                mover = 0;
            }
            let c = &self.nodes[child];
            if c.proven != UNKNOWN {
                if c.num_children == 0 {
                    break;
                }
                // A proven node passes its visits on down to a proven child, as a
                // proven root does: so a kept subtree equals a fresh search of it.
                node = child;
                continue;
            }
            if c.visits == 0 {
                let mut proven = proven_of(self.scratch.status(s.geometry));
                if proven == UNKNOWN && s.config.lookahead {
                    // One move of lookahead proves what the evaluator could
                    // only guess, and shortens every proof by two plies.
                    proven = proven_of(self.scratch.forced_result(s.geometry));
                }
                if proven != UNKNOWN {
                    self.touch(child);
                    self.nodes[child].proven = proven;
                    break;
                }
                return Some(child as u32);
            }
            node = child;
        }
        let proven = self.nodes[*self.path.last().unwrap() as usize].proven;
        self.backup(&values_of(proven, s.players), true);
        None
    }

    /// Replays, after the root's expansion, the visits a kept root received while
    /// it was a child proven at its first visit (and so never expanded): a fresh
    /// search of it would have passed them on down. They end on proven nodes (the
    /// lookahead proved the root), cost no evaluation and are not this run's.
    fn catch_up(&mut self, s: &Settings<'_, S::Geometry>) {
        let visits = std::mem::take(&mut self.catch_up);
        // Gumbel's halving schedule covers this run's simulations alone, and no
        // promise asks it to continue like a fresh search.
        if visits == 0 || s.config.root != RootPolicy::Puct {
            return;
        }
        for _ in 0..visits {
            if self.simulate(s).is_some() {
                // A leaf to evaluate (the lookahead is off now): stop replaying.
                self.scratch.rewind_to(&self.root);
                break;
            }
        }
        self.run.sims_done = 0;
        self.run.run_visits.fill(0);
    }

    /// Would no `remaining` simulations change the move [`Tree::write_output`]
    /// chooses with a PUCT root? True when the root is proven, or when the most
    /// visited child not proven lost leads every other such child by more than
    /// `remaining` visits (a child proven lost or won later changes the choice
    /// too: stopping forgoes those proofs).
    fn settled(&self, remaining: u32) -> bool {
        let root = &self.nodes[0];
        if root.proven != UNKNOWN {
            return true;
        }
        let mover = self.root.to_move();
        let (mut best, mut second) = (0u32, 0u32);
        for c in &self.nodes[root.children()] {
            if value_of_child(c, mover) == Some(-1.0) {
                continue;
            }
            if c.visits > best {
                second = best;
                best = c.visits;
            } else if c.visits > second {
                second = c.visits;
            }
        }
        best - second > remaining
    }

    /// The mean result of `rollouts` random playouts from the pending leaf.
    pub fn playout_values(&mut self, rollouts: u32, s: &Settings<'_, S::Geometry>) -> Values {
        let mut sum = [0f32; MAX_PLAYERS];
        for _ in 0..rollouts {
            let proven = proven_of(self.scratch.rollout(s.geometry, &mut self.run.playout_rng));
            for (p, acc) in sum.iter_mut().enumerate().take(s.players) {
                *acc += value_of(proven, p);
            }
        }
        if rollouts > 1 {
            for x in &mut sum {
                *x /= rollouts as f32;
            }
        }
        sum
    }

    /// The position of the leaf returned by `next_leaf`.
    pub fn leaf_state(&self) -> &S {
        &self.scratch
    }

    /// Expands the pending leaf with `priors` and backs up `values` (absolute
    /// player order).
    pub fn apply(
        &mut self,
        leaf: u32,
        priors: Priors<'_>,
        values: &Values,
        s: &Settings<'_, S::Geometry>,
    ) {
        let leaf = leaf as usize;
        self.legal.clear();
        let legal = &mut self.legal;
        self.scratch
            .for_each_legal(s.geometry, |a| legal.push(a as u16));
        let n = self.legal.len();
        self.buf.clear();
        match priors {
            Priors::Uniform => self.buf.resize(n, 1.0 / n as f32),
            Priors::Logits(logits) => {
                let top = self
                    .legal
                    .iter()
                    .map(|&a| logits[a as usize])
                    .fold(f32::NEG_INFINITY, f32::max);
                let mut sum = 0.0;
                for &a in &self.legal {
                    let e = (logits[a as usize] - top).exp();
                    sum += e;
                    self.buf.push(e);
                }
                for p in &mut self.buf {
                    *p /= sum;
                }
            }
        }
        let first = self.nodes.len();
        self.nodes.extend(
            self.legal
                .iter()
                .zip(&self.buf)
                .map(|(&action, &prior)| Node {
                    action,
                    prior,
                    ..Node::default()
                }),
        );
        if self.players > 2 {
            self.player_sums
                .resize(self.nodes.len() * self.players, 0.0);
        }
        self.touch(leaf);
        let node = &mut self.nodes[leaf];
        node.first_child = first as u32;
        node.num_children = n as u16;
        node.raw_value = values[self.scratch.to_move()];
        self.backup(values, false);
        if leaf == 0 {
            self.prove_root_wins(s);
            self.prepare_root(s);
            self.catch_up(s);
        }
    }

    /// The lookahead at the root: every child that completes the mover's line is
    /// proven won before any simulation, so that selection goes there first
    /// (below the root, a node's lookahead proves the node itself at its first visit).
    fn prove_root_wins(&mut self, s: &Settings<'_, S::Geometry>) {
        let me = self.root.to_move();
        if !s.config.lookahead
            || self.nodes[0].proven != UNKNOWN
            || self.root.forced_result(s.geometry) != Status::Won(me)
        {
            return;
        }
        let win = won_by(me);
        for child in self.nodes[0].children() {
            self.scratch.rewind_to(&self.root);
            self.scratch
                .play(self.nodes[child].action as usize, s.geometry);
            if self.scratch.status(s.geometry) == Status::Won(me) {
                self.touch(child);
                self.nodes[child].proven = win;
            }
        }
        self.scratch.rewind_to(&self.root);
        self.try_prove(0, me);
    }

    /// Adds `values` along the current path; then, if the leaf is proven,
    /// propagates proofs upwards. The root's own expansion is not a simulation.
    fn backup(&mut self, values: &Values, leaf_proven: bool) {
        let players = self.players;
        let root_player = self.root.to_move();
        let mut mover_into = (root_player + players - 1) % players;
        for k in 0..self.path.len() {
            let idx = self.path[k] as usize;
            self.touch(idx);
            let node = &mut self.nodes[idx];
            node.visits += 1;
            node.value_sum += values[mover_into] as f64;
            if players > 2 {
                let i = idx * players;
                for (sum, &v) in self.player_sums[i..i + players].iter_mut().zip(values) {
                    *sum += v as f64;
                }
            }
            mover_into += 1;
            if mover_into == players {
                mover_into = 0;
            }
        }
        if self.path.len() > 1 {
            self.run.sims_done += 1;
            let first = self.nodes[0].first_child as usize;
            self.run.run_visits[self.path[1] as usize - first] += 1;
        }
        if leaf_proven {
            for depth in (0..self.path.len() - 1).rev() {
                let mover = (root_player + depth) % players;
                if !self.try_prove(self.path[depth] as usize, mover) {
                    break;
                }
            }
        }
    }

    /// Marks `node` proven if a child is won by its mover, or every child is proven
    /// (then the mover's best, the first in action order on ties).
    fn try_prove(&mut self, node: usize, mover: usize) -> bool {
        let win = won_by(mover);
        let mut best: Option<(f32, u8)> = None;
        let mut all = true;
        for c in &self.nodes[self.nodes[node].children()] {
            if c.proven == win {
                best = Some((1.0, win));
                all = true;
                break;
            }
            if c.proven == UNKNOWN {
                all = false;
                continue;
            }
            let v = value_of(c.proven, mover);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, c.proven));
            }
        }
        match best {
            Some((_, proven)) if all => {
                self.touch(node);
                self.nodes[node].proven = proven;
                true
            }
            _ => false,
        }
    }

    /// Each child's value for `mover` (`None`: unvisited); returns the index of
    /// a child proven won by `mover`, if any.
    fn fill_q(&mut self, node: usize, mover: usize) -> Option<usize> {
        self.q.clear();
        let win = won_by(mover);
        let mut winning = None;
        for (i, c) in self.nodes[self.nodes[node].children()].iter().enumerate() {
            self.q.push(if c.proven != UNKNOWN {
                if c.proven == win && winning.is_none() {
                    winning = Some(i);
                }
                Some(value_of(c.proven, mover))
            } else if c.visits > 0 {
                Some(c.value_sum as f32 / c.visits as f32)
            } else {
                None
            });
        }
        winning
    }

    /// The value of `node` for its side to move `mover`.
    fn node_value(&self, node: usize, mover: usize) -> f32 {
        let n = &self.nodes[node];
        if n.proven != UNKNOWN {
            return value_of(n.proven, mover);
        }
        let visits = n.visits.max(1) as f64;
        let sum = if self.players == 2 {
            -n.value_sum
        } else {
            self.player_sums[node * self.players + mover]
        };
        (sum / visits) as f32
    }

    /// UCT in one pass (the rollout hot path): a child proven won by `mover`, else
    /// the first unvisited child, else the largest `q + c sqrt(ln N / n)`.
    #[inline]
    fn select_uct(&self, node: usize, mover: usize, c: f32) -> usize {
        let n = &self.nodes[node];
        let range = n.children();
        let c2_log_n = c * c * (n.visits.max(1) as f32).ln();
        let win = won_by(mover);
        let (mut best, mut best_score) = (0, f32::NEG_INFINITY);
        for (i, child) in self.nodes[range.clone()].iter().enumerate() {
            let q = if child.proven != UNKNOWN {
                if child.proven == win {
                    return range.start + i;
                }
                value_of(child.proven, mover)
            } else if child.visits == 0 {
                return range.start + i;
            } else {
                // The exact f64 sum rounded once: a relative error of 1e-7 at any count.
                child.value_sum as f32 / child.visits as f32
            };
            let score = q + (c2_log_n / child.visits as f32).sqrt();
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        range.start + best
    }

    /// The child to descend into under the PUCT or Gumbel rules (root rules at depth 0).
    fn select(
        &mut self,
        node: usize,
        depth: usize,
        mover: usize,
        s: &Settings<'_, S::Geometry>,
    ) -> usize {
        let range = self.nodes[node].children();
        let config = s.config;
        if config.root == RootPolicy::Puct {
            if depth == 0 && config.forced_playouts > 0.0 {
                if let Some(i) = self.fill_q(node, mover) {
                    return range.start + i;
                }
                let children = &self.nodes[range.clone()];
                let k = config.forced_playouts;
                if let Some(i) = select::forced_child(&self.run.root_priors, children, k) {
                    return range.start + i;
                }
            }
            return range.start + self.select_puct(node, mover, depth == 0, config.c_puct);
        }
        if let Some(i) = self.fill_q(node, mover) {
            return range.start + i;
        }
        // Gumbel.
        self.gumbel_sigma(node);
        let i = if depth == 0 {
            if self.mark_eligible(mover) < self.run.eligible_at_start {
                self.start_halving(mover, s);
            }
            let step = self.run.sims_done - self.run.schedule_start;
            let considered = self.run.schedule[step as usize];
            self.gumbel_root(considered)
                .or_else(|| {
                    // Off schedule (a proven child broke the pattern): the
                    // eligible actions least visited this run compete, so a
                    // proven loss hands its visits back to those it beat.
                    let least = self.eligible_visits().min()?;
                    self.gumbel_root(least)
                })
                .unwrap_or(0)
        } else {
            let children = &self.nodes[range.clone()];
            select::gumbel_interior(&self.log_priors, &self.sigma, children, &mut self.buf)
        };
        range.start + i
    }

    /// PUCT's choice among `node`'s children ([`select::puct`] with [`Tree::fill_q`]'s
    /// values, the root's noisy priors at the root), in two passes and no
    /// `Option`s: the hot path of a search with an evaluator.
    fn select_puct(&mut self, node: usize, mover: usize, at_root: bool, c: f32) -> usize {
        let value = self.node_value(node, mover);
        let n = self.nodes[node];
        let children = &self.nodes[n.children()];
        let win = won_by(mover);
        let (mut lo, mut hi) = (value, value);
        let qs = &mut self.buf;
        qs.clear();
        for (i, child) in children.iter().enumerate() {
            let q = if child.proven != UNKNOWN {
                if child.proven == win {
                    return i;
                }
                value_of(child.proven, mover)
            } else if child.visits > 0 {
                child.value_sum as f32 / child.visits as f32
            } else {
                qs.push(f32::NAN);
                continue;
            };
            lo = lo.min(q);
            hi = hi.max(q);
            qs.push(q);
        }
        let scale = 1.0 / (hi - lo).max(1e-8);
        let explore = c * (n.visits as f32).sqrt();
        let root_priors = &self.run.root_priors;
        let (mut best, mut best_score) = (0, f32::NEG_INFINITY);
        for (i, (child, &q)) in children.iter().zip(qs.iter()).enumerate() {
            let prior = if at_root { root_priors[i] } else { child.prior };
            let q = if q.is_nan() { lo } else { q };
            let score = (q - lo) * scale + explore * prior / (1 + child.visits) as f32;
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        best
    }

    /// The root child to visit among the eligible ones visited `visits` times
    /// this run ([`select::gumbel_root`] on this run's draws, priors and sigma).
    fn gumbel_root(&self, visits: u32) -> Option<usize> {
        select::gumbel_root(
            visits,
            &self.run.gumbel,
            &self.log_priors,
            &self.sigma,
            &self.run.run_visits,
            &self.eligible,
        )
    }

    /// (Re)starts sequential halving over the rest of the run's budget among the
    /// root children not proven lost. A considered child proven lost mid-run
    /// restarts it, so the budget goes to the children that can still be right
    /// (judged with all their visits) instead of to the survivors of early,
    /// noisy rounds.
    fn start_halving(&mut self, mover: usize, s: &Settings<'_, S::Geometry>) {
        let eligible = self.mark_eligible(mover);
        let remaining = s.config.num_simulations - self.run.sims_done;
        let considered = (s.config.gumbel_considered as usize).min(eligible);
        self.run.schedule = considered_visits(considered, remaining as usize);
        self.run.schedule_start = self.run.sims_done;
        self.run.eligible_at_start = eligible;
        self.run.run_visits.fill(0);
    }

    /// Marks the root children that compete in sequential halving: those not
    /// proven lost for `mover`, or every child when all are lost. Returns how
    /// many are not proven lost.
    fn mark_eligible(&mut self, mover: usize) -> usize {
        let children = &self.nodes[self.nodes[0].children()];
        self.eligible.clear();
        self.eligible.extend(
            children
                .iter()
                .map(|c| value_of_child(c, mover) != Some(-1.0)),
        );
        let count = self.eligible.iter().filter(|&&e| e).count();
        if count == 0 {
            self.eligible.fill(true);
        }
        count
    }

    /// This run's visit counts of the eligible root children.
    fn eligible_visits(&self) -> impl Iterator<Item = u32> + '_ {
        self.run
            .run_visits
            .iter()
            .zip(&self.eligible)
            .filter_map(|(&v, &e)| e.then_some(v))
    }

    /// Fills `log_priors` and `sigma` (scaled completed Q) for `node`'s children,
    /// from `q` as left by `fill_q`.
    fn gumbel_sigma(&mut self, node: usize) {
        let range = self.nodes[node].children();
        let children = &self.nodes[range];
        self.log_priors.clear();
        self.log_priors
            .extend(children.iter().map(|c| log_prior(c.prior)));
        let raw = self.nodes[node].raw_value;
        select::completed_q(&self.q, &self.log_priors, children, raw, &mut self.sigma);
    }

    /// Writes the root's visit counts, policy, value (egocentric: entry `i` for
    /// the player `i` turns after the side to move; one entry for 2 players) and
    /// chosen action (-1 once the game is over).
    pub fn write_output(
        &mut self,
        s: &Settings<'_, S::Geometry>,
        visits: &mut [i32],
        policy: &mut [f32],
        value: &mut [f32],
    ) -> i64 {
        visits.fill(0);
        policy.fill(0.0);
        let players = self.players;
        let me = self.root.to_move();
        let status = self.root.status(s.geometry);
        let root = self.nodes[0];
        let proven = if status != Status::Ongoing {
            proven_of(status)
        } else {
            root.proven
        };
        for (i, v) in value.iter_mut().enumerate() {
            let player = (me + i) % players;
            *v = if proven != UNKNOWN {
                value_of(proven, player)
            } else if root.visits == 0 {
                0.0
            } else if players == 2 {
                (-root.value_sum / root.visits as f64) as f32
            } else {
                (self.player_sums[player] / root.visits as f64) as f32
            };
        }
        if status != Status::Ongoing || root.num_children == 0 {
            return -1;
        }
        let range = root.children();
        self.fill_q(0, me);
        let children = &self.nodes[range.clone()];
        for c in children {
            visits[c.action as usize] = c.visits as i32;
        }
        let total: u32 = children.iter().map(|c| c.visits).sum();
        let gumbel = s.config.root == RootPolicy::Gumbel;
        let mut choice = if gumbel {
            self.gumbel_sigma(0);
            select::improved_policy(&self.log_priors, &self.sigma, &mut self.buf);
            for (c, p) in self.nodes[range.clone()].iter().zip(&self.buf) {
                policy[c.action as usize] = *p;
            }
            self.mark_eligible(me);
            let most = self.eligible_visits().max().unwrap_or(0);
            self.gumbel_root(most).unwrap_or(0)
        } else {
            let best = most_visited(children, |_| true);
            if s.config.forced_playouts > 0.0 && total > 0 && !s.uct {
                // The policy target without the visits forced playouts gave for nothing.
                let value = self.node_value(0, me);
                let priors: &[f32] = if self.run.root_priors.len() == children.len() {
                    &self.run.root_priors
                } else {
                    self.sigma.clear();
                    self.sigma.extend(children.iter().map(|c| c.prior));
                    &self.sigma
                };
                let (c_puct, k) = (s.config.c_puct, s.config.forced_playouts);
                let (q, kept) = (&self.q, &mut self.buf);
                select::pruned_visits(
                    q,
                    priors,
                    children,
                    value,
                    root.visits,
                    c_puct,
                    k,
                    best,
                    kept,
                );
                let sum: f32 = kept.iter().sum();
                for (c, w) in children.iter().zip(kept.iter()) {
                    policy[c.action as usize] = w / sum;
                }
            } else {
                let norm = if total > 0 {
                    total as f32
                } else {
                    children.iter().map(|c| c.prior).sum::<f32>()
                };
                for c in children {
                    let weight = if total > 0 { c.visits as f32 } else { c.prior };
                    policy[c.action as usize] = weight / norm;
                }
            }
            best
        };
        // Proven results overrule: play a proven win, avoid a proven loss.
        let children = &self.nodes[range];
        let win = won_by(me);
        if children.iter().any(|c| c.proven == win) {
            // A move that wins now (visited or not), else the most visited
            // proven win: the lookahead proves slower wins at their first visit
            // too, and the search then stops looking for faster ones.
            let wins_now = |c: &Node| {
                let mut after = self.root.clone();
                after.play(c.action as usize, s.geometry);
                after.status(s.geometry) == Status::Won(me)
            };
            choice = children
                .iter()
                .position(wins_now)
                .unwrap_or_else(|| most_visited(children, |c| c.proven == win));
        } else if value_of_child(&children[choice], me) == Some(-1.0)
            && children.iter().any(|c| value_of_child(c, me) != Some(-1.0))
        {
            choice = most_visited(children, |c| value_of_child(c, me) != Some(-1.0));
        }
        children[choice].action as i64
    }

    /// Plays `action` at the root, keeping its subtree when `reuse` (and it was
    /// searched), else starting an empty tree.
    pub fn advance(&mut self, action: usize, reuse: bool, geometry: &S::Geometry) {
        let root = self.nodes[0];
        let child = self.nodes[root.children()]
            .iter()
            .position(|c| c.action as usize == action)
            .map(|i| root.first_child as usize + i);
        self.root.play(action, geometry);
        self.scratch = self.root.clone();
        self.catch_up = 0;
        match child {
            Some(c) if reuse && self.nodes[c].visits > 0 && self.nodes[c].num_children > 0 => {
                self.keep_subtree(c)
            }
            Some(c) if reuse && self.nodes[c].visits > 0 => {
                // Proven at its first visit, never expanded: no subtree to keep,
                // but the visits it took stand for simulations below it.
                self.catch_up = self.nodes[c].visits - 1;
                self.clear();
            }
            _ => self.clear(),
        }
    }

    /// Rebuilds the arena from the subtree of `top` into the spare arena, which
    /// then swaps in (both keep their capacity from move to move, so a kept tree
    /// allocates nothing in self-play). Children stay contiguous; the blocks are
    /// laid out depth first, most visited child first, so the lines most
    /// simulations follow sit in consecutive memory.
    fn keep_subtree(&mut self, top: usize) {
        let p = self.players;
        let nodes = &mut self.spare_nodes;
        let sums = &mut self.spare_sums;
        let stack = &mut self.path;
        let order = &mut self.order;
        nodes.clear();
        sums.clear();
        stack.clear();
        nodes.push(self.nodes[top]);
        if p > 2 {
            sums.extend_from_slice(&self.player_sums[top * p..(top + 1) * p]);
        }
        stack.push(0);
        while let Some(i) = stack.pop() {
            let i = i as usize;
            let range = nodes[i].children();
            if range.is_empty() {
                continue;
            }
            let first = nodes.len();
            nodes[i].first_child = first as u32;
            if p > 2 {
                sums.extend_from_slice(&self.player_sums[range.start * p..range.end * p]);
            }
            nodes.extend_from_slice(&self.nodes[range]);
            // The most visited child's block comes next: pushed last, popped first.
            order.clear();
            order.extend(
                nodes[first..]
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.num_children > 0)
                    .map(|(j, c)| (c.visits, (first + j) as u32)),
            );
            order.sort_unstable();
            stack.extend(order.iter().map(|&(_, j)| j));
        }
        nodes[0].prior = 0.0;
        std::mem::swap(&mut self.nodes, &mut self.spare_nodes);
        std::mem::swap(&mut self.player_sums, &mut self.spare_sums);
    }

    /// For tests: the root's children `(action, visits, proven)`.
    #[cfg(test)]
    pub fn root_children(&self) -> Vec<(u16, u32, u8)> {
        self.nodes[self.nodes[0].children()]
            .iter()
            .map(|c| (c.action, c.visits, c.proven))
            .collect()
    }

    /// For tests: checks at every expanded node that the two-pass PUCT choice is
    /// the plain definition's (a proven win first, else [`select::puct`] over
    /// [`Tree::fill_q`]'s values); returns the nodes checked.
    #[cfg(test)]
    pub fn check_select_puct(&mut self, c: f32) -> usize {
        let mut stack = vec![(0usize, self.root.to_move())];
        let mut checked = 0;
        while let Some((node, mover)) = stack.pop() {
            let range = self.nodes[node].children();
            if range.is_empty() {
                continue;
            }
            let fast = self.select_puct(node, mover, false, c);
            let plain = self.fill_q(node, mover).unwrap_or_else(|| {
                let value = self.node_value(node, mover);
                let children = &self.nodes[range.clone()];
                let priors = children.iter().map(|ch| ch.prior);
                select::puct(&self.q, priors, children, value, self.nodes[node].visits, c)
            });
            assert_eq!(fast, plain, "node {node}");
            checked += 1;
            let next = (mover + 1) % self.players;
            stack.extend(range.map(|child| (child, next)));
        }
        checked
    }

    /// For tests: entries in the undo log of the run in progress.
    #[cfg(test)]
    pub fn undo_len(&self) -> usize {
        self.undo.log.len()
    }

    /// For tests: overwrites the root's visits and value sum.
    #[cfg(test)]
    pub fn set_root_stats(&mut self, visits: u32, value_sum: f64) {
        self.nodes[0].visits = visits;
        self.nodes[0].value_sum = value_sum;
    }

    #[cfg(test)]
    pub fn root_node(&self) -> Node {
        self.nodes[0]
    }
}

fn value_of_child(c: &Node, mover: usize) -> Option<f32> {
    (c.proven != UNKNOWN).then(|| value_of(c.proven, mover))
}

/// The most visited child passing `keep` (ties: the larger prior, then the lower action).
fn most_visited(children: &[Node], keep: impl Fn(&Node) -> bool) -> usize {
    let mut best: Option<usize> = None;
    for (i, c) in children.iter().enumerate() {
        if !keep(c) {
            continue;
        }
        let better = match best {
            None => true,
            Some(b) => {
                let o = &children[b];
                c.visits > o.visits || (c.visits == o.visits && c.prior > o.prior)
            }
        };
        if better {
            best = Some(i);
        }
    }
    best.unwrap_or(0)
}
