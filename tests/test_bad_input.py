"""Every bad input is refused with the documented exception, a message naming the bad
value and what is allowed, and no change to the board."""

import numpy as np
import pytest

import inarow
from inarow import Board, IllegalMoveError, InvalidPositionError, InvalidRulesError

ARTICLE_MOVES = [3, 2, 4, 3, 5, 6, 5, 4, 5, 5, 6, 4]
TTT = {"width": 3, "height": 3, "k": 3, "gravity": False}
TTT_DRAW = [0, 1, 2, 4, 3, 5, 7, 6, 8]


def state(board):
    return (
        board.to_numpy().tolist(),
        board.moves,
        board.current_player,
        board.winner,
        board.is_draw,
        board.is_over,
        board.legal_moves(),
        board.zobrist,
        board.to_bytes(),
    )


def refuse(board, call, exc, *fragments):
    """`call()` raises `exc` whose message holds every fragment; `board` is unchanged."""
    before = state(board)
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert state(board) == before, "a refused call changed the board"
    return message


def test_the_exceptions_subclass_value_error():
    for exc in (IllegalMoveError, InvalidRulesError, InvalidPositionError):
        assert issubclass(exc, ValueError)


# -- moves ---------------------------------------------------------------------------------

BOARDS = {
    "empty": lambda: Board(),
    "midgame": lambda: Board.from_moves([3, 3, 4]),
    "free 3 players": lambda: Board.from_moves(
        [0, 4], width=4, height=3, k=3, players=3, gravity=False
    ),
    "won": lambda: Board.from_moves(ARTICLE_MOVES, width=8, height=6),
    "drawn": lambda: Board.from_moves(TTT_DRAW, **TTT),
}


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("offset", [-1, 0, 1, 2**70], ids=["-1", "n", "n+1", "n+2**70"])
def test_out_of_range_actions(name, offset):
    board = BOARDS[name]()
    n = board.num_actions
    action = offset if offset == -1 else n + offset
    refuse(board, lambda: board.move(action), IllegalMoveError, str(action), f"0..={n - 1}")
    assert board.is_legal(action) is False


@pytest.mark.parametrize("action", [-(2**70), -(10**30), 2**63, 2**64, 10**30])
def test_huge_actions(action):
    board = Board.from_moves([3])
    refuse(board, lambda: board.move(action), IllegalMoveError, str(action), "0..=6")
    assert board.is_legal(action) is False


def test_full_column():
    board = Board.from_moves([0] * 6)
    refuse(board, lambda: board.move(0), IllegalMoveError, "column 0", "full")
    assert board.legal_moves() == [1, 2, 3, 4, 5, 6]
    refuse(board, lambda: board.move(0), IllegalMoveError, "column 0", "full")  # again


def test_occupied_cell():
    board = Board.from_moves([4, 0], **TTT)
    refuse(board, lambda: board.move(4), IllegalMoveError, "4", "(row 1, col 1)", "occupied")
    refuse(board, lambda: board.move(0), IllegalMoveError, "action 0", "occupied")


@pytest.mark.parametrize("name", ["won", "drawn"])
def test_any_move_after_the_game_is_over(name):
    board = BOARDS[name]()
    assert board.is_over
    for action in range(board.num_actions):
        refuse(board, lambda a=action: board.move(a), IllegalMoveError, str(action), "over")


BAD_TYPES = [1.0, 3.5, None, "3", b"3", True, False, [3], (3,), 3 + 0j, np.float64(3.0)]


@pytest.mark.parametrize("value", BAD_TYPES, ids=repr)
def test_non_integer_actions(value):
    board = Board.from_moves([3, 3])
    refuse(board, lambda: board.move(value), TypeError, repr(value), "integer")
    refuse(board, lambda: board.is_legal(value), TypeError, repr(value), "integer")


def test_numpy_integers_are_integers():
    board = Board()
    assert board.move(np.int64(3)) is False
    assert board.move(np.uint8(3)) is False
    assert board.move(np.int32(4)) is False
    assert board.moves == [3, 3, 4]


