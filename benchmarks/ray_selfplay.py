"""Self-play through Ray (``inarow train --ray``) against the trainer's local
self-play, on this machine: games, positions and simulations per second of the
local ``SelfPlay`` (one torch and search thread) and of ``RaySelfPlay`` with 1 and 2
actors on a local Ray instance; the ratio Ray-1-actor / local at equal cores; the
weight publication's size and time; and the learner's steps per second, the figures
docs/training.md's scaling model ("Throughput and scaling") starts from.

    pip install '.[train,ray]'   # in a clone, CPU-only torch first (README)
    python benchmarks/ray_selfplay.py                       # Connect Four's defaults
    python benchmarks/ray_selfplay.py --game tic_tac_toe --seconds 10 --rounds 3

Every network has fresh random weights (the speed of a move does not depend on
them). Ray is driven as the training loop drives it: ``step()`` in a loop, the
positions that reach the driver counted, and ``publish(net, steps)`` after each
step with the learner steps the replay ratio owes for those positions (the
learner's training steps themselves are not run, so the driver's core stays free,
as with a learner on a GPU; the weights are published unchanged, but the actors
reload them all the same). The three set-ups stay alive through the run and take
turns, ``--rounds`` times (local, ray-1, ray-2, local, ...); each turn first runs
``--warmup`` seconds uncounted (which also drops what an actor finished while
another set-up had the machine), then counts ``--seconds``. CPU seconds are the
driver's and the actors' processes together. Medians over the rounds.
"""

from __future__ import annotations

import os
import pickle
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import harness
import numpy as np
import torch

from inarow.train.config import TrainConfig
from inarow.train.distributed import RaySelfPlay, _weights
from inarow.train.learner import Learner
from inarow.train.loop import torch_evaluator
from inarow.train.network import Network
from inarow.train.replay import ReplayBuffer
from inarow.train.selfplay import SelfPlay


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Local:
    """The trainer's own self-play in this process."""

    def __init__(self, config: TrainConfig) -> None:
        self.sp = SelfPlay(config, torch_evaluator(Network(config)), seed=1)

    def pids(self) -> list[int]:
        return [os.getpid()]

    def step(self):
        return self.sp.step()

    @property
    def simulations(self) -> int:
        return self.sp.simulations


class Ray:
    """``RaySelfPlay`` driven as the training loop drives it (publication included)."""

    def __init__(self, config: TrainConfig, actors: int, publish_steps: int) -> None:
        self.config = config
        self.net = Network(config)
        self.rsp = RaySelfPlay(config, self.net, seed=actors, actors=actors,
                               publish_steps=publish_steps)  # fmt: skip
        self.owed = 0.0
        self.learner_steps = 0
        ray = self.rsp.ray
        self.actor_pids = ray.get(
            [a.__ray_call__.remote(lambda self: os.getpid()) for a in self.rsp.actors()]
        )

    def pids(self) -> list[int]:
        return [os.getpid(), *self.actor_pids]

    def step(self):
        games = self.rsp.step()
        if games is not None:
            self.owed += len(games.obs) * self.config.replay_ratio / self.config.batch_size
            whole = int(self.owed)
            self.learner_steps += whole
            self.owed -= whole
        self.rsp.publish(self.net, self.learner_steps)
        return games

    @property
    def simulations(self) -> int:
        return self.rsp.simulations


def measure(source, seconds: float, warmup: float) -> dict:
    start = time.perf_counter()
    while time.perf_counter() - start < warmup:
        source.step()
    pids = source.pids()
    cpu0 = sum(cpu_seconds(p) for p in pids)
    sims0 = source.simulations
    games = positions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = source.step()
        if g is not None:
            games += g.games
            positions += len(g.obs)
    wall = time.perf_counter() - start
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    sims = source.simulations - sims0
    return dict(
        games=games / wall,
        positions=positions / wall,
        simulations=sims / wall,
        cpu=cpu / wall,
        sims_per_cpu=sims / cpu if cpu else float("nan"),
    )


def publication(config: TrainConfig, ray_mod, repeats: int) -> dict:
    """Bytes of the published weights, the time of ``ray.put`` (with the numpy
    copy `RaySelfPlay.publish` makes) and of an actor's load (fetch + load_state_dict)."""
    net = Network(config)
    state = _weights(net)
    raw = sum(v.nbytes for v in state.values())
    pickled = len(pickle.dumps((1, state), protocol=5))

    # No CPU asked: the self-play actors hold the logical ones while they live.
    @ray_mod.remote(num_cpus=0)
    class Loader:
        def __init__(self, config: dict) -> None:
            torch.set_num_threads(1)
            self.net = Network(TrainConfig.from_dict(config))

        def load(self, refs: list) -> float:
            t = time.perf_counter()
            _, st = ray_mod.get(refs[0])
            self.net.load_state_dict({k: torch.from_numpy(v) for k, v in st.items()})
            return time.perf_counter() - t

    loader = Loader.remote(config.to_dict())
    puts, loads = [], []
    for version in range(repeats):
        t = time.perf_counter()
        ref = ray_mod.put((version, _weights(net)))
        puts.append(time.perf_counter() - t)
        loads.append(ray_mod.get(loader.load.remote([ref])))
    ray_mod.kill(loader)
    return dict(
        tensors=len(state),
        raw_bytes=raw,
        pickled_bytes=pickled,
        put_ms=1e3 * harness.median(puts),
        load_ms=1e3 * harness.median(loads),
    )


