"""Atheris harness for the Python API: hostile actions, rules, bytes and arrays from raw
fuzz bytes (the same properties as tests/test_fuzz_python.py).

Only documented exceptions may escape (ValueError and subclasses, TypeError,
IndexError, MemoryError), and a refused call must leave the state unchanged; anything
else raises AssertionError / the stray exception, which atheris reports as a crash.

Optional dependency: `pip install atheris`. Run (one process, e.g. 60 seconds):

    python fuzz/python_fuzz.py -max_total_time=60 -print_final_stats=1

The native extension is not built with coverage instrumentation, so guidance comes
from the Python side (this harness and the `inarow` package); use it for long runs.
"""

import sys
from pathlib import Path

import atheris

# The oracle both fuzzers share (allowed exceptions, state unchanged when refused).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from api_oracle import BadIndex, attempt, board_state, env_state, strided_view  # noqa: E402

with atheris.instrument_imports():
    import numpy as np

    import inarow
    from inarow import Board, VecEnv

INT_DTYPES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", ">i4", ">i8"]
OTHER_DTYPES = ["f4", "f8", "?", "c16", "U2", "O"]


def hostile(fdp):
    """An arbitrary Python object, mostly integer-like."""
    kind = fdp.ConsumeIntInRange(0, 15)
    if kind <= 4:
        return fdp.ConsumeIntInRange(-3, 70)
    if kind == 5:
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 24))  # up to 192-bit ints
    if kind == 6:
        return fdp.ConsumeRegularFloat() if fdp.ConsumeBool() else fdp.ConsumeFloat()
    if kind == 7:
        return None
    if kind == 8:
        return fdp.ConsumeUnicode(3)
    if kind == 9:
        return fdp.ConsumeBool()
    if kind == 10:
        t = np.dtype(INT_DTYPES[fdp.ConsumeIntInRange(0, 7)]).type
        info = np.iinfo(t)
        return t(fdp.ConsumeIntInRange(int(info.min), int(info.max)))
    if kind == 11:
        return np.float32(fdp.ConsumeFloat())
    if kind == 12:
        return [fdp.ConsumeIntInRange(-2, 9) for _ in range(fdp.ConsumeIntInRange(0, 3))]
    if kind == 13:
        return np.array(fdp.ConsumeIntInRange(-2, 9))
    if kind == 14:
        return BadIndex(
            [ValueError("v"), OverflowError("o"), TypeError("t"), None, 1.5, 2**80, -1][
                fdp.ConsumeIntInRange(0, 6)
            ]
        )
    return fdp.ConsumeBytes(3)


def array(fdp, max_dims=4, max_side=6):
    """An arbitrary array: dtype, shape (possibly empty), values, strides."""
    ndim = fdp.ConsumeIntInRange(0, max_dims)
    shape = tuple(fdp.ConsumeIntInRange(0, max_side) for _ in range(ndim))
    size = int(np.prod(shape)) if shape else 1
    if fdp.ConsumeIntInRange(0, 3):
        dtype = np.dtype(INT_DTYPES[fdp.ConsumeIntInRange(0, len(INT_DTYPES) - 1)])
        values = [fdp.ConsumeIntInRange(-2, 5) for _ in range(size)]
        if dtype.kind == "u":
            values = [v % 256 for v in values]
        arr = np.array(values, dtype=dtype).reshape(shape)
    else:
        dtype = np.dtype(OTHER_DTYPES[fdp.ConsumeIntInRange(0, len(OTHER_DTYPES) - 1)])
        arr = np.empty(shape, dtype=dtype)
        flat = arr.reshape(-1)
        for i in range(size):
            try:
                flat[i] = hostile(fdp) if dtype.kind == "O" else fdp.ConsumeIntInRange(-2, 5)
            except (TypeError, ValueError, OverflowError):
                pass
    return strided_view(arr, fdp.ConsumeIntInRange(0, 3))


def small_rules(fdp):
    w, h = fdp.ConsumeIntInRange(1, 6), fdp.ConsumeIntInRange(1, 6)
    return dict(
        width=w,
        height=h,
        k=fdp.ConsumeIntInRange(1, max(w, h)),
        players=fdp.ConsumeIntInRange(2, 4),
        gravity=fdp.ConsumeBool(),
    )


