"""The free-placement solver against an earlier version of itself, side by side in
one run: nodes and time of each board (from the empty board or after ``@CELLS``)
for the base revision's solver, today's, and today's with the history heuristic
switched off (``FREE_HISTORY=0``, the ablation).

The base revision is checked out into a temporary git worktree and built there
(release, with ``BASE_DRIVER`` below as its ``examples/free_solve.rs``: the calls
both revisions have, the same arguments and output as today's example); today's
is ``examples/free_solve.rs`` built from the working tree. Each board runs ``--rounds``
times per solver (median time and its 95% bootstrap interval; node counts do not
vary), each run capped at ``--limit`` seconds (then shown as "over").

    python benchmarks/free_compare.py --rounds 3
    python benchmarks/free_compare.py --boards "7 6 5" "7 7 5 @24,25,32" --limit 120
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import harness

ROOT = Path(__file__).resolve().parent.parent
# The solver before the standard rule, proofs and the history heuristic (main, 2026-11-28).
DEFAULT_BASE = "c0ed6be"
BOARDS = ["5 4 4", "5 5 4", "6 5 4", "6 6 4", "6 6 5", "7 5 5", "7 6 5", "7 7 5 @24,25,32"]
# The base revision's driver: what today's examples/free_solve.rs does, with the
# solver calls every revision has.
BASE_DRIVER = """
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use inarow::solver::free::{FreePosition, FreeSolver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let moves: Vec<usize> = args
        .get(3)
        .and_then(|a| a.strip_prefix('@'))
        .map(|c| c.split(',').map(|x| x.parse().expect("cell")).collect())
        .unwrap_or_default();
    let n = |i: usize| args[i].parse::<usize>().expect("width height k");
    let (w, h, k) = (n(0), n(1), n(2));
    let mut solver = FreeSolver::new(256 << 20).expect("table");
    let pos = FreePosition::from_moves(w, h, k, &moves).expect("position");
    let start = Instant::now();
    let value = solver.solve(&pos, false, &AtomicBool::new(false)).expect("solved");
    println!(
        "{w}x{h} k={k} after {moves:?}: score {value:+} ({} nodes, {:.3} s)",
        solver.nodes(),
        start.elapsed().as_secs_f64()
    );
}
"""
RESULT = re.compile(r"score ([+-]?\d+) \((\d+) nodes, ([\d.]+) s\)")


def build(tree: Path, target: Path) -> Path:
    """Builds ``free_solve`` of ``tree`` into ``target``; the binary's path."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    cmd = ["cargo", "build", "--quiet", "--release", "--example", "free_solve"]
    subprocess.run(cmd, cwd=tree, env=env, check=True)
    return target / "release" / "examples" / "free_solve"


def run(
    binary: Path, board: str, limit: float, env: dict[str, str]
) -> tuple[int, int, float] | None:
    """``(score, nodes, seconds)`` of one solve, ``None`` past ``limit``."""
    try:
        out = subprocess.run(
            [str(binary), *board.split()],
            capture_output=True,
            text=True,
            timeout=limit,
            env=dict(os.environ, **env),
            check=True,
        ).stdout
    except subprocess.TimeoutExpired:
        return None
    found = RESULT.search(out)
    if found is None:
        sys.exit(f"unexpected output of {binary} {board}: {out!r}")
    return int(found[1]), int(found[2]), float(found[3])


def cell(results: list[tuple[int, int, float] | None], limit: float) -> str:
    if any(r is None for r in results):
        return f"over {limit:g} s"
    times = [r[2] for r in results if r is not None]
    med, low, high = harness.median_interval(times)
    nodes = results[0][1] if results[0] is not None else 0
    return f"{nodes:,} nodes, {med:.3f} s [{low:.3f}, {high:.3f}]"


def main() -> None:
    ap = harness.parser(__doc__)
    ap.add_argument("--base", default=DEFAULT_BASE, help="the earlier revision (git)")
    ap.add_argument("--boards", nargs="+", default=BOARDS, help='boards: "W H K [@CELLS]"')
    ap.add_argument("--rounds", type=int, default=3, help="runs per board and solver")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="free_compare_"))
    try:
        base_tree = work / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(base_tree), args.base],
            cwd=ROOT,
            check=True,
        )
        (base_tree / "examples" / "free_solve.rs").write_text(BASE_DRIVER)
        base = build(base_tree, work / "target")
        today = build(ROOT, ROOT / "target")
        harness.print_machine(base=args.base, rounds=args.rounds)
        solvers = [
            (f"base {args.base}", base, {}),
            ("today", today, {}),
            ("today, no history", today, {"FREE_HISTORY": "0"}),
        ]
        print("| board | " + " | ".join(name for name, _, _ in solvers) + " |")
        print("|---|" + "---:|" * len(solvers))
        for board in args.boards:
            cells = []
            scores = set()
            for _, binary, env in solvers:
                results = [run(binary, board, args.limit, env) for _ in range(args.rounds)]
                scores |= {r[0] for r in results if r is not None}
                cells.append(cell(results, args.limit))
            if len(scores) > 1:
                sys.exit(f"{board}: the solvers disagree: scores {sorted(scores)}")
            score = f" (score {scores.pop():+})" if scores else ""
            print(f"| {board}{score} | " + " | ".join(cells) + " |", flush=True)
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(work / "base")], cwd=ROOT, check=False
        )
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
