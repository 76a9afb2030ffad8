//! Invariant checkers shared by the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`, through
//! `inarow_fuzz::checks`) and the proptest suite (`tests/fuzz_invariants.rs`, which
//! includes this file with `#[path]`). Each `check_*` takes raw bytes, derives a valid
//! (mostly small) configuration from them and panics when an invariant breaks.
//!
//! Everything here depends only on the public API of `inarow`, and the oracles (line
//! scan, position validity, obs planes, minimax) are written independently of it.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use inarow::batch::{ActionError, Autoreset, ObsOut, StepBuffers, VecGames};
use inarow::solver::{Position, Solver, SolverConfig};
use inarow::{from_bytes, to_bytes, Game, MoveError, Rules, WinRule};

/// Reads bytes from the fuzz input; past the end every read gives 0.
pub struct Input<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Input<'a> {
        Input { data, pos: 0 }
    }
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    pub fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.u8();
        }
        u64::from_le_bytes(b)
    }
    /// `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 256 {
            self.u8() as usize % n
        } else {
            self.u16() as usize % n
        }
    }
}

/// Valid rules from the input: small boards mostly (sides 1..=8), sometimes up to
/// 64x64 when `big` is allowed; `k` in `1..=max side`; 2..=16 players (mostly 2..=4).
pub fn rules_from(inp: &mut Input, big: bool) -> Rules {
    let sel = inp.u8();
    let max_side = if big && sel >= 224 { 64 } else { 8 };
    let w = 1 + inp.below(max_side) as i64;
    let h = 1 + inp.below(max_side) as i64;
    let k = 1 + inp.below(w.max(h) as usize) as i64;
    let pb = inp.u8();
    let players = if pb < 192 {
        2 + pb as i64 % 3
    } else {
        2 + pb as i64 % 15
    };
    let gravity = sel & 1 == 1;
    Rules::new(w, h, k, players, gravity).expect("rules derived in range")
}

/// Everything observable about a game, for before/after comparisons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub cells: Vec<i8>,
    pub history: Vec<u16>,
    pub to_move: usize,
    pub winner: Option<usize>,
    pub hash: u64,
    pub is_over: bool,
    pub is_draw: bool,
    pub stones: usize,
}

pub fn snapshot(g: &Game) -> Snapshot {
    let mut cells = vec![0i8; g.rules().num_cells()];
    g.write_cells(&mut cells);
    Snapshot {
        cells,
        history: g.history().to_vec(),
        to_move: g.to_move(),
        winner: g.winner(),
        hash: g.hash(),
        is_over: g.is_over(),
        is_draw: g.is_draw(),
        stones: g.stones_on_board(),
    }
}

/// Players (0-based, ascending) owning a run of at least `k` in the grid (0 empty,
/// else 1-based owner), by a plain scan of the runs in the four directions.
pub fn players_with_lines(cells: &[i8], w: usize, h: usize, k: usize) -> Vec<usize> {
    players_with_lines_under(cells, w, h, k, |_| false)
}

/// Whether `player`'s lines must be exactly `k` under `rule` (the standard rule for
/// everyone, renju for black), as the rules define it, written here apart.
fn exact_lines(rule: WinRule, player: usize) -> bool {
    match rule {
        WinRule::Standard => true,
        WinRule::Renju => player == 0,
        _ => false,
    }
}

/// [`players_with_lines`] where a player for whom `exact(player)` holds owns a line
/// only with a run of exactly `k` (a longer run is an overline, no line).
pub fn players_with_lines_under(
    cells: &[i8],
    w: usize,
    h: usize,
    k: usize,
    exact: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let mut found: Vec<usize> = Vec::new();
    let at = |r: i64, c: i64| -> i8 {
        if r < 0 || c < 0 || r >= h as i64 || c >= w as i64 {
            0
        } else {
            cells[r as usize * w + c as usize]
        }
    };
    for r in 0..h as i64 {
        for c in 0..w as i64 {
            let v = at(r, c);
            if v <= 0 {
                continue;
            }
            for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
                if at(r - dr, c - dc) == v {
                    continue; // not the start of the run
                }
                let mut len = 1;
                while at(r + dr * len, c + dc * len) == v {
                    len += 1;
                }
                let owner = v as usize - 1;
                let line = if exact(owner) {
                    len as usize == k
                } else {
                    len as usize >= k
                };
                if line && !found.contains(&owner) {
                    found.push(owner);
                }
            }
        }
    }
    found.sort_unstable();
    found
}

