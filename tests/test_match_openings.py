"""``evaluate.match(openings=...)``: fixed sets of openings (books by name, a book's
openings, move sequences), each opening played from every seat (issue 57)."""

from __future__ import annotations

import re

import pytest

import inarow
from inarow import _native, evaluate
from inarow.evaluate import matches
from inarow.tournament import load_book

TIC_TAC_TOE = inarow.Rules(3, 3, 3, gravity=False, rule="freestyle")
SMALL = inarow.Rules(5, 5, 4, gravity=False, rule="freestyle")
RENJU = inarow.Rules.gomoku(rule="renju")
FREESTYLE = inarow.Rules.gomoku()


def _hashed(board: inarow.Board) -> int:
    """A deterministic agent whose games vary with the position: a legal move picked
    by a hash of the moves so far."""
    legal = board.legal_moves()
    return legal[hash(tuple(board.moves)) % len(legal)]


def _first(board: inarow.Board) -> int:
    return board.legal_moves()[0]


def _by_hand(a, b, rules, openings, games, swap=True):
    """The match written out plainly: round r opens with openings[r % len], a's seat
    turns with the game; (a's seat, winner or 0, moves) per game."""
    out = []
    for i in range(games):
        seat_a = i % rules.players + 1 if swap else 1
        round_ = i // rules.players if swap else i
        board = inarow.Board.from_moves(openings[round_ % len(openings)], rules=rules)
        while not board.is_over:
            agent = a if board.current_player == seat_a else b
            board.move(agent(board.copy()))
        out.append((seat_a, board.winner or 0, tuple(board.moves)))
    return out


@pytest.mark.parametrize("swap", [True, False])
def test_a_set_plays_as_the_same_openings_played_by_hand(swap):
    openings = [[12], [0, 24], [6, 7, 8], []]
    r = evaluate.match(
        _hashed, _first, games=19, rules=SMALL, openings=openings, swap=swap, keep_games=True
    )
    hand = _by_hand(_hashed, _first, SMALL, openings, 19, swap)
    assert [(g.seat, g.winner, g.moves) for g in r.kept] == hand
    wins = sum(seat == winner for seat, winner, _ in hand)
    draws = sum(winner == 0 for _, winner, _ in hand)
    assert (r.wins, r.draws, r.losses) == (wins, draws, 19 - wins - draws)
    assert r.moves == sum(len(m) for _, _, m in hand)
    for g in r.kept:
        round_ = g.index // 2 if swap else g.index
        assert g.opening == f"openings[{round_ % 4}]"
        assert g.opening_plies == len(openings[round_ % 4])
    assert r.openings == "4 openings given" and r.opening_plies == 0


def test_each_opening_is_played_from_both_seats_by_default():
    openings = [[4], [0], [0, 4]]
    r = evaluate.match("greedy", "random", rules=TIC_TAC_TOE, openings=openings, keep_games=True)
    assert r.games == 6  # by default one round per opening: each from every seat
    assert [s.games for s in r.seats] == [3, 3]
    played = sorted((g.opening, g.seat) for g in r.kept)
    assert played == sorted((f"openings[{i}]", seat) for i in range(3) for seat in (1, 2))
    assert "openings: 3 openings given, each opening in turn from every seat" in str(r)
    random_r = evaluate.match("greedy", "random", games=10, rules=TIC_TAC_TOE)
    assert random_r.openings is None
    assert "openings: 2 random plies, each opening from every seat" in str(random_r)


