"""Where the trainer's time goes on each device, side by side in one run: learner
steps per second, network inference (positions per second) and self-play
throughput (moves, games and simulations per second, and the network's share of
self-play time), for ``--device cpu``, ``cpu --mixed-precision`` (only on a CPU
with native bfloat16), ``cuda`` and ``cuda --mixed-precision`` (the cuda rows only
where torch sees a GPU).

    pip install '.[train]'   # in a clone, CPU-only torch first (README)
    python benchmarks/train_device.py                      # Connect Four's network
    python benchmarks/train_device.py --channels 64 --blocks 6 --seconds 20

Each measurement runs for ``--seconds`` after a warm-up; the ratio column compares
each row with the CPU row. Self-play search runs on the CPU in every row (one
thread unless ``--threads``); only the network moves.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import harness
import numpy as np
import torch

from inarow.train.config import TrainConfig
from inarow.train.device import cpu_has_native_bfloat16
from inarow.train.learner import Learner
from inarow.train.loop import torch_evaluator
from inarow.train.network import Network
from inarow.train.replay import plain_batch
from inarow.train.selfplay import SelfPlay


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def rate(run, seconds: float, device: torch.device) -> float:
    """Calls of ``run`` per second over ``seconds``, after two warm-up calls."""
    run()
    run()
    sync(device)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        run()
        n += 1
    sync(device)
    return n / (time.perf_counter() - start)


def measure(config: TrainConfig, device: torch.device, mixed: bool, seconds: float) -> dict:
    torch.manual_seed(0)
    net = Network(config).to(device)
    params = sum(p.numel() for p in net.parameters())
    rules = config.rules
    planes, h, w = rules["players"], rules["height"], rules["width"]
    rng = np.random.default_rng(0)
    b = config.batch_size
    obs = rng.integers(0, 2, (b, planes, h, w)).astype(np.float32)
    values = rng.uniform(-1, 1, (b, config.value_size)).astype(np.float32)
    batch = plain_batch(obs, config.num_actions, value=values)
    learner = Learner(net, config)
    learner.mixed_precision = mixed
    steps = rate(lambda: learner.step(batch), seconds, device)
    evaluate = torch_evaluator(net, mixed)
    obs = rng.integers(0, 2, (config.games, planes, h, w)).astype(np.float32)
    calls = rate(lambda: evaluate(obs), seconds, device)
    selfplay = SelfPlay(config, evaluate, seed=0)
    selfplay.step()
    start, games = time.perf_counter(), 0
    moves0, sims0, net0 = selfplay.moves, selfplay.simulations, selfplay.network_seconds
    while time.perf_counter() - start < seconds:
        done = selfplay.step()
        games += 0 if done is None else int(done.games)
    elapsed = time.perf_counter() - start
    return dict(
        params=params,
        steps=steps,
        positions=calls * config.games,
        moves=(selfplay.moves - moves0) / elapsed,
        games=games / elapsed,
        sims=(selfplay.simulations - sims0) / elapsed,
        share=(selfplay.network_seconds - net0) / elapsed,
    )


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--game", default="connect_four", choices=["connect_four", "tic_tac_toe"])
    p.add_argument("--channels", type=int)
    p.add_argument("--blocks", type=int)
    p.add_argument("--games", type=int, help="self-play games at once (the inference batch)")
    p.add_argument("--seconds", type=float, default=10.0, help="per measurement")
    p.add_argument("--threads", type=int, default=1, help="torch and search threads on the CPU")
    args = p.parse_args()
    overrides = {k: getattr(args, k) for k in ("channels", "blocks", "games") if getattr(args, k)}
    config = TrainConfig.for_game(args.game, threads=args.threads, **overrides)
    torch.set_num_threads(args.threads)
    rows = [("cpu", False)]
    if cpu_has_native_bfloat16():
        rows += [("cpu", True)]
    if torch.cuda.is_available():
        rows += [("cuda", False), ("cuda", True)]
    gpu = {"GPU": torch.cuda.get_device_name(0)} if torch.cuda.is_available() else {}
    harness.print_machine(**gpu, torch=torch.__version__, **{"CPU threads": args.threads})
    print(
        f"{args.game}: {config.channels} channels x {config.blocks} blocks, batch "
        f"{config.batch_size}, {config.games} games x {config.simulations} simulations"
    )
    header = (
        "| device | learner steps/s | x cpu | inference positions/s | x cpu | self-play "
        "moves/s | games/s | simulations/s | x cpu | network share |"
    )
    print(header)
    print("|---" * 10 + "|")
    base = None
    for name, mixed in rows:
        m = measure(config, torch.device(name), mixed, args.seconds)
        base = base or m
        label = name + (" bf16" if mixed else "")
        print(
            f"| {label} | {m['steps']:,.1f} | {m['steps'] / base['steps']:.2f} | "
            f"{m['positions']:,.0f} | {m['positions'] / base['positions']:.2f} | "
            f"{m['moves']:,.0f} | {m['games']:,.1f} | {m['sims']:,.0f} | "
            f"{m['sims'] / base['sims']:.2f} | {m['share']:.0%} |",
            flush=True,
        )
    print(f"network parameters: {base['params']:,}")


if __name__ == "__main__":
    main()
