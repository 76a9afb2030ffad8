"""What the win rules cost, and what they cost freestyle: random games (`simulate`),
`VecEnv.step`, the gravity solver on Pons' positions, the free-placement solver, the
threat engine (the threats agent at fixed nodes, `find_win`'s VCF) and negamax, on
freestyle and, where this build has them, under standard and renju. One thread.

    python benchmarks/win_rules.py                   # this build: each workload's rate
    python benchmarks/win_rules.py --against PYTHON --rounds 4
    python benchmarks/win_rules.py --against PYTHON --instructions

``--against PYTHON`` compares this build with another: PYTHON is the interpreter of an
environment where another build of inarow is installed (an earlier commit checked out
with ``git worktree add``, built into its own virtual environment with ``maturin
develop --release``). This script runs under both, alternating (this, other, other,
this, ...: ``--rounds`` of each), one process per run, and prints each workload's
median time under each build, their ratio, and the nodes each searched. Only the
workloads both builds have are compared (an earlier build may lack the rules); a
workload whose results differ between the builds (scores, moves chosen, wins found)
says so.

``--instructions`` also counts each workload's instructions under valgrind's
cachegrind (unmoved by the machine's load): a process that runs the workload's set-up
and the workload, minus one that runs the set-up only, workloads shrunk by
``--instructions-scale`` (default 0.25). The workloads are deterministic (fixed seeds,
one thread; numpy's BLAS on one thread and Python's hash seed fixed in every worker),
so equal code counts equal instructions. The table is in BENCHMARKS.md ("Win rules").
"""

from __future__ import annotations

import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import harness

import inarow
from inarow.threats import find_win

PONS = Path(__file__).resolve().parents[1] / "python" / "inarow" / "data" / "connect4-pons"
# Pons' sets and how many positions of each (the first ones in the file).
PONS_SETS = [("Test_L3_R1", 400), ("Test_L2_R1", 200), ("Test_L1_R1", 40), ("Test_L2_R2", 12)]
# Free m,n,k games, n <= m <= 6, 3 <= k <= m, from the empty board (the atlas's).
FREE_GAMES = [(m, n, k) for n in range(3, 7) for m in range(n, 7) for k in range(3, m + 1)]
CENTRE_15 = [r * 15 + c for r in range(4, 11) for c in range(4, 11)]

# A workload: a name and a set-up that returns the timed part, which returns (work
# done, the unit of a rate, a value that must agree between builds[, nodes searched]).
Run = Callable[[], tuple]
Workload = tuple[str, Callable[[float], Run]]


def build_rules() -> list[str]:
    """The win rules this build of inarow knows."""
    has_rule = "rule" in (inarow.Rules.gomoku.__text_signature__ or "")
    return ["freestyle", "standard", "renju"] if has_rule else ["freestyle"]


def gomoku(rule: str) -> inarow.Rules:
    return inarow.Rules.gomoku(15, rule=rule) if rule != "freestyle" else inarow.Rules.gomoku(15)


def free(m: int, n: int, k: int, rule: str) -> inarow.Rules:
    if rule == "freestyle":
        return inarow.Rules(m, n, k, gravity=False)
    return inarow.Rules(m, n, k, gravity=False, rule=rule)


def scaled(n: int, scale: float) -> int:
    return max(1, round(n * scale))


def simulate(rules: inarow.Rules, games: int) -> Callable[[float], Run]:
    def setup(scale: float) -> Run:
        count = scaled(games, scale)

        def run():
            result = inarow.simulate(count, rules=rules, seed=0, threads=1)
            return count, "games/s", result.moves

        return run

    return setup


def steps(rules: inarow.Rules, envs: int, n: int) -> Callable[[float], Run]:
    def setup(scale: float) -> Run:
        count = scaled(n, scale)
        env = inarow.VecEnv(envs, rules=rules, seed=0, threads=1)
        env.reset(seed=0)

        def run():
            done = 0
            for _ in range(count):
                _, _, terminated, truncated, _ = env.step(env.random_actions())
                done += int(terminated.sum() + truncated.sum())
            return envs * count, "env-steps/s", done

        return run

    return setup


