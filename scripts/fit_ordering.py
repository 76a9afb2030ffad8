"""Fits the threat engine's learned move ordering to a stronger player's choices.

    python scripts/fit_ordering.py choices LOG.jsonl [LOG.jsonl ...] --player b > choices.txt
    cargo run --release --example ordering_data -- freestyle < choices.txt > candidates.csv
    python scripts/fit_ordering.py fit candidates.csv [--held-out 0.2] [--write RULE]

``choices`` writes, from match logs of ``inarow.tournament``, every position where
``--player`` (``a`` or ``b``) moved past the opening, with its move last.
``fit`` reads the candidates of ``examples/ordering_data.rs`` (one row per candidate:
position, chosen, the shapes the move makes and takes, its window profile) and fits a
conditional logit: a move's score is ``make[shape] + take[shape] + features . w``
(the features: the classes it makes and takes, its window profile, its distances to
the two last moves) and the chosen move's probability its softmax over the position's
candidates (L2 on the shape weights, so a rare shape keeps about its class's weight). It prints how often the chosen move comes first, within 3, 7, 10 and
12 (the widths of the search below the root) under the engine's present order (the
rows' order) and under the fitted one, on positions held out of the fit (the last
``--held-out`` share, whole games). ``--write RULE`` writes the weights, scaled to
integers, to ``src/threats/learned_order.rs``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

SHAPES = 330
CLASSES = 10
# The classes made and taken, the window profile, the distances to the last moves.
PROFILE = 2 * CLASSES + 10 + 8
CUTS = (1, 3, 7, 10, 12)
SCALE = 1000
TABLE = Path(__file__).resolve().parent.parent / "src" / "threats" / "learned_order.rs"


def choices(logs: list[Path], player: str) -> None:
    for log in logs:
        records = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        for r in records:
            if "moves" not in r:
                continue
            seat = r["a_seat"] if player == "a" else 3 - r["a_seat"]
            for ply in range(len(r["opening_moves"]), len(r["moves"])):
                if 1 + ply % 2 == seat:
                    print(" ".join(map(str, r["moves"][: ply + 1])))


def load(path: Path) -> dict[str, np.ndarray]:
    data = np.loadtxt(path, delimiter=",", dtype=np.int64)
    return {
        "position": data[:, 0],
        "chosen": data[:, 1].astype(bool),
        "make": data[:, 2],
        "take": data[:, 3],
        "profile": np.hstack(
            [
                one_hot(data[:, 4], CLASSES),
                one_hot(data[:, 5], CLASSES),
                data[:, 6:16].astype(np.float64),
                near(data[:, 16]),
                near(data[:, 17]),
            ]
        ),
    }


def one_hot(index: np.ndarray, n: int) -> np.ndarray:
    return (index[:, None] == np.arange(n)[None, :]).astype(np.float64)


def near(distance: np.ndarray) -> np.ndarray:
    """One-hot of a distance to a last move: 1, 2, 3, 4 or more."""
    return np.stack([distance == 1, distance == 2, distance == 3, distance >= 4], axis=1).astype(
        np.float64
    )


def groups(position: np.ndarray) -> np.ndarray:
    """Per row, the index of its position among the distinct positions (rows of a
    position are contiguous)."""
    starts = np.r_[True, position[1:] != position[:-1]]
    return np.cumsum(starts) - 1


def scores(params: np.ndarray, d: dict[str, np.ndarray]) -> np.ndarray:
    make, take, w = params[:SHAPES], params[SHAPES : 2 * SHAPES], params[2 * SHAPES :]
    return make[d["make"]] + take[d["take"]] + d["profile"] @ w


def loss_and_grad(params, d, g, n_groups, l2):
    s = scores(params, d)
    top = np.full(n_groups, -np.inf)
    np.maximum.at(top, g, s)
    e = np.exp(s - top[g])
    z = np.zeros(n_groups)
    np.add.at(z, g, e)
    p = e / z[g]
    chosen_s = np.zeros(n_groups)
    np.add.at(chosen_s, g, np.where(d["chosen"], s, 0.0))
    loss = -(chosen_s - top - np.log(z)).mean()
    r = (p - d["chosen"]) / n_groups
    grad = np.zeros_like(params)
    np.add.at(grad[:SHAPES], d["make"], r)
    np.add.at(grad[SHAPES : 2 * SHAPES], d["take"], r)
    grad[2 * SHAPES :] = d["profile"].T @ r
    shapes = params[: 2 * SHAPES]
    loss += l2 * (shapes**2).sum()
    grad[: 2 * SHAPES] += 2 * l2 * shapes
    return loss, grad


def ranks(s: np.ndarray, d, g, n_groups) -> np.ndarray:
    """Per position, the chosen move's rank under the scores `s` (ties: row order)."""
    out = np.zeros(n_groups, dtype=np.int64)
    for i in range(n_groups):
        rows = np.nonzero(g == i)[0]
        order = np.argsort(-s[rows], kind="stable")
        out[i] = int(np.nonzero(d["chosen"][rows][order])[0][0])
    return out


