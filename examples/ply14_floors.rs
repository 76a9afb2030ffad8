//! What a ply-14 book level would save a weak `analyze` at ply 14, before spending the
//! CPU hours on it: each root is analysed as today (one thread, fresh table, nodes
//! counted), then as a ply-14 level would let it (the root's value known, each child
//! bounded by its ply-14 parents, solved by a separate oracle solver, uncounted).
//! Both ways must give every move the same outcome. Prints the costliest roots and
//! the totals (results: BENCHMARKS.md, the ply-14 tail).
//!
//! ```text
//! cargo run --release --example ply14_floors -- [--count 300 --seed 1] [pons-moves ...]
//! ```

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use inarow::solver::book::Book;
use inarow::solver::{Position, Solver, SolverConfig, DEFAULT_TT_BYTES};
use inarow::Rng;

#[path = "support/positions.rs"]
mod positions;
use positions::random_position;

fn solver(book: &Arc<Book>) -> Solver {
    let mut s = Solver::new(SolverConfig {
        tt_bytes: DEFAULT_TT_BYTES,
        threads: 1,
    })
    .expect("config");
    s.set_book(Some(book.clone()));
    s
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| v.parse().expect("a number"))
    };
    let count = flag("--count", 300) as usize;
    let seed = flag("--seed", 1);
    let named: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| !a.starts_with("--") && (*i == 0 || !args[i - 1].starts_with("--")))
        .map(|(_, a)| a)
        .collect();
    let book =
        Arc::new(Book::open("python/inarow/data/connect4-7x6.book.zst").expect("the shipped book"));
    let cancel = AtomicBool::new(false);
    let mut roots: Vec<(String, Position)> = named
        .iter()
        .map(|m| (m.to_string(), Position::parse_pons(m).expect("pons moves")))
        .collect();
    let mut rng = Rng::new(seed, 0);
    for i in 0..count {
        roots.push((format!("random {i}"), random_position(&mut rng, 14)));
    }
    let mut oracle = solver(&book);
    let (mut total_now, mut total_level) = (0u64, 0u64);

    let mut rows = Vec::new();
    for (name, root) in &roots {
        let mut now = solver(&book);
        let values = now.analyze(root, true, &cancel).expect("analyze");
        let nodes_now = now.nodes();

        let root_value = oracle.solve(root, true, &cancel).expect("solve");
        let mut with_level = solver(&book);
        let mut nodes_level = 0;
        if root_value != -1 {
            for (col, &value) in values.iter().enumerate() {
                if !root.can_play(col) || root.is_winning_move(col) {
                    continue;
                }
                let mut child = *root;
                child.play(col).expect("legal");
                // The child's value for its mover is at least the negation of each
                // parent's (every parent's mover could have played into it).
                let floor = child
                    .parents()
                    .map(|p| -oracle.solve(&p, true, &cancel).expect("solve"))
                    .max()
                    .unwrap_or(-1);
                let lo = if root_value == 0 { floor.max(0) } else { floor };
                if lo >= 1 {
                    continue;
                }
                let v = with_level
                    .solve_within(&child, true, lo, 1, &cancel)
                    .expect("solve");
                nodes_level += with_level.nodes();
                assert_eq!(Some(-v), value, "{name} column {col}");
            }
        }
        total_now += nodes_now;
        total_level += nodes_level;
        rows.push((nodes_now, nodes_level, name.clone()));
    }
    rows.sort();
    for (a, b, name) in rows.iter().rev().take(12) {
        println!("{name:>16}: {a:>9} nodes now, {b:>9} with a ply-14 level");
    }
    let mut levels: Vec<u64> = rows.iter().map(|r| r.1).collect();
    levels.sort();
    let mut nows: Vec<u64> = rows.iter().map(|r| r.0).collect();
    nows.sort();
    let top = |v: &[u64], k: usize| v[v.len().saturating_sub(k)..].to_vec();
    // Nearest rank, as benchmarks/solver_latency.py takes it.
    let p99 = |v: &[u64]| v[((0.99 * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    println!(
        "p99 (nearest rank) of the nodes: {} now, {} with the level",
        p99(&nows),
        p99(&levels)
    );
    println!(
        "total {total_now} -> {total_level} nodes ({:.2}x); largest now {:?}, with the level {:?}",
        total_now as f64 / total_level.max(1) as f64,
        top(&nows, 5),
        top(&levels, 5)
    );
}
