"""Exact per-column analyses of Pascal Pons' six Connect-Four test sets.

For each set file ``Test_L?_R?`` (lines ``<moves> <score>``) writes
``Test_L?_R?.analysis``: one line per position, in the same order,
``<moves> s1 s2 s3 s4 s5 s6 s7`` where ``sc`` is ``inarow.Solver().analyze(board)[c-1]``
(the exact score of playing column c, Pons' convention, for the player who plays
it) or ``.`` for a full column. Every line is checked against the set's own score
(the best column's score equals the position's score) before it is written.

Deterministic (the same file from any run), resumable (each line is flushed and
synced as soon as it is solved; a rerun continues after the last complete line),
Ctrl-C safe (exit code 130, nothing half-written is kept), with a tqdm progress bar.

    python scripts/pons_analysis.py                       # all six sets, in place
    python scripts/pons_analysis.py --only Test_L3_R1 --limit 100
    python scripts/pons_analysis.py --verify 50           # re-solve 50 random lines per set
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import inarow

SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
PACKAGE_DATA = Path(__file__).resolve().parents[1] / "python" / "inarow" / "data" / "connect4-pons"
EXIT_INTERRUPTED = 130


def analysis_line(solver: inarow.Solver, moves: str, expected: int | None) -> str:
    """The analysis line of one position; checks the best score against ``expected``."""
    board = inarow.Board.from_pons(moves)
    scores = solver.analyze(board)
    best = max(s for s in scores if s is not None)
    if expected is not None and best != expected:
        raise ValueError(f"{moves}: best column scores {best}, the set says {expected}")
    return moves + " " + " ".join("." if s is None else str(s) for s in scores)


def read_set(path: Path) -> list[tuple[str, int]]:
    out = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if fields:
            out.append((fields[0], int(fields[1])))
    return out


def complete_lines(path: Path) -> list[str]:
    """The complete lines of a partial output; a cut-off last line is removed from the file."""
    if not path.exists():
        return []
    data = path.read_bytes()
    keep = data[: data.rfind(b"\n") + 1]
    if len(keep) != len(data):
        with open(path, "r+b") as f:
            f.truncate(len(keep))
    return keep.decode().splitlines()


def generate(
    set_path: Path,
    out_path: Path,
    solver: inarow.Solver,
    limit: int | None = None,
    progress: bool = True,
) -> int:
    """Extends ``out_path`` to the first ``limit`` positions of the set; returns lines solved now."""
    entries = read_set(set_path)[:limit]
    done = complete_lines(out_path)
    for i, line in enumerate(done[: len(entries)]):
        if line.split()[0] != entries[i][0]:
            raise SystemExit(
                f"{out_path} line {i + 1} is for {line.split()[0]}, the set has {entries[i][0]}: "
                "delete the file to start over"
            )
    todo = entries[len(done) :]
    bar = None
    if progress and todo:
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            bar = tqdm(total=len(entries), initial=len(done), unit="pos", desc=set_path.name)
    try:
        with open(out_path, "a") as out:
            for moves, score in todo:
                line = analysis_line(solver, moves, score)
                out.write(line + "\n")
                out.flush()
                os.fsync(out.fileno())
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return len(todo)


def verify(set_path: Path, out_path: Path, solver: inarow.Solver, sample: int, seed: int) -> int:
    """Re-solves ``sample`` random lines of an analysis file; returns the mismatches."""
    entries = read_set(set_path)
    lines = complete_lines(out_path)
    rng = random.Random(seed)
    picks = sorted(rng.sample(range(len(lines)), min(sample, len(lines))))
    bad = 0
    for i in picks:
        fresh = analysis_line(solver, entries[i][0], entries[i][1])
        if fresh != lines[i]:
            bad += 1
            print(f"{out_path.name} line {i + 1}: file {lines[i]!r}, solver {fresh!r}")
    return bad


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", type=Path, default=PACKAGE_DATA, help="directory of the set files")
    p.add_argument("--out", type=Path, default=None, help="output directory (default: --sets)")
    p.add_argument("--only", nargs="*", default=list(SETS), choices=SETS, metavar="SET")
    p.add_argument("--limit", type=int, default=None, help="first N positions of each set")
    p.add_argument("--tt-mib", type=int, default=256, help="solver table size")
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    p.add_argument("--verify", type=int, default=0, metavar="N", help="re-solve N random lines")
    p.add_argument("--seed", type=int, default=0, help="seed of --verify's sample")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    out_dir = args.out or args.sets
    out_dir.mkdir(parents=True, exist_ok=True)
    solver = inarow.Solver(tt_bytes=args.tt_mib << 20, threads=min(args.threads, 64))
    start = time.perf_counter()
    solved = 0
    try:
        for name in args.only:
            set_path = args.sets / name
            if not set_path.is_file():
                print(f"missing set file {set_path} (pass --sets DIR)", file=sys.stderr)
                return 2
            out_path = out_dir / f"{name}.analysis"
            if args.verify:
                bad = verify(set_path, out_path, solver, args.verify, args.seed)
                print(
                    f"{name}: {bad} mismatch(es) in {min(args.verify, len(complete_lines(out_path)))} lines"
                )
                if bad:
                    return 1
            else:
                solved += generate(set_path, out_path, solver, args.limit, not args.no_progress)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {solved} new positions; rerun to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    hours = (time.perf_counter() - start) / 3600
    if not args.verify:
        print(f"{solved} positions solved in {hours:.3f} h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
