//! The pattern tables against a plain classifier of runs, and the incremental
//! cell patterns against patterns computed from scratch.

use super::board::ThreatBoard;
use super::cell_patterns::{pack, CellPatterns, Weights, DIRECTIONS};
use super::learned_eval::{
    shape_levels, shape_of, LearnedTables, ALL_FEATURES, CLASSES, FEATURES, PATTERN_FEATURES,
    SCALE, SHAPES, SIDE_FEATURES,
};
use super::learned_shapes::ShapeWeight;
use super::patterns::*;
use crate::lines::line_is_exact;
use crate::rng::Rng;
use crate::rules::{Rules, WinRule};

/// Whether the run of `MINE` through `centre` is a line: `k` or more, exactly `k`.
fn plain_line(line: &[u32], centre: usize, k: usize, exact: bool) -> bool {
    if line[centre] != MINE {
        return false;
    }
    let mut lo = centre;
    while lo > 0 && line[lo - 1] == MINE {
        lo -= 1;
    }
    let mut hi = centre;
    while hi + 1 < line.len() && line[hi + 1] == MINE {
        hi += 1;
    }
    let run = hi - lo + 1;
    if exact {
        run == k
    } else {
        run >= k
    }
}

/// How many empty cells (0, 1, 2 or more) make a line through `centre`.
fn plain_fours(line: &mut [u32], centre: usize, k: usize, exact: bool) -> u8 {
    let mut n = 0;
    for e in 0..line.len() {
        if line[e] == EMPTY {
            line[e] = MINE;
            n += u8::from(plain_line(line, centre, k, exact));
            line[e] = EMPTY;
        }
    }
    n.min(2)
}

/// The most of `inner` over the line with one more stone on an empty cell.
fn plain_best(
    line: &mut [u32],
    centre: usize,
    k: usize,
    exact: bool,
    inner: fn(&mut [u32], usize, usize, bool) -> u8,
) -> u8 {
    let mut best = 0;
    for e in 0..line.len() {
        if line[e] == EMPTY {
            line[e] = MINE;
            best = best.max(inner(line, centre, k, exact));
            line[e] = EMPTY;
        }
    }
    best
}

fn plain_threes(line: &mut [u32], centre: usize, k: usize, exact: bool) -> u8 {
    plain_best(line, centre, k, exact, plain_fours)
}

/// The pattern of a stone on `centre` (set to `MINE`), by trying every
/// placement on the line: no tables, no windows.
fn plain_level(line: &mut [u32], centre: usize, k: usize, exact: bool) -> u8 {
    line[centre] = MINE;
    if plain_line(line, centre, k, exact) {
        return FIVE;
    }
    let fours = plain_fours(line, centre, k, exact);
    if fours > 0 {
        return BLOCK4 + fours - 1;
    }
    let threes = plain_threes(line, centre, k, exact);
    if threes > 0 {
        return BLOCK3 + threes - 1;
    }
    let twos = plain_best(line, centre, k, exact, plain_threes);
    if twos > 0 {
        return BLOCK2 + twos - 1;
    }
    NONE
}

/// The key of `line` (its centre left out), as the tables read it.
fn key_of(line: &[u32], reach: usize) -> u32 {
    let mut key = 0;
    for (i, &v) in line.iter().enumerate() {
        if i != reach {
            key += v * 3u32.pow(digit(i as isize - reach as isize, reach) as u32);
        }
    }
    key
}

/// A line written as text: `c` the cell, `x` mine, `o` blocked, `.` empty;
/// padded with empty cells to `k` a side (the tables of that reach).
fn level_of(text: &str, k: usize, exact: bool) -> u8 {
    let reach = k;
    let at = text.find('c').expect("a centre");
    let (before, after) = (at, text.len() - at - 1);
    assert!(
        before <= reach && after <= reach,
        "{text} is longer than the reach"
    );
    let mut line = vec![EMPTY; reach - before];
    line.extend(text.chars().map(|ch| match ch {
        'x' | 'c' => MINE,
        'o' => BLOCKED,
        _ => EMPTY,
    }));
    line.resize(2 * reach + 1, EMPTY);
    let table = PatternTable::shared(k, exact, reach).level(key_of(&line, reach));
    assert_eq!(table, plain_level(&mut line, reach, k, exact), "{text}");
    table
}