def pons_solves(scale: float) -> Run:
    positions = []
    for name, n in PONS_SETS:
        lines = (PONS / name).read_text().split("\n")
        for line in lines[: scaled(n, scale)]:
            digits, score = line.split()
            positions.append((inarow.Board.from_pons(digits), int(score)))
    solver = inarow.Solver(tt_bytes=1 << 24, threads=1, book=False)

    def run():
        nodes = 0
        for board, score in positions:
            solver.clear()
            got = solver.solve(board)
            if got != score:
                raise AssertionError(f"solver says {got}, Pons {score}")
            nodes += solver.nodes
        return len(positions), "positions/s", nodes, nodes

    return run


def solver_pass(boards: list[inarow.Board], method: str, unit: str) -> Run:
    """A run calling ``Solver.<method>`` on each board, a fresh solver each."""

    def run():
        nodes, scores = 0, []
        for board in boards:
            solver = inarow.Solver(tt_bytes=1 << 24, threads=1, book=False)
            scores.append(getattr(solver, method)(board))
            nodes += solver.nodes
        return len(boards), unit, scores, nodes

    return run


def free_solves(rule: str, games: list[tuple[int, int, int]]) -> Callable[[float], Run]:
    def setup(scale: float) -> Run:
        boards = [inarow.Board(rules=free(m, n, k, rule)) for m, n, k in games]
        return solver_pass(boards, "solve", "solves/s")

    return setup


def random_position(
    rules: inarow.Rules, stones: int, cells: list[int], rng: random.Random
) -> inarow.Board:
    """``stones`` random tries among ``cells`` (illegal ones skipped), drawn again
    until the game is not over."""
    while True:
        board = inarow.Board(rules=rules)
        for _ in range(stones):
            cell = rng.choice(cells)
            if board.is_legal(cell):
                board.move(cell)
            if board.is_over:
                break
        if not board.is_over:
            return board


def free_analyses(scale: float) -> Run:
    """``Solver.analyze`` of 7x7 five-in-a-row positions of up to 16 stones (16
    random tries over the 49 cells, taken ones skipped: the kind of analysis of
    benchmarks/free_analyze.py, not its positions): four of the first six seed 5
    draws, the six minus the two that take tens of seconds."""
    rules = free(7, 7, 5, "freestyle")
    rng = random.Random(5)
    drawn = [random_position(rules, 16, list(range(49)), rng) for _ in range(6)]
    boards = [drawn[i] for i in [1, 2, 3, 5][: scaled(4, scale)]]
    return solver_pass(boards, "analyze", "positions/s")


def threats_agent(rule: str, nodes: int) -> Callable[[float], Run]:
    def setup(scale: float) -> Run:
        count = scaled(nodes, scale)
        board = inarow.Board.from_moves([112, 128, 113, 96], rules=gomoku(rule))
        agent = inarow.agents.threats(time_limit=None, nodes=count, seed=0, threads=1)
        inarow.agents.threats(time_limit=None, nodes=100, seed=0, threads=1)(board)  # warm

        def run():
            return count, "nodes/s", agent(board)

        return run

    return setup


def vcf(rule: str, positions: int) -> Callable[[float], Run]:
    def setup(scale: float) -> Run:
        rng = random.Random(7)
        boards = [
            random_position(gomoku(rule), 14, CENTRE_15, rng)
            for _ in range(scaled(positions, scale))
        ]
        find_win(boards[0], "vcf")  # the first call's one-time set-up, outside the timing

        def run():
            found = [find_win(board, "vcf") for board in boards]
            return len(boards), "answers/s", sum(line is not None for line in found)

        return run

    return setup


def negamax(rule: str, depth: int, positions: int) -> Callable[[float], Run]:
    def setup(scale: float) -> Run:
        rng = random.Random(11)
        boards = [
            random_position(gomoku(rule), stones, CENTRE_15, rng)
            for stones in [6, 12, 16][: scaled(positions, scale)]
        ]
        agent = inarow.agents.negamax(depth, seed=0)

        def run():
            return len(boards), "moves/s", [agent(board) for board in boards]

        return run

    return setup