/// Checks a game against its own cells: counts in turn order, side to move, winner by
/// line scan, draw/over flags, hash, legal actions vs cells, mask, owner, winning line.
pub fn check_state(g: &Game) {
    let r = *g.rules();
    let (w, h, k, p) = (r.width(), r.height(), r.k(), r.players());
    let s = snapshot(g);
    // Cells hold owners in 0..=players.
    assert!(s.cells.iter().all(|&c| (0..=p as i8).contains(&c)));
    let n = s.cells.iter().filter(|&&c| c != 0).count();
    assert_eq!(n, s.stones, "stones_on_board");
    for q in 0..p {
        let count = s.cells.iter().filter(|&&c| c == q as i8 + 1).count();
        assert_eq!(
            count,
            n / p + usize::from(q < n % p),
            "stones of player {q}"
        );
    }
    assert_eq!(s.to_move, n % p, "to_move");
    // Owner agrees with write_cells.
    for row in 0..h {
        for col in 0..w {
            assert_eq!(g.owner(row, col) as i8, s.cells[row * w + col]);
        }
    }
    // Gravity: no stone above an empty cell.
    if r.gravity() {
        for col in 0..w {
            for row in 1..h {
                if s.cells[(row - 1) * w + col] != 0 {
                    assert_ne!(s.cells[row * w + col], 0, "floating stone at {row},{col}");
                }
            }
        }
    }
    // Winner by brute force (a decoded game may be under any rule).
    let rule = r.rule();
    let lines = players_with_lines_under(&s.cells, w, h, k, |q| exact_lines(rule, q));
    assert_eq!(
        lines,
        s.winner.into_iter().collect::<Vec<_>>(),
        "winner vs line scan"
    );
    if let Some(win) = s.winner {
        assert_eq!(win, (n + p - 1) % p, "the winner moved last");
        check_winning_line(g, win, k);
    } else {
        assert!(g.winning_line().is_none());
    }
    let full = n == w * h;
    // Renju: black to move may not play its forbidden cells (the judge is checked
    // against an independent referee by `scripts/referee_diff.py`); with every empty
    // cell forbidden the game is drawn.
    let renju_black = rule == WinRule::Renju && s.to_move == 0 && s.winner.is_none();
    let open: Vec<usize> = if r.gravity() {
        (0..w).filter(|&c| s.cells[c] == 0).collect()
    } else {
        (0..w * h).filter(|&a| s.cells[a] == 0).collect()
    };
    let playable: Vec<usize> = if renju_black {
        open.iter()
            .copied()
            .filter(|&a| g.forbidden(a).is_none())
            .collect()
    } else {
        open
    };
    let stalled = !full && s.winner.is_none() && playable.is_empty();
    assert_eq!(
        s.is_draw,
        (full || stalled) && s.winner.is_none(),
        "is_draw"
    );
    assert_eq!(s.is_over, full || stalled || s.winner.is_some(), "is_over");
    // Hash.
    assert_eq!(s.hash, g.recompute_hash(), "incremental hash");
    // Legal actions from the cells alone.
    let expected: Vec<usize> = if s.is_over { Vec::new() } else { playable };
    assert_eq!(g.legal_actions(), expected, "legal_actions");
    let mut want = vec![false; r.num_actions()];
    for &a in &expected {
        want[a] = true;
    }
    let mut mask = vec![true; r.num_actions()];
    g.write_legal_mask(&mut mask);
    for (a, &m) in mask.iter().enumerate() {
        assert_eq!(m, want[a], "mask[{a}]");
        assert_eq!(g.is_legal(a), m, "is_legal({a})");
    }
    assert_eq!(g.num_legal(), expected.len());
    assert!(!g.is_legal(r.num_actions()));
    assert!(!g.is_legal(usize::MAX));
}

fn check_winning_line(g: &Game, win: usize, k: usize) {
    let line = g.winning_line().expect("a winner has a winning line");
    assert!(line.len() >= k, "winning line {line:?} shorter than k={k}");
    for &(row, col) in &line {
        assert_eq!(g.owner(row, col) as usize, win + 1, "line cell {row},{col}");
    }
    if line.len() > 1 {
        let step = |a: (usize, usize), b: (usize, usize)| {
            (b.0 as i64 - a.0 as i64, b.1 as i64 - a.1 as i64)
        };
        let d = step(line[0], line[1]);
        assert!(
            [(0, 1), (1, 0), (1, 1), (-1, 1)].contains(&d),
            "line {line:?} is not a line"
        );
        for pair in line.windows(2) {
            assert_eq!(step(pair[0], pair[1]), d, "line {line:?} is not straight");
        }
    }
}