def test_undo_without_history():
    board = Board()
    refuse(board, board.undo, IllegalMoveError, "no move to undo")
    board = Board.from_moves([3, 3])
    board.undo()
    board.undo()
    refuse(board, board.undo, IllegalMoveError, "no move to undo")
    # A loaded position is the start of the history.
    loaded = Board.from_numpy(Board.from_moves([3, 3, 2]).to_numpy())
    refuse(loaded, loaded.undo, IllegalMoveError, "no move to undo")
    loaded.move(0)
    assert loaded.undo() == 0
    refuse(loaded, loaded.undo, IllegalMoveError, "no move to undo")
    decoded = Board.from_bytes(Board.from_moves([1]).to_bytes())
    decoded.undo()
    refuse(decoded, decoded.undo, IllegalMoveError, "no move to undo")


# -- rules ----------------------------------------------------------------------------------

BAD_RULES = [
    ({"width": 0}, ["width=0", "1..=64"]),
    ({"width": -1}, ["width=-1", "1..=64"]),
    ({"width": 65}, ["width=65", "1..=64"]),
    ({"width": 10**9}, ["width=1000000000", "1..=64"]),
    ({"width": 2**70}, [f"width={2**70}", "64"]),
    ({"height": 0}, ["height=0", "1..=64"]),
    ({"height": -5}, ["height=-5", "1..=64"]),
    ({"height": 65}, ["height=65", "1..=64"]),
    ({"height": 10**9}, ["height=1000000000", "1..=64"]),
    ({"height": -(2**70)}, [f"height={-(2**70)}", "64"]),
    ({"k": 0}, ["k=0", "at least 1"]),
    ({"k": -2}, ["k=-2", "at least 1"]),
    ({"k": 8}, ["k=8", "1..=7"]),
    ({"width": 3, "height": 3, "k": 4}, ["k=4", "1..=3"]),
    ({"k": 10**9}, ["k=1000000000", "1..=7"]),
    ({"players": 1}, ["players=1", "2..=16"]),
    ({"players": 0}, ["players=0", "2..=16"]),
    ({"players": -1}, ["players=-1", "2..=16"]),
    ({"players": 17}, ["players=17", "2..=16"]),
    ({"players": 2**70}, [f"players={2**70}", "16"]),
    ({"width": 10**9, "height": 10**9}, ["width=1000000000", "height=1000000000", "1..=64"]),
]


@pytest.mark.parametrize(("kwargs", "fragments"), BAD_RULES, ids=lambda v: repr(v)[:40])
def test_bad_rules(kwargs, fragments):
    for build in (
        lambda: Board(**kwargs),
        lambda: Board.from_moves([], **kwargs),
    ):
        with pytest.raises(InvalidRulesError) as info:
            build()
        for fragment in fragments:
            assert fragment in str(info.value)


def test_every_rules_problem_is_reported_at_once():
    with pytest.raises(InvalidRulesError) as info:
        Board(width=0, height=10**9, k=0, players=1)
    message = str(info.value)
    for fragment in ["width=0", "height=1000000000", "k=0", "players=1"]:
        assert fragment in message


def test_largest_rules_are_accepted():
    board = Board(width=64, height=64, k=64, players=16, gravity=False)
    assert board.num_actions == 4096
    assert board.move(4095) is False
    assert Board(width=1, height=1, k=1).legal_moves() == [0]


BAD_RULE_TYPES = [
    ({"width": 7.0}, "width", "7.0"),
    ({"width": "7"}, "width", "'7'"),
    ({"width": True}, "width", "True"),
    ({"height": 6.5}, "height", "6.5"),
    ({"height": False}, "height", "False"),
    ({"k": 4.0}, "k", "4.0"),
    ({"k": "4"}, "k", "'4'"),
    ({"players": 2.0}, "players", "2.0"),
    ({"players": True}, "players", "True"),
    ({"gravity": 1}, "gravity", "1"),
    ({"gravity": "yes"}, "gravity", "'yes'"),
    ({"gravity": 0.0}, "gravity", "0.0"),
]


@pytest.mark.parametrize(("kwargs", "name", "value"), BAD_RULE_TYPES, ids=repr)
def test_non_integer_rules(kwargs, name, value):
    with pytest.raises(TypeError) as info:
        Board(**kwargs)
    assert name in str(info.value) and value in str(info.value)
    with pytest.raises(TypeError):
        Board.from_moves([], **kwargs)