def workloads(rules: list[str]) -> list[Workload]:
    out: list[Workload] = [
        ("simulate, Connect Four, 200k games", simulate(inarow.Rules.connect_four(), 200_000)),
    ]
    for rule in rules:
        games = 500 if rule == "renju" else 6_000
        out.append((f"simulate, gomoku 15x15 {rule}, {games} games", simulate(gomoku(rule), games)))
    out.append(
        ("VecEnv.step, Connect Four, 4096 envs x 50", steps(inarow.Rules.connect_four(), 4096, 50))
    )
    for rule in rules:
        out.append(
            (f"VecEnv.step, gomoku 15x15 {rule}, 256 envs x 200", steps(gomoku(rule), 256, 200))
        )
    sets = ", ".join(f"{n} {name[5:]}" for name, n in PONS_SETS)
    out.append((f"gravity solver, Pons ({sets})", pons_solves))
    for rule in [r for r in rules if r != "renju"]:  # the free solver refuses renju
        out.append(
            (f"free solver, {len(FREE_GAMES)} m,n,k <= 6, {rule}", free_solves(rule, FREE_GAMES))
        )
    out.append(("free solver analyze, 4 7x7 k=5 positions of 16 stones", free_analyses))
    for rule in rules:
        out.append((f"threats agent, 300k nodes, 15x15 {rule}", threats_agent(rule, 300_000)))
    for rule in rules:
        out.append((f"find_win vcf, 500 positions of 14 stones, {rule}", vcf(rule, 500)))
    for rule in rules:
        out.append((f"negamax depth 4, 3 positions, 15x15 {rule}", negamax(rule, 4, 3)))
    return out


def selected(only: str | None, exact: str | None = None) -> list[Workload]:
    """The workloads named by ``--only`` (words, commas between) or ``exact``."""
    chosen = workloads(build_rules())
    if exact is not None:
        return [(name, w) for name, w in chosen if name == exact]
    if only is None:
        return chosen
    words = [w.strip().lower() for w in only.split(",")]
    return [(name, w) for name, w in chosen if any(word in name.lower() for word in words)]


def worker(args) -> None:
    """Runs the workloads in this process; one JSON line each."""
    for name, setup in selected(args.only, args.exact):
        run = setup(args.scale)
        if args.setup_only:
            continue
        begin = time.perf_counter()
        count, unit, check, *nodes = run()
        seconds = time.perf_counter() - begin
        line = {"name": name, "seconds": seconds, "count": count, "unit": unit}
        line["check"] = json.dumps(check)
        line["nodes"] = nodes[0] if nodes else None
        print(json.dumps(line), flush=True)


def run_worker(python: str, args, extra: list[str], valgrind: bool = False) -> tuple[str, str]:
    """One worker process under ``python`` (under cachegrind with ``valgrind``): its
    output and its errors (where cachegrind writes its summary)."""
    scale = args.instructions_scale if valgrind else args.scale
    command = [python, str(Path(__file__).resolve()), "--worker", "--scale", str(scale)]
    command += extra if extra else (["--only", args.only] if args.only else [])
    if valgrind:
        command = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ] + command
    # numpy's OpenBLAS threads spin (instructions counted at random) and Python's
    # hashes vary from run to run: one thread and one seed keep the counts exact.
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr[-3000:]}")
    return done.stdout, done.stderr


def instructions(python: str, args, name: str) -> tuple[int, int]:
    """The instructions of one workload (its set-up and run minus its set-up alone)
    and the work it did (at ``--instructions-scale``)."""

    def count(setup_only: bool) -> tuple[int, int]:
        extra = ["--exact", name] + (["--setup-only"] if setup_only else [])
        out, err = run_worker(python, args, extra, valgrind=True)
        found = re.search(r"I\s+refs:\s+([\d,]+)", err)
        if not found:
            sys.exit(f"no instruction count from cachegrind:\n{err[-2000:]}")
        work = json.loads(out)["count"] if out.strip() else 0
        return int(found.group(1).replace(",", "")), work

    (full, work), (setup, _) = count(False), count(True)
    return full - setup, work