/// Plays `action` through the checked move; checks refusal leaves the game unchanged
/// and that refusal happens exactly for illegal actions. Returns whether it was played.
pub fn play_checked(g: &mut Game, action: usize) -> bool {
    let before = snapshot(g);
    let legal = g.is_legal(action);
    match g.play(action) {
        Ok(won) => {
            assert!(legal, "play({action}) accepted an illegal action");
            assert_eq!(won, g.winner().is_some(), "play's result vs winner");
            assert_eq!(g.history().last().copied(), Some(action as u16));
            assert_eq!(g.history().len(), before.history.len() + 1);
            true
        }
        Err(e) => {
            assert!(!legal, "play({action}) refused a legal action: {e}");
            let expected_kind = if action >= g.rules().num_actions() {
                matches!(e, MoveError::OutOfRange { .. })
            } else if before.is_over {
                matches!(e, MoveError::GameOver { .. })
            } else {
                matches!(
                    e,
                    MoveError::ColumnFull { .. } | MoveError::CellOccupied { .. }
                )
            };
            assert!(expected_kind, "play({action}) gave {e:?}");
            let _ = e.to_string();
            assert_eq!(
                snapshot(g),
                before,
                "a refused play({action}) changed the game"
            );
            false
        }
    }
}

/// An action from the input: mostly in range, sometimes just out, sometimes huge.
fn action_from(inp: &mut Input, num_actions: usize) -> usize {
    match inp.u8() % 16 {
        0 => num_actions + inp.u8() as usize,
        1 => usize::MAX - inp.u8() as usize,
        2 => inp.u16() as usize,
        3 => (inp.u16() as usize) << 16 | num_actions,
        _ => inp.below(num_actions),
    }
}

/// `game_actions`: rules and a sequence of checked plays and undos, every invariant
/// after every step, then undo everything back to the start.
pub fn check_game_actions(data: &[u8]) {
    let mut inp = Input::new(data);
    let rules = rules_from(&mut inp, true);
    let mut g = Game::new(rules);
    check_state(&g);
    let start = snapshot(&g);
    assert_eq!(start.hash, 0);
    // Snapshots before each move still on the board.
    let mut stack: Vec<Snapshot> = Vec::new();
    let big = rules.num_cells() > 256;
    let mut steps = 0;
    while !inp.is_empty() && steps < 2000 {
        steps += 1;
        // One step in eight undoes, five in eight play a legal move.
        let op = inp.u8() % 8;
        if op == 0 {
            let last = g.history().last().copied();
            match g.undo() {
                Ok(a) => {
                    let prev = stack.pop().expect("undo with a move played");
                    assert_eq!(Some(a as u16), last, "undo returns the last action");
                    assert_eq!(snapshot(&g), prev, "undo did not restore exactly");
                }
                Err(e) => {
                    assert_eq!(e, MoveError::NothingToUndo);
                    assert!(stack.is_empty());
                    assert_eq!(snapshot(&g), start);
                }
            }
        } else {
            let a = if op <= 4 && !g.is_over() {
                // A legal action picked from the list (most steps should move).
                let legal = g.legal_actions();
                legal[inp.below(legal.len())]
            } else {
                action_from(&mut inp, rules.num_actions())
            };
            let before = snapshot(&g);
            if play_checked(&mut g, a) {
                stack.push(before);
            }
        }
        // Full checks are linear in the board: on big boards only every few steps.
        if !big || steps % 16 == 0 || g.is_over() {
            check_state(&g);
        } else {
            assert_eq!(g.hash(), g.recompute_hash());
        }
        // Probes of illegal actions: out of range, and an occupied cell.
        for bad in [rules.num_actions(), usize::MAX] {
            assert!(!play_checked(&mut g, bad));
        }
        if let Some(&last) = g.history().last() {
            if g.is_over() || !g.is_legal(last as usize) {
                assert!(!play_checked(&mut g, last as usize));
            }
        }
    }
    check_state(&g);
    while let Some(prev) = stack.pop() {
        g.undo().expect("a move to undo");
        assert_eq!(snapshot(&g), prev, "undo did not restore exactly");
    }
    assert_eq!(g.undo(), Err(MoveError::NothingToUndo));
    assert_eq!(snapshot(&g), start);
    assert_eq!(g, Game::new(rules));
}

/// Plays up to a number of legal moves read from the input (fewer if the game ends).
fn play_some_moves(g: &mut Game, inp: &mut Input) {
    let moves = inp.below(g.rules().num_cells() + 1);
    for _ in 0..moves {
        if g.is_over() {
            break;
        }
        let legal = g.legal_actions();
        g.play(legal[inp.below(legal.len())]).unwrap();
    }
}

