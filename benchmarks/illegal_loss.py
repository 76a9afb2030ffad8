"""The cost of `illegal_action="loss"` in self-play: `VecEnv.step` and
`InARowVectorEnv.step` per call, "raise" against "loss", at several batch sizes.

    python benchmarks/illegal_loss.py             # --rounds N, --calls C, --envs 1 256 4096
    python benchmarks/illegal_loss.py --json      # one JSON line of medians (for comparisons)

Every round times a burst of `--calls` steps of each cell, the cells interleaved
(raise and loss side by side), so machine noise hits them alike; a cell's figure
is the median over rounds of its bursts' median per-call time. Actions are legal
(drawn in Rust before each timed call), so both modes do the same work.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import harness

import inarow
from inarow.gymnasium import InARowVectorEnv

MODES = ("raise", "loss")


def native(num_envs: int, mode: str) -> Callable[[], float]:
    env = inarow.VecEnv(num_envs, seed=0, threads=None, illegal_action=mode)

    def timed() -> float:
        actions = env.random_actions()
        start = time.perf_counter()
        env.step(actions)
        return time.perf_counter() - start

    return timed


def gymnasium(num_envs: int, mode: str) -> Callable[[], float]:
    env = InARowVectorEnv(num_envs, seed=0, illegal_action=mode)
    env.reset(seed=0)

    def timed() -> float:
        actions = env.native.random_actions()
        start = time.perf_counter()
        env.step(actions)
        return time.perf_counter() - start

    return timed


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--envs", type=int, nargs="+", default=[1, 256, 4096])
    parser.add_argument("--json", action="store_true", help="print one JSON line of medians")
    args = parser.parse_args()
    cells = {
        (api, n, mode): make(n, mode)
        for api, make in (("VecEnv", native), ("InARowVectorEnv", gymnasium))
        for n in args.envs
        for mode in MODES
    }
    for timed in cells.values():
        for _ in range(10):  # warm-up: pools, caches
            timed()
    bursts: dict[tuple[str, int, str], list[float]] = {key: [] for key in cells}
    for _ in range(args.rounds):
        for key, timed in cells.items():
            bursts[key].append(harness.median(timed() for _ in range(args.calls)))
    medians = {key: harness.median(b) for key, b in bursts.items()}
    if args.json:
        print(json.dumps({"/".join(map(str, key)): m for key, m in medians.items()}))
        return
    harness.print_machine(rounds=args.rounds, calls=args.calls)
    print(f"{'step':<28}{'raise':>12}{'loss':>12}{'loss/raise':>12}")
    for api in ("VecEnv", "InARowVectorEnv"):
        for n in args.envs:
            r, loss = medians[(api, n, "raise")], medians[(api, n, "loss")]
            name = f"{api}({n})"
            print(f"{name:<28}{r * 1e6:>10.2f}us{loss * 1e6:>10.2f}us{loss / r:>12.3f}")


if __name__ == "__main__":
    main()
