"""`inarow.Board` against the plain reference (tests/reference.py) on random rules and
random games: every observable after every move, then undo back to the start."""

import numpy as np
from hypothesis import event, given
from hypothesis import strategies as st
from reference import Reference
from strategies import rule_kwargs

import inarow


def rules():
    return rule_kwargs(max_width=9, max_height=9)


def line_matches(line, candidates):
    """The engine's line is one of the reference's runs, in order along the line
    (either way round)."""
    return any(line in (cells, cells[::-1]) for cells in candidates)


def assert_same(board, ref):
    grid = np.array(ref.to_grid(), dtype=np.int8).reshape(ref.height, ref.width)
    arr = board.to_numpy()
    assert arr.dtype == np.int8
    assert arr.shape == (ref.height, ref.width)
    np.testing.assert_array_equal(arr, grid)

    legal = ref.legal_moves()
    assert board.legal_moves() == legal
    mask = board.legal_mask()
    assert mask.dtype == np.bool_
    assert mask.tolist() == ref.legal_mask()
    for action in range(ref.num_actions):
        assert board.is_legal(action) == (action in legal)

    assert board.winner == ref.winner
    assert board.is_draw == ref.is_draw
    assert board.is_over == ref.is_over
    assert board.current_player == ref.current_player
    assert board.moves == ref.moves
    assert len(board) == len(ref.moves)
    assert board.num_stones == ref.stones()

    obs = board.observation()
    assert obs.dtype == np.uint8
    np.testing.assert_array_equal(obs, np.array(ref.observation(), dtype=np.uint8))

    line = board.winning_line()
    if ref.winner is None:
        assert line is None
    else:
        assert line_matches(line, ref.winning_lines), (line, ref.winning_lines)


def play_random_game(board, ref, data):
    """Plays random legal moves (a drawn index into the legal moves) until the game
    ends or a drawn length is reached, comparing after every move."""
    cells = ref.width * ref.height
    length = data.draw(st.one_of(st.just(cells), st.integers(0, cells)), label="length")
    for _ in range(length):
        legal = ref.legal_moves()
        if not legal:
            break
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="move index")]
        assert board.move(action) == ref.play(action)
        assert board.last_move == action
        assert board.last_cell == ref.cells_played[-1]
        assert_same(board, ref)
    event("won" if ref.winner else "drawn" if ref.is_draw else "unfinished")


@given(rules(), st.data())
def test_random_games_match_the_reference(kwargs, data):
    board = inarow.Board(inarow.Rules(**kwargs))
    ref = Reference(**kwargs)
    assert board.num_actions == ref.num_actions
    assert_same(board, ref)
    play_random_game(board, ref, data)
    while ref.moves:
        assert board.undo() == ref.undo()
        assert_same(board, ref)
    assert board == inarow.Board(inarow.Rules(**kwargs))
    assert board.zobrist == 0


@given(rules(), st.data())
def test_reachable_positions_load_through_from_numpy(kwargs, data):
    """Every position reached by legal play is accepted by `from_numpy` and equals the
    played board in every observable but the history."""
    board = inarow.Board(inarow.Rules(**kwargs))
    ref = Reference(**kwargs)
    play_random_game(board, ref, data)
    loaded = inarow.Board.from_numpy(board.to_numpy(), board.rules)
    assert loaded == board
    assert hash(loaded) == hash(board)
    assert loaded.zobrist == board.zobrist
    np.testing.assert_array_equal(loaded.to_numpy(), board.to_numpy())
    assert loaded.moves == []
    assert loaded.legal_moves() == ref.legal_moves()
    assert loaded.winner == ref.winner
    assert loaded.is_draw == ref.is_draw
    assert loaded.current_player == ref.current_player
    line = loaded.winning_line()
    if ref.winner is None:
        assert line is None
    else:
        # Without a history the deciding stone is unknown, but every line of the
        # winner runs through it: the line is one of the reference's runs.
        assert line_matches(line, ref.winning_lines), (line, ref.winning_lines)


@given(rules(), st.data())
def test_byte_round_trip_of_random_games(kwargs, data):
    board = inarow.Board(inarow.Rules(**kwargs))
    ref = Reference(**kwargs)
    play_random_game(board, ref, data)
    back = inarow.Board.from_bytes(board.to_bytes())
    assert back == board
    assert back.moves == board.moves
    assert back.to_bytes() == board.to_bytes()
    assert_same(back, ref)