/// A game built from the input: optionally from set-up cells (a random game's cells),
/// then some legal moves. Used to make structured `from_bytes` inputs.
fn game_from(inp: &mut Input) -> Game {
    let rules = rules_from(inp, false);
    let mut g = Game::new(rules);
    play_some_moves(&mut g, inp);
    if inp.u8() & 1 == 1 {
        let mut cells = vec![0i8; rules.num_cells()];
        g.write_cells(&mut cells);
        let cells: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
        g = Game::from_cells(rules, &cells).expect("a played position is valid");
        play_some_moves(&mut g, inp);
    }
    g
}

/// Decodes `bytes`; when accepted, the game is consistent and re-encodes to bytes
/// that decode to an equal game with an equal history and set-up.
pub fn check_decode(bytes: &[u8]) {
    let Ok(g) = from_bytes(bytes) else { return };
    check_state(&g);
    let again = to_bytes(&g);
    let back = from_bytes(&again).expect("re-encoded bytes decode");
    assert_eq!(back, g);
    assert_eq!(back.history(), g.history());
    assert_eq!(back.setup_cells(), g.setup_cells());
    assert_eq!(snapshot(&back), snapshot(&g));
    assert_eq!(to_bytes(&back), again, "encoding is canonical");
}

/// `from_bytes`: first byte picks raw bytes or a real encoding with a few mutations
/// (byte overwrites, truncation, appended bytes).
pub fn check_from_bytes(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        check_decode(data);
        return;
    };
    if mode < 64 {
        check_decode(rest);
        return;
    }
    let mut inp = Input::new(rest);
    let g = game_from(&mut inp);
    let mut bytes = to_bytes(&g);
    let back = from_bytes(&bytes).expect("a real encoding decodes");
    assert_eq!(back, g);
    assert_eq!(back.history(), g.history());
    assert_eq!(snapshot(&back), snapshot(&g));
    assert_eq!(to_bytes(&back), bytes);
    let edits = inp.u8() % 4;
    for _ in 0..edits {
        match inp.u8() % 4 {
            0 | 1 => {
                let i = inp.below(bytes.len());
                bytes[i] = inp.u8();
            }
            2 => {
                let n = inp.below(bytes.len() + 1);
                bytes.truncate(n);
            }
            _ => bytes.push(inp.u8()),
        }
        if bytes.is_empty() {
            break;
        }
    }
    check_decode(&bytes);
}

/// Whether `cells` is a position `Game::from_cells` must accept, decided independently:
/// values, gravity, counts in turn order, and lines (only the last mover may have
/// them, and removing one of its stones, a top one with gravity, must clear them all).
pub fn position_is_valid(rules: &Rules, cells: &[u8]) -> bool {
    let (w, h, k, p) = (rules.width(), rules.height(), rules.k(), rules.players());
    if cells.len() != w * h || cells.iter().any(|&c| c as usize > p) {
        return false;
    }
    if rules.gravity() {
        for col in 0..w {
            for row in 1..h {
                if cells[(row - 1) * w + col] != 0 && cells[row * w + col] == 0 {
                    return false;
                }
            }
        }
    }
    let n = cells.iter().filter(|&&c| c != 0).count();
    for q in 0..p {
        let count = cells.iter().filter(|&&c| c as usize == q + 1).count();
        if count != n / p + usize::from(q < n % p) {
            return false;
        }
    }
    let mut grid: Vec<i8> = cells.iter().map(|&c| c as i8).collect();
    let lines = players_with_lines(&grid, w, h, k);
    match lines.as_slice() {
        [] => true,
        [q] if *q == (n + p - 1) % p => (0..w * h).any(|i| {
            if grid[i] as usize != q + 1 {
                return false;
            }
            if rules.gravity() && i >= w && grid[i - w] != 0 {
                return false; // not the top stone of its column
            }
            grid[i] = 0;
            let clean = players_with_lines(&grid, w, h, k).is_empty();
            grid[i] = *q as i8 + 1;
            clean
        }),
        _ => false,
    }
}

