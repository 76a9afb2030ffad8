"""Hypothesis fuzzing of the Python API with hostile inputs.

Arbitrary Python objects as actions, rules arguments, bytes, arrays (any dtype, shape,
values, strides) go through `Board`, `Board.from_bytes`, `Board.from_numpy`,
`inarow.winners` and `VecEnv.step`. Asserted: only the documented exception types
are raised (ValueError and its subclasses such as `IllegalMoveError`,
`InvalidRulesError`, `InvalidPositionError`; TypeError; IndexError; MemoryError for
absurd sizes), never anything else, and a refused call leaves the state unchanged.

Example counts follow the hypothesis profile (HYPOTHESIS_PROFILE=ci|dev|long, see
conftest.py). `fuzz/python_fuzz.py` does the same from raw bytes under atheris.
"""

import numpy as np
import pytest
import strategies
from api_oracle import BadIndex, attempt, board_state, env_state, strided_view
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import rule_kwargs

import inarow
from inarow import Board, VecEnv

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]

numpy_scalars = st.one_of(
    st.builds(
        lambda t, v: t(v % (np.iinfo(t).max + 1)) if np.iinfo(t).min == 0 else t(v),
        st.sampled_from(INT_DTYPES),
        st.integers(-128, 127),
    ),
    st.floats(allow_nan=True).map(np.float64),
    st.floats(width=32).map(np.float32),
    st.booleans().map(np.bool_),
    st.complex_numbers(allow_nan=False, allow_infinity=False).map(np.complex128),
)

hostile = st.deferred(
    lambda: st.one_of(
        st.integers(),
        st.integers(-3, 70),
        st.just(2**63),
        st.just(-(2**63) - 1),
        st.just(2**64),
        st.floats(allow_nan=True),
        st.none(),
        st.text(max_size=5),
        st.binary(max_size=5),
        st.booleans(),
        numpy_scalars,
        st.lists(st.integers(-2, 9), max_size=3),
        st.tuples(st.integers(0, 9)),
        st.integers(-2, 9).map(np.array),
        st.builds(
            BadIndex,
            st.one_of(
                st.integers(),
                st.just(ValueError("bad")),
                st.just(OverflowError("big")),
                st.just(TypeError("no")),
                st.just(IndexError("idx")),
                st.none(),
                st.just(1.5),
            ),
        ),
    )
)


def small_rules():
    return rule_kwargs(max_width=6, max_height=6)


def played_boards():
    return strategies.played_boards(max_width=6, max_height=6)


# -- Board: moves, legality, undo --------------------------------------------------------


@given(played_boards(), st.lists(hostile, min_size=1, max_size=8))
def test_board_move_with_hostile_actions(board, actions):
    for action in actions:
        legal_before = board.legal_moves()
        ok, won = attempt(lambda a=action: board.move(a), lambda: board_state(board))
        if ok:
            assert int(action) in legal_before
            assert board.moves[-1] == int(action)
            assert won == (board.winner is not None)
        attempt(lambda a=action: board.is_legal(a))


@given(played_boards(), hostile, hostile)
def test_board_queries_with_hostile_arguments(board, a, b):
    state = lambda: board_state(board)  # noqa: E731
    attempt(lambda: board.owner(a, b), state)
    attempt(lambda: board.observation(a), state)
    ok, legal = attempt(lambda: board.is_legal(a), state)
    if ok and legal:
        assert int(a) in board.legal_moves()


@given(played_boards())
def test_undo_everything_and_refuse_past_the_start(board):
    n = len(board.moves)
    for _ in range(n):
        board.undo()
    assert board.moves == []
    assert (
        board.zobrist
        == Board(
            inarow.Rules(board.width, board.height, board.k, board.players, board.gravity)
        ).zobrist
    )
    attempt(board.undo, lambda: board_state(board))


# -- rules arguments ---------------------------------------------------------------------


@given(hostile, hostile, hostile, hostile, hostile)
def test_rules_arguments(width, height, k, players, gravity):
    ok, board = attempt(lambda: Board(inarow.Rules(width, height, k, players, gravity)))
    if ok:
        assert 1 <= board.width <= inarow.MAX_SIDE and 1 <= board.height <= inarow.MAX_SIDE
        assert 1 <= board.k <= max(board.width, board.height)
        assert 2 <= board.players <= inarow.MAX_PLAYERS


num_envs_values = st.one_of(
    st.integers(-3, 64),
    st.sampled_from([2**70, -(2**70), inarow.MAX_ENVS + 1, 2**63]),
    st.builds(BadIndex, st.sampled_from([5, -1, 2**70, None, ValueError("v")])),
    st.floats(),
    st.none(),
    st.text(max_size=3),
    numpy_scalars.filter(lambda x: not isinstance(x, np.integer) or -3 <= int(x) <= 64),
)


@given(num_envs_values, hostile, hostile, hostile)
def test_rules_arguments_of_vec_env_and_friends(num_envs, width, k, players):
    attempt(
        lambda: VecEnv(
            num_envs, rules=inarow.Rules(width=width, height=3, k=k, players=players), threads=1
        )
    )
    attempt(lambda: Board.gomoku(width))
    attempt(lambda: Board.from_moves([0, 1], rules=inarow.Rules(width=width, k=k, players=players)))


# -- bytes -------------------------------------------------------------------------------