#[test]
fn known_lines_of_five() {
    for exact in [false, true] {
        assert_eq!(level_of("xxcxx", 5, exact), FIVE);
        assert_eq!(level_of(".xxxc.", 5, exact), FLEX4);
        assert_eq!(level_of("oxxxc.", 5, exact), BLOCK4);
        assert_eq!(level_of("xx.cx", 5, exact), BLOCK4);
        assert_eq!(level_of(".xxc..", 5, exact), FLEX3);
        assert_eq!(level_of("oxxc..", 5, exact), BLOCK3);
        assert_eq!(level_of(".x.xc..", 5, exact), FLEX3);
        assert_eq!(level_of("..xc..", 5, exact), FLEX2);
        assert_eq!(level_of("oxc...", 5, exact), BLOCK2);
        assert_eq!(level_of("oxxco", 5, exact), NONE);
        assert_eq!(level_of("o.c.o", 5, exact), NONE);
    }
    // An overline is a line only under freestyle.
    assert_eq!(level_of("xxxxcx", 5, false), FIVE);
    assert_eq!(level_of("xxxxcx", 5, true), NONE);
    // x.xxxc.: freestyle completes at both gaps (a six and a five); exact only at the right.
    assert_eq!(level_of("x.xxxc.", 5, false), FLEX4);
    assert_eq!(level_of("x.xxxc.", 5, true), BLOCK4);
    // .xxxc.x: the right end joins the far stone (a six) and is no five where exact.
    assert_eq!(level_of(".xxxc.x", 5, false), FLEX4);
    assert_eq!(level_of(".xxxc.x", 5, true), BLOCK4);
    // k = 4 and 6.
    assert_eq!(level_of(".xc.", 4, false), FLEX3);
    assert_eq!(level_of(".xxxxc.", 6, true), FLEX4);
}

#[test]
fn tables_agree_with_plain_classifier_on_random_lines() {
    let mut rng = Rng::new(0x5eed_5801, 0);
    for k in 4..=MAX_PATTERN_K {
        for exact in [false, true] {
            for reach in PatternTable::reach(k, exact)..=k {
                let table = PatternTable::shared(k, exact, reach);
                let mut seen = [0u32; 8];
                for _ in 0..4000 {
                    let mut line: Vec<u32> = (0..2 * reach + 1)
                        .map(|_| match rng.below(20) {
                            0..=9 => EMPTY,
                            10..=16 => MINE,
                            _ => BLOCKED,
                        })
                        .collect();
                    line[reach] = MINE;
                    let key = key_of(&line, reach);
                    let plain = plain_level(&mut line, reach, k, exact);
                    assert_eq!(table.level(key), plain, "k={k} exact={exact} {line:?}");
                    seen[plain as usize] += 1;
                }
                assert!(seen.iter().all(|&n| n > 0), "k={k} exact={exact}: {seen:?}");
            }
        }
    }
}

