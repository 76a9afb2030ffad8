"""What both fuzzers of the Python API (tests/test_fuzz_python.py under hypothesis,
fuzz/python_fuzz.py under atheris) hold every call to.

Only the documented exception types may escape (ValueError and its subclasses,
TypeError, IndexError, MemoryError for absurd sizes), each with a message, and a
refused call leaves the state unchanged. The helpers both use to say what the state
is, and to turn the arrays they generate into non-contiguous views, live here too.
This module imports nothing: the atheris harness loads it before it instruments the
imports of numpy and inarow.
"""

ALLOWED = (ValueError, TypeError, IndexError, MemoryError)


class BadIndex:
    """An object whose `__index__` misbehaves (returns or raises `result`)."""

    def __init__(self, result):
        self.result = result

    def __index__(self):
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result

    def __repr__(self):
        return f"BadIndex({self.result!r})"


def board_state(board):
    """Everything observable about a `Board`."""
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


def env_state(env):
    """What a `VecEnv` step may change: each board's cells, moves, player, winner."""
    return [
        (b.to_numpy().tolist(), b.moves, b.current_player, b.winner)
        for b in (env.board(i) for i in range(env.num_envs))
    ]


def strided_view(arr, kind):
    """`arr` itself (kind 0), or a non-contiguous view of it: reversed (1), strided (2),
    transposed (3). Kinds 1 and 2 leave a 0-dimensional array as it is."""
    if kind == 1 and arr.ndim:
        return arr[::-1]
    if kind == 2 and arr.ndim:
        return arr.repeat(2, axis=0)[::2]
    if kind == 3:
        return arr.T
    return arr


def attempt(call, state=None):
    """Runs `call`; only allowed exceptions, and `state()` unchanged when refused.
    Returns (ok, result)."""
    before = state() if state else None
    try:
        return True, call()
    except ALLOWED as e:
        assert str(e) or isinstance(e, MemoryError), f"{type(e).__name__} without a message"
        if state:
            assert state() == before, f"a refused call changed the state ({e!r})"
        return False, None
