"""Every array argument goes through one intake (src/python/intake.rs); these
properties hold it to a plain-numpy oracle across every public entry point that
takes arrays: `inarow.winners`, `Board.from_numpy`, `Board.from_moves`,
`VecEnv.step`, `VecEnv.reset(options={"reset_mask": ...})` and the evaluator-output
reader (`inarow._native._intake_floats`).

Each array is drawn as logical values (what numpy shows) and then stored in every
way numpy allows: C or Fortran order, permuted axes, strided, reversed (negative
strides), unaligned, in foreign byte order, read-only, in every integer dtype, or as
nested lists (of Python ints or numpy scalars). Whatever the storage, the answer
must be the one for the plain C-ordered int64 values: the storage never changes a
result. Bools are never integers (bool arrays, `np.bool_`, lists mixing bools and
ints), and values beyond int64 are quoted exactly in the message, with their index.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import inarow
from inarow import Board, IllegalMoveError, InvalidPositionError, VecEnv

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
LAYOUTS = ["C", "F", "permuted", "strided", "reversed", "unaligned", "list", "scalars"]


# -- storage ------------------------------------------------------------------------------------


def store(values, dtype, layout, swapped, readonly, draw=None):
    """`values` (logical content) stored as `layout`; equal to `values` elementwise."""
    values = np.asarray(values)
    dtype = np.dtype(dtype)
    if swapped:
        dtype = dtype.newbyteorder()
    a = values.astype(dtype)
    axes = tuple(range(a.ndim))
    if layout == "C":
        out = np.ascontiguousarray(a)
    elif layout == "F":
        out = np.asfortranarray(a)
    elif layout == "permuted":
        order = axes[::-1] if draw is None else tuple(draw(st.permutations(axes)))
        inverse = tuple(np.argsort(order))
        out = np.ascontiguousarray(a.transpose(order)).transpose(inverse)
    elif layout == "strided":
        big = np.zeros(tuple(2 * s + 1 for s in a.shape), dtype=dtype)
        view = big[tuple(slice(1, None, 2) for _ in axes)]
        view[...] = a
        out = view
    elif layout == "reversed":
        flip = tuple(slice(None, None, -1) for _ in axes)
        out = np.ascontiguousarray(a[flip])[flip]
    elif layout == "unaligned":
        raw = np.zeros(a.nbytes + 1, dtype=np.uint8)
        out = raw[1:].view(dtype).reshape(a.shape)
        out[...] = a
    elif layout == "list":
        return a.tolist()
    elif layout == "scalars":  # nested lists of numpy scalars of this dtype
        flat = [a.dtype.type(v) for v in a.ravel().tolist()]
        return np.array(flat, dtype=object).reshape(a.shape).tolist() if a.ndim else flat[0]
    else:
        raise AssertionError(layout)
    if readonly:
        out.flags.writeable = False
    assert np.array_equal(out, values), "the storage changed the values"
    return out


@st.composite
def storages(draw):
    """How to store an array: (dtype, layout, swapped byte order, read-only)."""
    return (
        draw(st.sampled_from(INT_DTYPES)),
        draw(st.sampled_from(LAYOUTS)),
        draw(st.booleans()),
        draw(st.booleans()),
    )


def stored(draw, values, storage):
    dtype, layout, swapped, readonly = storage
    return store(values, dtype, layout, swapped, readonly, draw)


def snapshot(x):
    return np.array(x, copy=True) if isinstance(x, np.ndarray) else x


def outcome(call):
    """('ok', result) or (exception type, message)."""
    try:
        return ("ok", call())
    except (ValueError, TypeError) as e:
        return (type(e), str(e))


# -- the oracle: a plain numpy win detector ------------------------------------------------------


def oracle_winner(grid, k):
    h, w = grid.shape
    found = set()
    for r in range(h):
        for c in range(w):
            p = int(grid[r, c])
            if p == 0:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                rr, cc = r + dr * (k - 1), c + dc * (k - 1)
                if not (0 <= rr < h and 0 <= cc < w):
                    continue
                if all(int(grid[r + dr * i, c + dc * i]) == p for i in range(k)):
                    found.add(p)
    if not found:
        return 0
    return found.pop() if len(found) == 1 else -1


@st.composite
def grids(draw, max_value=3):
    n = draw(st.integers(0, 4))
    h = draw(st.integers(1, 6))
    w = draw(st.integers(1, 6))
    k = draw(st.integers(1, max(h, w)))
    values = draw(
        st.lists(st.integers(0, max_value), min_size=n * h * w, max_size=n * h * w).map(
            lambda v: np.array(v, dtype=np.int64).reshape(n, h, w)
        )
    )
    return values, k


# -- winners --------------------------------------------------------------------------------------


@given(grids(), storages(), st.data())
def test_winners_match_the_oracle_in_any_storage(grid_k, storage, data):
    values, k = grid_k
    # An empty list has no inner shape: (0, h, w) is only expressible as an array.
    assume(values.size > 0 or storage[1] not in ("list", "scalars"))
    arg = stored(data.draw, values, storage)
    before = snapshot(arg)
    got = inarow.winners(arg, k=k)
    assert got.tolist() == [oracle_winner(g, k) for g in values]
    assert got.dtype == np.int64
    if isinstance(arg, np.ndarray):
        assert np.array_equal(arg, before), "winners changed its argument"


def test_winners_of_a_fortran_array_reads_rows_as_rows():
    # Issue 11, defect 1: F order was read column-major.
    board = Board.from_moves([0, 1, 0, 1, 0, 1, 0]).to_numpy()
    boards = np.stack([board, np.zeros_like(board)])
    assert inarow.winners(np.asfortranarray(boards)).tolist() == [1, 0]
    assert inarow.winners(boards.transpose(0, 2, 1).copy().transpose(0, 2, 1)).tolist() == [1, 0]


@given(st.sampled_from([np.int64, np.uint64]), st.sampled_from(LAYOUTS), st.data())
def test_winners_take_any_int64_player_number(dtype, layout, data):
    top = np.iinfo(np.int64).max
    values = np.zeros((2, 4, 4), dtype=np.int64)
    values[0, 1, :] = top
    values[1, :, 2] = 7
    arg = store(values, dtype, layout, data.draw(st.booleans()), False, data.draw)
    assert inarow.winners(arg).tolist() == [top, 7]


@given(grids(), st.sampled_from(LAYOUTS), st.data())
def test_winners_quote_the_first_bad_cell_exactly(grid_k, layout, data):
    values, k = grid_k
    assume(values.size > 0)
    flat = data.draw(st.integers(0, values.size - 1))
    index = np.unravel_index(flat, values.shape)
    if layout in ("list", "scalars") and data.draw(st.booleans()):
        bad, dtype = data.draw(st.sampled_from([2**63, 2**64, 2**70, -(2**70), -1])), object
    else:
        dtype = data.draw(st.sampled_from([np.uint64, np.int64, np.int8]))
        bad = {np.uint64: 2**64 - 1 - data.draw(st.integers(0, 2**63 - 1))}.get(dtype, -1)
        if dtype is np.int64:
            bad = -(2**63)
    grid = values.astype(object)
    grid[index] = bad
    first = next(i for i, v in enumerate(grid.ravel()) if v < 0 or v >= 2**63)
    at = ", ".join(str(int(i)) for i in np.unravel_index(first, values.shape))
    arg = grid.tolist() if dtype is object else store(grid, dtype, layout, False, False, data.draw)
    with pytest.raises(InvalidPositionError) as info:
        inarow.winners(arg, k=k)
    assert f"boards[{at}] holds {grid.ravel()[first]}:" in str(info.value)


# -- from_numpy -----------------------------------------------------------------------------------


@st.composite
def positions(draw):
    """A reachable position of small random rules and its grid."""
    width, height = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    rules = inarow.Rules(
        width=width,
        height=height,
        k=draw(st.integers(1, max(width, height))),
        players=draw(st.integers(2, 4)),
        gravity=draw(st.booleans()),
    )
    board = Board(rules)
    for _ in range(draw(st.integers(0, width * height))):
        if board.is_over:
            break
        board.move(draw(st.sampled_from(board.legal_moves())))
    return board, rules


@given(positions(), storages(), st.data())
def test_from_numpy_reads_any_storage_as_the_grid_it_shows(position, storage, data):
    board, rules = position
    grid = board.to_numpy().astype(np.int64)
    arg = stored(data.draw, grid, storage)
    before = snapshot(arg)
    loaded = Board.from_numpy(arg, rules)
    assert np.array_equal(loaded.to_numpy(), grid)
    assert loaded == Board.from_numpy(grid, rules) == board
    if isinstance(arg, np.ndarray):
        assert np.array_equal(arg, before), "from_numpy changed its argument"


@given(positions(), st.sampled_from(LAYOUTS), st.data())
def test_from_numpy_quotes_a_bad_owner_exactly(position, layout, data):
    board, rules = position
    grid = board.to_numpy().astype(object)
    row = data.draw(st.integers(0, grid.shape[0] - 1))
    col = data.draw(st.integers(0, grid.shape[1] - 1))
    dtype = data.draw(st.sampled_from([np.uint64, np.int64, np.int16, object]))
    bad = {
        np.uint64: data.draw(st.integers(2**63, 2**64 - 1)),
        np.int64: data.draw(st.sampled_from([-1, -(2**63), 2**62])),
        np.int16: data.draw(st.sampled_from([-1, 17, 2**15 - 1])),
        object: data.draw(st.sampled_from([2**64, -(2**70), 10**30])),
    }[dtype]
    grid[row, col] = bad
    arg = grid.tolist() if dtype is object else store(grid, dtype, layout, False, True, data.draw)
    with pytest.raises(InvalidPositionError) as info:
        Board.from_numpy(arg, rules)
    message = str(info.value)
    # The first bad cell in row-major order is named, with its exact value.
    first = next(
        (r, c)
        for r in range(grid.shape[0])
        for c in range(grid.shape[1])
        if not 0 <= grid[r, c] <= rules.players
    )
    assert f"cell (row {first[0]}, col {first[1]}) holds {grid[first]}:" in message
    assert f"1..={rules.players}" in message


# -- from_moves -----------------------------------------------------------------------------------


@given(positions(), st.sampled_from(INT_DTYPES), st.sampled_from(LAYOUTS), st.data())
def test_from_moves_takes_moves_in_any_storage(position, dtype, layout, data):
    board, rules = position
    moves = np.array(board.moves, dtype=np.int64)
    assume(moves.size == 0 or moves.max() <= np.iinfo(dtype).max)
    arg = store(moves, dtype, layout, data.draw(st.booleans()), data.draw(st.booleans()))
    assert Board.from_moves(arg, rules).moves == board.moves


# -- VecEnv.step ----------------------------------------------------------------------------------


@st.composite
def envs(draw):
    width, height = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    rules = inarow.Rules(
        width=width,
        height=height,
        k=draw(st.integers(1, max(width, height))),
        players=draw(st.integers(2, 3)),
        gravity=draw(st.booleans()),
    )
    return dict(num_envs=draw(st.integers(1, 5)), rules=rules, seed=draw(st.integers(0, 2**63 - 1)))


def env_state(env):
    return [env.board(i).to_bytes() for i in range(env.num_envs)]


@given(envs(), st.lists(storages(), min_size=1, max_size=4), st.data())
def test_step_reads_actions_in_any_storage_as_the_oracle_does(kwargs, storage_list, data):
    plain, env = VecEnv(**kwargs), VecEnv(**kwargs)
    for storage in storage_list:
        actions = plain.random_actions().copy()
        dtype = storage[0]
        assume(actions.max() <= np.iinfo(dtype).max)
        before = [plain.board(i) for i in range(plain.num_envs)]
        arg = stored(data.draw, actions, storage)
        snap = snapshot(arg)
        got = env.step(arg)
        want = plain.step(actions)
        for a, b in zip(got[:4], want[:4]):
            assert np.array_equal(a, b)
        assert env_state(env) == env_state(plain)
        for i, b in enumerate(before):
            if not b.is_over:  # an env that was over resets instead of moving
                assert plain.board(i).moves == b.moves + [int(actions[i])]
        if isinstance(arg, np.ndarray):
            assert np.array_equal(arg, snap), "step changed its argument"


def test_step_refuses_a_list_mixing_bools_and_ints():
    # Issue 11, defect 7: [True, 0] became an int64 array and played column 1.
    env = VecEnv(2, seed=0)
    with pytest.raises(TypeError, match=r"actions\[0\] must be an integer, not bool"):
        env.step([True, 0])
    assert [env.board(i).moves for i in range(2)] == [[], []]


BOOL_FORMS = {
    "bool array": lambda v, i, d: store(
        v.astype(bool), np.bool_, d(st.sampled_from(LAYOUTS[:6])), False, d(st.booleans()), d
    ),
    "list with True": lambda v, i, d: _put(v.tolist(), i, True),
    "list with False": lambda v, i, d: _put(v.tolist(), i, False),
    "list with np.bool_": lambda v, i, d: _put(v.tolist(), i, np.True_),
    "list with 0-d bool array": lambda v, i, d: _put(v.tolist(), i, np.array(False)),
}


def _put(nested, flat_index, value):
    a = np.array(nested, dtype=object)
    a.ravel()[flat_index] = value
    return a.tolist()


@given(envs(), st.sampled_from(sorted(BOOL_FORMS)), st.data())
def test_bools_are_never_actions(kwargs, form, data):
    env = VecEnv(**kwargs)
    env.step(env.random_actions())
    actions = env.random_actions().copy()
    i = data.draw(st.integers(0, actions.size - 1))
    arg = BOOL_FORMS[form](actions, i, data.draw)
    before = env_state(env)
    with pytest.raises(TypeError, match="bool"):
        env.step(arg)
    assert env_state(env) == before


@given(st.sampled_from(sorted(BOOL_FORMS)), positions(), st.data())
def test_bools_are_never_cells(form, position, data):
    board, rules = position
    grid = board.to_numpy().astype(np.int64)
    i = data.draw(st.integers(0, grid.size - 1))
    with pytest.raises(TypeError, match="bool"):
        Board.from_numpy(BOOL_FORMS[form](grid, i, data.draw), rules)
    with pytest.raises(TypeError, match="bool"):
        inarow.winners(BOOL_FORMS[form](grid[None], i, data.draw), k=rules.k)


@given(envs(), st.data())
def test_step_quotes_actions_beyond_int64_exactly(kwargs, data):
    env = VecEnv(**kwargs)
    actions = env.random_actions().copy()
    env_index = data.draw(st.integers(0, actions.size - 1))
    last = env.num_actions - 1
    if data.draw(st.booleans()):
        bad = data.draw(st.integers(2**63, 2**64 - 1))
        arg = actions.astype(np.uint64)
        arg[env_index] = bad
        arg = store(
            arg, np.uint64, data.draw(st.sampled_from(LAYOUTS)), data.draw(st.booleans()), False
        )
    else:
        bad = data.draw(st.sampled_from([2**63, 2**64, 2**70, -(2**63) - 1, -(10**30)]))
        arg = _put(actions.tolist(), env_index, bad)
    before = env_state(env)
    with pytest.raises(IllegalMoveError) as info:
        env.step(arg)
    assert f"env {env_index}: action {bad} is out of range: allowed 0..={last}" in str(info.value)
    assert env_state(env) == before


# -- refusals shared by every integer entry point --------------------------------------------------

INT_ENTRY_POINTS = {
    "winners": (lambda a: inarow.winners(a), (2, 3, 3), "boards"),
    "from_numpy": (lambda a: Board.from_numpy(a, inarow.Rules(3, 3, 3)), (3, 3), "arr"),
    "step": (lambda a: VecEnv(3, seed=0).step(a), (3,), "actions"),
}

NON_INTEGER_DTYPES = [
    "float16",
    "float32",
    "float64",
    "complex64",
    "object",
    "U1",
    "S1",
    "datetime64[s]",
    "V4",
]


@given(
    st.sampled_from(sorted(INT_ENTRY_POINTS)),
    st.sampled_from(NON_INTEGER_DTYPES),
    st.sampled_from(LAYOUTS[:6]),
)
def test_non_integer_dtypes_are_refused_naming_the_argument(entry, dtype, layout):
    call, shape, name = INT_ENTRY_POINTS[entry]
    arg = np.zeros(shape, dtype=np.int64)
    if dtype in ("U1", "S1"):
        arg = np.full(shape, "0", dtype=dtype)
    elif dtype == "V4":
        arg = np.zeros(shape, dtype=dtype)
    else:
        layout = "C" if dtype == "object" and layout == "unaligned" else layout
        arg = store(arg.astype(dtype), dtype, layout, False, False)
    with pytest.raises(TypeError) as info:
        call(arg)
    assert name in str(info.value) and "dtype" in str(info.value)


@given(
    st.sampled_from(sorted(INT_ENTRY_POINTS)),
    st.sampled_from([1.0, 1.5, None, "1", b"1", 1j, np.float64(2.0), [1]]),
)
def test_non_integer_list_items_are_refused_naming_the_item(entry, item):
    call, shape, name = INT_ENTRY_POINTS[entry]
    nested = _put(np.zeros(shape, dtype=np.int64).tolist(), 1, item)
    with pytest.raises((TypeError, ValueError)) as info:
        call(nested)
    assert name in str(info.value)


@given(st.sampled_from(sorted(INT_ENTRY_POINTS)), st.lists(st.integers(0, 4), max_size=4))
def test_wrong_shapes_are_refused_naming_the_argument(entry, shape):
    call, want, name = INT_ENTRY_POINTS[entry]
    shape = tuple(shape)
    assume(len(shape) != len(want) or (entry == "step" and shape != want))
    with pytest.raises(ValueError) as info:
        call(np.zeros(shape, dtype=np.int64))
    assert name in str(info.value) and "shape" in str(info.value)


def test_ragged_lists_are_refused_naming_the_argument():
    with pytest.raises(ValueError, match="boards is ragged"):
        inarow.winners([[[0, 0], [0]]])
    with pytest.raises(ValueError, match="arr is ragged"):
        Board.from_numpy([[0, 0], [0]], inarow.Rules(2, 2, 1))


def test_masked_arrays_are_refused():
    grid = np.ma.masked_array(np.zeros((3, 3), dtype=np.int64), mask=np.eye(3, dtype=bool))
    with pytest.raises(TypeError, match="masked"):
        Board.from_numpy(grid, inarow.Rules(3, 3, 3))


def test_zero_strides_read_as_the_broadcast_values():
    board = Board.from_moves([0, 1, 0, 1, 0, 1, 0]).to_numpy()
    boards = np.broadcast_to(board, (5, 6, 7))
    assert inarow.winners(boards).tolist() == [1] * 5
    env = VecEnv(4, seed=0)
    env.step(np.broadcast_to(np.int16(3), (4,)))
    assert [env.board(i).moves for i in range(4)] == [[3]] * 4


# -- reset_mask -----------------------------------------------------------------------------------


@given(envs(), st.data())
def test_reset_mask_in_any_storage_resets_exactly_those_envs(kwargs, data):
    env = VecEnv(**kwargs)
    n = env.num_envs
    env.step(env.random_actions())
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    layout = data.draw(st.sampled_from(LAYOUTS))
    arg = store(mask, np.bool_, layout, False, data.draw(st.booleans()), data.draw)
    before = [env.board(i) for i in range(n)]
    env.reset(options={"reset_mask": arg})
    for i in range(n):
        if mask[i]:
            assert env.board(i).moves == [] and env.board(i).num_stones == 0
        else:
            assert env.board(i).moves == before[i].moves


def test_reset_mask_bytes_other_than_one_are_true():
    env = VecEnv(3, seed=0)
    env.step(np.array([1, 2, 3]))
    mask = np.array([0, 2, 0], dtype=np.uint8).view(np.bool_)
    env.reset(options={"reset_mask": mask})
    assert [env.board(i).moves for i in range(3)] == [[1], [], [3]]


@given(
    st.sampled_from([np.int64, np.uint8, np.float32, object]), st.sampled_from(["array", "list"])
)
def test_reset_mask_refuses_non_bools(dtype, form):
    env = VecEnv(3, seed=0)
    env.step(np.array([1, 2, 3]))
    before = env_state(env)
    mask = np.array([1, 0, 1], dtype=dtype)
    arg = mask if form == "array" else [True, 0, True] if dtype is not float else [True, 0.0]
    with pytest.raises(TypeError, match="reset_mask"):
        env.reset(options={"reset_mask": arg})
    assert env_state(env) == before


# -- floats (evaluator outputs) -------------------------------------------------------------------

FLOAT_DTYPES = [np.float16, np.float32, np.float64, np.longdouble] + INT_DTYPES


@given(
    st.lists(st.integers(1, 4), min_size=1, max_size=3),
    st.sampled_from(FLOAT_DTYPES),
    st.sampled_from(LAYOUTS),
    st.booleans(),
    st.booleans(),
    st.data(),
)
def test_floats_read_any_storage_as_float64(shape, dtype, layout, swapped, readonly, data):
    size = int(np.prod(shape))
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        values = data.draw(st.lists(st.integers(info.min, info.max), min_size=size, max_size=size))
    else:
        values = data.draw(st.lists(st.floats(-1e4, 1e4, width=16), min_size=size, max_size=size))
    values = np.array(values, dtype=dtype).reshape(shape)
    if layout == "unaligned" and dtype is np.longdouble:
        layout = "C"
    arg = store(values, dtype, layout, swapped, readonly, data.draw)
    got = inarow._native._intake_floats(arg, "values", list(shape))
    assert got.dtype == np.float64 and got.flags.c_contiguous
    assert np.array_equal(got, values.astype(np.float64))


@given(
    st.sampled_from([np.nan, np.inf, -np.inf]),
    st.integers(0, 5),
    st.booleans(),
    st.sampled_from(["array", "list"]),
)
def test_floats_refuse_non_finite_values_naming_the_index(bad, index, allow_neg_inf, form):
    values = np.zeros((2, 3))
    values.ravel()[index] = bad
    arg = values if form == "array" else values.tolist()
    call = lambda: inarow._native._intake_floats(arg, "logits", [2, None], allow_neg_inf)  # noqa: E731
    if allow_neg_inf and bad == -np.inf:
        assert np.array_equal(call(), values)
        return
    with pytest.raises(ValueError) as info:
        call()
    r, c = np.unravel_index(index, (2, 3))
    text = {True: "nan"}.get(bool(np.isnan(bad)), "inf" if bad > 0 else "-inf")
    assert f"logits[{r}, {c}] is {text}: allowed finite numbers" in str(info.value)


@pytest.mark.parametrize(
    ("arg", "error", "fragment"),
    [
        (np.array([True, False]), TypeError, "not bools"),
        ([0.5, True], TypeError, "values[1] must be a number, got a bool"),
        ([0.5, np.True_], TypeError, "values[1] must be a number, got a bool"),
        (np.array([1j, 2]), TypeError, "dtype complex128"),
        (np.array(["1", "2"]), TypeError, "dtype <U1"),
        (["1", 2.0], TypeError, "values[0] must be a number, got str"),
        ([10**400, 1.0], ValueError, "too large for a float"),
        (np.zeros(3), ValueError, "shape (2,)"),
        (np.zeros((2, 1)), ValueError, "1-dimensional"),
    ],
)
def test_floats_refusals(arg, error, fragment):
    with pytest.raises(error) as info:
        inarow._native._intake_floats(arg, "values", [2])
    assert fragment in str(info.value)