/// Each player's combinations and values computed from scratch: every cell's
/// line read off the board, classified by the plain classifier.
fn from_scratch(rules: &Rules, owners: &[u8]) -> (Vec<[u16; 2]>, [i64; 2], [bool; 2]) {
    let (w, h, k) = (rules.width(), rules.height(), rules.k());
    let exact = [0, 1].map(|p| line_is_exact(rules.rule(), p));
    let reach = PatternTable::reach(k, exact[0] || exact[1]) as isize;
    let weights = Weights::shared();
    let mut combos = vec![[0u16; 2]; w * h];
    let mut values = [0i64; 2];
    let mut fours = [false; 2];
    for cell in 0..w * h {
        let (row, col) = ((cell / w) as isize, (cell % w) as isize);
        for p in 0..2 {
            let levels = DIRECTIONS.map(|(dr, dc)| {
                let mut line: Vec<u32> = (-reach..=reach)
                    .map(|o| {
                        let (r, c) = (row + o * dr, col + o * dc);
                        if !(0..h as isize).contains(&r) || !(0..w as isize).contains(&c) {
                            return BLOCKED;
                        }
                        match owners[(r * w as isize + c) as usize] {
                            0 => EMPTY,
                            o if o as usize == p + 1 => MINE,
                            _ => BLOCKED,
                        }
                    })
                    .collect();
                plain_level(&mut line, reach as usize, k, exact[p])
            });
            combos[cell][p] = pack(levels);
            if owners[cell] == 0 {
                values[p] += weights.value[combos[cell][p] as usize] as i64;
                fours[p] |= levels.iter().any(|&l| l >= BLOCK4);
            }
        }
    }
    (combos, values, fours)
}

fn check_against_scratch(patterns: &CellPatterns, rules: &Rules, owners: &[u8]) {
    let (combos, values, fours) = from_scratch(rules, owners);
    for (cell, combo) in combos.iter().enumerate() {
        for (p, &expected) in combo.iter().enumerate() {
            assert_eq!(
                pack(patterns.levels(cell, p)),
                expected,
                "{rules}: cell {cell}, player {p}"
            );
        }
    }
    assert_eq!([patterns.value(0), patterns.value(1)], values, "{rules}");
    let has = [0, 1].map(|p| patterns.has_four_cell(p));
    assert_eq!(has, fours, "{rules}");
}

/// The learned evaluation's sums and counts against the same read off
/// combinations computed from scratch.
fn check_learned(patterns: &CellPatterns, learned: &LearnedTables, rules: &Rules, owners: &[u8]) {
    let (combos, _, _) = from_scratch(rules, owners);
    for p in 0..2 {
        let mut counts = [0i64; PATTERN_FEATURES];
        let mut sums = [0i64; 2];
        for (cell, combo) in combos.iter().enumerate() {
            if owners[cell] != 0 {
                continue;
            }
            let levels = unpack(combo[p]);
            let c = classify(levels);
            if (class::FLEX4..class::OTHER).contains(&c) {
                counts[c - class::FLEX4] += 1;
            }
            for l in levels.into_iter().filter(|l| (BLOCK2..=FLEX4).contains(l)) {
                counts[CLASSES + (l - BLOCK2) as usize] += 1;
            }
            // The mover is `p` in role 0 and the other player in role 1.
            sums[0] += i64::from(learned.combo[p][0][combo[p] as usize]);
            sums[1] += i64::from(learned.combo[1 - p][1][combo[p] as usize]);
        }
        assert_eq!(patterns.pattern_counts(p), counts, "{rules}, player {p}");
        for (role, &sum) in sums.iter().enumerate() {
            assert_eq!(patterns.learned_sum(p, role), sum, "{rules}, player {p}");
        }
    }
}

/// The learned evaluation as the engine adds it up (the constant, the kept
/// sums, the window terms) against the model's log-odds from features read
/// afresh, `me` to move: equal but for the tables' rounding.
fn check_learned_value(
    patterns: &CellPatterns,
    board: &ThreatBoard,
    learned: &LearnedTables,
    weights: &[[f64; FEATURES]; 2],
    shapes: &[[f64; SHAPES]; 2],
    me: usize,
) {
    let mut features = vec![1.0];
    for player in [me, 1 - me] {
        let windows = &board.live_counts_scanned(player)[1..5];
        let counts = patterns.pattern_counts(player);
        features.extend(windows.iter().chain(&counts).map(|&n| n as f64));
    }
    let mut exact: f64 = features.iter().zip(&weights[me]).map(|(f, w)| f * w).sum();
    for (role, player) in [me, 1 - me].into_iter().enumerate() {
        let counts = patterns.shape_counts(player);
        exact += (0..SHAPES)
            .map(|i| counts[i] as f64 * shapes[role][i])
            .sum::<f64>();
    }
    let mut kept = learned.bias[me] + patterns.learned_sum(me, 0) + patterns.learned_sum(1 - me, 1);
    for (role, player) in [me, 1 - me].into_iter().enumerate() {
        let counts = board.live_counts_of_five(player);
        kept += (0..4)
            .map(|n| learned.windows[me][role][n] * counts[n])
            .sum::<i64>();
    }
    // Each table entry is rounded to a unit: at most half a unit per cell and
    // role, and per window.
    let windows: f64 = features[1..5]
        .iter()
        .chain(&features[1 + SIDE_FEATURES..5 + SIDE_FEATURES])
        .sum();
    let slack = 0.5 * (2.0 * patterns.cells() as f64 + windows) + 1.0;
    assert!(
        (kept as f64 - exact * SCALE).abs() <= slack,
        "kept {kept}, model {}, slack {slack}",
        exact * SCALE
    );
}