/// `from_cells`: rules and cells (raw, or a played position with a few edits);
/// acceptance must match the independent oracle, an accepted position is consistent,
/// round-trips through `write_cells` and plays on consistently.
pub fn check_from_cells(data: &[u8]) {
    let mut inp = Input::new(data);
    let rules = rules_from(&mut inp, false);
    let (cells_n, p) = (rules.num_cells(), rules.players());
    let mode = inp.u8();
    let mut cells: Vec<u8> = if mode < 64 {
        (0..cells_n).map(|_| inp.u8() % (p as u8 + 2)).collect()
    } else {
        let mut g = Game::new(rules);
        let moves = inp.below(cells_n + 1);
        for _ in 0..moves {
            if g.is_over() {
                break;
            }
            let legal = g.legal_actions();
            g.play(legal[inp.below(legal.len())]).unwrap();
        }
        let mut c = vec![0i8; cells_n];
        g.write_cells(&mut c);
        c.iter().map(|&x| x as u8).collect()
    };
    let edits = if mode < 64 { 0 } else { mode % 4 };
    for _ in 0..edits {
        let i = inp.below(cells_n);
        cells[i] = inp.u8() % (p as u8 + 1);
    }
    if mode == 255 {
        cells.push(0); // wrong length
    }
    let expected = position_is_valid(&rules, &cells);
    match Game::from_cells(rules, &cells) {
        Err(e) => {
            assert!(
                !expected,
                "from_cells refused a valid position: {e}\n{cells:?}"
            );
            assert!(!e.to_string().is_empty());
        }
        Ok(mut g) => {
            assert!(
                expected,
                "from_cells accepted an invalid position {cells:?}"
            );
            check_state(&g);
            let mut out = vec![0i8; cells_n];
            g.write_cells(&mut out);
            let back: Vec<u8> = out.iter().map(|&c| c as u8).collect();
            assert_eq!(back, cells, "write_cells round trip");
            assert!(g.history().is_empty());
            let start = snapshot(&g);
            assert_eq!(g.undo(), Err(MoveError::NothingToUndo));
            assert_eq!(snapshot(&g), start);
            let again = Game::from_cells(rules, &back).unwrap();
            assert_eq!(snapshot(&again), start);
            // The bytes format carries the set-up position.
            check_decode(&to_bytes(&g));
            // Play on a little, then undo back to the set-up.
            let more = inp.below(cells_n + 1);
            for _ in 0..more {
                if g.is_over() {
                    break;
                }
                let legal = g.legal_actions();
                play_checked(&mut g, legal[inp.below(legal.len())]);
                check_state(&g);
            }
            while g.undo().is_ok() {}
            assert_eq!(snapshot(&g), start);
        }
    }
}

/// Output buffers for a batch step, owned.
struct Bufs {
    obs: Vec<f32>,
    obs_u8: Vec<u8>,
    obs_bool: Vec<bool>,
    rewards: Vec<f32>,
    player_rewards: Vec<f32>,
    terminated: Vec<bool>,
    mask: Vec<bool>,
    current_player: Vec<i8>,
    winner: Vec<i8>,
    reset: Vec<bool>,
    final_obs: Vec<f32>,
}

impl Bufs {
    /// Buffers filled with sentinels (so that a refused step can be seen not to write).
    fn new(n: usize, v: &VecGames) -> Bufs {
        let (o, p, a) = (v.obs_size(), v.rules().players(), v.rules().num_actions());
        Bufs {
            obs: vec![7.0; n * o],
            obs_u8: vec![7; n * o],
            obs_bool: vec![true; n * o],
            rewards: vec![7.0; n],
            player_rewards: vec![7.0; n * p],
            terminated: vec![true; n],
            mask: vec![true; n * a],
            current_player: vec![-7; n],
            winner: vec![-7; n],
            reset: vec![true; n],
            final_obs: vec![7.0; n * o],
        }
    }

    fn step_buffers(&mut self, dtype: u8) -> StepBuffers<'_> {
        StepBuffers {
            obs: match dtype % 3 {
                0 => ObsOut::F32(&mut self.obs),
                1 => ObsOut::U8(&mut self.obs_u8),
                _ => ObsOut::Bool(&mut self.obs_bool),
            },
            rewards: &mut self.rewards,
            player_rewards: &mut self.player_rewards,
            terminated: &mut self.terminated,
            mask: &mut self.mask,
            current_player: &mut self.current_player,
            winner: &mut self.winner,
            reset: &mut self.reset,
            final_obs: Some(ObsOut::F32(&mut self.final_obs)),
            // The general step's outputs: absent without an opponent or illegal losses.
            agent_player: &mut [],
            final_agent_player: &mut [],
            illegal: &mut [],
        }
    }

    /// The observations written, as f32, whichever dtype was used.
    fn obs_as_f32(&self, dtype: u8) -> Vec<f32> {
        match dtype % 3 {
            0 => self.obs.clone(),
            1 => self.obs_u8.iter().map(|&x| x as f32).collect(),
            _ => self.obs_bool.iter().map(|&x| x as u8 as f32).collect(),
        }
    }

    fn fingerprint(&self) -> String {
        format!(
            "{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}{:?}",
            self.obs,
            self.obs_u8,
            self.obs_bool,
            self.rewards,
            self.player_rewards,
            self.terminated,
            self.mask,
            self.current_player,
            self.winner,
            self.reset,
            self.final_obs
        )
    }
}

