"""The threat searches, the threats agent and ``inarow pbrain`` under the standard
and renju rules: overlines are no threats where lines are exact, white wins
through a block forbidden to black, black never gets a forbidden move, every line
found replays to a win on the board (the rules' referee)."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

import inarow
from inarow import agents
from inarow.threats import find_win, winning_moves

PBRAIN = [sys.executable, "-m", "inarow", "pbrain"]
RULES = ["freestyle", "standard", "renju"]


def drawn(rows: list[str], rule: str) -> inarow.Board:
    """A position on an 11x11 board (k = 5) from rows of x (player 1), o and ."""
    grid = np.zeros((11, 11), dtype=np.int8)
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            grid[r, c] = {"x": 1, "o": 2}.get(ch, 0)
    return inarow.Board.from_numpy(grid, rules=inarow.Rules(11, 11, 5, 2, False, rule=rule))


def clustered(rule: str, stones: int, rng: random.Random, size: int = 11) -> inarow.Board | None:
    """A board of ``rule`` with ``stones`` random legal stones near the centre,
    none completing a line; None when the game ended or got stuck."""
    board = inarow.Board(rules=inarow.Rules(size, size, 5, 2, False, rule=rule))
    lo = (size - 7) // 2
    centre = {r * size + c for r in range(lo, lo + 7) for c in range(lo, lo + 7)}
    for _ in range(stones):
        options = [a for a in board.legal_moves() if a in centre]
        rng.shuffle(options)
        for a in options:
            trial = board.copy()
            if not trial.move(a):
                board = trial
                break
        else:
            return None
    return None if board.is_over else board


def replays_to_a_win(board: inarow.Board, line: list[int]) -> bool:
    """Whether the moves of ``line`` are legal in turn and the mover completes a line."""
    mover = board.current_player
    board = board.copy()
    for a in line:
        if not board.is_legal(a):
            return False
        board.move(a)
    return board.winner == mover


def test_a_four_that_would_make_an_overline_is_no_threat_where_lines_are_exact():
    rows = ["o.........o", "", "", "", ".xxx.xx....", "", "o", "", "", "", "o.........o"]
    gap = 4 * 11 + 4
    for rule in RULES:
        board = drawn(rows, rule)
        assert board.current_player == 1
        expected = [gap] if rule == "freestyle" else []
        assert winning_moves(board, "vcf", max_depth=1) == expected, rule
        assert (find_win(board, "vcf", max_depth=1) or [None])[0] == (expected or [None])[0]


def test_a_white_four_whose_block_is_forbidden_to_black_wins_under_renju():
    # (4, 6) is a double three for black; white's closed diagonal reaches it.
    rows = [
        "",
        "",
        "......x....",
        "......x....",
        "....xx.....",
        ".......o...",
        "........o..",
        ".........o.",
        "..........x",
        "",
        "o..........",
    ]
    block = 4 * 11 + 6
    renju = drawn(rows, "renju")
    line = find_win(renju, "vcf", max_depth=2)
    assert line is not None and len(line) == 3 and line[0] == 3 * 11 + 5 and line[2] == block
    after_the_four = renju.copy()
    after_the_four.move(line[0])
    assert not after_the_four.is_legal(block)  # black may not block: it plays elsewhere
    assert replays_to_a_win(renju, line)
    assert winning_moves(renju, "vcf", max_depth=2) == [3 * 11 + 5]
    # Under standard black blocks there.
    assert find_win(drawn(rows, "standard"), "vcf", max_depth=2) is None


def test_a_black_win_through_a_forbidden_cell_is_no_win_under_renju():
    rows = [
        "",
        "......x....",
        "......x....",
        "......x....",
        "...xxx.....",
        "",
        "",
        "",
        "o.o.o.o....",
        "",
        "o.........o",
    ]
    double_four = 4 * 11 + 6
    assert double_four in winning_moves(drawn(rows, "standard"), "vcf", max_depth=3)
    renju = drawn(rows, "renju")
    assert not renju.is_legal(double_four)
    for kind in ("vcf", "vct"):
        assert double_four not in winning_moves(renju, kind, max_depth=3)


@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_every_move_and_line_of_the_searches_is_legal_and_every_vcf_line_wins(rule):
    rng = random.Random(7)
    found = 0
    for _ in range(40):
        board = clustered(rule, rng.randrange(10, 24), rng)
        if board is None:
            continue
        for kind in ("vcf", "vct"):
            moves = winning_moves(board, kind, max_depth=5, max_nodes=1_000_000)
            assert all(board.is_legal(a) for a in moves), (kind, moves)
            line = find_win(board, kind, max_depth=5, max_nodes=1_000_000)
            if line is not None:
                assert line[0] in moves
                # A VCF's line is the whole forced game; a VCT's one line of the proof.
                assert replays_to_a_win(board, line), (kind, board.moves, line)
                found += 1
    assert found >= 10


@pytest.mark.parametrize(
    "rules",
    [inarow.Rules(11, 11, 5, 2, False, rule=rule) for rule in RULES]
    + [
        inarow.Rules(7, 6, 4, 2, True, rule="standard"),
        inarow.Rules(5, 5, 3, 2, False, rule="standard"),
    ],
    ids=[*RULES, "standard-gravity", "standard-k3"],
)
def test_the_threats_agent_plays_whole_games_of_every_rule(rules):
    engine = agents.threats(nodes=1500, seed=0)
    result = inarow.evaluate.match(engine, "greedy", games=4, rules=rules, seed=2)
    assert result.games == 4
    # Move by move on the board: every move legal (under renju black's never forbidden).
    board = inarow.Board(rules=rules)
    while not board.is_over:
        a = engine(board) if board.current_player == 1 else agents.greedy(seed=1)(board)
        assert board.is_legal(a)
        board.move(a)


def test_the_threats_agent_is_deterministic_under_a_node_budget_under_every_rule():
    rng = random.Random(3)
    for rule in RULES:
        board = clustered(rule, 9, rng, size=15)
        assert board is not None
        moves = {agents.threats(nodes=5000, seed=1)(board) for _ in range(2)}
        assert len(moves) == 1 and moves <= set(board.legal_moves())


def test_the_searches_still_refuse_three_players_and_vct_with_gravity():
    with pytest.raises(inarow.UnsupportedRulesError, match="2 players"):
        agents.threats(nodes=100)(inarow.Board(rules=inarow.Rules(9, 9, 5, 3, False)))
    gravity = inarow.Board(rules=inarow.Rules(7, 6, 4, 2, True, rule="standard"))
    with pytest.raises(inarow.UnsupportedRulesError, match="gravity"):
        find_win(gravity, "vct")


@pytest.mark.parametrize("number", [1, 4])
def test_pbrain_plays_info_rule_1_and_4_with_its_default_brain(number):
    commands = ["START 15", "INFO timeout_turn 1000", f"INFO rule {number}", "BEGIN"]
    commands += ["TURN 8,7", "END"]
    proc = subprocess.run(
        [*PBRAIN, "--seed", "0"],
        input="\r\n".join(commands) + "\r\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [line for line in proc.stdout.splitlines() if not line.startswith("MESSAGE")]
    assert lines[0] == "OK" and len(lines) == 3, lines
    rule = {1: "standard", 4: "renju"}[number]
    board = inarow.Board(rules=inarow.Rules.gomoku(15, rule=rule))
    for text in (lines[1], None, lines[2]):
        if text is None:
            board.move(7 * 15 + 8)  # the opponent's TURN 8,7
            continue
        x, y = map(int, text.split(","))
        assert board.is_legal(y * 15 + x), (text, board.moves)
        board.move(y * 15 + x)