#[test]
fn incremental_patterns_equal_patterns_from_scratch() {
    let mut rng = Rng::new(0x5eed_5802, 0);
    for rule in [WinRule::Freestyle, WinRule::Standard, WinRule::Renju] {
        for (w, h, k) in [
            (15usize, 15usize, 5usize),
            (9, 7, 5),
            (8, 8, 4),
            (11, 10, 6),
        ] {
            let Ok(rules) = Rules::new(w as i64, h as i64, k as i64, 2, false)
                .unwrap()
                .with_rule(rule)
            else {
                continue; // (renju: k = 5 only)
            };
            let mut patterns = CellPatterns::new(&rules).expect("k has tables");
            // The learned evaluation's sums, under weights drawn at random.
            let weights =
                [0, 1].map(|_| std::array::from_fn(|_| rng.below(2001) as f64 / 1000.0 - 1.0));
            // Shape weights for both colours alike, drawn for a third of the shapes.
            let mut shapes = [[0.0; SHAPES]; 2];
            let mut list: Vec<ShapeWeight> = Vec::new();
            for (role, role_shapes) in shapes.iter_mut().enumerate() {
                for (i, w) in role_shapes.iter_mut().enumerate() {
                    if rng.below(3) == 0 {
                        *w = rng.below(2001) as f64 / 1000.0 - 1.0;
                        list.push((role, shape_levels(i), *w));
                    }
                }
            }
            let list: &'static [ShapeWeight] = Box::leak(list.into_boxed_slice());
            let learned: &'static LearnedTables =
                Box::leak(Box::new(LearnedTables::from_weights(&weights, [list; 2])));
            patterns.set_learned(Some(learned));
            let mut board = ThreatBoard::new(rules);
            let mut owners = vec![0u8; w * h];
            let mut played: Vec<usize> = Vec::new();
            for step in 0..120 {
                // Mostly forward, sometimes back: sequences of makes and unmakes.
                let back = !played.is_empty() && (rng.below(3) == 0 || played.len() > 40);
                if back {
                    let cell = played.pop().unwrap();
                    let player = owners[cell] as usize - 1;
                    patterns.remove(cell, player);
                    board.take(cell, player);
                    owners[cell] = 0;
                } else {
                    // Clustered: near the centre, so lines form.
                    let (r, c) = (h / 2 + rng.below(7) as usize, w / 2 + rng.below(7) as usize);
                    let mut cell = (r - 3).min(h - 1) * w + (c - 3).min(w - 1);
                    if owners[cell] != 0 {
                        cell = rng.below((w * h) as u32) as usize;
                        if owners[cell] != 0 {
                            continue;
                        }
                    }
                    let player = played.len() % 2;
                    patterns.place(cell, player);
                    board.put(cell, player);
                    owners[cell] = player as u8 + 1;
                    played.push(cell);
                }
                if step % 3 == 0 {
                    check_against_scratch(&patterns, &rules, &owners);
                    check_learned(&patterns, learned, &rules, &owners);
                    if k == 5 {
                        for p in 0..2 {
                            let scanned = board.live_counts_scanned(p);
                            assert_eq!(board.live_counts_of_five(p)[..], scanned[1..5], "{rules}");
                        }
                        check_learned_value(
                            &patterns,
                            &board,
                            learned,
                            &weights,
                            &shapes,
                            played.len() % 2,
                        );
                    }
                }
                // The four gate: a four or five cell exactly where the board's
                // windows show one.
                for p in 0..2 {
                    let mut fours = Vec::new();
                    board.cells_of_windows_with(p, k - 2, k - 2, &mut fours);
                    let board_says = !fours.is_empty() || board.has_threat(p);
                    assert_eq!(patterns.has_four_cell(p), board_says, "{rules}, player {p}");
                }
            }
            while let Some(cell) = played.pop() {
                patterns.remove(cell, owners[cell] as usize - 1);
                owners[cell] = 0;
            }
            check_against_scratch(&patterns, &rules, &owners);
            let mut fresh = CellPatterns::new(&rules).unwrap();
            fresh.reset();
            for cell in 0..w * h {
                for d in 0..4 {
                    for p in 0..2 {
                        assert_eq!(patterns.key(cell, d, p), fresh.key(cell, d, p));
                    }
                }
            }
        }
    }
}

