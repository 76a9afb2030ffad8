"""Per-call latency of small calls, for each thread setting: the fixed cost a call pays
before (and after) its real work, which is what RL loops and solver opponents feel.

    python benchmarks/latency.py              # --repeats N, --seconds S per cell

Each cell is the median over `--repeats` rounds of the median per-call time of a burst
of calls (a burst lasts about `--seconds`). The thread settings are interleaved within
each round, so machine noise hits them alike; the ratio columns compare each setting
with threads=1 (the issue's target: `default` within 1.3x, solver calls in
microseconds).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import harness

import inarow

# Easy positions (Pascal Pons' move strings, 1-based columns): one 37-stone end
# position of his End-Easy set and four 12-stone positions of his Begin-Easy set.
END_37 = "2252576253462244111563365343671351441"
BEGIN_12 = ["243335424257", "165746146225", "427631264721", "543772563551"]

SETTINGS: list[tuple[str, int | None]] = [("threads=1", 1), ("threads=2", 2), ("default", None)]

Call = Callable[[], object]


def per_call(call: Call, seconds: float) -> float:
    """Median seconds per call over a burst of about `seconds`."""
    call()  # warm-up (tables, caches, pools)
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(times) < 5:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return harness.median(times)


def board_move() -> Call:
    board = inarow.Board()

    def call():
        board.move(3)
        board.undo()

    return call


def vec_step(num_envs: int, threads: int | None) -> Call:
    env = (
        inarow.VecEnv(num_envs, seed=0)
        if threads is None
        else inarow.VecEnv(num_envs, seed=0, threads=threads)
    )
    env.reset(seed=0)
    return lambda: env.step(env.random_actions())


def solver(threads: int | None) -> inarow.Solver:
    return inarow.Solver() if threads is None else inarow.Solver(threads=threads)


def solver_call(method: str, moves: list[str], threads: int | None, cold: bool = False) -> Call:
    """Calls `method` on each position in turn; `cold` empties the table first."""
    s = solver(threads)
    boards = [inarow.Board.from_pons(m) for m in moves]
    fn = getattr(s, method)
    state = {"i": 0}

    def call():
        i = state["i"]
        state["i"] = (i + 1) % len(boards)
        if cold:
            s.clear()
        return fn(boards[i])

    return call


def rows() -> list[tuple[str, Callable[[int | None], Call]]]:
    out: list[tuple[str, Callable[[int | None], Call]]] = [
        ("Board.move + undo", lambda t: board_move()),
    ]
    for n in (1, 16, 64, 256, 4096):
        out.append((f"VecEnv({n}).step(random_actions())", lambda t, n=n: vec_step(n, t)))
    for method in ("solve", "best_move", "analyze"):
        for cold in (False, True):
            table = "cold" if cold else "warm"
            out.append(
                (
                    f"Solver.{method}, 37-stone end ({table} table)",
                    lambda t, m=method, c=cold: solver_call(m, [END_37], t, c),
                )
            )
    for method in ("solve", "best_move"):
        for cold in (False, True):
            table = "cold" if cold else "warm"
            out.append(
                (
                    f"Solver.{method}, 12-stone ({table} table)",
                    lambda t, m=method, c=cold: solver_call(m, BEGIN_12, t, c),
                )
            )
    return out


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.2f} ms"


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.2, help="length of one burst")
    args = parser.parse_args()

    harness.print_machine(**{"default Solver": repr(inarow.Solver())})
    header = "| call | " + " | ".join(name for name, _ in SETTINGS) + " | 2 / 1 | default / 1 |"
    print(header)
    print("|" + "---|" * (len(SETTINGS) + 3))
    for label, make in rows():
        calls = {name: make(t) for name, t in SETTINGS}
        samples: dict[str, list[float]] = {name: [] for name, _ in SETTINGS}
        for _ in range(args.repeats):
            for name, _ in SETTINGS:
                samples[name].append(per_call(calls[name], args.seconds))
        med = {name: harness.median(v) for name, v in samples.items()}
        one = med["threads=1"]
        cells = " | ".join(fmt(med[name]) for name, _ in SETTINGS)
        print(
            f"| {label} | {cells} | {med['threads=2'] / one:.2f}x | {med['default'] / one:.2f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
