//! Steps a batch of Connect Four games with random actions (`vec_step STEPS THREADS`):
//! a profiling target (`valgrind --tool=callgrind target/release/examples/vec_step`).

use inarow::batch::{Autoreset, ObsOut, StepBuffers, VecGames};
use inarow::Rules;

fn main() {
    let arg = |i: usize, default: usize| -> usize {
        std::env::args()
            .nth(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let (steps, threads) = (arg(1, 200), arg(2, 1));
    let n = 4096;
    let rules = Rules::connect_four();
    let mut v = VecGames::new(rules, n, 0, Autoreset::NextStep, Some(threads)).expect("batch");
    let (p, a) = (rules.players(), rules.num_actions());
    let mut obs = vec![0u8; n * v.obs_size()];
    let (mut rewards, mut player_rewards) = (vec![0f32; n], vec![0f32; n * p]);
    let (mut terminated, mut truncated, mut reset) =
        (vec![false; n], vec![false; n], vec![false; n]);
    let mut mask = vec![false; n * a];
    let (mut current, mut winner) = (vec![0i8; n], vec![0i8; n]);
    let mut actions = vec![0i64; n];
    let start = std::time::Instant::now();
    let mut ended = 0;
    for _ in 0..steps {
        v.random_actions(&mut actions);
        let bufs = StepBuffers {
            obs: ObsOut::U8(&mut obs),
            rewards: &mut rewards,
            player_rewards: &mut player_rewards,
            terminated: &mut terminated,
            truncated: &mut truncated,
            mask: &mut mask,
            current_player: &mut current,
            winner: &mut winner,
            reset: &mut reset,
            final_obs: None,
        };
        v.step(&actions, bufs).expect("legal actions");
        ended += terminated.iter().filter(|&&t| t).count();
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{:.2}M env-steps/s on {threads} thread(s) ({ended} games ended)",
        (steps * n) as f64 / secs / 1e6
    );
}
