"""Strength measured against the truth while training: move accuracy on Pascal
Pons' Connect-Four sets (``inarow.evaluate.move_accuracy``, raw policy and with
search), on random openings judged by the exact solver for the other rules it
covers (the small free-placement boards, gravity boards other than 7x6), mistakes
on every reachable position of boards small enough to solve by brute force
(tic-tac-toe), and ``inarow.evaluate.match`` against ``inarow.agents.negamax`` of
several depths and, on gomoku boards, ``inarow.agents.threats``, both seats."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import inarow
from inarow.pretrained import NetworkAgent
from inarow.train.config import TrainConfig

__all__ = [
    "brute_force_mistakes",
    "evaluation_columns",
    "judged_applies",
    "measure_strength",
    "rung_results",
    "solve_small_board",
    "threats_rung_applies",
]

#: Boards with at most this many cells (and 2 players) are solved by brute force.
BRUTE_FORCE_CELLS = 12


def _brute_force_applies(rules: dict[str, Any]) -> bool:
    return rules["players"] == 2 and rules["width"] * rules["height"] <= BRUTE_FORCE_CELLS


#: Free-placement boards of at most this many cells are judged by the solver while
#: training (6x6 boards solve from empty in milliseconds): the judged openings start
#: at an eighth of the cells, and 7x7 ones of 6 stones take the solver minutes, 8x8
#: ones hours (BENCHMARKS.md, "Judging 7x7 and 8x8, k = 5"); nothing stops one.
JUDGED_FREE_CELLS = 36


def judged_applies(config: TrainConfig) -> bool:
    """Whether the solver judges the network on random openings
    (``inarow.evaluate.move_accuracy(rules=...)``): rules it covers, beyond the boards
    solved by brute force and Connect Four's Pons sets, and free placement only up
    to :data:`JUDGED_FREE_CELLS` cells."""
    rules = config.rules
    if not config.eval_judged_per_set or _brute_force_applies(rules):
        return False
    if not rules["gravity"] and rules["width"] * rules["height"] > JUDGED_FREE_CELLS:
        return False
    if config.is_connect_four and config.eval_per_set:
        return False
    try:
        return inarow.Solver.supports(inarow.Rules(**rules))
    except inarow.InvalidRulesError:
        return False


def evaluation_columns(config: TrainConfig) -> list[str]:
    cols = []
    if config.is_connect_four and config.eval_per_set:
        cols += ["pons_good_raw", "pons_perfect_raw", "pons_good_search", "pons_perfect_search"]
    if judged_applies(config):
        cols += [
            "judged_positions",
            "judged_good_raw",
            "judged_perfect_raw",
            "judged_good_search",
            "judged_perfect_search",
        ]
    if _brute_force_applies(config.rules):
        cols += ["solved_positions", "mistakes_raw", "mistakes_search"]
    for d in negamax_rung_depths(config):
        cols += [f"negamax{d}_{x}" for x in RUNG_FIELDS]
    if threats_rung_applies(config):
        cols += [f"threats_{x}" for x in RUNG_FIELDS]
    return cols


#: The columns of each match rung (``negamax4_win``...): the shares of wins, draws
#: and losses, the games, and a perfect player's score in the network's place from
#: the same games (where the solver covers the rules; blank elsewhere).
RUNG_FIELDS = ("win", "draw", "loss", "games", "perfect")


def rung_results(row: dict[str, Any]) -> list[tuple[str, str]]:
    """Each match rung of an evaluation row as ``(opponent, text)``: the score with
    its 95% interval and game count, W/D/L in that order, and what a perfect player
    scores from the same openings against the same opponent (the ceiling against a
    perfect opponent such as ``negamax:9`` on tic-tac-toe)."""
    depths = sorted(int(k[7:-4]) for k in row if k.startswith("negamax") and k.endswith("_win"))
    rungs = [(f"negamax{d}", f"negamax:{d}") for d in depths]
    if "threats_win" in row:
        rungs.append(("threats", "threats"))
    out = []
    for column, name in rungs:
        w, dr, lo = (row[f"{column}_{x}"] for x in ("win", "draw", "loss"))
        score = w + dr / 2
        games = row.get(f"{column}_games")
        if _present(games):
            lo_ci, hi_ci = inarow.evaluate.wilson_interval(score * games, int(games))
            text = f"score {score:.3f} [{lo_ci:.3f}, {hi_ci:.3f}] over {int(games)} games"
        else:  # a row logged before the games were
            text = f"score {score:.3f}"
        text += f", W/D/L {w:.2f}/{dr:.2f}/{lo:.2f}"
        perfect = row.get(f"{column}_perfect")
        if _present(perfect):
            text += f", perfect play {perfect:.3f} from the same openings"
        out.append((name, text))
    return out


def _present(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def threats_rung_applies(config: TrainConfig) -> bool:
    """Whether the evaluation plays the threat engine (2 players, a node budget set,
    and a rule the engine plays)."""
    return (
        bool(config.eval_threats_nodes and config.eval_games)
        and config.rules["players"] == 2
        and _plays(inarow.agents.threats(nodes=1), config.rules)
    )


def negamax_rung_depths(config: TrainConfig) -> tuple[int, ...]:
    """The depths of the negamax opponents the evaluation plays: none where negamax
    does not play the rules."""
    if not config.eval_negamax_depths or not _plays(inarow.agents.negamax(1), config.rules):
        return ()
    return tuple(config.eval_negamax_depths)


#: The opening book of the evaluation's matches, by rule, on 15x15 gomoku (where two
#: random stones anywhere can decide a game before the agents play).
BOOK_OF_RULE = {"freestyle": "freestyle-15", "renju": "renju-26"}


def match_openings(rules: dict[str, Any]) -> str | None:
    """The set of openings the evaluation's matches play under ``rules``: a book on
    15x15 gomoku (freestyle or renju), else None (2 random plies)."""
    r = inarow.Rules(**rules)
    if r == inarow.Rules.gomoku(rule=r.rule) and r.rule in BOOK_OF_RULE:
        return BOOK_OF_RULE[r.rule]
    return None


def _plays(agent: inarow.agents.Agent, rules: dict[str, Any]) -> bool:
    """Whether a built-in agent plays ``rules`` (its rule included)."""
    try:
        agent.check_rules(inarow.Rules(**rules))
    except inarow.UnsupportedRulesError:
        return False
    return True


def solve_small_board(rules: dict[str, Any]) -> dict[inarow.Board, list[int | None]]:
    """Every reachable non-terminal position of a 2-player board -> the win (1), draw (0)
    or loss (-1) of each action for the side to move (None where illegal), by minimax."""
    values: dict[inarow.Board, int] = {}
    table: dict[inarow.Board, list[int | None]] = {}

    def solve(board: inarow.Board) -> int:
        if board in values:
            return values[board]
        outcome: list[int | None] = [None] * board.num_actions
        for a in board.legal_moves():
            won = board.move(a)
            if won:
                outcome[a] = 1
            elif board.is_over:
                outcome[a] = 0
            else:
                outcome[a] = -solve(board)
            board.undo()
        table[board.copy()] = outcome
        values[board.copy()] = best = max(o for o in outcome if o is not None)
        return best

    solve(inarow.Board(rules=inarow.Rules(**rules)))
    return table


def brute_force_mistakes(
    agent: NetworkAgent, table: dict[inarow.Board, list[int | None]]
) -> tuple[int, int]:
    """(positions, positions where ``agent``'s move loses the best outcome)."""
    boards = list(table)
    actions = agent.actions(boards)
    mistakes = 0
    for board, action in zip(boards, actions):
        outcome = table[board]
        mistakes += outcome[action] < max(o for o in outcome if o is not None)
    return len(boards), mistakes


class _OutOfTime(Exception):
    """The evaluation's deadline passed during a match."""


def measure_strength(
    net: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
    config: TrainConfig,
    seed: int,
    small_board_table: dict[inarow.Board, list[int | None]] | None = None,
    deadline: float | None = None,
) -> dict[str, float]:
    """One row of the evaluation columns for the network ``net``. With a
    ``deadline`` (a ``time.monotonic()`` value) the items still to measure when it
    passes are left out of the row (blank in the log), a match stopped between two
    games; every value in the row is complete."""

    def late() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    def stop_when_late(done: int, total: int) -> None:
        if late():
            raise _OutOfTime

    raw = NetworkAgent(net, config.rules, simulations=0, name="raw policy")
    search = NetworkAgent(net, config.rules, simulations=config.eval_simulations, name="search")
    row: dict[str, float] = {}
    if config.is_connect_four and config.eval_per_set:
        for label, agent in (("raw", raw), ("search", search)):
            if late():
                return row
            acc = inarow.evaluate.move_accuracy(
                agent, "pons", per_set=config.eval_per_set, progress=False
            )
            row[f"pons_good_{label}"] = acc.good_rate
            row[f"pons_perfect_{label}"] = acc.perfect_rate
    if judged_applies(config):
        for label, agent in (("raw", raw), ("search", search)):
            if late():
                return row
            acc = inarow.evaluate.move_accuracy(
                agent, rules=dict(config.rules), per_set=config.eval_judged_per_set, progress=False
            )
            row[f"judged_good_{label}"] = acc.good_rate
            row[f"judged_perfect_{label}"] = acc.perfect_rate
            row["judged_positions"] = acc.overall.positions
    if small_board_table is not None and not late():
        positions, mistakes_raw = brute_force_mistakes(raw, small_board_table)
        if late():
            return row
        _, row["mistakes_search"] = brute_force_mistakes(search, small_board_table)
        row["solved_positions"], row["mistakes_raw"] = positions, mistakes_raw
    rungs: list[tuple[str, Any]] = []
    if config.eval_games:
        rungs += [(f"negamax{d}", inarow.agents.negamax(d)) for d in negamax_rung_depths(config)]
    if threats_rung_applies(config):
        rungs.append(("threats", inarow.agents.threats(nodes=config.eval_threats_nodes, seed=seed)))
    if rungs:
        player = NetworkAgent(
            net, config.rules, simulations=config.eval_match_simulations, name="match"
        )
    for name, opponent in rungs:
        if late():
            return row
        try:
            r = inarow.evaluate.match(
                player,
                opponent,
                games=config.eval_games,
                rules=dict(config.rules),
                seed=seed,
                progress=stop_when_late if deadline is not None else False,
                openings=match_openings(config.rules),
            )
        except _OutOfTime:
            return row
        row[f"{name}_win"] = r.win_rate
        row[f"{name}_draw"] = r.draw_rate
        row[f"{name}_loss"] = r.loss_rate
        row[f"{name}_games"] = r.games
        if r.reference is not None:
            row[f"{name}_perfect"] = r.reference.score
    return row