def report(name: str, r: np.ndarray) -> None:
    shares = ", ".join(f"{c}: {(r < c).mean():.3f}" for c in CUTS)
    print(f"{name:>10} ({len(r)} positions) within {shares}")


def subset(d, mask):
    return {k: v[mask] for k, v in d.items()}


def fit(path: Path, held_out: float, l2: float, steps: int, write: str | None) -> None:
    d = load(path)
    g_all = groups(d["position"])
    n = g_all.max() + 1
    cut = int(n * (1 - held_out))
    train, test = subset(d, g_all < cut), subset(d, g_all >= cut)
    g_train, g_test = groups(train["position"]), groups(test["position"])
    nt, ns = g_train.max() + 1, g_test.max() + 1
    params = np.zeros(2 * SHAPES + PROFILE)
    m, v = np.zeros_like(params), np.zeros_like(params)
    for step in range(1, steps + 1):
        loss, grad = loss_and_grad(params, train, g_train, nt, l2)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        params -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if step % 100 == 0:
            test_loss, _ = loss_and_grad(params, test, g_test, ns, 0.0)
            print(f"step {step}: loss {loss:.4f}, held out {test_loss:.4f}", file=sys.stderr)
    present = -np.arange(len(test["chosen"]), dtype=np.float64)  # the rows' order
    report("present", ranks(present, test, g_test, ns))
    report("fitted", ranks(scores(params, test), test, g_test, ns))
    if write:
        write_table(write, params)


def write_table(rule: str, params: np.ndarray) -> None:
    ints = np.rint(params * SCALE).astype(np.int64)
    name = rule.upper()
    body = [
        "//! The learned move ordering's weights (`scripts/fit_ordering.py`): a",
        "//! candidate's score is `make[shape made] + take[shape taken] + profile . features`,",
        f"//! log-odds times {SCALE} that a stronger player chooses it.",
        "",
        "use std::sync::OnceLock;",
        "",
        "use super::learned_eval::{shape_of, SHAPES};",
        "use super::patterns::{class::SCORED as CLASSES, classify, unpack, COMBOS};",
        "",
        "/// The features beside the shapes: the classes made and taken (10 each), the",
        "/// window profile ([`super::ThreatBoard::window_profile`], 10), the distance",
        "/// to the opponent's last move and to the mover's (1, 2, 3, 4 or more: 4 each).",
        f"pub const PROFILE: usize = {PROFILE};",
        "",
        "/// The weights of one rule.",
        "pub struct OrderWeights {",
        "    pub make: [i32; SHAPES],",
        "    pub take: [i32; SHAPES],",
        "    pub profile: [i32; PROFILE],",
        "    /// [`OrderWeights::combo_scores`], built on first use.",
        "    combos: OnceLock<(Vec<i32>, Vec<i32>)>,",
        "}",
        "",
        f"/// Fitted to Rapfi's moves under {rule}.",
        "#[rustfmt::skip]",
        f"pub static {name}: OrderWeights = OrderWeights {{",
    ]
    for label, part in (
        ("make", ints[:SHAPES]),
        ("take", ints[SHAPES : 2 * SHAPES]),
        ("profile", ints[2 * SHAPES :]),
    ):
        body.append(f"    {label}: [")
        for i in range(0, len(part), 12):
            body.append("        " + ", ".join(str(x) for x in part[i : i + 12]) + ",")
        body.append("    ],")
    body.append("    combos: OnceLock::new(),")
    body.append("};")
    body += [
        "",
        "impl OrderWeights {",
        "    /// Per combination of four line patterns (`patterns::unpack`): the score",
        "    /// of making it (`make` of its shape, plus its class's) and of taking it",
        "    /// from the opponent.",
        "    pub fn combo_scores(&self) -> (&[i32], &[i32]) {",
        "        let (make, take) = self.combos.get_or_init(|| {",
        "            let by = |shapes: &[i32; SHAPES], classes: &[i32]| -> Vec<i32> {",
        "                (0..COMBOS as u16)",
        "                    .map(|c| shapes[shape_of(c)] + classes[classify(unpack(c))])",
        "                    .collect()",
        "            };",
        "            (",
        "                by(&self.make, &self.profile[..CLASSES]),",
        "                by(&self.take, &self.profile[CLASSES..2 * CLASSES]),",
        "            )",
        "        });",
        "        (make, take)",
        "    }",
        "}",
    ]
    TABLE.write_text("\n".join(body) + "\n")
    print(f"wrote {TABLE}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ch = sub.add_parser("choices")
    ch.add_argument("logs", type=Path, nargs="+")
    ch.add_argument("--player", choices=["a", "b"], default="b")
    fi = sub.add_parser("fit")
    fi.add_argument("candidates", type=Path)
    fi.add_argument("--held-out", type=float, default=0.2)
    fi.add_argument("--l2", type=float, default=1e-3)
    fi.add_argument("--steps", type=int, default=600)
    fi.add_argument("--write", default=None, help="a rule name: write its weights")
    args = parser.parse_args()
    if args.command == "choices":
        choices(args.logs, args.player)
    else:
        fit(args.candidates, args.held_out, args.l2, args.steps, args.write)


if __name__ == "__main__":
    main()
