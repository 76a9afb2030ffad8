"""The solver on free-placement boards: tic-tac-toe and other m,n,k games."""

import itertools

import numpy as np
import pytest
from test_free_solver_standard import negamax
from test_interrupts import cancel_in_background, land

import inarow
from inarow import agents, evaluate

TTT = inarow.Rules.tic_tac_toe()
# 8x8, k = 5: a search that runs for minutes at least.
HARD = inarow.Board(inarow.Rules(8, 8, 5, gravity=False))


@pytest.fixture(scope="module")
def solver():
    return inarow.Solver(tt_bytes=1 << 24, threads=1)


def test_supports_free_placement_up_to_128_cells():
    assert inarow.Solver.supports(TTT)
    assert inarow.Solver.supports(inarow.Board.tic_tac_toe())
    assert inarow.Solver.supports(inarow.Rules(6, 6, 5, gravity=False))
    assert inarow.Solver.supports(inarow.Rules(8, 8, 5, gravity=False))
    assert inarow.Solver.supports(inarow.Rules(64, 1, 3, gravity=False))
    assert inarow.Solver.supports(inarow.Rules(9, 9, 5, gravity=False))
    assert inarow.Solver.supports(inarow.Rules(16, 8, 5, gravity=False))
    assert not inarow.Solver.supports(inarow.Rules(12, 11, 5, gravity=False))
    assert not inarow.Solver.supports(inarow.Rules(3, 3, 3, players=3, gravity=False))


@pytest.mark.parametrize(
    "board,match",
    [
        (inarow.Board(inarow.Rules(12, 11, 5, gravity=False)), "128 cells"),
        (inarow.Board.gomoku(), "128 cells"),
        (inarow.Board(inarow.Rules(3, 3, 3, players=3, gravity=False)), "2 players"),
    ],
    ids=["12x11", "gomoku", "3-players"],
)
def test_boards_beyond_the_limit_are_refused(solver, board, match):
    for call in (solver.solve, solver.analyze, solver.best_move):
        with pytest.raises(inarow.UnsupportedRulesError, match=match):
            call(board)
    with pytest.raises(inarow.UnsupportedRulesError, match="solver"):
        agents.perfect()(board)


def test_tic_tac_toe_is_a_draw_and_every_first_move_draws(solver):
    board = inarow.Board.tic_tac_toe()
    assert solver.solve(board) == 0
    assert solver.solve(board, weak=True) == 0
    assert solver.analyze(board) == [0] * 9
    assert board.is_legal(solver.best_move(board))
    assert solver.best_move(board) == 4  # the centre: best score, nearest the centre


def test_scores_count_stones_as_with_gravity(solver):
    # X centre, O edge: X wins with the 7th stone of the game (m = 6): (9 + 1 - 6) / 2.
    board = inarow.Board.from_moves([4, 1], rules=TTT)
    assert solver.solve(board) == 2
    scores = solver.analyze(board)
    assert scores[4] is None and scores[1] is None
    assert max(s for s in scores if s is not None) == 2
    # An immediate win: the 5th stone (m = 4) scores (9 + 1 - 4) / 2 = 3.
    board = inarow.Board.from_moves([0, 3, 1, 4], rules=TTT)
    assert solver.analyze(board)[2] == 3
    assert solver.best_move(board) == 2
    # A finished game: the winner's score one stone earlier, negated.
    board.move(2)
    assert solver.solve(board) == -3 and solver.solve(board, weak=True) == -1
    assert solver.analyze(board) == [None] * 9


def test_every_tic_tac_toe_position_parent_is_its_best_child(solver):
    # Every position reachable in at most 4 stones.
    seen = 0
    for length in range(5):
        for moves in itertools.permutations(range(9), length):
            board = inarow.Board.from_moves(moves, rules=TTT)
            if board.is_over:
                continue
            scores = solver.analyze(board)
            assert max(s for s in scores if s is not None) == solver.solve(board)
            seen += 1
    assert seen > 3000


@pytest.mark.parametrize(
    "width,height,k,outcome",
    [(3, 3, 3, 0), (4, 3, 3, 1), (4, 4, 3, 1), (4, 4, 4, 0), (5, 5, 4, 0), (5, 5, 5, 0)],
)
def test_published_values(solver, width, height, k, outcome):
    board = inarow.Board(inarow.Rules(width, height, k, gravity=False))
    assert solver.solve(board, weak=True) == outcome


def test_best_move_with_a_time_limit_is_legal(solver):
    board = inarow.Board.from_moves([24], rules=HARD.rules)
    assert board.is_legal(solver.best_move(board, time_limit=0.05))
    small = inarow.Board.from_moves([0, 4], rules=TTT)
    assert solver.best_move(small, time_limit=5.0) == solver.best_move(small)


