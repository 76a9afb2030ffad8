"""The trainer on a machine it shares: self-play and learner rates with one torch
thread and with ``--threads``, alone and beside a busy loop that holds one core (a
program in another session, as in another terminal), then ``inarow train`` itself
beside the busy loop (docs/training.md, "Sharing the machine").

    pip install '.[train]'   # in a clone, CPU-only torch first (README)
    python benchmarks/shared_cores.py                       # Connect Four's network, 2 threads
    python benchmarks/shared_cores.py --channels 48 --blocks 4 --seconds 15 --train-minutes 3

Nothing else should run meanwhile: the busy loop is the only other program.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import harness
import numpy as np
import torch

from inarow.train.config import TrainConfig
from inarow.train.device import torch_evaluator
from inarow.train.learner import Learner
from inarow.train.network import Network
from inarow.train.replay import ReplayBuffer
from inarow.train.selfplay import Games, SelfPlay


@contextmanager
def busy_loop(on: bool):
    """A Python busy loop in a session of its own (``setsid``): Linux weighs nice
    values only within a session's group, so it takes a core whatever its nice."""
    proc = None
    if on:
        proc = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        time.sleep(0.3)
    try:
        yield
    finally:
        if proc is not None:
            proc.kill()
            proc.wait()


def selfplay_rate(config: TrainConfig, net: Network, seconds: float) -> tuple[float, float]:
    """Simulations per second and the cores the process used."""
    selfplay = SelfPlay(config, torch_evaluator(net), seed=0)
    selfplay.step()
    start, cpu, sims = time.perf_counter(), time.process_time(), selfplay.simulations
    while time.perf_counter() - start < seconds:
        selfplay.step()
    wall = time.perf_counter() - start
    return (selfplay.simulations - sims) / wall, (time.process_time() - cpu) / wall


def learner_rate(config: TrainConfig, net: Network, replay: ReplayBuffer, seconds: float):
    learner = Learner(net, config)
    rng = np.random.default_rng(0)
    learner.step(replay.sample(config.batch_size, rng))
    start, cpu, n = time.perf_counter(), time.process_time(), 0
    while time.perf_counter() - start < seconds:
        learner.step(replay.sample(config.batch_size, rng))
        n += 1
    wall = time.perf_counter() - start
    return n / wall, (time.process_time() - cpu) / wall


def train_beside_busy_loop(args: argparse.Namespace) -> list[dict[str, str]]:
    """``inarow train`` with ``--threads`` beside the busy loop: its log rows."""
    with tempfile.TemporaryDirectory() as tmp, busy_loop(True):
        run_dir = Path(tmp) / "run"
        cmd = [sys.executable, "-m", "inarow", "train", args.game, "--run-dir", str(run_dir)]
        cmd += ["--threads", str(args.threads), "--minutes", str(args.train_minutes)]
        cmd += ["--eval-minutes", "0", "--no-progress"]
        for name in ("channels", "blocks"):
            if getattr(args, name):
                cmd += [f"--{name}", str(getattr(args, name))]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, start_new_session=True)
        with open(run_dir / "log.csv", newline="") as f:
            return [r for r in csv.DictReader(f) if r["games_per_s"]]


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--game", default="connect_four", choices=["connect_four", "tic_tac_toe"])
    p.add_argument("--channels", type=int)
    p.add_argument("--blocks", type=int)
    p.add_argument("--threads", type=int, default=2, help="torch and search threads")
    p.add_argument("--seconds", type=float, default=10.0, help="per measurement")
    p.add_argument("--train-minutes", type=float, default=2.0, help="0: no trainer run")
    args = p.parse_args()
    overrides = {k: getattr(args, k) for k in ("channels", "blocks") if getattr(args, k)}
    config = TrainConfig.for_game(args.game, threads=args.threads, **overrides)
    torch.manual_seed(0)
    net = Network(config)
    print(
        f"{harness.machine()[2:]}; torch {torch.__version__}; {args.game}: {config.channels} "
        f"channels x {config.blocks} blocks, {sum(q.numel() for q in net.parameters()):,} "
        f"parameters; search threads {args.threads}"
    )
    torch.set_num_threads(args.threads)
    replay = ReplayBuffer(config)
    filler = SelfPlay(config, torch_evaluator(net), seed=1)
    while len(replay) < 4 * config.batch_size:
        games = filler.step()
        if games is not None:
            replay.add(*(getattr(games, f) for f in Games.FIELDS))
    print(
        "| torch threads | other program | self-play simulations/s | cores | learner "
        "steps/s | cores |"
    )
    print("|---" * 6 + "|")
    for busy in (False, True):
        for threads in sorted({1, args.threads}):
            torch.set_num_threads(threads)
            with busy_loop(busy):
                sims, sims_cores = selfplay_rate(config, net, args.seconds)
                steps, steps_cores = learner_rate(config, net, replay, args.seconds)
            print(
                f"| {threads} | {'a busy loop' if busy else 'none'} | {sims:,.0f} | "
                f"{sims_cores:.2f} | {steps:.1f} | {steps_cores:.2f} |",
                flush=True,
            )
    if args.train_minutes > 0:
        rows = train_beside_busy_loop(args)
        later = rows[1:] or rows
        print(
            f"inarow train --threads {args.threads} beside the busy loop, "
            f"{args.train_minutes} minutes: games/s per log row "
            f"{', '.join(r['games_per_s'] for r in rows)} (median after the first "
            f"{harness.median(float(r['games_per_s']) for r in later):.2f}); torch "
            f"threads per row {', '.join(r['torch_threads'] for r in rows)}"
        )


if __name__ == "__main__":
    main()