#[test]
fn classes_order_the_cells() {
    assert_eq!(classify([FIVE, NONE, NONE, NONE]), class::FIVE);
    assert_eq!(classify([BLOCK4, BLOCK4, NONE, NONE]), class::FLEX4);
    assert_eq!(classify([BLOCK4, FLEX3, NONE, NONE]), class::BLOCK4_FLEX3);
    assert_eq!(classify([FLEX3, FLEX3, BLOCK2, NONE]), class::FLEX3_2X);
    assert_eq!(classify([FLEX3, FLEX2, NONE, NONE]), class::FLEX3_PLUS);
    assert_eq!(classify([BLOCK3, FLEX2, NONE, NONE]), class::THREE_2X);
    assert_eq!(classify([BLOCK2, FLEX2, NONE, NONE]), class::OTHER);
    let w = Weights::shared();
    let score = |levels: [u8; 4]| w.attack[pack(levels) as usize];
    assert!(score([FLEX4, NONE, NONE, NONE]) > score([FLEX3, FLEX3, NONE, NONE]));
    assert!(score([FLEX3, FLEX3, NONE, NONE]) > score([BLOCK4, NONE, NONE, NONE]));
    assert!(score([FLEX3, NONE, NONE, NONE]) > score([BLOCK3, FLEX2, NONE, NONE]));
    assert!(score([FLEX2, NONE, NONE, NONE]) > score([BLOCK2, NONE, NONE, NONE]));
}

/// Every combination of the engine's switches, under every rule: the engine's
/// move is legal and the same twice under a node budget.
#[test]
fn engine_with_pattern_switches_is_deterministic_and_legal() {
    use crate::game::Game;
    use crate::threats::{Budget, Engine};
    use std::sync::atomic::AtomicBool;
    let cancel = AtomicBool::new(false);
    let mut rng = Rng::new(0x5eed_5803, 0);
    for rule in [WinRule::Freestyle, WinRule::Standard, WinRule::Renju] {
        let rules = Rules::gomoku_with(15, rule).unwrap();
        let mut positions = Vec::new();
        while positions.len() < 3 {
            let mut game = Game::new(rules);
            for _ in 0..8 + rng.below(10) {
                let a = (5 + rng.below(5) as usize) * 15 + 5 + rng.below(5) as usize;
                if game.is_legal(a) {
                    game.play(a).unwrap();
                }
            }
            if !game.is_over() {
                positions.push(game);
            }
        }
        for switches in 0..256u32 {
            let choose = |game: &Game| {
                let mut engine = Engine::new(rules);
                engine.set_pattern_ordering(switches & 1 != 0);
                engine.set_pattern_evaluation(switches & 2 != 0);
                engine.set_four_gate(switches & 4 != 0);
                engine.set_learned_evaluation(switches & 8 != 0);
                engine.set_principal_variation(switches & 16 != 0);
                engine.set_verify_choice(switches & 32 != 0);
                engine.set_learned_ordering(switches & 64 != 0);
                engine.set_late_move_reductions(switches & 128 != 0);
                engine.choose(game, Budget::Nodes(2_000), &mut Rng::new(3, 0), &cancel)
            };
            for game in &positions {
                let a = choose(game);
                assert_eq!(a, choose(game), "{rules}, switches {switches:08b}");
                assert!(game.is_legal(a), "{rules}, switches {switches:08b}: {a}");
            }
        }
    }
}

