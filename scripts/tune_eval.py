"""Fits the threat engine's learned evaluation (src/threats/learned_eval.rs) to
recorded games: a logistic model of the side to move's result, linear in the
features of `Engine::evaluation_features`.

    python scripts/tune_eval.py book --count 1000 --seed 1 > train-book.txt
    python -m inarow.tournament --a threats:nodes=30000 --b threats:nodes=30000 \
        --book train-book.txt --log selfplay.jsonl
    python scripts/tune_eval.py fit --rule freestyle selfplay.jsonl [MORE.jsonl ...] [--write]

`book` writes random openings for games to learn from (three stones within
three cells of the centre, unbalanced on purpose: the model sees lost and won
shapes). `fit` reads `inarow.tournament` logs (`--log`), keeps the games of
`--rule`, and splits them into a fitting and a held-out set by a hash of their
moves, so a game played twice lands on one side; it prints the held-out
log-loss beside that of the model without its shape counts and of the line
evaluation the engine has without the model (the windows' weights, one scale
fitted). `--no-shapes` fits the model without its shape counts. `--colour` fits
black to move and white to move apart (renju's sides differ). `--write` puts
the fitted weights into learned_eval.rs, in the rule's array, and the shapes'
into learned_shapes.rs (those of at least half a unit).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "threats" / "learned_eval.rs"
SHAPES_SOURCE = ROOT / "src" / "threats" / "learned_shapes.rs"
SIDE = 18
WINDOWS = 4
CORE = 1 + 2 * SIDE
# The shapes in the order of `shape_levels` in learned_eval.rs.
SHAPE_LEVELS = [
    (a, b, c, d) for a in range(8) for b in range(a + 1) for c in range(b + 1) for d in range(c + 1)
]
LEVEL_NAMES = ["-", "b2", "f2", "b3", "f3", "b4", "f4", "5"]


def games(paths: list[str], rule: str) -> list[str]:
    """One line per finished game of `rule`: `RULE SIZE WINNER MOVES...`, each game once."""
    seen: set[str] = set()
    lines = []
    for path in paths:
        with open(path) as f:
            config = None
            for raw in f:
                record = json.loads(raw)
                config = record.get("config") or config
                if "moves" not in record or record.get("winner") is None or config is None:
                    continue
                if config.get("rule", "freestyle") != rule:
                    continue
                line = " ".join(
                    [config.get("rule", "freestyle"), str(config["size"]), str(record["winner"])]
                    + [str(m) for m in record["moves"]]
                )
                if line not in seen:
                    seen.add(line)
                    lines.append(line)
    return lines


def features(lines: list[str], first_ply: int) -> np.ndarray:
    """The CSV of `examples/eval_features.rs` for `lines`, as an array."""
    run = subprocess.run(
        [
            "cargo",
            "run",
            "--quiet",
            "--release",
            "--example",
            "eval_features",
            "--",
            str(first_ply),
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return np.loadtxt(io.StringIO(run.stdout), delimiter=",", ndmin=2)


def fit(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method, an L2 penalty on all but the bias."""
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def log_loss_of(z: np.ndarray, y: np.ndarray) -> float:
    """The mean log-loss of log-odds `z` for results `y`."""
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def window_evaluation(x: np.ndarray) -> np.ndarray:
    """The engine's line evaluation without the model: the mover's live windows
    weighted 1, 8, 64, 512 by stone count, less the opponent's."""
    weights = np.array([1.0, 8.0, 64.0, 512.0])
    mover = x[:, 1 : 1 + WINDOWS] @ weights
    opponent = x[:, 1 + SIDE : 1 + SIDE + WINDOWS] @ weights
    return mover - opponent


def weights_text(w: np.ndarray, indent: str) -> str:
    """One colour's weights as the rows of a Rust array."""
    rows = [f"{indent}{w[0]:.5f},"]
    for name, side in (("the mover", w[1 : 1 + SIDE]), ("the opponent", w[1 + SIDE :])):
        parts = (side[:WINDOWS], side[WINDOWS : WINDOWS + 8], side[WINDOWS + 8 :])
        rows.append(f"{indent}// {name}: windows of 1..4 stones, classes, line patterns")
        rows += [indent + " ".join(f"{v:.5f}," for v in part) for part in parts]
    return "\n".join(rows)


