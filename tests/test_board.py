"""The contract of `inarow.Board`, observable by observable.

Expected values are documented facts (the article game, tic-tac-toe, Connect Four),
positions worked out by hand in the comments, or the plain reference in
tests/reference.py; never outputs copied from the engine.
"""

import copy
import pickle

import numpy as np
import pytest
from reference import Reference, winner_of_grid

import inarow
from inarow import Board

ARTICLE_MOVES = [3, 2, 4, 3, 5, 6, 5, 4, 5, 5, 6, 4]


def snapshot(board):
    """Every observable of a board, as plain Python values."""
    return {
        "grid": board.to_numpy().tolist(),
        "moves": board.moves,
        "current_player": board.current_player,
        "winner": board.winner,
        "is_draw": board.is_draw,
        "is_over": board.is_over,
        "legal_moves": board.legal_moves(),
        "legal_mask": board.legal_mask().tolist(),
        "observation": board.observation().tolist(),
        "winning_line": board.winning_line(),
        "num_stones": board.num_stones,
        "last_move": board.last_move,
        "last_cell": board.last_cell,
        "zobrist": board.zobrist,
        "bytes": board.to_bytes(),
        "len": len(board),
    }


def reference_after(moves, **rules):
    ref = Reference(**rules)
    for action in moves:
        ref.play(action)
    return ref


def same_line(line, expected):
    """Equal as lines: the same cells in order along the line, either way round."""
    return line in (list(expected), list(expected)[::-1])


def picture(drawing):
    """The grid (list of rows, top row first) of a drawing: one word a row, `.` an
    empty cell, a digit the player owning the cell."""
    return [[0 if cell == "." else int(cell) for cell in row] for row in drawing.split()]


# -- the article game ------------------------------------------------------------


def test_the_article_game_is_won_by_player_2_on_the_last_move():
    board = Board(rules=inarow.Rules(width=8, height=6))
    results = [board.move(a) for a in ARTICLE_MOVES]
    assert results == [False] * (len(ARTICLE_MOVES) - 1) + [True]
    assert board.winner == 2
    assert board.is_over and not board.is_draw
    assert board.legal_moves() == []
    assert not board.legal_mask().any()
    assert board.current_player == 1  # who would be next
    # Player 2's diagonal, completed by its third stone (row 3, col 4).
    assert same_line(board.winning_line(), [(5, 2), (4, 3), (3, 4), (2, 5)])
    ref = reference_after(ARTICLE_MOVES, width=8, height=6)
    assert board.to_numpy().tolist() == ref.to_grid()


# -- 8x8, five in a row, three players, free placement -------------------------------

GOMOKU3 = {"width": 8, "height": 8, "k": 5, "players": 3, "gravity": False}
# Stones for the players who are not building the line: rows 0 and 7, taken in turn
# by two players, so each holds every other cell of a row (never five in a row).
FILLERS = [(0, c) for c in range(8)] + [(7, c) for c in range(8)]


def build_line(winner, cells, completing):
    """Player `winner` places `cells` (the completing cell last), the others fillers;
    checks that only the last move wins."""
    board = Board(rules=inarow.Rules(**GOMOKU3))
    order = [c for c in cells if c != completing] + [completing]
    fillers = iter(FILLERS)
    results = []
    while order:
        if board.current_player == winner:
            row, col = order.pop(0)
        else:
            row, col = next(fillers)
        results.append(board.move(row * 8 + col))
    assert results == [False] * (len(results) - 1) + [True]
    assert board.winner == winner
    assert board.is_over and not board.is_draw
    assert board.legal_moves() == []
    assert board.current_player == winner % 3 + 1
    assert board.last_cell == completing
    ref = reference_after(board.moves, **GOMOKU3)
    assert ref.winner == winner
    return board


LINES = {
    "horizontal by its middle stone": (1, [(3, c) for c in range(2, 7)], (3, 4)),
    "horizontal by its end stone": (2, [(4, c) for c in range(1, 6)], (4, 1)),
    "vertical by its middle stone": (2, [(r, 5) for r in range(1, 6)], (3, 5)),
    "vertical by its top stone": (3, [(r, 0) for r in range(2, 7)], (2, 0)),
    "diagonal by its middle stone": (3, [(i, i) for i in range(1, 6)], (3, 3)),
    "diagonal by its second stone": (1, [(i + 1, i) for i in range(1, 6)], (3, 2)),
    "anti-diagonal by its middle stone": (1, [(2 + i, 6 - i) for i in range(5)], (4, 4)),
    "anti-diagonal by its fourth stone": (2, [(2 + i, 6 - i) for i in range(5)], (5, 3)),
}


