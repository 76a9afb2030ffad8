//! Steps a batch of Connect Four (or 15x15 gomoku) games with random actions
//! (`vec_step STEPS THREADS [connect_four|gomoku] [ENVS]`, 4096 envs by default):
//! a profiling target (`valgrind --tool=callgrind target/release/examples/vec_step`).

use inarow::batch::{Autoreset, OwnedBuffers, VecGames};
use inarow::Rules;

fn main() {
    let arg = |i: usize, default: usize| -> usize {
        std::env::args()
            .nth(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let (steps, threads) = (arg(1, 200), arg(2, 1));
    let n = arg(4, 4096);
    let rules = match std::env::args().nth(3).as_deref() {
        None | Some("connect_four") => Rules::connect_four(),
        Some("gomoku") => Rules::gomoku(15).expect("gomoku"),
        Some(other) => panic!("unknown game {other}: allowed connect_four, gomoku"),
    };
    let mut v = VecGames::new(rules, n, 0, Autoreset::NextStep, Some(threads)).expect("batch");
    let mut out = OwnedBuffers::new(n, &v.dims());
    let mut actions = vec![0i64; n];
    let start = std::time::Instant::now();
    let mut ended = 0;
    for _ in 0..steps {
        v.random_actions(&mut actions);
        v.step(&actions, out.bufs()).expect("legal actions");
        ended += out.terminated.iter().filter(|&&t| t).count();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{:.2}M env-steps/s on {threads} thread(s) ({ended} games ended)",
        (steps * n) as f64 / secs / 1e6
    );
}