def fuzz_board(fdp):
    b = Board(rules=inarow.Rules(**small_rules(fdp)))
    for _ in range(fdp.ConsumeIntInRange(0, 40)):
        if fdp.ConsumeIntInRange(0, 3) == 0 and b.legal_moves():
            legal = b.legal_moves()
            b.move(legal[fdp.ConsumeIntInRange(0, len(legal) - 1)])
            continue
        a = hostile(fdp)
        legal = b.legal_moves()
        ok, won = attempt(lambda a=a: b.move(a), lambda: board_state(b))
        if ok:
            assert int(a) in legal and b.moves[-1] == int(a)
            assert won == (b.winner is not None)
        attempt(lambda a=a: b.is_legal(a))
        attempt(lambda a=a: b.owner(a, hostile(fdp)), lambda: board_state(b))
        if fdp.ConsumeIntInRange(0, 7) == 0:
            if b.moves:
                b.undo()
            else:
                ok, _ = attempt(b.undo, lambda: board_state(b))
                assert not ok, "undo with no move played"
    back = Board.from_bytes(b.to_bytes())
    assert board_state(back) == board_state(b)


def fuzz_rules(fdp):
    args = [hostile(fdp) for _ in range(5)]
    ok, b = attempt(lambda: Board(inarow.Rules(*args)))
    if ok:
        assert 1 <= b.k <= max(b.width, b.height) and 2 <= b.players <= 16


def fuzz_bytes(fdp):
    if fdp.ConsumeBool():
        data = fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 120))
    else:
        b = Board(rules=inarow.Rules(**small_rules(fdp)))
        for _ in range(fdp.ConsumeIntInRange(0, 30)):
            legal = b.legal_moves()
            if not legal:
                break
            b.move(legal[fdp.ConsumeIntInRange(0, len(legal) - 1)])
        raw = bytearray(b.to_bytes())
        for _ in range(fdp.ConsumeIntInRange(0, 3)):
            if raw:
                raw[fdp.ConsumeIntInRange(0, len(raw) - 1)] = fdp.ConsumeIntInRange(0, 255)
        data = bytes(raw)
    ok, b = attempt(lambda: Board.from_bytes(data))
    if ok:
        assert board_state(Board.from_bytes(b.to_bytes())) == board_state(b)


def fuzz_from_numpy(fdp):
    arr = array(fdp, max_dims=3)
    k, players = hostile(fdp), hostile(fdp)
    gravity = fdp.ConsumeBool()

    def from_numpy():
        if arr.ndim != 2:
            return Board.from_numpy(arr)
        height, width = arr.shape
        return Board.from_numpy(arr, inarow.Rules(width, height, k, players, gravity))

    ok, b = attempt(from_numpy)
    if ok:
        assert b.to_numpy().shape == arr.shape and (b.to_numpy() == arr).all()


def fuzz_winners(fdp):
    arr = array(fdp, max_dims=5)
    ok, r = attempt(lambda: inarow.winners(arr, k=hostile(fdp)))
    if ok:
        assert r.shape == arr.shape[:-2]


def fuzz_vec_env(fdp):
    rules = small_rules(fdp)
    n = fdp.ConsumeIntInRange(1, 6)
    mode = ["next_step", "same_step", "disabled"][fdp.ConsumeIntInRange(0, 2)]
    env = VecEnv(
        n,
        seed=fdp.ConsumeIntInRange(0, 1000),
        autoreset=mode,
        threads=1,
        rules=inarow.Rules(**rules),
    )
    env.reset()
    for _ in range(fdp.ConsumeIntInRange(1, 12)):
        kind = fdp.ConsumeIntInRange(0, 3)
        if kind == 0:
            actions = env.random_actions()
        elif kind == 1:
            actions = np.array(
                [fdp.ConsumeIntInRange(-2, env.num_actions + 1) for _ in range(n)], dtype=np.int64
            )
        elif kind == 2:
            actions = array(fdp, max_dims=2, max_side=n + 1)
        else:
            actions = [hostile(fdp) for _ in range(n)] if fdp.ConsumeBool() else hostile(fdp)
        before = env_state(env)
        ok, _ = attempt(lambda a=actions: env.step(a), lambda: env_state(env))
        if ok:
            acts = np.asarray(actions).reshape(-1)
            for i, (_, moves, _, _) in enumerate(before):
                assert env.board(i).moves in (moves + [int(acts[i])], [])


TARGETS = [fuzz_board, fuzz_rules, fuzz_bytes, fuzz_from_numpy, fuzz_winners, fuzz_vec_env]


def one_input(data):
    fdp = atheris.FuzzedDataProvider(data)
    TARGETS[fdp.ConsumeIntInRange(0, len(TARGETS) - 1)](fdp)


def main():
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
