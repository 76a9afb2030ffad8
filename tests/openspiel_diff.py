"""Differential testing against OpenSpiel, an independent implementation.

Random rules, random games: OpenSpiel's ``connect_four`` (gravity) and ``mnk`` (free
placement) are driven with legal actions only, inarow's ``Board`` with the same
actions, and every observable is compared after every move: the legal actions, the
board (parsed from OpenSpiel's text), whose turn it is, the end of the game and the
returns. The test suite runs a sample; the full run is this script:

    python tests/openspiel_diff.py --games 100000
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

import numpy as np

import inarow

SYMBOLS = {".": 0, "x": 1, "o": 2}


@dataclass
class Stats:
    games: int = 0
    moves: int = 0
    wins: int = 0
    draws: int = 0
    rule_sets: set = field(default_factory=set)


def random_rules(rng: random.Random) -> dict:
    gravity = rng.random() < 0.5
    width, height = rng.randint(1, 9), rng.randint(1, 8)
    k = rng.randint(1, min(5, max(width, height)))
    if rng.random() < 0.3:  # the real games, often
        width, height, k = (7, 6, 4) if gravity else (3, 3, 3)
    return dict(width=width, height=height, k=k, players=2, gravity=gravity)


def load(pyspiel, rules: dict):
    w, h, k = rules["width"], rules["height"], rules["k"]
    if rules["gravity"]:
        return pyspiel.load_game(f"connect_four(rows={h},columns={w},x_in_row={k})")
    return pyspiel.load_game(f"mnk(m={w},n={h},k={k})")


def grid_of(state, rules: dict) -> np.ndarray:
    lines = [line for line in str(state).splitlines() if line.strip()]
    grid = np.array([[SYMBOLS[c] for c in line.strip()] for line in lines], dtype=np.int8)
    assert grid.shape == (rules["height"], rules["width"]), (str(state), rules)
    return grid


def compare(state, board: inarow.Board, rules: dict, where: str) -> None:
    assert state.is_terminal() == board.is_over, where
    np.testing.assert_array_equal(grid_of(state, rules), board.to_numpy(), err_msg=where)
    if state.is_terminal():
        expected = [0.0, 0.0]
        if board.winner is not None:
            expected = [1.0, -1.0] if board.winner == 1 else [-1.0, 1.0]
        assert list(state.returns()) == expected, where
        assert board.legal_moves() == [], where
    else:
        assert state.current_player() == board.current_player - 1, where
        assert sorted(state.legal_actions()) == board.legal_moves(), where
        np.testing.assert_array_equal(
            board.legal_mask(), np.isin(np.arange(board.num_actions), state.legal_actions())
        )


def run(games: int, seed: int, progress: bool = False) -> Stats:
    import pyspiel

    rng = random.Random(seed)
    stats = Stats()
    loaded: dict = {}
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game")
    for g in range(games):
        rules = random_rules(rng)
        key = tuple(sorted(rules.items()))
        if key not in loaded:
            loaded[key] = load(pyspiel, rules)
        stats.rule_sets.add(key)
        state = loaded[key].new_initial_state()
        board = inarow.Board(rules=inarow.Rules(**rules))
        where = f"game {g} (seed {seed}) rules {rules} moves []"
        compare(state, board, rules, where)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            board.move(action)
            stats.moves += 1
            where = f"game {g} (seed {seed}) rules {rules} moves {board.moves}"
            compare(state, board, rules, where)
        stats.games += 1
        stats.wins += board.winner is not None
        stats.draws += board.is_draw
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    try:
        stats = run(args.games, args.seed, progress=True)
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
    seconds = time.perf_counter() - start
    print(
        f"{stats.games} games, {stats.moves} moves, {len(stats.rule_sets)} rule sets, "
        f"{stats.wins} wins, {stats.draws} draws: every observable agreed ({seconds:.0f} s)"
    )


if __name__ == "__main__":
    main()
