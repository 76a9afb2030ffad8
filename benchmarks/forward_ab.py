"""The native forward pass of this build against another build's, interleaved in one
process (the machine is shared: paired rounds, ratios and medians).

    python benchmarks/forward_ab.py OTHER/inarow/_native.abi3.so
    python benchmarks/forward_ab.py OTHER/inarow/_native.abi3.so --game 15x15_k5_free

OTHER is another build of the package (a wheel installed in a second environment, or
a copy of ``python/inarow`` after ``maturin develop``). Both builds run the shipped
network of ``--game`` on the same positions (random games of 4-30 plies), one
position a call as the search makes them, in alternating rounds; the two must agree
to 1e-4. Prints the median milliseconds a position and the ratio other / this.
"""

from __future__ import annotations

import importlib.util
import time
from types import ModuleType

import harness
import numpy as np

import inarow
from inarow import numpy_net
from inarow.pretrained import PRETRAINED


def load_build(path: str) -> ModuleType:
    """Another build's ``_native`` module, loaded beside this one's."""
    spec = importlib.util.spec_from_file_location("_native", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: not a loadable extension module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def positions(rules: dict, count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    while len(out) < count:
        board = inarow.Board(rules=inarow.Rules(**rules))
        for _ in range(int(rng.integers(4, 31))):
            if board.is_over:
                break
            board.move(int(rng.choice(board.legal_moves())))
        if not board.is_over:
            out.append(board.observation().astype(np.float32)[None])
    return out


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("other", help="the other build's _native extension module (.so)")
    p.add_argument("--game", default="connect_four", choices=sorted(PRETRAINED))
    p.add_argument("--positions", type=int, default=64)
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    harness.print_machine()

    net = inarow.agents.pretrained(args.game).net
    this = net.native
    built_here = numpy_net.ConvNet
    numpy_net.ConvNet = load_build(args.other).ConvNet  # the same layers, the other code
    try:
        other = net._build_native()
    finally:
        numpy_net.ConvNet = built_here
    obs = positions(net.rules, args.positions, args.seed)
    batch = np.concatenate(obs)
    for a, b in zip(this(batch), other(batch)):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)

    times: dict[str, list[float]] = {"this": [], "other": []}
    for r in range(args.rounds):
        order = [("this", this), ("other", other)]
        for name, forward in order if r % 2 else order[::-1]:
            start = time.perf_counter()
            for o in obs:
                forward(o)
            times[name].append((time.perf_counter() - start) / len(obs) * 1e3)
    mine, theirs = np.array(times["this"]), np.array(times["other"])
    ratio = theirs / mine
    print(
        f"{args.game}: this build {harness.median(mine):.4f} ms a position, the other "
        f"{harness.median(theirs):.4f} ms; other / this {harness.median(ratio):.2f} "
        f"(10th-90th percentile of rounds {np.percentile(ratio, 10):.2f}-"
        f"{np.percentile(ratio, 90):.2f}; {args.rounds} rounds of {len(obs)} positions)"
    )


if __name__ == "__main__":
    main()