def learner_rate(config: TrainConfig, seconds: float) -> float:
    """Learner steps per second on a ``batch_size`` batch from a full-enough replay."""
    torch.manual_seed(0)
    net = Network(config)
    learner = Learner(net, config)
    replay = ReplayBuffer(config)
    rng = np.random.default_rng(0)
    r = config.rules
    n = 10_000
    obs = rng.integers(0, 2, (n, r["players"], r["height"], r["width"])).astype(np.float32)
    mask = np.ones((n, config.num_actions), bool)
    policy = rng.dirichlet(np.ones(config.num_actions), n).astype(np.float32)
    value = rng.uniform(-1, 1, (n, config.value_size)).astype(np.float32)
    replay.add(obs, mask, policy, value)
    for _ in range(3):
        learner.step(replay.sample(config.batch_size, rng))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        learner.step(replay.sample(config.batch_size, rng))
        steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--game", default="connect_four", choices=["connect_four", "tic_tac_toe"])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=4.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--publish-steps", type=int, default=20)
    args = parser.parse_args()

    import ray

    torch.set_num_threads(1)
    # One thread for the local search and network, as each actor has.
    config = TrainConfig.for_game(args.game, threads=1)
    # Logical CPUs for the three actors of the two Ray set-ups, which take turns.
    ray.init(num_cpus=3, log_to_driver=False, include_dashboard=False)
    sources = {
        "local": Local(config),
        "ray, 1 actor": Ray(config, 1, args.publish_steps),
        "ray, 2 actors": Ray(config, 2, args.publish_steps),
    }
    for src in sources.values():  # the first games finish before any round counts
        measure(src, 0.0, 3 * args.warmup)
    results: dict[str, list[dict]] = {k: [] for k in sources}
    for r in range(args.rounds):
        for name, src in sources.items():
            m = measure(src, args.seconds, args.warmup)
            results[name].append(m)
            print(f"round {r + 1} {name}: " + ", ".join(f"{k} {v:,.1f}" for k, v in m.items()),
                  flush=True)  # fmt: skip
    med = {
        name: {k: harness.median(m[k] for m in ms) for k in ms[0]} for name, ms in results.items()
    }
    pub = publication(config, ray, repeats=15)
    for src in sources.values():
        if isinstance(src, Ray):
            src.rsp.close()
    learner = learner_rate(config, args.seconds)
    ray.shutdown()

    print()
    harness.print_machine()
    print(
        f"{args.game}: {config.games} games per actor, {config.simulations} simulations "
        f"per move, {args.rounds} rounds of {args.seconds:g} s (medians)"
    )
    print()
    print("| self-play | games/s | positions/s | simulations/s | CPUs busy | "
          "simulations per CPU-s | vs local |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|")
    base = med["local"]["simulations"]
    for name, m in med.items():
        print(
            f"| {name} | {m['games']:.1f} | {m['positions']:,.0f} | {m['simulations']:,.0f} | "
            f"{m['cpu']:.2f} | {m['sims_per_cpu']:,.0f} | {m['simulations'] / base:.2f}x |"
        )
    ratios = [
        ray1["simulations"] / loc["simulations"]
        for ray1, loc in zip(results["ray, 1 actor"], results["local"])
    ]
    print()
    print(
        "ray 1 actor / local, simulations/s per round: "
        + ", ".join(f"{x:.3f}" for x in ratios)
        + f" (median {harness.median(ratios):.3f}); per CPU-second: "
        f"{med['ray, 1 actor']['sims_per_cpu'] / med['local']['sims_per_cpu']:.3f}"
    )
    print(
        f"weights published: {pub['tensors']} tensors, {pub['raw_bytes']:,} bytes "
        f"({pub['pickled_bytes']:,} pickled); ray.put {pub['put_ms']:.2f} ms, "
        f"an actor's load {pub['load_ms']:.2f} ms (medians of 15)"
    )
    print(
        f"learner: {learner:.1f} steps/s on batches of {config.batch_size} (1 thread); "
        f"replay_ratio {config.replay_ratio:g}: one step per "
        f"{config.batch_size / config.replay_ratio:g} positions played"
    )


if __name__ == "__main__":
    main()