@given(st.one_of(st.binary(max_size=200), hostile))
def test_from_bytes_with_arbitrary_bytes(data):
    ok, board = attempt(lambda: Board.from_bytes(data))
    if ok:
        again = Board.from_bytes(board.to_bytes())
        assert board_state(again) == board_state(board)


@given(played_boards(), st.data())
def test_from_bytes_of_mutated_encodings(board, data):
    raw = bytearray(board.to_bytes())
    assert board_state(Board.from_bytes(raw)) == board_state(board)
    for _ in range(data.draw(st.integers(1, 4))):
        how = data.draw(st.integers(0, 2))
        if how == 0 and raw:
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
        elif how == 1:
            del raw[data.draw(st.integers(0, len(raw))) :]
        else:
            raw.append(data.draw(st.integers(0, 255)))
    for form in (bytes(raw), raw, memoryview(bytes(raw))):
        ok, back = attempt(lambda f=form: Board.from_bytes(f))
        if ok:
            assert Board.from_bytes(back.to_bytes()).to_bytes() == back.to_bytes()


# -- arrays ------------------------------------------------------------------------------

array_dtypes = st.one_of(
    hnp.integer_dtypes(endianness="="),
    hnp.unsigned_integer_dtypes(endianness="="),
    hnp.integer_dtypes(endianness=">"),
    hnp.floating_dtypes(),
    hnp.boolean_dtypes(),
    st.just(np.dtype(object)),
    st.just(np.dtype("U3")),
    hnp.complex_number_dtypes(),
)


@st.composite
def hostile_arrays(draw, max_dims=4, max_side=6, small_values=True):
    dtype = draw(array_dtypes)
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=max_dims, min_side=0, max_side=max_side))
    if dtype == np.dtype(object):
        arr = np.empty(shape, dtype=object)
        flat = arr.reshape(-1)
        for i in range(flat.size):
            flat[i] = draw(hostile)
    else:
        elements = None
        if small_values and dtype.kind in "iu":
            lo = max(int(np.iinfo(dtype).min), -2)
            elements = st.integers(lo, min(int(np.iinfo(dtype).max), 5))
        arr = draw(hnp.arrays(dtype, shape, elements=elements))
    # Non-contiguous views: reversed, strided, transposed.
    return strided_view(arr, draw(st.integers(0, 3)))


@given(hostile_arrays(max_dims=3), hostile, hostile, st.booleans())
def test_from_numpy_with_arbitrary_arrays(arr, k, players, gravity):
    def load():
        if arr.ndim != 2:
            return Board.from_numpy(arr)
        height, width = arr.shape
        return Board.from_numpy(arr, inarow.Rules(width, height, k, players, gravity))

    ok, board = attempt(load)
    if ok:
        assert board.to_numpy().shape == arr.shape
        assert (board.to_numpy() == arr).all()


@given(hostile_arrays(max_dims=5), hostile)
def test_winners_with_arbitrary_arrays(arr, k):
    ok, result = attempt(lambda: inarow.winners(arr, k=k))
    if ok:
        assert result.shape == arr.shape[:-2]
        assert ((result >= -1) & (result <= max(int(arr.max(initial=0)), 0))).all()


@given(hostile)
def test_winners_with_hostile_objects(obj):
    attempt(lambda: inarow.winners(obj))


# -- VecEnv.step -------------------------------------------------------------------------


@st.composite
def vec_envs(draw):
    rules = draw(small_rules())
    n = draw(st.integers(1, 6))
    autoreset = draw(st.sampled_from(["next_step", "same_step", "disabled"]))
    obs_dtype = draw(st.sampled_from(["uint8", "bool", "float32"]))
    env = VecEnv(
        n,
        seed=draw(st.integers(0, 2**32)),
        autoreset=autoreset,
        obs_dtype=obs_dtype,
        threads=1,
        rules=inarow.Rules(**rules),
    )
    env.reset()
    for _ in range(draw(st.integers(0, 6))):
        if env.autoreset == "disabled" and any(env.board(i).is_over for i in range(n)):
            break
        env.step(env.random_actions())
    return env


@given(vec_envs(), st.data())
def test_vec_env_step_with_arbitrary_actions(env, data):
    n = env.num_envs
    for _ in range(3):
        actions = data.draw(
            st.one_of(
                hostile_arrays(max_dims=3, max_side=n + 1),
                hnp.arrays(np.int64, n, elements=st.integers(-2, env.num_actions + 1)),
                st.lists(hostile, min_size=n, max_size=n),
                hostile,
                st.just(env.random_actions()),
            )
        )
        before = env_state(env)
        ok, out = attempt(lambda a=actions: env.step(a), lambda: env_state(env))
        if ok:
            obs, rewards, terminated, truncated, info = out
            assert obs.shape[0] == n and rewards.shape == (n,) and terminated.shape == (n,)
            # Every env moved by exactly its action, or was reset, or (disabled) is unchanged.
            acts = np.asarray(actions).reshape(-1)
            for i, (_cells, moves, _, _) in enumerate(before):
                after = env.board(i).moves
                assert after in (moves + [int(acts[i])], []), (i, moves, after)


def test_the_helper_detects_a_refusal_that_changes_state():
    board = Board()
    ok, _ = attempt(lambda: board.move(99), lambda: board_state(board))
    assert not ok

    def move_then_fail():
        board.move(0)
        raise ValueError("refused after moving")

    with pytest.raises(AssertionError, match="changed the state"):
        attempt(move_then_fail, lambda: board_state(board))