/// Egocentric planes of a game, computed from its cells.
fn planes_of(g: &Game) -> Vec<f32> {
    let r = g.rules();
    let (p, n) = (r.players(), r.num_cells());
    let mut cells = vec![0i8; n];
    g.write_cells(&mut cells);
    let mut out = vec![0.0; p * n];
    for plane in 0..p {
        let owner = ((g.to_move() + plane) % p) as i8 + 1;
        for (i, &c) in cells.iter().enumerate() {
            if c == owner {
                out[plane * n + i] = 1.0;
            }
        }
    }
    out
}

/// An action for the batch: mostly legal or near range, sometimes hostile.
fn batch_action(inp: &mut Input, g: &Game) -> i64 {
    let n = g.rules().num_actions() as i64;
    match inp.u8() % 32 {
        0 => -1 - inp.u8() as i64,
        1 => i64::MIN + inp.u8() as i64,
        2 => i64::MAX - inp.u8() as i64,
        3 => n + inp.u8() as i64,
        4..=7 => inp.below(n as usize) as i64,
        _ => {
            let legal = g.legal_actions();
            if legal.is_empty() {
                inp.below(n as usize) as i64
            } else {
                legal[inp.below(legal.len())] as i64
            }
        }
    }
}

/// `batch_step`: a small `VecGames` stepped with arbitrary batches; refused batches
/// change nothing (games, pending resets, buffers), accepted batches equal stepping
/// clones one by one with the checked `play`.
pub fn check_batch_step(data: &[u8]) {
    let mut inp = Input::new(data);
    let rules = rules_from(&mut inp, false);
    let n = 1 + inp.below(8);
    let mode = match inp.u8() % 3 {
        0 => Autoreset::NextStep,
        1 => Autoreset::SameStep,
        _ => Autoreset::Disabled,
    };
    let mut v = VecGames::new(rules, n, inp.u64(), mode, Some(1)).expect("small batch");
    assert_eq!(v.num_envs(), n);
    assert_eq!(v.autoreset(), mode);
    let mut model: Vec<Game> = vec![Game::new(rules); n];
    let mut pending = vec![false; n];
    let p = rules.players();
    let o = v.obs_size();
    assert_eq!(o, p * rules.num_cells());
    let mut rounds = 0;
    while !inp.is_empty() && rounds < 300 {
        rounds += 1;
        let op = inp.u8();
        if op % 16 == 15 {
            let which: Vec<bool> = (0..n).map(|_| inp.u8() & 1 == 1).collect();
            v.reset_some(&which);
            for i in 0..n {
                if which[i] {
                    model[i] = Game::new(rules);
                    pending[i] = false;
                }
            }
        } else if op % 16 == 14 {
            let mut b = Bufs::new(n, &v);
            v.observe(b.step_buffers(op / 16));
            let obs = b.obs_as_f32(op / 16);
            for (i, g) in model.iter().enumerate() {
                assert_eq!(&obs[i * o..(i + 1) * o], &planes_of(g)[..], "observe obs");
                assert_eq!(b.current_player[i], g.to_move() as i8 + 1);
                assert_eq!(b.rewards[i], 0.0);
                assert!(!b.terminated[i] && !b.reset[i]);
                assert_eq!(b.winner[i], 0);
            }
        } else {
            let actions: Vec<i64> = model.iter().map(|g| batch_action(&mut inp, g)).collect();
            step_and_compare(&mut v, &mut model, &mut pending, &actions, op / 16);
        }
        for i in 0..n {
            assert_eq!(snapshot(&v.games()[i]), snapshot(&model[i]), "env {i}");
            assert_eq!(v.needs_reset(i), pending[i], "needs_reset({i})");
        }
    }
}