def test_the_perfect_agent_never_loses_tic_tac_toe():
    perfect = agents.perfect(seed=3)
    for opponent in ("random", "greedy", agents.negamax(2, seed=1), agents.perfect(0.5, seed=2)):
        r = evaluate.match(perfect, opponent, games=40, rules="tic_tac_toe", opening_plies=1)
        assert r.losses == 0, (opponent, r)


def test_the_perfect_opponent_of_a_vec_env_never_loses():
    env = inarow.VecEnv(32, rules=TTT, opponent="perfect", agent_player="random", seed=5)
    env.reset()
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(60):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in env.legal_mask()]
        _, rewards, terminated, _, _ = env.step(np.array(actions))
        assert (rewards[terminated] <= 0).all()
        finished += int(terminated.sum())
    assert finished > 50


def test_move_accuracy_on_tic_tac_toe():
    perfect = evaluate.move_accuracy(agents.perfect(), rules="tic_tac_toe", progress=False)
    assert perfect.good_rate == 1.0 and perfect.perfect_rate == 1.0
    assert list(perfect.sets) == [f"plies {n}" for n in evaluate.judged_lengths(TTT)]
    random = evaluate.move_accuracy(agents.random(seed=0), rules="tic_tac_toe", progress=False)
    assert random.good_rate < 0.9
    # Other openings by seed and lengths, judged as judged_positions draws them.
    fresh = evaluate.move_accuracy(
        agents.perfect(), rules="tic_tac_toe", seed=7, lengths=[2, 4], per_set=10, progress=False
    )
    assert list(fresh.sets) == ["plies 2", "plies 4"] and fresh.good_rate == 1.0
    drawn = evaluate.judged_positions(TTT, 10, seed=7, lengths=[2, 4])
    assert [len(s.good_by_position) for s in fresh.sets.values()] == [
        len(b) for b in drawn.values()
    ]
    default = evaluate.move_accuracy(
        agents.perfect(), rules="tic_tac_toe", lengths=[4], per_set=10, progress=False
    )
    assert default.sets["plies 4"].positions_digest != fresh.sets["plies 4"].positions_digest
    with pytest.raises(ValueError, match="give rules="):
        evaluate.move_accuracy(agents.perfect(), seed=7)
    # The same openings every time.
    again = evaluate.judged_positions(TTT)
    assert [b.moves for b in again["plies 2"]] == [
        b.moves for b in evaluate.judged_positions(TTT)["plies 2"]
    ]


def test_move_accuracy_refuses_rules_beyond_the_solver_and_positions_with_rules():
    with pytest.raises(inarow.UnsupportedRulesError):
        evaluate.move_accuracy(agents.random(), rules="gomoku")
    with pytest.raises(ValueError, match="not both"):
        evaluate.move_accuracy(agents.random(), [inarow.Board()], rules="tic_tac_toe")


def test_cancel_and_ctrl_c_stop_a_free_placement_search():
    solver = inarow.Solver(tt_bytes=1 << 24, threads=1)
    assert solver.solve(inarow.Board.tic_tac_toe()) == 0
    small = solver.nodes
    cancel_in_background(lambda: solver.solve(HARD), solver.cancel)
    # The interrupted search's nodes, not the previous call's.
    assert solver.nodes > small
    land(lambda: solver.solve(HARD))
    assert solver.solve(inarow.Board.tic_tac_toe()) == 0


def _near_the_end(rules: inarow.Rules, rng: np.random.Generator) -> inarow.Board:
    """A board of ``rules`` whose empty cells are a 2x4 window (a random place), its
    other cells filled by random moves that make no line."""
    while True:
        top, left = int(rng.integers(rules.height - 1)), int(rng.integers(rules.width - 3))
        window = {(top + r) * rules.width + left + c for r in range(2) for c in range(4)}
        board = inarow.Board(rules=rules)
        while board.num_stones < rules.width * rules.height - len(window):
            moves = [a for a in board.legal_moves() if a not in window]
            rng.shuffle(moves)
            for action in moves:
                board.move(action)
                if board.winner is None:
                    break
                board.undo()
            else:
                break  # every move makes a line: draw the board again
        else:
            return board


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
def test_a_near_full_9x9_board_matches_a_plain_negamax(rule):
    # 81 cells: the solver's stone sets take two words.
    rules = inarow.Rules(9, 9, 5, gravity=False, rule=rule)
    solver = inarow.Solver(tt_bytes=1 << 22, threads=1)
    rng = np.random.default_rng(9)
    memo: dict[bytes, int] = {}
    for _ in range(4):
        board = _near_the_end(rules, rng)
        before = board.moves
        expected = negamax(board, memo)
        assert solver.solve(board) == expected, before
        assert solver.solve(board, weak=True) == (expected > 0) - (expected < 0)
        scores = solver.analyze(board)
        assert len(scores) == 81
        assert max(s for s in scores if s is not None) == expected, before
        assert scores[solver.best_move(board)] == expected
        assert board.moves == before