/// The shapes: 330 multisets of four patterns in the order `tune_eval.py`
/// lists them (ascending, each strongest first), each combination's shape its
/// sorted patterns.
#[test]
fn shapes_are_the_sorted_patterns() {
    for i in 0..SHAPES {
        let levels = shape_levels(i);
        assert!(levels.windows(2).all(|w| w[0] >= w[1]), "{levels:?}");
        assert!(levels[0] <= FIVE);
        if i > 0 {
            assert!(shape_levels(i - 1) < levels, "shape {i} after {levels:?}");
        }
    }
    assert_eq!(shape_levels(0), [0, 0, 0, 0]);
    assert_eq!(shape_levels(SHAPES - 1), [FIVE; 4]);
    for combo in 0..COMBOS as u16 {
        let mut sorted = unpack(combo);
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(shape_levels(shape_of(combo)), sorted, "combination {combo}");
    }
}

/// The learned evaluation's features of small known positions: the constant,
/// the side to move's first, each side's live windows.
#[test]
fn learned_features_of_known_positions() {
    use super::learned_eval::WINDOW_COUNTS;
    use crate::game::Game;
    use crate::threats::Engine;
    let rules = Rules::gomoku(15).unwrap();
    let mut engine = Engine::new(rules);
    let centre = 7 * 15 + 7;
    // Black's centre stone lies in 5 windows along each of the 4 lines; white
    // (to move) has nothing.
    let f = engine
        .evaluation_features(&Game::from_actions(rules, &[centre]).unwrap())
        .unwrap();
    assert_eq!(f.len(), ALL_FEATURES);
    assert_eq!(f[0], 1.0);
    // Every empty cell has one shape per side: all empty but the one stone.
    for role in 0..2 {
        let shapes = &f[FEATURES + role * SHAPES..FEATURES + (role + 1) * SHAPES];
        assert_eq!(shapes.iter().sum::<f64>(), 224.0);
        // The corner's shape is none along every line.
        assert!(shapes[0] > 0.0);
    }
    let (mover, other) = (&f[1..1 + SIDE_FEATURES], &f[1 + SIDE_FEATURES..FEATURES]);
    assert!(mover.iter().all(|&x| x == 0.0), "{mover:?}");
    assert_eq!(other[..WINDOW_COUNTS], [20.0, 0.0, 0.0, 0.0]);
    let flex2 = other[WINDOW_COUNTS + CLASSES + (FLEX2 - BLOCK2) as usize];
    assert!(
        flex2 > 0.0 && flex2 % 4.0 == 0.0,
        "the same along every line: {flex2}"
    );
    // A white stone beside it: black to move, and each side's windows through
    // both cells are dead to it (the 4 horizontal windows holding both).
    let f = engine
        .evaluation_features(&Game::from_actions(rules, &[centre, centre + 1]).unwrap())
        .unwrap();
    assert_eq!(f[1..1 + WINDOW_COUNTS], [16.0, 0.0, 0.0, 0.0]);
    assert_eq!(
        f[1 + SIDE_FEATURES..1 + SIDE_FEATURES + WINDOW_COUNTS],
        [16.0, 0.0, 0.0, 0.0]
    );
    // Gomoku of other sizes has features; lines of four do not.
    let four = Rules::new(8, 8, 4, 2, false).unwrap();
    assert!(Engine::new(four)
        .evaluation_features(&Game::new(four))
        .is_none());
}