def test_built_in_agents_and_python_callables_open_alike():
    # Native across threads, and one by one here (a callable wrapping a seeded agent
    # gets a copy of the board; the agents' streams are the match's).
    openings = [[12], [0, 24]]
    native = evaluate.match(
        "negamax:1", "random", games=20, rules=SMALL, openings=openings, keep_games=True
    )
    here = evaluate.match(
        "negamax:1", _first, games=20, rules=SMALL, openings=openings, keep_games=True
    )
    for r in (native, here):
        assert [g.moves[: g.opening_plies] for g in r.kept] == [
            tuple(openings[(i // 2) % 2]) for i in range(20)
        ]


def test_chunks_of_a_match_with_a_set_merge_into_the_whole():
    # What the Ray path does: chunks of games from first_game, merged.
    a, b = inarow.agents.negamax(1), inarow.agents.random()
    settings = dict(seed=5, openings=[[12], [0, 24], [6]], rules=SMALL, keep_games=True)
    whole = _native.play_match(a, b, 40, **settings)
    parts = [
        _native.play_match(a, b, n, first_game=f, **settings) for f, n in ((0, 7), (7, 30), (37, 3))
    ]
    merged = matches._merge_match_counts(parts, 2)
    for key in ("games", "wins", "draws", "losses", "moves", "seats", "kept"):
        assert merged[key] == whole[key]


def test_books_play_by_name_and_as_loaded():
    by_name = evaluate.match("greedy", "random", rules=RENJU, openings="renju-26", keep_games=True)
    assert by_name.games == 52 and by_name.openings == "renju-26"
    names = [o.name for o in load_book("renju-26")]
    assert sorted(g.opening for g in by_name.kept) == sorted(names * 2)
    # h8 h9 h10: the first opening, 1D, from both seats.
    assert by_name.kept[0].moves[:3] == by_name.kept[1].moves[:3] == (112, 97, 82)
    assert by_name.kept[0].opening == "1D-kansei" and by_name.kept[0].opening_plies == 3
    loaded = evaluate.match(
        "greedy", "random", rules=RENJU, openings=load_book("renju-26"), keep_games=True
    )
    assert [g.moves for g in loaded.kept] == [g.moves for g in by_name.kept]
    assert loaded.openings == "26 openings given"
    free = evaluate.match("greedy", "random", games=4, rules=FREESTYLE, openings="freestyle-15")
    assert free.openings == "freestyle-15" and "freestyle-15" in str(free)


def test_opening_values_of_a_set_count_each_opening_from_both_seats():
    # Tic-tac-toe: the centre and a corner are draws, the 4 + 0 + 8... position below
    # (X centre, O corner, X opposite corner) too; perfect against perfect scores what
    # the openings decided.
    openings = [[4], [0], [4, 0, 8]]
    r = evaluate.match("perfect", "perfect", rules=TIC_TAC_TOE, openings=openings)
    v = r.opening_values
    assert v is not None and (v.games, v.won, v.drawn, v.lost) == (6, 0, 6, 0)
    assert (r.wins, r.draws, r.losses) == (0, 6, 0)
    # An opening that a side wins: X takes the centre and a corner, O an edge, X the
    # opposite corner's neighbour: solved won for X.
    won = [[4, 1, 0]]
    v = evaluate.match("perfect", "perfect", rules=TIC_TAC_TOE, openings=won).opening_values
    assert (v.won, v.drawn, v.lost) == (1, 0, 1)
    listed = _native.match_openings(4, openings=openings, rules=TIC_TAC_TOE)
    assert listed == [([4], 1, 1), ([4], 2, 1), ([0], 1, 1), ([0], 2, 1)]


def _renju_double_three() -> tuple[list[int], int]:
    """Moves leaving black to move with a double three at h8 (action 112) on 15x15."""
    b = inarow.Board(rules=RENJU)
    row_col = [(7, 5), (0, 0), (7, 6), (0, 2), (5, 7), (0, 4), (6, 7), (0, 6)]
    moves = [r * 15 + c for r, c in row_col]
    for m in moves:
        b.move(m)
    assert (112, "double three") in b.forbidden_moves()
    return moves, 112


def test_bad_openings_are_refused_naming_the_opening_and_the_move():
    moves, forbidden = _renju_double_three()
    cases = [
        ([[112], [112, 112]], "openings[1]: move 2 (action 112, h8) is illegal"),
        ([moves + [forbidden]], "openings[0]: move 9 (action 112, h8) is illegal"),
        ([moves + [forbidden]], "double three"),
        ([[225]], "openings[0]: move 1 (action 225) is illegal"),
        ([[-1]], "openings[0]: move 1 (action -1) is illegal"),
        ([], "empty set"),
    ]
    for openings, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            evaluate.match("random", "random", games=2, rules=RENJU, openings=openings)
    # A renju book's forbidden cell is renju's only: freestyle plays the same moves.
    evaluate.match("random", "random", games=2, rules=FREESTYLE, openings=[moves + [forbidden]])
    # A move after the game is over (X wins the top row at move 5).
    with pytest.raises(
        ValueError, match=r"^openings\[0\]: move 6 \(action 8, c1\) comes after the game is over"
    ):
        evaluate.match(
            "random", "random", rules=TIC_TAC_TOE, openings=[[0, 3, 1, 4, 2, 8]], games=2
        )
    with pytest.raises(ValueError, match="opening_plies=2 and openings= exclude each other"):
        evaluate.match("random", "random", rules=RENJU, openings="renju-26", opening_plies=2)
    with pytest.raises(ValueError, match="written for 15x15"):
        evaluate.match("random", "random", rules=inarow.Rules.gomoku(19), openings="renju-26")
    with pytest.raises(ValueError, match="square board with free placement"):
        evaluate.match("random", "random", openings="freestyle-15")
    with pytest.raises(ValueError, match="no book 'renju-27'"):
        evaluate.match("random", "random", rules=RENJU, openings="renju-27")
    with pytest.raises(TypeError, match=r"openings\[0\]\[1\] must be an integer action"):
        evaluate.match("random", "random", rules=RENJU, openings=[[112, 1.5]])
    with pytest.raises(TypeError, match="openings must be a book's name"):
        evaluate.match("random", "random", rules=RENJU, openings=3)
    # The native match checks a set too, naming the opening by its index.
    with pytest.raises(ValueError, match=r"openings: opening 1: move 2 \(action 112\)"):
        _native.play_match(
            inarow.agents.random(),
            inarow.agents.random(),
            2,
            rules=RENJU,
            openings=[[1], [112, 112]],
        )
    with pytest.raises(ValueError, match="exclude each other"):
        _native.play_match(
            inarow.agents.random(), inarow.agents.random(), 2, openings=[[1]], opening_plies=2
        )