def colour_code(
    by_colour: list[np.ndarray],
    text_of: Callable[[np.ndarray, str], str],
    array: str,
    any_colour: str,
    item: tuple[str, str],
) -> str:
    """The Rust of one rule's values by colour to move (`array` the declaration up
    to its `=`, `item` the type and opening bracket of one colour's values): one
    constant `any_colour` for both where they are the same fit."""
    item_type, opener = item
    if by_colour[0] is by_colour[1]:
        return (
            f"const {any_colour}: {item_type} = {opener}\n"
            f"{text_of(by_colour[0], '    ')}\n];\n{array}[{any_colour}; 2];\n"
        )
    rows = "".join(
        f"    // {colour} to move\n    {opener}\n{text_of(w, '        ')}\n    ],\n"
        for colour, w in zip(("black", "white"), by_colour)
    )
    return f"{array}[\n{rows}];\n"


def replace_once(path: Path, pattern: str, code: Callable[[re.Match[str]], str], what: str) -> None:
    """Replaces the one match of `pattern` in `path` (exits naming `what` if there is not one)."""
    text, n = re.subn(pattern, code, path.read_text(), flags=re.S | re.M)
    if n != 1:
        sys.exit(f"no {what} found in {path}")
    path.write_text(text)


def write_weights(by_colour: list[np.ndarray], rule: str) -> None:
    """Puts the weights (black to move, white to move) in the rule's array: one
    array for both colours where they are the same fit."""
    name = rule.upper()
    array = f"pub const {name}: [[f64; FEATURES]; 2] = "
    code = colour_code(
        by_colour, weights_text, array, f"{name}_ANY_COLOUR", ("[f64; FEATURES]", "[")
    )
    replace_once(
        SOURCE,
        rf"(#\[rustfmt::skip\]\n)(?:const {name}_ANY_COLOUR: .*?^\];\n{re.escape(array)}"
        rf"\[{name}_ANY_COLOUR; 2\];\n|{re.escape(array)}\[\n.*?^\];\n)",
        lambda m: m.group(1) + code,
        f"{name} array",
    )


def shapes_text(w: np.ndarray, indent: str) -> str:
    """One colour's shape weights (the model's columns after the core) as the
    entries of a Rust slice: those of at least half a unit."""
    rows = []
    for role, name in enumerate(("me", "them")):
        for i, levels in enumerate(SHAPE_LEVELS):
            value = w[CORE + role * len(SHAPE_LEVELS) + i]
            if abs(value) * 1000 >= 0.5:
                shape = " ".join(LEVEL_NAMES[lv] for lv in levels)
                rows.append(f"{indent}({role}, {list(levels)}, {value:.5f}), // {name}: {shape}")
    return "\n".join(rows)


def write_shapes(by_colour: list[np.ndarray], rule: str) -> None:
    """Puts the shape weights (black to move, white to move) between the rule's
    markers in learned_shapes.rs: one list for both colours where they are the
    same fit."""
    name = rule.upper()
    array = f"pub const {name}_SHAPES: [&[ShapeWeight]; 2] = "
    code = colour_code(
        by_colour, shapes_text, array, f"{name}_ANY_COLOUR", ("&[ShapeWeight]", "&[")
    )
    replace_once(
        SHAPES_SOURCE,
        rf"(// begin {name}\n#\[rustfmt::skip\]\n).*?(// end {name}\n)",
        lambda m: m.group(1) + code + m.group(2),
        f"{name} markers",
    )