def names_under(python: str, only: str | None) -> list[str]:
    """The names of the workloads selected under another build's interpreter."""
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import win_rules;"
        "print(json.dumps([n for n, _ in win_rules.selected(sys.argv[2] or None)]))"
    )
    here = str(Path(__file__).resolve().parent)
    done = subprocess.run([python, "-c", code, here, only or ""], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{python} could not list its workloads:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def compare(args) -> None:
    """This build against ``args.against``'s, runs alternated; a markdown table."""
    builds = {"this": sys.executable, "other": args.against}
    theirs = names_under(args.against, args.only)
    names = [name for name, _ in selected(args.only) if name in theirs]
    times = {name: {"this": [], "other": []} for name in names}
    checks: dict[str, dict[str, str]] = {name: {} for name in names}
    nodes: dict[str, dict[str, int]] = {name: {} for name in names}
    for r in range(args.rounds):
        for label in ("this", "other") if r % 2 == 0 else ("other", "this"):
            for line in run_worker(builds[label], args, [])[0].splitlines():
                row = json.loads(line)
                if row["name"] in times:
                    times[row["name"]][label].append(row["seconds"])
                    checks[row["name"]][label] = row["check"]
                    if row["nodes"] is not None:
                        nodes[row["name"]][label] = row["nodes"]
        print(f"# round {r + 1} of {args.rounds} done, load {harness.load()[0]:.2f}", flush=True)
    counts = {}
    if args.instructions:
        for name in names:
            counts[name] = {
                label: instructions(python, args, name)[0] for label, python in builds.items()
            }
            print(f"# instructions of {name}: {counts[name]}", flush=True)
    head = ["workload", "other, median", "this, median", "this / other"]
    if counts:
        head += ["instructions, other", "this", "this / other"]
    head += ["nodes, other -> this"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name in names:
        this, other = (statistics.median(times[name][label]) for label in ("this", "other"))
        cells = [name, f"{other * 1000:.1f} ms", f"{this * 1000:.1f} ms", f"{this / other:.2f}"]
        if counts:
            i_this, i_other = counts[name]["this"], counts[name]["other"]
            cells += [f"{i_other / 1e6:,.1f}M", f"{i_this / 1e6:,.1f}M", f"{i_this / i_other:.3f}"]
        n = nodes[name]
        cells.append(f"{n['other']:,} -> {n['this']:,}" if len(n) == 2 else "")
        if checks[name].get("this") != checks[name].get("other"):
            cells[0] += " (results differ)"
        print("| " + " | ".join(cells) + " |")


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument(
        "--repeat", type=int, default=3, help="timings of each, the median kept (this build alone)"
    )
    p.add_argument(
        "--against", metavar="PYTHON", help="another build's interpreter to compare with"
    )
    p.add_argument("--rounds", type=int, default=4, help="runs under each build (--against)")
    p.add_argument("--instructions", action="store_true", help="count instructions (valgrind)")
    p.add_argument("--only", help="workloads whose names contain any of these words (commas)")
    p.add_argument("--exact", help=argparse_hidden())
    p.add_argument("--scale", type=float, default=1.0, help="workload size (1: the named sizes)")
    p.add_argument(
        "--instructions-scale", type=float, default=0.25, help="workload size under valgrind"
    )
    p.add_argument("--worker", action="store_true", help=argparse_hidden())
    p.add_argument("--setup-only", action="store_true", help=argparse_hidden())
    args = p.parse_args()
    if args.worker:
        worker(args)
        return
    harness.print_machine()
    if args.against:
        compare(args)
        return
    alone(args)


def alone(args) -> None:
    """This build's table: each workload's median time and rate (and instructions per
    unit of work with ``--instructions``)."""
    rows: dict[str, list[dict]] = {}
    for _ in range(args.repeat):
        for line in run_worker(sys.executable, args, [])[0].splitlines():
            row = json.loads(line)
            rows.setdefault(row["name"], []).append(row)
    head = ["workload", "median", "rate"] + (["instructions per unit"] if args.instructions else [])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, runs in rows.items():
        seconds = statistics.median(r["seconds"] for r in runs)
        unit = runs[0]["unit"]
        rate = runs[0]["count"] / seconds
        cells = [name, f"{seconds * 1000:.1f} ms", f"{rate:,.{0 if rate >= 100 else 2}f} {unit}"]
        if args.instructions:
            count, work = instructions(sys.executable, args, name)
            cells.append(f"{count / work:,.0f} per {unit.split('/')[0].rstrip('s')}")
        print("| " + " | ".join(cells) + " |", flush=True)


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    main()
