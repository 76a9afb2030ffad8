"""Every bad input is refused with the documented exception, a message naming the bad
value and what is allowed, and no change to the board."""

import numpy as np
import pytest
from api_oracle import board_state

import inarow
from inarow import Board, IllegalMoveError, InvalidPositionError, InvalidRulesError, Rules

ARTICLE_MOVES = [3, 2, 4, 3, 5, 6, 5, 4, 5, 5, 6, 4]
TTT = Rules.tic_tac_toe()
TTT_DRAW = [0, 1, 2, 4, 3, 5, 7, 6, 8]


def refuse(board, call, exc, *fragments):
    """`call()` raises `exc` whose message holds every fragment; `board` is unchanged."""
    before = board_state(board)
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert board_state(board) == before, "a refused call changed the board"
    return message


def test_the_exceptions_subclass_value_error():
    for exc in (IllegalMoveError, InvalidRulesError, InvalidPositionError):
        assert issubclass(exc, ValueError)


# -- moves ---------------------------------------------------------------------------------

BOARDS = {
    "empty": lambda: Board(),
    "midgame": lambda: Board.from_moves([3, 3, 4]),
    "free 3 players": lambda: Board.from_moves(
        [0, 4], rules=inarow.Rules(width=4, height=3, k=3, players=3, gravity=False)
    ),
    "won": lambda: Board.from_moves(ARTICLE_MOVES, rules=inarow.Rules(width=8, height=6)),
    "drawn": lambda: Board.from_moves(TTT_DRAW, rules=TTT),
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
    board = Board.from_moves([4, 0], rules=TTT)
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
    with pytest.raises(InvalidRulesError) as info:
        Rules(**kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_every_rules_problem_is_reported_at_once():
    with pytest.raises(InvalidRulesError) as info:
        Board(rules=inarow.Rules(width=0, height=10**9, k=0, players=1))
    message = str(info.value)
    for fragment in ["width=0", "height=1000000000", "k=0", "players=1"]:
        assert fragment in message


def test_largest_rules_are_accepted():
    board = Board(rules=inarow.Rules(width=64, height=64, k=64, players=16, gravity=False))
    assert board.num_actions == 4096
    assert board.move(4095) is False
    assert Board(rules=inarow.Rules(width=1, height=1, k=1)).legal_moves() == [0]


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
        Rules(**kwargs)
    assert name in str(info.value) and value in str(info.value)


def test_numpy_rule_values_are_accepted():
    board = Board(
        rules=inarow.Rules(
            width=np.int64(5), height=np.int32(4), k=np.uint8(3), gravity=np.bool_(False)
        )
    )
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
        Board.from_moves(ARTICLE_MOVES + [0], rules=inarow.Rules(width=8, height=6))
    with pytest.raises(IllegalMoveError, match=r"move 1\b.*occupied"):
        Board.from_moves([4, 4], rules=TTT)
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
        ("0", ["digit 1", "'0'", "1..=7"]),
        ("448", ["digit 3", "'8'", "1..=7"]),
        ("44a", ["digit 3", "'a'", "1..=7"]),
        ("4 4", ["digit 2", "' '", "1..=7"]),
        ("-1", ["digit 1", "'-'", "1..=7"]),
        # Pons' digits are 1-based columns, and so is the error: digit 7 ('1') is column 1.
        ("1111111", ["digit 7 ('1'): column 1 is full"]),
        ("44444444", ["digit 7 ('4'): column 4 is full"]),
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
        Board.from_pons("1", rules=inarow.Rules(width=0))


# -- from_numpy rules ----------------------------------------------------------------------------


def test_from_numpy_bad_rules_and_shapes():
    with pytest.raises(InvalidRulesError, match="k=4"):
        Board.from_numpy(np.zeros((3, 3), dtype=np.int8))  # k defaults to 4
    with pytest.raises(InvalidRulesError, match="height=65"):
        Board.from_numpy(np.zeros((65, 2), dtype=np.int8))
    with pytest.raises(InvalidRulesError, match="width=0"):
        Board.from_numpy(np.zeros((0, 0), dtype=np.int8))
    with pytest.raises(TypeError, match="inarow.Rules"):
        Board.from_numpy(np.zeros((6, 7), dtype=np.int8), {"k": 4})
    with pytest.raises(InvalidPositionError) as info:
        Board.from_numpy([[0, 0, 0], [0, 0, 9]], inarow.Rules(3, 2, 2))
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
    "version": (replace(good_bytes(), 4, 3), ["version 3"]),
    "version 0": (replace(good_bytes(), 4, 0), ["version 0"]),
    "width 0": (replace(good_bytes(), 5, 0), ["width=0"]),
    "width 65": (replace(good_bytes(), 5, 65), ["width=65"]),
    "k 0": (replace(good_bytes(), 7, 0), ["k=0"]),
    "players 1": (replace(good_bytes(), 8, 1), ["players=1"]),
    "gravity 2": (replace(good_bytes(), 9, 2), ["gravity byte 2"]),
    "rule 2": (replace(good_bytes(), 10, 2), ["rule byte 2"]),
    # Renju on Connect Four's board: the rules refuse it.
    "renju with gravity": (replace(good_bytes(), 10, 4), ["renju", "k=5"]),
    "set-up flag 7": (replace(good_bytes(), 11, 7), ["flag 7"]),
    "move out of range": (replace(good_bytes(), 14, 9), ["move 0", "9", "0..=6"]),
    "trailing byte": (good_bytes() + b"\x00", ["1 trailing"]),
    "too many moves": (replace(good_bytes(), 12, 4), ["truncated"]),
    # Column 3 three times, but header says 7 moves of column 3: the 7th overflows.
    "full column": (
        good_bytes()[:12] + bytes([7, 0]) + bytes([3, 0]) * 7,
        ["move 6", "column 3", "full"],
    ),
    # A set-up position with a floating stone (row 0 of column 0).
    "floating set-up stone": (
        good_bytes()[:11] + bytes([1]) + bytes([1] + [0] * 41) + bytes([0, 0]),
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


# -- every problem, every argument named, causes chained (issue 11, class 5) -----------------------

HUGE = 2**70


@pytest.mark.parametrize("huge_arg", ["width", "height", "k", "players"])
def test_a_huge_rule_is_listed_beside_every_other_problem(huge_arg):
    kwargs = {"width": 0, "height": 65, "k": 0, "players": 1}
    kwargs[huge_arg] = HUGE
    with pytest.raises(InvalidRulesError) as info:
        Rules(**kwargs)
    message = str(info.value)
    for name, value in kwargs.items():
        assert f"{name}={value}" in message, message
    with pytest.raises(InvalidRulesError) as info:
        Rules(**{huge_arg: -HUGE})
    assert f"{huge_arg}={-HUGE}" in str(info.value)


def test_integers_too_long_to_print_are_described_by_size():
    board = Board()
    refuse(board, lambda: board.move(10**5000), IllegalMoveError, "bits>", "0..=6")
    with pytest.raises(InvalidRulesError, match="width=<an integer of"):
        Board(rules=inarow.Rules(width=10**5000))


class RaisingIndex:
    """An integer-like whose `__index__` raises `error`."""

    def __init__(self, error):
        self.error = error

    def __index__(self):
        raise self.error


INDEX_CALLS = {
    "move": lambda x: Board().move(x),
    "is_legal": lambda x: Board().is_legal(x),
    "owner": lambda x: Board().owner(x, 0),
    "perft": lambda x: Board().perft(x),
    "Rules(width)": lambda x: Board(rules=inarow.Rules(width=x)),
    "gomoku": lambda x: Board.gomoku(x),
    "from_moves": lambda x: Board.from_moves([3, x]),
    "from_numpy list": lambda x: Board.from_numpy([[0, x]], inarow.Rules(2, 1, 1)),
    "winners list": lambda x: inarow.winners([[[0, x]]], k=1),
    "winners k": lambda x: inarow.winners(np.zeros((1, 2, 2), dtype=np.int8), k=x),
    "VecEnv(num_envs)": lambda x: inarow.VecEnv(x),
    "VecEnv(seed)": lambda x: inarow.VecEnv(1, seed=x),
    "step list": lambda x: inarow.VecEnv(2, seed=0).step([0, x]),
    "board(index)": lambda x: inarow.VecEnv(1).board(x),
    "simulate": lambda x: inarow.simulate(x),
    "Solver(tt_bytes)": lambda x: inarow.Solver(tt_bytes=x),
}


@pytest.mark.parametrize("call", INDEX_CALLS)
@pytest.mark.parametrize("error", [ValueError("boom"), IndexError("idx"), OverflowError("big")])
def test_a_raising_index_is_chained_as_the_cause(call, error):
    with pytest.raises(TypeError) as info:
        INDEX_CALLS[call](RaisingIndex(error))
    assert info.value.__cause__ is error
    assert "__index__" in str(info.value) and repr(error) in str(info.value)


@pytest.mark.parametrize("call", ["move", "Rules(width)", "step list", "from_numpy list"])
def test_keyboard_interrupt_from_index_passes_through(call):
    with pytest.raises(KeyboardInterrupt):
        INDEX_CALLS[call](RaisingIndex(KeyboardInterrupt()))


def test_only_real_bools_are_gravity():
    class bool:  # noqa: N801 - a class that merely calls itself bool
        pass

    for value in (bool(), 1, 0, "True", np.array(True), np.int8(1)):
        with pytest.raises(TypeError) as info:
            Board(rules=inarow.Rules(gravity=value))
        assert "gravity" in str(info.value) and "must be a bool" in str(info.value)
    assert Board(rules=inarow.Rules(gravity=np.bool_(False))).gravity is False
    assert Board(rules=inarow.Rules(gravity=np.True_)).gravity is True
    with pytest.raises(TypeError, match="test_bad_input.bool"):
        Board(rules=inarow.Rules(gravity=bool()))


@pytest.mark.parametrize(
    ("call", "error", "fragments"),
    [
        (lambda: Board().observation(None), TypeError, ["dtype", "None", '"uint8"']),
        (lambda: Board().observation(np.int8), ValueError, ["dtype", "int8", '"float32"']),
        (lambda: Board().observation(5), TypeError, ["dtype", "5"]),
        (lambda: inarow.VecEnv(2, obs_dtype=None), TypeError, ["obs_dtype", "None"]),
        (lambda: inarow.VecEnv(2, obs_dtype=np.int64), ValueError, ["obs_dtype", "int64"]),
        (lambda: inarow.VecEnv(2, obs_dtype=">f4"), ValueError, ["obs_dtype", ">f4"]),
        (lambda: inarow.VecEnv(2, obs_dtype="nonsense"), ValueError, ["obs_dtype", "nonsense"]),
        (lambda: inarow.VecEnv(2, autoreset=None), TypeError, ["autoreset", "None"]),
        (lambda: inarow.VecEnv(2, autoreset="never"), ValueError, ["autoreset", "never"]),
        (lambda: inarow.VecEnv(2).reset(options=[1]), TypeError, ["options", "[1]"]),
        (lambda: inarow.VecEnv(2).reset(options={"mask": 1}), ValueError, ["options", "'mask'"]),
        (
            lambda: inarow.VecEnv(2).reset(options={"reset_mask": [True, 1]}),
            TypeError,
            ["reset_mask[1]", "must be a bool"],
        ),
        (lambda: inarow.simulate(1, policy=None), TypeError, ["policy", "None"]),
        (lambda: inarow.simulate(1, policy="greedy"), ValueError, ["policy", "greedy"]),
        (lambda: Board.from_pons(None), TypeError, ["digits", "None"]),
        (lambda: Board.from_pons(4453), TypeError, ["digits", "4453"]),
        (lambda: inarow.Solver().solve(None), TypeError, ["board", "NoneType"]),
        (lambda: inarow.Solver().solve(Board(), weak=1), TypeError, ["weak", "1"]),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_every_refusal_names_its_argument(call, error, fragments):
    with pytest.raises(error) as info:
        call()
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)


@pytest.mark.parametrize(
    ("dtype", "name"),
    [
        (np.uint8, "uint8"),
        (np.dtype("uint8"), "uint8"),
        ("u1", "uint8"),
        (np.bool_, "bool"),
        (bool, "bool"),
        (np.dtype("bool"), "bool"),
        ("?", "bool"),
        (np.float32, "float32"),
        (np.dtype("float32"), "float32"),
        ("f4", "float32"),
        ("float32", "float32"),
    ],
    ids=repr,
)
def test_numpy_spellings_of_the_observation_dtypes_are_accepted(dtype, name):
    env = inarow.VecEnv(2, obs_dtype=dtype)
    assert env.obs_dtype == name
    assert env.reset()[0].dtype == np.dtype(name)
    assert Board().observation(dtype).dtype == np.dtype(name)


def test_simulate_without_a_seed_draws_a_fresh_one():
    # Issue 11: seed=None meant seed 0, so "fresh" runs silently repeated.
    runs = [inarow.simulate(2000, threads=1) for _ in range(3)]
    assert len({(tuple(r.wins), tuple(r.lengths)) for r in runs}) > 1
    again = [inarow.simulate(2000, seed=7, threads=1) for _ in range(2)]
    assert again[0].lengths == again[1].lengths and again[0].wins == again[1].wins


def test_messages_speak_python_not_rust():
    messages = []
    for call in (
        lambda: inarow.Solver().solve(
            Board(rules=inarow.Rules(width=12, height=11, gravity=False))
        ),
        lambda: inarow.Solver().solve(Board(rules=inarow.Rules(players=3))),
        lambda: Board(rules=inarow.Rules(gravity=1)),
        lambda: inarow.VecEnv(2, rules=inarow.Rules(gravity=False), obs_dtype="int8"),
    ):
        with pytest.raises((ValueError, TypeError)) as info:
            call()
        messages.append(str(info.value))
    for message in messages:
        for rust in ("=true", "=false", "Some(", "None)", "Err(", "Ok("):
            assert rust not in message, message
    assert "gravity=False" in messages[0]


# -- copies and pickles keep the class (issue 11, defect 11) ----------------------------------------


class TaggedBoard(Board):
    """A subclass with instance attributes."""

    def __init__(self, *args, **kwargs):
        self.tag = "t"
        self.history = []


def tagged():
    board = TaggedBoard(inarow.Rules(5, 4, 3))
    board.tag = "mine"
    for action in (1, 2, 1):
        board.move(action)
    board.history.append("note")
    board.me = board  # a cycle through the instance attributes
    return board


@pytest.mark.parametrize(
    "how",
    ["copy.copy", "copy.deepcopy", "pickle", "method copy"],
)
def test_copies_keep_the_subclass_and_its_attributes(how):
    import copy
    import pickle

    board = tagged()
    clone = {
        "copy.copy": copy.copy,
        "copy.deepcopy": copy.deepcopy,
        "pickle": lambda b: pickle.loads(pickle.dumps(b)),
        "method copy": lambda b: b.copy(),
    }[how](board)
    assert type(clone) is TaggedBoard
    assert clone == board and clone.moves == board.moves and clone.width == 5
    assert clone.tag == "mine" and clone.history == ["note"]
    if how in ("copy.copy", "method copy"):
        assert clone.history is board.history and clone.me is board  # shallow
    else:
        assert clone.history is not board.history and clone.me is clone  # deep, cycle kept
    clone.move(0)
    assert board.moves == [1, 2, 1], "the copy shares state with the original"


def test_plain_boards_pickle_as_before():
    import pickle

    board = Board.from_moves([3, 3, 4])
    reduced = board.__reduce__()
    assert reduced[0] == Board.from_bytes and reduced[1] == (board.to_bytes(),)
    assert pickle.loads(pickle.dumps(board)) == board


def test_setstate_refuses_bad_bytes_and_leaves_the_board():
    board = TaggedBoard()
    board.move(3)
    with pytest.raises(InvalidPositionError):
        board.__setstate__((b"junk", None))
    assert board.moves == [3]