@pytest.mark.parametrize("name", LINES)
def test_wide_board_wins_in_every_direction(name):
    winner, cells, completing = LINES[name]
    board = build_line(winner, cells, completing)
    assert same_line(board.winning_line(), cells)
    grid = board.to_numpy()
    for row, col in cells:
        assert grid[row, col] == winner


def test_a_middle_stone_joining_two_runs_gives_the_whole_run():
    # Player 1: (4,0), (4,1) and (4,3), (4,4), (4,5); then (4,2) joins six in a row.
    cells = [(4, c) for c in range(6)]
    board = build_line(1, cells, (4, 2))
    assert same_line(board.winning_line(), cells)


def draw_grid():
    """A full 8x8 grid for 3 players without five in a row, by hand.

    Colour (r // 2 + c) % 3: along a row the colour changes at every step, along a
    diagonal it changes by 1 or 2 (never 0 mod 3), along a column and an anti-diagonal
    it holds for at most two cells. Residues 0, 1, 2 -> players 1, 2, 3 give 22, 22, 20
    stones; moving the corner-side cell (0, 1) from player 2 to player 3 gives the
    22, 21, 21 of a full game, and makes runs of at most 2 for player 3 around it.
    """
    grid = [[(r // 2 + c) % 3 + 1 for c in range(8)] for r in range(8)]
    assert grid[0][1] == 2
    grid[0][1] = 3
    return grid


def test_wide_board_full_board_draw():
    grid = draw_grid()
    counts = [sum(row.count(p) for row in grid) for p in (1, 2, 3)]
    assert counts == [22, 21, 21]
    assert winner_of_grid(grid, 5) == 0
    assert winner_of_grid(grid, 3) == 0  # no run longer than 2 at all
    cells = {
        p: [r * 8 + c for r in range(8) for c in range(8) if grid[r][c] == p] for p in (1, 2, 3)
    }
    order = []
    for i in range(22):
        for p in (1, 2, 3):
            if i < len(cells[p]):
                order.append(cells[p][i])
    board = Board(rules=inarow.Rules(**GOMOKU3))
    for action in order:
        assert board.move(action) is False
    assert board.to_numpy().tolist() == grid
    assert board.is_draw and board.is_over
    assert board.winner is None
    assert board.winning_line() is None
    assert board.legal_moves() == []
    assert not board.legal_mask().any()
    assert board.num_stones == 64
    assert board.current_player == 2  # 64 moves: player 1 played last
    ref = reference_after(order, **GOMOKU3)
    assert ref.is_draw


def test_tic_tac_toe_draw():
    # X O X / X O O / O X X, X first: X 0, O 1, X 2, O 4, X 3, O 5, X 7, O 6, X 8.
    board = Board.tic_tac_toe()
    assert [board.move(a) for a in [0, 1, 2, 4, 3, 5, 7, 6, 8]] == [False] * 9
    assert board.to_numpy().tolist() == [[1, 2, 1], [1, 2, 2], [2, 1, 1]]
    assert board.is_draw and board.is_over and board.winner is None


def test_k_equal_1_every_first_move_wins():
    board = Board(rules=inarow.Rules(width=3, height=2, k=1, players=3, gravity=True))
    assert board.move(1) is True
    assert board.winner == 1
    assert board.winning_line() == [(1, 1)]


# -- undo ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "moves"),
    [
        ({"width": 8, "height": 6}, ARTICLE_MOVES),
        ({"width": 5, "height": 4, "k": 3, "players": 3}, [0, 4, 4, 1, 0, 0, 2]),
        (GOMOKU3, [27, 0, 7, 28, 1, 6, 29, 2, 5, 30, 3, 4, 31]),
        ({"width": 3, "height": 3, "k": 3, "gravity": False}, [0, 1, 2, 4, 3, 5, 7, 6, 8]),
    ],
    ids=["article", "3-players-gravity", "8x8-win", "tic-tac-toe-draw"],
)
def test_undo_restores_every_observable_exactly(rules, moves):
    board = Board(rules=inarow.Rules(**rules))
    history = [snapshot(board)]
    for action in moves:
        board.move(action)
        history.append(snapshot(board))
    assert board.is_over
    for action in reversed(moves):
        history.pop()
        assert board.undo() == action
        assert snapshot(board) == history[-1]
    assert board == Board(rules=inarow.Rules(**rules))
    assert board.zobrist == 0
    # After undoing the last move of a finished game, play goes on.
    board = Board.from_moves(moves, rules=inarow.Rules(**rules))
    board.undo()
    assert not board.is_over
    assert board.move(moves[-1]) == (
        Board.from_moves(moves, rules=inarow.Rules(**rules)).winner is not None
    )


# -- copies, pickling, equality, hashing ------------------------------------------------

COPIERS = {
    "copy()": lambda b: b.copy(),
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "pickle": lambda b: pickle.loads(pickle.dumps(b)),
    "pickle protocol 2": lambda b: pickle.loads(pickle.dumps(b, protocol=2)),
}


@pytest.mark.parametrize("copier", COPIERS)
def test_copies_are_equal_and_independent(copier):
    board = Board.from_moves([3, 3, 4], rules=inarow.Rules(width=7, height=6))
    twin = COPIERS[copier](board)
    assert twin is not board
    assert twin == board
    assert snapshot(twin) == snapshot(board)
    before = snapshot(board)
    twin.move(5)
    assert snapshot(board) == before, "moving the copy changed the original"
    board.move(2)
    assert twin != board
    # Both evolve exactly alike under the same moves, and undo through the history.
    twin.undo()
    board.undo()
    for action in [0, 6, 6, 0, 1, 1, 2]:
        assert twin.move(action) == board.move(action)
        assert snapshot(twin) == snapshot(board)
    while board.moves:
        assert twin.undo() == board.undo()
        assert snapshot(twin) == snapshot(board)
    with pytest.raises(inarow.IllegalMoveError):
        twin.undo()


@pytest.mark.parametrize("copier", COPIERS)
def test_copies_of_a_set_up_position_keep_its_start(copier):
    grid = Board.from_moves(
        [0, 4, 8], rules=inarow.Rules(width=3, height=3, k=3, gravity=False)
    ).to_numpy()
    board = Board.from_numpy(grid, inarow.Rules(3, 3, 3, gravity=False))
    board.move(2)
    twin = COPIERS[copier](board)
    assert snapshot(twin) == snapshot(board)
    assert twin.undo() == 2
    with pytest.raises(inarow.IllegalMoveError):
        twin.undo()
    assert twin.to_numpy().tolist() == grid.tolist()


def test_equal_positions_reached_in_different_orders_are_equal():
    a = Board.from_moves([3, 4, 2, 5])
    b = Board.from_moves([2, 5, 3, 4])
    assert a.moves != b.moves
    assert a == b and not (a != b)
    assert hash(a) == hash(b)
    assert a.zobrist == b.zobrist
    assert len({a, b}) == 1
    c = Board.from_moves([0, 4, 8], rules=inarow.Rules(width=3, height=3, k=3, gravity=False))
    d = Board.from_moves([8, 4, 0], rules=inarow.Rules(width=3, height=3, k=3, gravity=False))
    assert c == d and hash(c) == hash(d)
    e = Board.from_numpy(a.to_numpy())
    assert e == a and hash(e) == hash(a)
    assert {a: "x"}[e] == "x"


def test_different_positions_or_rules_are_not_equal():
    a = Board.from_moves([3, 4])
    assert a != Board.from_moves([4, 3])  # the stones swap owners
    assert a != Board.from_moves([3])
    assert a != Board.from_moves([3, 4, 0])
    assert Board() != Board(rules=inarow.Rules(k=5))
    assert Board() != Board(rules=inarow.Rules(players=3))
    assert (
        Board(rules=inarow.Rules(width=3, height=3, k=3)) != Board.tic_tac_toe()
    )  # gravity differs
    assert Board() != Board(rules=inarow.Rules(width=8))
    assert Board() == Board.connect_four()
    assert (Board() == "Board()") is False
    assert (Board() != 7) is True
    with pytest.raises(TypeError):
        _ = Board() < Board()


# -- repr, str ----------------------------------------------------------------------------

REPR_BOARDS = {
    "empty": lambda: Board(),
    "moves": lambda: Board.from_moves(ARTICLE_MOVES, rules=inarow.Rules(width=8, height=6)),
    "free 3 players": lambda: Board.from_moves([27, 0, 7], rules=inarow.Rules(**GOMOKU3)),
    "k=1": lambda: Board(rules=inarow.Rules(width=1, height=1, k=1)),
    "set-up": lambda: Board.from_numpy(Board.from_moves([3, 3, 2]).to_numpy()),
    "set-up then moves": lambda: _setup_then_moves(),
}


def _setup_then_moves():
    board = Board.from_numpy(Board.from_moves([3, 3, 2]).to_numpy())
    board.move(6)
    return board


@pytest.mark.parametrize("name", REPR_BOARDS)
def test_repr_evaluates_back_to_the_board(name):
    board = REPR_BOARDS[name]()
    text = repr(board)
    assert text.startswith("Board")
    back = eval(text, {"Board": inarow.Board, "Rules": inarow.Rules})
    assert back == board
    assert (back.width, back.height, back.k, back.players, back.gravity) == (
        board.width,
        board.height,
        board.k,
        board.players,
        board.gravity,
    )
    assert back.moves == board.moves
    assert back.to_bytes() == board.to_bytes()


def test_str_draws_the_board():
    # Pons "4453": X in column 3, O on top of it, X in column 4, O in column 2.
    expected = (
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". . . . . . .\n"
        ". . . O . . .\n"
        ". . O X X . .\n"
        "0 1 2 3 4 5 6\n"
    )
    assert str(Board.from_pons("4453")) == expected
    # Free placement: columns above, rows on the left, both from 0 (row 0 the top row,
    # action row * width + col); player 3 is A.
    board = Board.from_moves(
        [0, 4, 8], rules=inarow.Rules(width=3, height=3, k=3, players=3, gravity=False)
    )
    assert str(board) == "  0 1 2\n0 X . .\n1 . O .\n2 . . A\n"
    wide = Board.from_moves(
        [0, 10 * 12 + 10], rules=inarow.Rules(width=12, height=11, k=5, gravity=False)
    )
    lines = str(wide).splitlines()
    assert lines[0] == "    0  1  2  3  4  5  6  7  8  9 10 11"
    assert lines[1] == " 0  X  .  .  .  .  .  .  .  .  .  .  ."
    assert lines[-1] == "10  .  .  .  .  .  .  .  .  .  .  O  ."


# -- constructors ---------------------------------------------------------------------------


def test_presets():
    for board, rules in [
        (Board.connect_four(), (7, 6, 4, 2, True)),
        (Board(), (7, 6, 4, 2, True)),
        (Board.tic_tac_toe(), (3, 3, 3, 2, False)),
        (Board.gomoku(), (15, 15, 5, 2, False)),
        (Board.gomoku(19), (19, 19, 5, 2, False)),
        (Board.gomoku(size=9), (9, 9, 5, 2, False)),
    ]:
        assert (board.width, board.height, board.k, board.players, board.gravity) == rules
        assert board.moves == [] and board.current_player == 1 and board.winner is None
        width, height, _, _, gravity = rules
        assert board.num_actions == (width if gravity else width * height)
        assert board.legal_moves() == list(range(board.num_actions))
    assert Board.tic_tac_toe().count_games() == 255_168  # the known figure


def test_from_pons_and_from_moves():
    board = Board.from_pons("4453")
    assert board == Board.from_moves([3, 3, 4, 2])
    assert board.moves == [3, 3, 4, 2]
    assert board.current_player == 1
    assert Board.from_pons("") == Board()
    wide = Board.from_pons("1188", rules=inarow.Rules(width=8))
    assert wide.moves == [0, 0, 7, 7] and wide.width == 8
    b = Board.from_moves((a for a in [27, 0, 7]), rules=inarow.Rules(**GOMOKU3))  # any iterable
    assert b.moves == [27, 0, 7]
    assert b.to_numpy()[3, 3] == 1 and b.to_numpy()[0, 0] == 2 and b.to_numpy()[0, 7] == 3
    assert Board.from_moves(np.array([3, 3], dtype=np.int64)).moves == [3, 3]


def test_from_numpy_accepts_possible_positions():
    assert Board.from_numpy(np.zeros((6, 7), dtype=np.int8)) == Board()
    assert Board.from_numpy([[0, 0], [0, 0]], inarow.Rules(2, 2, 2)).width == 2
    # Won position: the article game's end; player 2 won, player 1 would be next.
    final = Board.from_moves(ARTICLE_MOVES, rules=inarow.Rules(width=8, height=6))
    for dtype in (np.int8, np.uint8, np.int64):
        loaded = Board.from_numpy(final.to_numpy().astype(dtype))
        assert loaded == final
        assert loaded.winner == 2 and loaded.is_over and loaded.legal_moves() == []
        assert loaded.current_player == 1
        assert loaded.moves == []
    # A draw.
    drawn = [[1, 2, 1], [1, 2, 2], [2, 1, 1]]
    board = Board.from_numpy(drawn, inarow.Rules(3, 3, 3, gravity=False))
    assert board.is_draw and board.winner is None
    # Three players, 4 stones: counts 2, 1, 1, player 2 to move.
    grid = np.zeros((4, 5), dtype=np.int64)
    grid[3, 0], grid[3, 1], grid[3, 2], grid[2, 0] = 1, 2, 3, 1
    board = Board.from_numpy(grid, inarow.Rules(5, 4, 3, players=3))
    assert board.current_player == 2
    assert board == Board.from_moves(
        [0, 1, 2, 0], rules=inarow.Rules(width=5, height=4, k=3, players=3)
    )
    # Play continues from the loaded position like from the played one.
    played = Board.from_moves([0, 1, 2, 0], rules=inarow.Rules(width=5, height=4, k=3, players=3))
    assert board.move(4) == played.move(4)
    assert snapshot(board)["grid"] == snapshot(played)["grid"]
    # A line of more than k stones is still one last move.
    six = picture(
        """
        .......
        .......
        .......
        2......
        222....
        1111112
        """
    )
    assert Board.from_numpy(six).winner == 1


# Positions loaded without history whose winner owns a stone off the winning line
# (the stone the engine meets first, bottom-left): the line must still be the line.
LOADED_WINS = {
    # X X X / O O . / X . O: X won on the top row.
    "tic-tac-toe": (
        {"arr": [[1, 1, 1], [2, 2, 0], [1, 0, 2]], "rules": inarow.Rules(3, 3, 3, gravity=False)},
        [(0, 0), (0, 1), (0, 2)],
    ),
    # Connect Four: player 1's diagonal from (5, 1) up to (2, 4); (5, 0) is off it.
    "connect four": (
        {
            "arr": picture(
                """
                .......
                .......
                ....1..
                ...12..
                ..122..
                11221..
                """
            )
        },
        [(5, 1), (4, 2), (3, 3), (2, 4)],
    ),
    # 9x9, five in a row (more than 64 layout bits): top row, stray stone at (8, 0).
    "9x9": (
        {
            "arr": [[1] * 5 + [0] * 4]
            + [[0] * 9] * 3
            + [[2, 0, 2, 0, 2, 0, 2, 0, 2]]
            + [[0] * 9] * 3
            + [[1] + [0] * 8],
            "rules": inarow.Rules(9, 9, 5, gravity=False),
        },
        [(0, c) for c in range(5)],
    ),
}


@pytest.mark.parametrize("name", LOADED_WINS)
def test_winning_line_of_a_loaded_position(name):
    kwargs, cells = LOADED_WINS[name]
    assert winner_of_grid(kwargs["arr"], kwargs.get("rules", inarow.Rules()).k) == 1
    board = Board.from_numpy(**kwargs)
    assert board.winner == 1
    assert same_line(board.winning_line(), cells)


IMPOSSIBLE = {
    "floating stone": ({"arr": [[1, 0], [0, 0]], "rules": inarow.Rules(2, 2, 2)}, "float"),
    "player 2 ahead": ({"arr": [[0, 0], [0, 2]], "rules": inarow.Rules(2, 2, 2)}, "stone counts"),
    "player 1 two ahead": (
        {"arr": [[1, 0], [1, 0]], "rules": inarow.Rules(2, 2, 2, gravity=False)},
        "stone counts",
    ),
    "owner beyond players": ({"arr": [[0, 0], [3, 0]], "rules": inarow.Rules(2, 2, 2)}, "3"),
    "negative owner": ({"arr": [[0, 0], [-1, 0]], "rules": inarow.Rules(2, 2, 2)}, "-1"),
    "3 players, player 3 ahead of 2": (
        {"arr": [[0, 0, 0], [1, 0, 3]], "rules": inarow.Rules(3, 2, 3, players=3)},
        "stone counts",
    ),
    "both players have lines": (
        {"arr": [[2, 2, 2], [1, 1, 1]], "rules": inarow.Rules(3, 2, 3, gravity=False)},
        "all have lines",
    ),
    "winner did not move last": (
        {"arr": [[2, 2, 0, 0], [1, 1, 1, 2]], "rules": inarow.Rules(4, 2, 3)},
        "moved last",
    ),
    # Player 1: columns 0 and 6 filled from row 2 down; player 2: rows 4 and 5 of
    # columns 1..3 and (5, 5). Counts 8 and 7, but no one stone made both lines.
    "two separate lines": (
        {
            "arr": picture(
                """
                .......
                .......
                1.....1
                1.....1
                1222..1
                1222.21
                """
            )
        },
        "single last move",
    ),
    # Player 1's column-0 four is capped by player 2; player 1's only top stone,
    # (5, 6), is not on it, so no last move of player 1 made the line.
    "line buried under the loser's stones": (
        {
            "arr": picture(
                """
                .......
                2......
                1......
                1......
                1......
                1222..1
                """
            )
        },
        "single last move",
    ),
}


@pytest.mark.parametrize("name", IMPOSSIBLE)
def test_from_numpy_refuses_impossible_positions(name):
    kwargs, fragment = IMPOSSIBLE[name]
    with pytest.raises(inarow.InvalidPositionError) as info:
        Board.from_numpy(**kwargs)
    assert isinstance(info.value, ValueError)
    if fragment is not None:
        assert fragment in str(info.value)


def test_from_numpy_refuses_non_integer_and_misshapen_arrays():
    with pytest.raises(TypeError, match="float"):
        Board.from_numpy(np.zeros((6, 7)))
    with pytest.raises(TypeError):
        Board.from_numpy(np.zeros((6, 7), dtype=bool))
    with pytest.raises(ValueError, match="2-dimensional"):
        Board.from_numpy(np.zeros(7, dtype=np.int8))
    with pytest.raises(ValueError, match="2-dimensional"):
        Board.from_numpy(np.zeros((1, 6, 7), dtype=np.int8))


# -- bytes -------------------------------------------------------------------------------------

BYTES_BOARDS = {
    "empty": lambda: Board(),
    "article": lambda: Board.from_moves(ARTICLE_MOVES, rules=inarow.Rules(width=8, height=6)),
    "free 3 players": lambda: Board.from_moves([27, 0, 7, 28], rules=inarow.Rules(**GOMOKU3)),
    "set-up then moves": _setup_then_moves,
    "64x64": lambda: Board.from_moves(
        [4095, 0, 64 * 32 + 5], rules=inarow.Rules(width=64, height=64, gravity=False)
    ),
}


@pytest.mark.parametrize("name", BYTES_BOARDS)
def test_bytes_round_trip(name):
    board = BYTES_BOARDS[name]()
    data = board.to_bytes()
    assert isinstance(data, bytes)
    assert data[:4] == b"INRW" and data[4] == inarow.FORMAT_VERSION
    back = Board.from_bytes(data)
    assert snapshot(back) == snapshot(board)
    assert back == board and back.to_bytes() == data
    for action in reversed(board.moves):
        assert back.undo() == action
    with pytest.raises(inarow.IllegalMoveError):
        back.undo()


# -- observation, legal mask, owner -------------------------------------------------------------


def test_observation_planes_put_the_side_to_move_first():
    board = Board.from_moves([0, 1, 2, 0, 4], rules=inarow.Rules(width=5, height=4, k=3, players=3))
    assert board.current_player == 3
    grid = board.to_numpy()
    for dtype, np_dtype in [("uint8", np.uint8), ("bool", np.bool_), ("float32", np.float32)]:
        obs = board.observation(dtype)
        assert obs.dtype == np_dtype
        assert obs.shape == (3, 4, 5)
        for plane, player in enumerate([3, 1, 2]):
            np.testing.assert_array_equal(
                obs[plane].astype(np.int64), (grid == player).astype(np.int64)
            )
    assert board.observation().dtype == np.uint8
    # Every stone is in exactly one plane.
    np.testing.assert_array_equal(board.observation().sum(axis=0), (grid != 0).astype(np.uint8))


def test_legal_mask_matches_legal_moves():
    board = Board(rules=inarow.Rules(width=3, height=2, k=3))
    for action in [1, 1]:
        board.move(action)
    mask = board.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (3,)
    assert mask.tolist() == [True, False, True]
    assert board.legal_moves() == [0, 2]
    assert [board.is_legal(a) for a in range(3)] == [True, False, True]
    free = Board.from_moves([0, 4, 8], rules=inarow.Rules(width=3, height=3, k=3, gravity=False))
    assert np.flatnonzero(free.legal_mask()).tolist() == free.legal_moves() == [1, 2, 3, 5, 6, 7]
    assert not free.is_legal(4) and not free.is_legal(9) and not free.is_legal(-1)
    over = Board.from_moves(ARTICLE_MOVES, rules=inarow.Rules(width=8, height=6))
    assert over.legal_mask().shape == (8,) and not over.legal_mask().any()
    assert not any(over.is_legal(a) for a in range(8))


def test_owner_and_last_move():
    board = Board.from_moves([3, 3, 4, 2])
    grid = board.to_numpy()
    for row in range(6):
        for col in range(7):
            assert board.owner(row, col) == grid[row, col]
    assert board.owner(5, 3) == 1 and board.owner(4, 3) == 2 and board.owner(5, 2) == 2
    assert board.last_move == 2 and board.last_cell == (5, 2)
    assert board.num_stones == 4 == len(board)
    assert Board().last_move is None and Board().last_cell is None
    with pytest.raises(IndexError):
        board.owner(6, 0)
    with pytest.raises(IndexError):
        board.owner(0, 7)


def test_counting_a_finished_game():
    over = Board.from_moves(ARTICLE_MOVES, rules=inarow.Rules(width=8, height=6))
    assert over.perft(0) == 1
    assert over.perft(1) == 0 and over.perft(3) == 0
    assert over.count_games() == 1
    ttt = {"width": 3, "height": 3, "k": 3, "gravity": False}
    assert (
        Board.from_moves([0, 3, 1, 4, 2], rules=inarow.Rules(**ttt)).count_games() == 1
    )  # X's top row
    assert (
        Board.from_moves([0, 1, 2, 4, 3, 5, 7, 6, 8], rules=inarow.Rules(**ttt)).count_games() == 1
    )  # draw


# -- inarow.winners -------------------------------------------------------------------------


def test_winners_in_every_direction_and_with_several_players():
    grids = np.zeros((9, 5, 6), dtype=np.int64)
    grids[1, 2, 1:5] = 1  # horizontal, player 1
    grids[2, 1:5, 0] = 2  # vertical, player 2
    for i in range(4):
        grids[3, i, i + 1] = 3  # diagonal, player 3
        grids[4, 4 - i, i + 2] = 7  # anti-diagonal, player 7
    grids[5, 0, 0:4] = 1  # two players have lines: -1
    grids[5, 4, 2:6] = 2
    grids[6, 0, 0:3] = 1  # only three in a row
    grids[7, 0, 0:4] = 2  # the same player twice: still that player
    grids[7, 1:5, 5] = 2
    grids[8, 4, 0:6] = 4  # six in a row
    expected = [0, 1, 2, 3, 7, -1, 0, 2, 4]
    out = inarow.winners(grids, k=4)
    assert out.dtype == np.int64 and out.shape == (9,)
    assert out.tolist() == expected
    assert [winner_of_grid(g.tolist(), 4) for g in grids] == expected
    assert inarow.winners(grids).tolist() == expected  # k defaults to 4
    # k = 3: grid 6 now has a line; k = 7: nothing fits.
    assert inarow.winners(grids, k=3).tolist()[6] == 1
    assert inarow.winners(grids, k=7).tolist() == [0] * 9
    assert inarow.winners(np.zeros((0, 3, 3), dtype=np.int8)).shape == (0,)


def test_winners_agree_with_boards_and_the_reference():
    final = Board.from_moves(ARTICLE_MOVES, rules=inarow.Rules(width=8, height=6))
    assert inarow.winners(final.to_numpy()[None]).tolist() == [2]
    rng = np.random.default_rng(20261121)
    grids = rng.integers(0, 4, size=(300, 4, 5), dtype=np.int64)
    grids[rng.random((300, 4, 5)) < 0.3] = 0
    expected = [winner_of_grid(g.tolist(), 3) for g in grids]
    assert inarow.winners(grids, k=3).tolist() == expected
    assert {-1, 0, 1, 2, 3} <= set(expected), "the sample must cover every outcome"