def test_numpy_rule_values_are_accepted():
    board = Board(width=np.int64(5), height=np.int32(4), k=np.uint8(3), gravity=np.bool_(False))
    assert (board.width, board.height, board.k, board.gravity) == (5, 4, 3, False)


@pytest.mark.parametrize(
    ("size", "exc", "fragments"),
    [
        (0, InvalidRulesError, ["width=0", "1..=64"]),
        (-3, InvalidRulesError, ["width=-3", "1..=64"]),
        (65, InvalidRulesError, ["width=65", "1..=64"]),
        (10**9, InvalidRulesError, ["1000000000", "1..=64"]),
        (2**70, InvalidRulesError, [str(2**70), "64"]),
        (15.0, TypeError, ["size", "15.0"]),
        (True, TypeError, ["size", "True"]),
        ("15", TypeError, ["size", "'15'"]),
    ],
    ids=["0", "-3", "65", "10**9", "2**70", "15.0", "True", "str"],
)
def test_bad_gomoku_sizes(size, exc, fragments):
    with pytest.raises(exc) as info:
        Board.gomoku(size)
    for fragment in fragments:
        assert fragment in str(info.value)


# -- constructors from move lists -------------------------------------------------------------


def test_from_moves_names_the_first_bad_move():
    with pytest.raises(IllegalMoveError) as info:
        Board.from_moves([3, 3, 7, 3])
    assert "move 2" in str(info.value) and "7" in str(info.value) and "0..=6" in str(info.value)
    with pytest.raises(IllegalMoveError, match=r"move 6\b.*column 0.*full"):
        Board.from_moves([0] * 7)
    with pytest.raises(IllegalMoveError, match=r"move 12\b.*over"):
        Board.from_moves(ARTICLE_MOVES + [0], width=8, height=6)
    with pytest.raises(IllegalMoveError, match=r"move 1\b.*occupied"):
        Board.from_moves([4, 4], **TTT)
    with pytest.raises(IllegalMoveError, match="-1"):
        Board.from_moves([-1])
    with pytest.raises(TypeError) as info:
        Board.from_moves([3, 2.0])
    assert "move 1" in str(info.value) and "2.0" in str(info.value)
    with pytest.raises(TypeError):
        Board.from_moves([None])
    with pytest.raises(TypeError):
        Board.from_moves(3)  # not iterable


@pytest.mark.parametrize(
    ("digits", "fragments"),
    [
        ("0", ["move 0", "'0'", "1..=7"]),
        ("448", ["move 2", "'8'", "1..=7"]),
        ("44a", ["move 2", "'a'", "1..=7"]),
        ("4 4", ["move 1", "' '", "1..=7"]),
        ("-1", ["move 0", "'-'", "1..=7"]),
        ("1111111", ["move 6", "column 0", "full"]),
    ],
)
def test_bad_pons_strings(digits, fragments):
    with pytest.raises(IllegalMoveError) as info:
        Board.from_pons(digits)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_from_pons_refuses_non_strings_and_bad_rules():
    with pytest.raises(TypeError):
        Board.from_pons(4453)
    with pytest.raises(InvalidRulesError, match="width=0"):
        Board.from_pons("1", width=0)


# -- from_numpy rules ----------------------------------------------------------------------------


def test_from_numpy_bad_rules_and_shapes():
    with pytest.raises(InvalidRulesError, match="players=1"):
        Board.from_numpy(np.zeros((6, 7), dtype=np.int8), players=1)
    with pytest.raises(InvalidRulesError, match="k=4"):
        Board.from_numpy(np.zeros((3, 3), dtype=np.int8))  # k defaults to 4
    with pytest.raises(InvalidRulesError, match="height=65"):
        Board.from_numpy(np.zeros((65, 2), dtype=np.int8), k=2)
    with pytest.raises(InvalidRulesError, match="width=0"):
        Board.from_numpy(np.zeros((0, 0), dtype=np.int8))
    with pytest.raises(TypeError, match="1.5"):
        Board.from_numpy(np.zeros((6, 7), dtype=np.int8), k=1.5)
    with pytest.raises(TypeError, match="gravity"):
        Board.from_numpy(np.zeros((6, 7), dtype=np.int8), gravity=1)
    with pytest.raises(InvalidPositionError) as info:
        Board.from_numpy([[0, 0, 0], [0, 0, 9]], k=2)
    assert "9" in str(info.value) and "1..=2" in str(info.value)


