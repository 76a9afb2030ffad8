"""The atlas of small solved k-in-a-row games: the value of every free-placement
m,n,k game with 3 <= n <= m <= 6 and 3 <= k <= min(6, m), and of the Connect-Four
family (gravity, k = 4) on every board of 4 to 7 columns and rows with at most 42
cells, each solved from the empty board by ``inarow.Solver``, with its time on this
machine and the published value where there is one.

Resumable (each result is appended and synced to ``--results`` as soon as it is
solved; a rerun solves only the boards missing there), Ctrl-C safe (exit code 130,
the page written from what is done), with a tqdm progress bar. A board that takes
more than ``--budget`` seconds is cancelled and recorded as unsolved (``--retry``
tries those again). Writes ``--page`` (``docs/games/solved.md``) at the end.

    python scripts/atlas.py                      # everything missing, then the page
    python scripts/atlas.py --only free --budget 60
    python scripts/atlas.py --page-only          # the page from the results file
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import inarow

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "scripts" / "atlas-results.jsonl"
PAGE = ROOT / "docs" / "games" / "solved.md"
EXIT_INTERRUPTED = 130


@dataclass(frozen=True)
class Game:
    """One board of the atlas: ``width`` x ``height`` (columns x rows), line ``k``."""

    width: int
    height: int
    k: int
    gravity: bool

    @property
    def key(self) -> str:
        kind = "gravity" if self.gravity else "free"
        return f"{kind} {self.width}x{self.height} k={self.k}"

    def board(self) -> inarow.Board:
        return inarow.Board(inarow.Rules(self.width, self.height, self.k, gravity=self.gravity))


def free_games() -> list[Game]:
    """m,n,k with m >= n: without gravity m x n and n x m are the same game."""
    return [
        Game(m, n, k, False)
        for n in range(3, 7)
        for m in range(n, 7)
        for k in range(3, min(6, m) + 1)
    ]


def gravity_games() -> list[Game]:
    """Connect Four (k = 4) on every board of 4..7 columns and rows, at most 42 cells."""
    return [
        Game(w, h, 4, True)
        for h in range(4, 8)
        for w in range(4, 8)
        if w * h <= 42 and inarow.Solver.supports(inarow.Rules(w, h, 4))
    ]


def published(game: Game) -> int | None:
    """The published outcome for the first player (1 win, 0 draw, -1 loss), if any."""
    m, n, k = max(game.width, game.height), min(game.width, game.height), game.k
    if not game.gravity:
        if k == 3:
            return 0 if (m, n) == (3, 3) else 1  # 3,3,3 draw; m,n,3 wins for m >= 4
        if (m, n, k) in ((4, 4, 4), (5, 5, 4)):
            return 0
        if k >= 5 and m == n == k:
            return 0  # k,k,k is a draw for k >= 5
        return None
    # Connect Four by width x height (columns x rows), as Tromp tabulates it.
    known = {(4, 4): 0, (5, 4): 0, (6, 4): -1, (6, 6): -1, (7, 5): 0, (7, 6): 1}
    return known.get((game.width, game.height))


def outcome_words(score: int) -> str:
    return "first player wins" if score > 0 else "draw" if score == 0 else "second player wins"


def winning_stone(cells: int, score: int) -> int | None:
    """The number of the winning stone (1 = the first stone of the game) of a perfect
    game from the empty board whose score is ``score``: (N + 1 - m) / 2 = |score| with
    the (m + 1)-th stone the winner's (odd for the first player, even for the second)."""
    if score == 0:
        return None
    for m in (cells + 1 - 2 * abs(score), cells - 2 * abs(score)):
        if (m % 2 == 0) == (score > 0):
            return m + 1
    return None