fn step_and_compare(
    v: &mut VecGames,
    model: &mut [Game],
    pending: &mut [bool],
    actions: &[i64],
    dtype: u8,
) {
    let n = model.len();
    let rules = *v.rules();
    let (p, o, na) = (rules.players(), v.obs_size(), rules.num_actions());
    // The model: the first refused action (by env index), else the stepped clones.
    let mut next: Vec<Game> = model.to_vec();
    let mut refused: Option<ActionError> = None;
    for i in 0..n {
        if pending[i] {
            continue;
        }
        let a = actions[i];
        let err = if a < 0 || a as u64 >= na as u64 {
            Some(MoveError::OutOfRange {
                action: a as i128,
                num_actions: na,
            })
        } else {
            next[i].play(a as usize).err()
        };
        if let Some(error) = err {
            refused = Some(ActionError { env: i, error });
            break;
        }
    }
    let before: Vec<Snapshot> = v.games().iter().map(snapshot).collect();
    let mut b = Bufs::new(n, v);
    let untouched = b.fingerprint();
    let validated = v.validate(actions);
    let result = v.step(actions, b.step_buffers(dtype));
    assert_eq!(validated, result, "validate and step disagree");
    match refused {
        Some(expected) => {
            let got = result.expect_err("the batch holds a refused action");
            assert_eq!(got, expected);
            let _ = got.to_string();
            let after: Vec<Snapshot> = v.games().iter().map(snapshot).collect();
            assert_eq!(after, before, "a refused batch changed a game");
            for (i, &flag) in pending.iter().enumerate() {
                assert_eq!(
                    v.needs_reset(i),
                    flag,
                    "a refused batch changed needs_reset"
                );
            }
            assert_eq!(b.fingerprint(), untouched, "a refused batch wrote outputs");
        }
        None => {
            result.expect("every action is legal");
            let obs = b.obs_as_f32(dtype);
            for i in 0..n {
                let mut reset = false;
                let (mut reward, mut win, mut term) = (0.0, 0i8, false);
                let mut final_obs = None;
                if pending[i] {
                    next[i] = Game::new(rules);
                    pending[i] = false;
                    reset = true;
                } else {
                    let mover = model[i].to_move();
                    if next[i].winner().is_some() {
                        reward = 1.0;
                        win = mover as i8 + 1;
                    }
                    term = next[i].is_over();
                    if term {
                        match v.autoreset() {
                            Autoreset::NextStep => pending[i] = true,
                            Autoreset::SameStep => {
                                final_obs = Some(planes_of(&next[i]));
                                next[i] = Game::new(rules);
                                reset = true;
                            }
                            Autoreset::Disabled => {}
                        }
                    }
                }
                assert_eq!(b.rewards[i], reward, "rewards[{i}]");
                assert_eq!(b.winner[i], win, "winner[{i}]");
                assert_eq!(b.terminated[i], term, "terminated[{i}]");
                assert_eq!(b.reset[i], reset, "reset[{i}]");
                let pr = &b.player_rewards[i * p..(i + 1) * p];
                for (q, &x) in pr.iter().enumerate() {
                    let want = if win == 0 {
                        0.0
                    } else if q as i8 + 1 == win {
                        1.0
                    } else {
                        -1.0
                    };
                    assert_eq!(x, want, "player_rewards[{i}][{q}]");
                }
                if let Some(f) = final_obs {
                    assert_eq!(&b.final_obs[i * o..(i + 1) * o], &f[..], "final_obs[{i}]");
                }
                assert_eq!(
                    &obs[i * o..(i + 1) * o],
                    &planes_of(&next[i])[..],
                    "obs[{i}]"
                );
                let legal = next[i].legal_actions();
                for a in 0..na {
                    assert_eq!(
                        b.mask[i * na + a],
                        pending[i] || legal.contains(&a),
                        "mask[{i}][{a}]"
                    );
                }
                assert_eq!(b.current_player[i], next[i].to_move() as i8 + 1);
            }
            model.clone_from_slice(&next);
        }
    }
}

/// A tiny gravity game for the minimax oracle: cells row-major, row 0 the top.
#[derive(Clone)]
struct Tiny {
    w: usize,
    h: usize,
    k: usize,
    cells: Vec<i8>,
    moves: usize,
}

impl Tiny {
    fn top(&self, col: usize) -> Option<usize> {
        (0..self.h)
            .rev()
            .find(|&row| self.cells[row * self.w + col] == 0)
    }
    fn key(&self) -> u64 {
        self.cells.iter().fold(0u64, |acc, &c| acc * 3 + c as u64)
    }
    /// Whether the stone just put at `(row, col)` makes a line of `k`.
    fn line_at(&self, row: usize, col: usize) -> bool {
        let v = self.cells[row * self.w + col];
        let at = |r: i64, c: i64| {
            r >= 0
                && c >= 0
                && (r as usize) < self.h
                && (c as usize) < self.w
                && self.cells[r as usize * self.w + c as usize] == v
        };
        [(0i64, 1i64), (1, 0), (1, 1), (1, -1)]
            .iter()
            .any(|&(dr, dc)| {
                let mut len = 1;
                for sgn in [1, -1] {
                    let mut i = 1;
                    while at(row as i64 + sgn * dr * i, col as i64 + sgn * dc * i) {
                        len += 1;
                        i += 1;
                    }
                }
                len >= self.k
            })
    }
}