# -- bytes ---------------------------------------------------------------------------------------


def good_bytes():
    return Board.from_moves([3, 3, 4]).to_bytes()


def replace(data, index, value):
    data = bytearray(data)
    data[index] = value
    return bytes(data)


BAD_BYTES = {
    "empty": (b"", ["truncated"]),
    "magic": (b"NOPE" + good_bytes()[4:], ["magic"]),
    "version": (replace(good_bytes(), 4, 2), ["version 2"]),
    "width 0": (replace(good_bytes(), 5, 0), ["width=0"]),
    "width 65": (replace(good_bytes(), 5, 65), ["width=65"]),
    "k 0": (replace(good_bytes(), 7, 0), ["k=0"]),
    "players 1": (replace(good_bytes(), 8, 1), ["players=1"]),
    "gravity 2": (replace(good_bytes(), 9, 2), ["gravity byte 2"]),
    "set-up flag 7": (replace(good_bytes(), 10, 7), ["flag 7"]),
    "move out of range": (replace(good_bytes(), 13, 9), ["move 0", "9", "0..=6"]),
    "trailing byte": (good_bytes() + b"\x00", ["1 trailing"]),
    "too many moves": (replace(good_bytes(), 11, 4), ["truncated"]),
    # Column 3 three times, but header says 7 moves of column 3: the 7th overflows.
    "full column": (
        good_bytes()[:11] + bytes([7, 0]) + bytes([3, 0]) * 7,
        ["move 6", "column 3", "full"],
    ),
    # A set-up position with a floating stone (row 0 of column 0).
    "floating set-up stone": (
        good_bytes()[:10] + bytes([1]) + bytes([1] + [0] * 41) + bytes([0, 0]),
        ["float"],
    ),
}


@pytest.mark.parametrize("name", BAD_BYTES)
def test_bad_bytes(name):
    data, fragments = BAD_BYTES[name]
    with pytest.raises(InvalidPositionError) as info:
        Board.from_bytes(data)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_every_truncation_of_valid_bytes_is_refused():
    for board in (
        Board.from_moves([3, 3, 4]),
        Board.from_numpy(Board.from_moves([3, 2]).to_numpy()),
    ):
        data = board.to_bytes()
        assert Board.from_bytes(data) == board
        for n in range(len(data)):
            with pytest.raises(InvalidPositionError, match="truncated"):
                Board.from_bytes(data[:n])


def test_from_bytes_refuses_non_bytes():
    for value in ("INRW", None, 5, [73, 78]):
        with pytest.raises(TypeError):
            Board.from_bytes(value)


# -- other arguments -------------------------------------------------------------------------------


def test_bad_observation_dtype():
    board = Board.from_moves([3])
    refuse(
        board, lambda: board.observation("int64"), ValueError, "int64", "uint8", "bool", "float32"
    )


def test_is_legal_never_raises_for_integers():
    board = Board.from_moves([0] * 6)
    for action in [-1, 0, 7, 2**70, -(2**70)]:
        assert board.is_legal(action) is False
    assert board.is_legal(1) is True


def test_bad_winners_arguments():
    good = np.zeros((1, 3, 3), dtype=np.int64)
    with pytest.raises(TypeError, match="float"):
        inarow.winners(np.zeros((1, 3, 3)))
    with pytest.raises(ValueError, match="3-dimensional"):
        inarow.winners(np.zeros((3, 3), dtype=np.int64))
    with pytest.raises(InvalidPositionError, match="-1"):
        inarow.winners(-np.ones((1, 3, 3), dtype=np.int64))
    with pytest.raises(InvalidRulesError, match="k=0"):
        inarow.winners(good, k=0)
    with pytest.raises(InvalidRulesError, match="k=-3"):
        inarow.winners(good, k=-3)
    with pytest.raises(TypeError, match="True"):
        inarow.winners(good, k=True)
    with pytest.raises(TypeError, match="2.0"):
        inarow.winners(good, k=2.0)