def read_results(path: Path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                out[entry["key"]] = entry
    return out


def append_result(path: Path, entry: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def solve(game: Game, budget: float, threads: int) -> dict:
    """Solves one board, cancelled after ``budget`` seconds."""
    solver = inarow.Solver(threads=threads)
    timer = threading.Timer(budget, solver.cancel)
    timer.start()
    start = time.perf_counter()
    try:
        score = solver.solve(game.board())
        solved = True
    except inarow.CancelledError:
        score, solved = None, False
    finally:
        timer.cancel()
    seconds = time.perf_counter() - start
    entry = {
        "key": game.key,
        "width": game.width,
        "height": game.height,
        "k": game.k,
        "gravity": game.gravity,
        "solved": solved,
        "score": score,
        "seconds": round(seconds, 4),
        "nodes": solver.nodes if solved else None,
        "threads": threads,
        "budget": budget,
    }
    expected = published(game)
    if solved and expected is not None and (score > 0) - (score < 0) != expected:
        print(f"{game.key}: solved {score}, the published outcome is {expected}", file=sys.stderr)
    return entry


def cell(entry: dict | None, game: Game) -> list[str]:
    expected = published(game)
    shown = {1: "first player wins", 0: "draw", -1: "second player wins", None: ""}[expected]
    if entry is None:
        return ["not run", "", shown, "", ""]
    if not entry["solved"]:
        return [f"not solved in {entry['budget']:g} s", "", shown, "", ""]
    score = entry["score"]
    stone = winning_stone(game.width * game.height, score)
    agrees = expected is None or (score > 0) - (score < 0) == expected
    return [
        outcome_words(score) + ("" if agrees else " (DISAGREES with the published value)"),
        f"{score:+d}" + (f" (stone {stone})" if stone else ""),
        shown,
        f"{entry['seconds']:.3f}",
        f"{entry['nodes']:,}",
    ]


def page(results: dict[str, dict]) -> str:
    head = [
        "# Solved small games",
        "",
        "The value of every small board from the empty board, as `inarow.Solver` computes",
        "it: `scripts/atlas.py` (resumable; results in `scripts/atlas-results.jsonl`)",
        f"writes this page. Times: one solve each on this machine ({platform.machine()},",
        f"{os.cpu_count()} cores shared with other work), wall clock, a fresh solver per board.",
        "",
        "The score is Pascal Pons' convention for the first player: a win whose winning",
        "stone is the `m+1`-th stone of the game scores `(N + 1 - m) / 2` on `N` cells;",
        'a loss the negation; "stone" is that winning stone\'s number (1 = the first',
        "stone of the game), counting every stone on the board, as with gravity.",
        "",
        "## Free placement (m,n,k games)",
        "",
        "Without gravity an `m x n` board and its transpose `n x m` are the same game, so",
        "each pair is listed once, `m >= n` (width x height). Published values: 3,3,3 draw;",
        "every m,n,3 with m >= 4, n >= 3 a first-player win; 4,4,4 and 5,5,4 draws; k,k,k",
        "a draw for k >= 5. Beyond the table (`cargo run --release --example free_solve",
        "-- 7 5 5 7 6 5 7 7 5`): 7,5,5 and 7,6,5 are draws (under 1 ms, and 5 ms in 4,434",
        "nodes), and so is 7,7,5, as published: its exact score in 0.14M nodes and 0.41 s on",
        "one thread, its outcome alone (`FREE_VALUE=weak`, the zone search) in 89k nodes",
        "and 0.34 s; the record (Hsu et al., 2020) is 2.5 s. A defender's node first looks",
        "for a move after which a pairing strategy holds, which took 7,7,5 from 99.5M nodes",
        '(exact) and 62.9M (outcome) to 0.26M and 0.16M (docs/solver-benchmarks.md, "Pairing',
        'replies"); pairings searched pair by pair where the greedy matching finds none',
        'took it to these ("The exact pairing search"). 7,7,5\'s draw is also proven by a',
        "checked proof (`cargo run --release --example free_proof -- write 7 7 5 PATH`):",
        "124,397 records with zone certificates, 6.6 MB, written in 1.3-1.8 s and checked in",
        "0.27-0.34 s by the independent checker; as a bundle (`... -- bundle 7 7 5 PATH`),",
        "114,158 records in 338 parts, 0.98 MB. 8,8,5 (a draw in the same record, 17.4 hours)",
        "is a draw here too: its outcome search from an empty journal takes 826M nodes and",
        "2,029 s of CPU on one thread (`FREE_VALUE=weak FREE_JOURNAL=PATH ... free_solve",
        "-- 8 8 5`, resumable); the journal kept in the repository",
        "(`scripts/free-8x8-k5.journal`, 85,419 positions) holds every first move of the",
        "first player refuted, and the second player's side. It is also proven by a",
        "checked proof: a bundle of 1,466 parts and 1.29G records",
        "(10.5 GB; `FREE_THREADS=2 cargo run --release --example free_proof -- bundle 8 8 5",
        "PATH`, resumable), written in five runs (3.7 hours of wall time on two threads) and",
        "checked by the independent checker in 1,797 s on two threads (`... -- check PATH`);",
        'docs/solver-benchmarks.md ("8,8,5").',
        "",
    ]
    table = [
        "| m x n | k | value | score | published | seconds | nodes |",
        "|---|---|---|---|---|---|---|",
    ]
    for game in free_games():
        row = cell(results.get(game.key), game)
        table.append(f"| {game.width}x{game.height} | {game.k} | " + " | ".join(row) + " |")
    gravity = [
        "",
        "## Gravity (the Connect-Four family, k = 4)",
        "",
        "Width x height (columns x rows), every board of 4 to 7 of each with at most 42",
        "cells. 7x6 is Connect Four, answered from the shipped opening book. Published",
        "values (John Tromp): 4x4 and 5x4 draws, 6x4 and 6x6 second-player wins, 7x5 a",
        "draw, 7x6 a first-player win.",
        "",
        "| width x height | value | score | published | seconds | nodes |",
        "|---|---|---|---|---|---|",
    ]
    for game in gravity_games():
        row = cell(results.get(game.key), game)
        gravity.append(f"| {game.width}x{game.height} | " + " | ".join(row) + " |")
    return "\n".join(head + table + gravity) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--page", type=Path, default=PAGE)
    parser.add_argument("--only", choices=("free", "gravity"))
    parser.add_argument("--budget", type=float, default=600.0, help="seconds per board")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--retry", action="store_true", help="retry boards not solved before")
    parser.add_argument("--page-only", action="store_true")
    args = parser.parse_args()
    results = read_results(args.results)
    games = {"free": free_games(), "gravity": gravity_games(), None: []}
    todo = games["free"] + games["gravity"] if args.only is None else games[args.only]
    todo = [
        g for g in todo if g.key not in results or (args.retry and not results[g.key]["solved"])
    ]
    if args.page_only:
        todo = []
    code = 0
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    bar = tqdm(total=len(todo), unit="board") if tqdm is not None and todo else None
    try:
        for game in todo:
            if bar is not None:
                bar.set_description(game.key)
            entry = solve(game, args.budget, args.threads)
            append_result(args.results, entry)
            results[game.key] = entry
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        print("\ninterrupted: the results so far are kept", file=sys.stderr)
        code = EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.close()
    args.page.write_text(page(results))
    return code


if __name__ == "__main__":
    sys.exit(main())
