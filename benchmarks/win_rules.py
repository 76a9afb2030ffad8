"""What the win rules cost: random games (`simulate`), `VecEnv.step` and the threat
engine on freestyle, and the same games under standard and renju, one thread.

    python benchmarks/win_rules.py            # this build
    python benchmarks/win_rules.py --label before   # run under another build to compare

Best of `--repeat` timings of each (a shared machine measures high, never low).
The table is in BENCHMARKS.md ("Win rules").
"""

from __future__ import annotations

import harness

import inarow

best = harness.best_of


def steps(rules: inarow.Rules, envs: int, n: int):
    env = inarow.VecEnv(envs, rules=rules, seed=0, threads=1)
    env.reset(seed=0)

    def run() -> None:
        for _ in range(n):
            env.step(env.random_actions())

    return run


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--label", default="this build", help="the name the table gives this build")
    p.add_argument("--repeat", type=int, default=5, help="timings of each, the best kept")
    args = p.parse_args()
    harness.print_machine()
    has_rule = "rule" in inarow.Rules.gomoku.__text_signature__
    gomoku = {
        rule: inarow.Rules.gomoku(15, rule=rule) if has_rule else inarow.Rules.gomoku(15)
        for rule in (["freestyle", "standard", "renju"] if has_rule else ["freestyle"])
    }
    rows = []

    def row(what: str, seconds: float, count: int, unit: str) -> None:
        rows.append((what, seconds, count / seconds, unit))

    n = 200_000
    row(
        "simulate, Connect Four",
        best(lambda: inarow.simulate(n, seed=0, threads=1), args.repeat),
        n,
        "games/s",
    )
    for rule, rules in gomoku.items():
        games = 2_000 if rule != "renju" else 200
        row(
            f"simulate, gomoku 15x15 {rule}",
            best(
                lambda games=games, rules=rules: inarow.simulate(
                    games, rules=rules, seed=0, threads=1
                ),
                args.repeat,
            ),
            games,
            "games/s",
        )
    row(
        "VecEnv.step, Connect Four, 4096 envs",
        best(steps(inarow.Rules.connect_four(), 4096, 50), args.repeat),
        4096 * 50,
        "env-steps/s",
    )
    for rule, rules in gomoku.items():
        row(
            f"VecEnv.step, gomoku 15x15 {rule}, 256 envs",
            best(steps(rules, 256, 50), args.repeat),
            256 * 50,
            "env-steps/s",
        )
    board = inarow.Board.from_moves([112, 128, 113, 96], rules=gomoku["freestyle"])
    agent = inarow.agents.threats(time_limit=None, nodes=300_000, seed=0, threads=1)
    row(
        "threats agent, 300k nodes, gomoku 15x15",
        best(lambda: agent(board), max(args.repeat // 2, 1)),
        300_000,
        "nodes/s",
    )
    print(f"{args.label}:")
    for what, seconds, rate, unit in rows:
        print(f"  {what:<46} {seconds * 1000:8.1f} ms  {rate:14,.0f} {unit}")


if __name__ == "__main__":
    main()