/// Pons' score of a position (not over) for the side to move, by plain negamax.
fn minimax(t: &mut Tiny, memo: &mut HashMap<u64, i32>) -> i32 {
    let n = (t.w * t.h) as i32;
    let m = t.moves as i32;
    if m == n {
        return 0;
    }
    let key = t.key();
    if let Some(&s) = memo.get(&key) {
        return s;
    }
    let mover = (t.moves % 2) as i8 + 1;
    let mut best = i32::MIN;
    for col in 0..t.w {
        let Some(row) = t.top(col) else { continue };
        t.cells[row * t.w + col] = mover;
        let s = if t.line_at(row, col) {
            (n + 1 - m) / 2
        } else {
            t.moves += 1;
            let s = -minimax(t, memo);
            t.moves -= 1;
            s
        };
        t.cells[row * t.w + col] = 0;
        best = best.max(s);
    }
    memo.insert(key, best);
    best
}

/// `solver_small`: tiny gravity boards (at most 16 cells), arbitrary move prefixes;
/// every position on the way with at most 12 empty cells is solved (strong and weak,
/// one table shared across them) and must match plain minimax.
pub fn check_solver_small(data: &[u8]) {
    let mut inp = Input::new(data);
    let w = 1 + inp.below(5);
    let h = 1 + inp.below(16 / w);
    let k = 1 + inp.below(w.max(h) + 1); // may exceed both sides: nobody can win
    let tt = [1usize << 10, 1 << 14, 1 << 16][inp.below(3)];
    let mut solver = Solver::new(SolverConfig {
        tt_bytes: tt,
        threads: 1,
    })
    .expect("solver config");
    let cancel = AtomicBool::new(false);
    let mut memo = HashMap::new();
    let mut pos = Position::new(w, h, k).expect("tiny board");
    let mut tiny = Tiny {
        w,
        h,
        k,
        cells: vec![0; w * h],
        moves: 0,
    };
    let mut moves: Vec<usize> = Vec::new();
    let mut won = false;
    loop {
        let empty = w * h - moves.len();
        if empty <= 12 {
            let n = (w * h) as i32;
            let m = moves.len() as i32;
            let expected = if won {
                -((n + 2 - m) / 2)
            } else {
                minimax(&mut tiny, &mut memo)
            };
            let strong = solver.solve(&pos, false, &cancel).expect("solve");
            assert_eq!(strong, expected, "{w}x{h} k={k} moves {moves:?}");
            let weak = solver.solve(&pos, true, &cancel).expect("weak solve");
            assert_eq!(
                weak,
                expected.signum(),
                "weak: {w}x{h} k={k} moves {moves:?}"
            );
            let cells: Vec<u8> = tiny.cells.iter().map(|&c| c as u8).collect();
            assert_eq!(pos.cells(), cells, "Position::cells");
            let from_cells = Position::from_cells(w, h, k, &cells).expect("reachable cells");
            assert_eq!(from_cells.is_won(), won);
            assert_eq!(
                solver.solve(&from_cells, false, &cancel).expect("solve"),
                expected
            );
        }
        if won || moves.len() == w * h || inp.is_empty() {
            break;
        }
        let col = inp.below(w + 1); // w: out of range
        let before = pos;
        let Some(row) = (col < w).then(|| tiny.top(col)).flatten() else {
            assert!(pos.play(col).is_err(), "column {col} should be refused");
            assert_eq!(pos, before);
            continue;
        };
        assert!(pos.can_play(col));
        assert_eq!(
            pos.is_winning_move(col),
            {
                tiny.cells[row * w + col] = (moves.len() % 2) as i8 + 1;
                let l = tiny.line_at(row, col);
                tiny.cells[row * w + col] = 0;
                l
            },
            "is_winning_move({col})"
        );
        pos.play(col).expect("a playable column");
        tiny.cells[row * w + col] = (moves.len() % 2) as i8 + 1;
        won = tiny.line_at(row, col);
        moves.push(col);
        tiny.moves = moves.len();
        assert_eq!(pos.moves(), moves.len());
        assert_eq!(pos.is_won(), won, "is_won after {moves:?}");
        let replay = Position::from_moves(w, h, k, &moves).expect("legal moves");
        assert_eq!(replay, pos);
        // The engine agrees on the winner whenever the rules are in its range.
        if let Ok(rules) = Rules::new(w as i64, h as i64, k as i64, 2, true) {
            let g = Game::from_actions(rules, &moves).expect("legal moves");
            assert_eq!(g.winner().is_some(), won);
        }
    }
}
