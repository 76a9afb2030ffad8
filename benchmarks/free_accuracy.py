"""Good-move and perfect-move rates of agents on random openings of a free-placement
board the solver judges (7x7, k = 5 by default; 8x8 judges slowly), each with its 95%
Wilson interval: ``inarow.evaluate.move_accuracy`` on ``judged_positions`` of a fresh
seed.

The truth (every move's exact score, ``Solver.analyze``, one thread, a fresh table per
position) is computed once and kept in ``--truth`` (a JSON checkpoint written after
every position, read back on the next run with the same settings), so a run stopped by
Ctrl-C (or SIGTERM) resumes where it stopped. An analysis past ``--limit`` seconds is
cancelled and its position left out (the count is printed: the rates are then of the
positions that solve within the limit); a run with a longer ``--limit`` tries those
positions again. Agents are named as ``inarow.agents.named`` reads them:
``threats:nodes=20000``, ``greedy``, ``random``, ``negamax:2``, a
``network.npz:SIMULATIONS`` (0: the raw policy). Built-in agents get ``--agent-seed``.
The first agent is then paired with each other one on the same positions
(``inarow.evaluate.compare_accuracy``: the difference of good-move rates, its 95%
interval and McNemar's p).

    python benchmarks/free_accuracy.py --size 7 --lengths 14 18 22 --per-set 30 \\
        --seed 5901 --truth truth-7x7.json --agent threats:nodes=20000 --agent greedy
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import threading
import time

import harness

import inarow
from inarow.evaluate import judged


def settings_key(args: argparse.Namespace) -> dict:
    return {
        "size": args.size,
        "k": args.k,
        "seed": args.seed,
        "per_set": args.per_set,
        "lengths": sorted(args.lengths),
    }


def read_truth(path: str | None, key: dict) -> dict[str, list[int | None] | float]:
    """Per position (its cells as a string): the scores, or the limit in seconds its
    analysis ran past."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        saved = json.load(f)
    if saved.get("settings") != key:
        raise SystemExit(f"{path} holds other settings ({saved.get('settings')}); name another")
    return saved["truth"]


def write_truth(path: str | None, key: dict, truth: dict) -> None:
    if not path:
        return
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"settings": key, "truth": truth}, f)
    os.replace(tmp, path)


def cells_of(board: inarow.Board) -> str:
    return "".join(str(c) for c in board.to_numpy().ravel().tolist())


def analyze_within(board: inarow.Board, limit: float) -> list[int | None] | None:
    solver = inarow.Solver(tt_bytes=1 << 27, threads=1, book=False)
    timer = threading.Timer(limit, solver.cancel)
    timer.start()
    try:
        return list(solver.analyze(board))
    except inarow.CancelledError:
        return None
    finally:
        timer.cancel()


def unsolved(known: list[int | None] | float | None, limit: float) -> bool:
    """Whether a position needs an analysis: never tried, or tried within a shorter
    limit than ``limit``."""
    return known is None or (isinstance(known, float) and known < limit)


def solve_all(sets, truth, args, key) -> None:
    from tqdm.auto import tqdm

    boards = [b for bs in sets.values() for b in bs]
    todo = [b for b in boards if unsolved(truth.get(cells_of(b)), args.limit)]
    with tqdm(total=len(boards), initial=len(boards) - len(todo), desc="solving") as bar:
        for board in todo:
            scores = analyze_within(board, args.limit)
            truth[cells_of(board)] = args.limit if scores is None else scores
            write_truth(args.truth, key, truth)
            bar.update(1)


def main() -> None:
    ap = harness.parser(__doc__)
    ap.add_argument("--size", type=int, default=7, help="the board is SIZE x SIZE")
    ap.add_argument("--k", type=int, default=5, help="stones in a row that win (default 5)")
    ap.add_argument("--seed", type=int, required=True, help="seed of the openings (fresh)")
    ap.add_argument("--per-set", type=int, default=30, help="positions per opening length")
    ap.add_argument(
        "--lengths", type=int, nargs="+", required=True, help="stones of each set's openings"
    )
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per analysis")
    ap.add_argument("--truth", help="JSON checkpoint of the solved truth (resumes)")
    ap.add_argument(
        "--agent", action="append", default=[], help="an agent name (repeat for several)"
    )
    ap.add_argument("--agent-seed", type=int, default=0, help="seed of the built-in agents")
    args = ap.parse_args()
    rules = inarow.Rules(args.size, args.size, args.k, gravity=False)
    key = settings_key(args)
    truth = read_truth(args.truth, key)
    sets = judged.judged_positions(rules, args.per_set, seed=args.seed, lengths=args.lengths)
    print(harness.machine())
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        solve_all(sets, truth, args, key)
    except KeyboardInterrupt:
        write_truth(args.truth, key, truth)
        print(f"stopped; {len(truth)} positions solved, kept in {args.truth}")
        return
    kept = {}
    for name, boards in sets.items():
        kept[name] = [b for b in boards if isinstance(truth[cells_of(b)], list)]
        for b in kept[name]:
            judged.remember_truth(judged.position_key(b), tuple(truth[cells_of(b)]))
        dropped = len(boards) - len(kept[name])
        print(f"{name}: {len(kept[name])} positions judged, {dropped} over {args.limit:g} s")
    print(
        "| agent | positions | good moves [95%] | perfect moves [95%] | random's good "
        "| agent seconds |\n|---|---:|---:|---:|---:|---:|"
    )
    results = []
    for spec in args.agent:
        agent = inarow.agents.named(spec, seed=args.agent_seed, rules=rules)
        start = time.perf_counter()
        res = inarow.evaluate.move_accuracy(agent, kept, threads=1, progress=False)
        results.append(res)
        seconds = time.perf_counter() - start
        o = res.overall
        (gl, gh), (pl, ph) = o.good_interval, o.perfect_interval
        print(
            f"| `{spec}` | {o.positions} | {o.good_rate:.1%} [{gl:.1%}, {gh:.1%}] "
            f"| {o.perfect_rate:.1%} [{pl:.1%}, {ph:.1%}] | {o.random_good_rate:.1%} "
            f"| {seconds:.1f} |",
            flush=True,
        )
        for s in res.sets.values():
            print(f"    {s.name}: good {s.good}/{s.positions}, perfect {s.perfect}/{s.positions}")
    for spec, res in zip(args.agent[1:], results[1:]):
        print(f"\n{args.agent[0]} (a) less {spec} (b), paired:")
        print(inarow.evaluate.compare_accuracy(results[0], res))


if __name__ == "__main__":
    main()