def book(count: int, seed: int, size: int = 15, radius: int = 3) -> None:
    """Prints `count` distinct random openings (black, white, black near the centre)."""
    from inarow.tournament.book import cell_name

    rng = np.random.default_rng(seed)
    centre = size // 2
    print(f"# {count} random openings within {radius} cells of the centre (seed {seed}),")
    print("# for games to fit the learned evaluation to: python scripts/tune_eval.py book")
    seen: set[tuple[int, ...]] = set()
    while len(seen) < count:
        cells = rng.integers(centre - radius, centre + radius + 1, size=(3, 2))
        actions = tuple(int(r * size + c) for r, c in cells)
        if len(set(actions)) < 3 or actions in seen:
            continue
        seen.add(actions)
        print(f"t{len(seen):04d} " + " ".join(cell_name(a, size) for a in actions))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make_book = commands.add_parser("book", help="print random openings")
    make_book.add_argument("--count", type=int, default=1000)
    make_book.add_argument("--seed", type=int, default=1)
    fitting = commands.add_parser("fit", help="fit the weights to logs")
    fitting.add_argument("logs", nargs="+")
    fitting.add_argument("--rule", choices=("freestyle", "standard", "renju"), default="freestyle")
    fitting.add_argument("--first-ply", type=int, default=6)
    fitting.add_argument("--l2", type=float, default=10.0)
    fitting.add_argument("--holdout", type=float, default=0.2, help="share of games held out")
    fitting.add_argument("--colour", action="store_true", help="weights per colour to move")
    fitting.add_argument("--no-shapes", action="store_true", help="fit without the shape counts")
    fitting.add_argument("--write", action="store_true", help="write the weights into the source")
    args = parser.parse_args()
    if args.command == "book":
        book(args.count, args.seed)
        return

    lines = games(args.logs, args.rule)
    data = features(lines, args.first_ply)
    y, game = data[:, 0], data[:, 1].astype(int)
    x = data[:, 3:]
    held = np.array(
        [
            int(hashlib.sha256(line.encode()).hexdigest(), 16) % 1000 < args.holdout * 1000
            for line in lines
        ]
    )[game]
    print(f"{len(lines)} games, {len(y)} positions ({held.sum()} held out)")

    # Black to move at even plies. Without --colour, one fit for both colours.
    black = data[:, 2].astype(int) % 2 == 0

    def fitted(columns: int) -> tuple[list[np.ndarray], np.ndarray]:
        """The weights by colour on the first `columns` (zero for the others) and
        the log-odds."""
        xs = x[:, :columns]
        if args.colour:
            parts = [fit(xs[~held & g], y[~held & g], args.l2) for g in (black, ~black)]
        else:
            parts = [fit(xs[~held], y[~held], args.l2)] * 2
        z = np.where(black, xs @ parts[0], xs @ parts[1])
        padded = [np.pad(w, (0, x.shape[1] - columns)) for w in parts[: 2 - (parts[0] is parts[1])]]
        return (padded * 2 if len(padded) == 1 else padded), z

    by_colour, z = fitted(CORE if args.no_shapes else x.shape[1])
    results = [("learned", z)]
    if not args.no_shapes:
        results.append(("no shape", fitted(CORE)[1]))
    base_x = np.column_stack([np.ones(len(y)), window_evaluation(x) / 512.0])
    results.append(("windows", base_x @ fit(base_x[~held], y[~held], 0.0)))
    for name, zs in results:
        print(
            f"{name:8s} log-loss fitted {log_loss_of(zs[~held], y[~held]):.4f}"
            f"  held out {log_loss_of(zs[held], y[held]):.4f}"
        )
    print(f"constant log-loss held out {log_loss_of(np.zeros(held.sum()), y[held]):.4f}")
    names = ["bias"] + [
        f"{side}:{f}"
        for side in ("me", "them")
        for f in ["w1", "w2", "w3", "w4", "F4", "B4F3", "B4+", "B4", "F3x2", "F3+", "F3", "3x2"]
        + ["b2", "f2", "b3", "f3", "b4", "f4"]
    ]
    for n, *v in zip(names, *by_colour):
        print(f"  {n:8s} " + " ".join(f"{c:+.4f}" for c in v))
    shapes = (np.abs(by_colour[0][CORE:]) * 1000 >= 0.5).sum()
    print(f"  and {shapes} shape weights of half a unit or more")
    if args.write:
        one = by_colour[0] is by_colour[1]
        write_weights(
            [by_colour[0][:CORE]] * 2 if one else [w[:CORE] for w in by_colour], args.rule
        )
        write_shapes(by_colour, args.rule)
        print(f"written to {SOURCE.relative_to(ROOT)} and {SHAPES_SOURCE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
