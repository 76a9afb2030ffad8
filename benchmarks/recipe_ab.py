"""Recipe A/B for the trainer on a free-placement board: arms of `inarow train` flags,
several seeds each, trained side by side (one process per core), then every network
judged, pooled per arm with 95% Wilson intervals: by the exact solver on fresh random
openings (seeds no run saw), or with ``--opponent`` by its win rate in games against
that agent (every other seat), on fresh match seeds.

    python benchmarks/recipe_ab.py --rules 6,6,4 --minutes 7 --seeds 1,2 \\
        --arm base= --arm aux="--final-board-weight 1 --reply-weight 0.25" \\
        --eval-seeds 9101,9102 --out ab-runs/recipe
    python benchmarks/recipe_ab.py --rules 8,8,5,3 --opponent negamax:2 --simulations 50 \\
        --arm self= --arm league="--opponents negamax:2" --out ab-runs/league

Needs the ``train`` extra (torch). ``--skip-train`` judges the networks of an earlier
call again (e.g. on more seeds). Ctrl-C stops the runs (each saves a checkpoint).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import harness
import numpy as np

import inarow
from inarow import agents, evaluate


def _ints(text: str) -> list[int]:
    return [int(t) for t in text.split(",") if t]


def _rules(text: str) -> dict:
    values = _ints(text)
    if len(values) not in (3, 4):
        raise argparse.ArgumentTypeError(f"{text!r}: allowed W,H,K or W,H,K,PLAYERS")
    w, h, k, players = (*values, 2) if len(values) == 3 else values
    return dict(width=w, height=h, k=k, players=players, gravity=False)


def _train_all(args, arms: dict[str, str]) -> None:
    rules = args.rules
    pending = [(arm, seed) for arm in arms for seed in args.seeds]
    running: list[tuple[subprocess.Popen, IO[str]]] = []  # (run, its open log file)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    try:
        while pending or running:
            while pending and len(running) < args.workers:
                arm, seed = pending.pop(0)
                run_dir = args.out / arm / f"seed{seed}"
                run_dir.parent.mkdir(parents=True, exist_ok=True)
                cmd = [
                    sys.executable, "-m", "inarow", "train",
                    "--width", str(rules["width"]), "--height", str(rules["height"]),
                    "--k", str(rules["k"]), "--players", str(rules["players"]), "--no-gravity",
                    "--minutes", str(args.minutes), "--threads", "1", "--eval-minutes", "0",
                    "--no-progress", "--seed", str(seed), "--run-dir", str(run_dir),
                    *shlex.split(arms[arm]),
                ]  # fmt: skip
                log = open(run_dir.parent / f"seed{seed}.log", "w")
                run = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
                running.append((run, log))
            time.sleep(1.0)
            for run, log in [r for r in running if r[0].poll() is not None]:
                running.remove((run, log))
                log.close()
                if run.returncode:
                    print(f"a run failed ({run.returncode}): {shlex.join(run.args)}", flush=True)
    except KeyboardInterrupt:
        for run, _ in running:
            run.send_signal(2)
        for run, log in running:
            run.wait()
            log.close()
        raise


_POSITIONS: list = []


def _init_worker(rules: dict, per_set: int, eval_seeds: list[int]) -> None:
    _POSITIONS.extend(_positions(rules, per_set, eval_seeds))


def _positions(rules: dict, per_set: int, eval_seeds: list[int]) -> list[tuple[int, str, object]]:
    out = []
    for seed in eval_seeds:
        for name, boards in evaluate.judged_positions(rules, per_set=per_set, seed=seed).items():
            out.extend((seed, name, b) for b in boards)
    return out


def _moves(task: tuple[str, int]) -> tuple[str, int, list[int]]:
    path, sims = task
    agent = agents.load(path, simulations=sims)
    return path, sims, [int(a) for a in agent.actions([b for _, _, b in _POSITIONS])]


def _network(args, arm: str, seed: int) -> str:
    """The network a run of ``arm`` with ``seed`` writes."""
    return str(args.out / arm / f"seed{seed}" / "network.npz")


def _match(task: tuple[str, int, str, dict, list[int], int]) -> tuple[str, int, list[int]]:
    path, sims, opponent, rules, seeds, games = task
    network = agents.load(path, simulations=sims)  # deterministic: one serves every seed
    totals = [0, 0, 0]
    for seed in seeds:
        r = evaluate.match(
            network,
            agents.named(opponent, seed=seed, rules=inarow.Rules(**rules)),
            games=games,
            rules=rules,
            seed=seed,
            threads=1,
        )
        totals = [totals[0] + r.wins, totals[1] + r.draws, totals[2] + r.losses]
    return path, sims, totals


def _tasks(args, arms: dict[str, str]) -> list[tuple[str, int]]:
    """(network, simulations) for every trained run of every arm."""
    tasks = [
        (_network(args, arm, seed), sims)
        for arm in arms
        for seed in args.seeds
        for sims in args.simulations
    ]
    return [t for t in tasks if Path(t[0]).is_file()]


def _cells(args, arms: dict[str, str], measured: dict) -> Iterator[tuple[str, dict[int, Any]]]:
    """Each arm at each simulation count (``"arm @sims"``) with what was measured of
    its runs, by seed; cells without a trained run are left out."""
    for arm in arms:
        for sims in args.simulations:
            keys = {seed: (_network(args, arm, seed), sims) for seed in args.seeds}
            runs = {seed: measured[key] for seed, key in keys.items() if key in measured}
            if runs:
                yield f"{arm} @{sims}", runs


def _judge_by_matches(args, arms: dict[str, str]) -> dict:
    tasks = [
        (path, sims, args.opponent, args.rules, args.eval_seeds, args.games)
        for path, sims in _tasks(args, arms)
    ]
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        scores = {(p, s): t for p, s, t in pool.imap_unordered(_match, tasks)}
    results: dict = {}
    for cell, runs in _cells(args, arms, scores):
        pooled = [sum(score[i] for score in runs.values()) for i in range(3)]
        total = sum(pooled)
        results[cell] = dict(
            rate=pooled[0] / total,
            interval=list(evaluate.wilson_interval(pooled[0], total)),
            positions=total,
            runs={seed: score[0] / sum(score) for seed, score in runs.items()},
            wins_draws_losses=pooled,
        )
    return results


def _judge(args, arms: dict[str, str]) -> dict:
    if args.opponent:
        return _judge_by_matches(args, arms)
    positions = _positions(args.rules, args.per_set, args.eval_seeds)
    solver = inarow.Solver(threads=args.workers)
    good: list[set[int]] = []
    for _, _, board in positions:
        scores = solver.analyze(board)
        best = max(np.sign(s) for s in scores if s is not None)
        good.append({a for a, s in enumerate(scores) if s is not None and np.sign(s) == best})
    init = (args.rules, args.per_set, args.eval_seeds)
    with multiprocessing.get_context("spawn").Pool(args.workers, _init_worker, init) as pool:
        moves = {(p, s): m for p, s, m in pool.imap_unordered(_moves, _tasks(args, arms))}
    results: dict = {}
    for cell, runs in _cells(args, arms, moves):
        ok = {seed: [m in g for m, g in zip(played, good)] for seed, played in runs.items()}
        hits, total = sum(sum(o) for o in ok.values()), sum(len(o) for o in ok.values())
        per_set: dict[str, list[int]] = {}
        for hit in ok.values():
            for (_, name, _), o in zip(positions, hit):
                tally = per_set.setdefault(name, [0, 0])
                tally[0] += o
                tally[1] += 1
        results[cell] = dict(
            rate=hits / total,
            interval=list(evaluate.wilson_interval(hits, total)),
            positions=total,
            runs={seed: float(np.mean(o)) for seed, o in ok.items()},
            per_set={k: v[0] / v[1] for k, v in per_set.items()},
        )
    return results


def _progress(args, arms: dict[str, str]) -> dict:
    """The last log line of each run: games and learner steps."""
    out = {}
    for arm in arms:
        for seed in args.seeds:
            log = args.out / arm / f"seed{seed}" / "log.csv"
            if log.is_file():
                rows = log.read_text().splitlines()
                head, last = rows[0].split(","), rows[-1].split(",")
                row = dict(zip(head, last))
                out[f"{arm}/seed{seed}"] = {k: row.get(k) for k in ("games", "train_steps")}
    return out


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--rules", type=_rules, required=True, help="W,H,K[,PLAYERS] (free placement)")
    p.add_argument(
        "--opponent",
        default=None,
        help="judge by the win rate against this agent name (e.g. negamax:2) in every "
        "other seat, not by the solver",
    )
    p.add_argument("--games", type=int, default=30, help="games per network and eval seed")
    p.add_argument("--arm", action="append", required=True, help="NAME=FLAGS (repeat)")
    p.add_argument("--seeds", type=_ints, default=[1, 2])
    p.add_argument("--minutes", type=float, default=7.0)
    p.add_argument("--eval-seeds", type=_ints, default=[9101, 9102])
    p.add_argument("--per-set", type=int, default=100)
    p.add_argument("--simulations", type=_ints, default=[200, 0])
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--skip-train", action="store_true")
    args = p.parse_args()
    harness.print_machine()
    arms = dict(a.split("=", 1) for a in args.arm)
    t = time.monotonic()
    if not args.skip_train:
        _train_all(args, arms)
        print(f"trained in {time.monotonic() - t:.0f} s", flush=True)
    results = _judge(args, arms)
    report = dict(
        rules=args.rules,
        arms=arms,
        seeds=args.seeds,
        minutes=args.minutes,
        eval_seeds=args.eval_seeds,
        per_set=args.per_set,
        opponent=args.opponent,
        games=args.games,
        progress=_progress(args, arms),
        results=results,
    )
    (args.out / "results.json").write_text(json.dumps(report, indent=1))
    for name, r in results.items():
        lo, hi = r["interval"]
        runs = " ".join(f"{v:.3f}" for v in r["runs"].values())
        unit = "games" if args.opponent else "positions"
        print(
            f"{name:30s} {r['rate']:.2%} [{lo:.1%}, {hi:.1%}] of {r['positions']} {unit} "
            f"(runs {runs})"
        )
    print(f"done in {time.monotonic() - t:.0f} s")


if __name__ == "__main__":
    main()
