"""What both fuzzers of the Python API (tests/test_fuzz_python.py under hypothesis,
fuzz/python_fuzz.py under atheris) hold every call to.

Only the documented exception types may escape (ValueError and its subclasses,
TypeError, IndexError, MemoryError for absurd sizes), each with a message, and a
refused call leaves the state unchanged.
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
        board.is_over,
        board.zobrist,
    )


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
