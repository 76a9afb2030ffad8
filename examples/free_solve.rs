//! Solves free-placement boards from the empty board and prints each value, its
//! node count and time: `cargo run --release --example free_solve -- 5 5 4 [6 6 5 ...]`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use inarow::solver::free::{FreePosition, FreeSolver};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("width height k, as numbers"))
        .collect();
    assert!(
        !args.is_empty() && args.len() % 3 == 0,
        "usage: free_solve WIDTH HEIGHT K [WIDTH HEIGHT K ...]"
    );
    let cancel = AtomicBool::new(false);
    for shape in args.chunks(3) {
        let (w, h, k) = (shape[0], shape[1], shape[2]);
        let mut solver = FreeSolver::new(256 << 20).expect("table");
        let pos = FreePosition::new(w, h, k).expect("a supported board");
        let start = Instant::now();
        let value = solver.solve(&pos, false, &cancel).expect("solved");
        println!(
            "{w}x{h} k={k}: score {value:+} ({} nodes, {:.3} s)",
            solver.nodes(),
            start.elapsed().as_secs_f64()
        );
    }
}
