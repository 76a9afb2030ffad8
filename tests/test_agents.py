"""inarow.agents: legality on any rules, tactics, optimality, temperature, errors."""

from __future__ import annotations

import functools
import math
import pickle

import numpy as np
import pytest
from harness import TIC_TAC_TOE_ARGS, play
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import played_boards

import inarow
from inarow import agents

SEARCHERS = [
    lambda s: agents.random(seed=s),
    lambda s: agents.greedy(seed=s),
    lambda s: agents.negamax(1, seed=s),
    lambda s: agents.negamax(3, seed=s),
]


def positions(max_players=4):
    return played_boards(max_width=7, max_height=6, max_players=max_players)


@settings(max_examples=150, deadline=None)
@given(positions(), st.integers(0, 3), st.integers(0, 2**32))
def test_agents_play_legal_moves_on_any_rules_and_never_touch_the_board(board, which, seed):
    agent = SEARCHERS[which](seed)
    before, history = board.copy(), board.moves
    if board.is_over:
        with pytest.raises(inarow.IllegalMoveError, match="over"):
            agent(board)
    else:
        assert board.is_legal(agent(board))
    assert board == before and board.moves == history


def test_a_whole_game_of_three_players_without_gravity():
    board = inarow.Board(inarow.Rules(6, 5, 3, players=3, gravity=False))
    seats = [agents.negamax(2, seed=0), agents.greedy(seed=1), agents.random(seed=2)]
    while not board.is_over:
        board.move(seats[board.current_player - 1](board))
    with pytest.raises(inarow.IllegalMoveError, match="the game is over"):
        seats[0](board)


def test_greedy_wins_when_it_can_and_blocks_when_it_must():
    for seed in range(20):
        greedy = agents.greedy(seed=seed)
        # Player 1 completes column 3.
        assert greedy(inarow.Board.from_moves([3, 0, 3, 0, 3, 6])) == 3
        # Player 2 blocks column 3.
        assert greedy(inarow.Board.from_moves([3, 0, 3, 0, 3])) == 3
        # Player 2 never plays under player 1's second-row threats (columns 0 and 4).
        assert greedy(inarow.Board.from_moves([2, 1, 1, 3, 3, 6, 2])) in (1, 2, 3, 5, 6)
        # Tic-tac-toe: X must block O's diagonal at (2, 2).
        assert greedy(inarow.Board.from_moves([1, 0, 2, 4], inarow.Rules(3, 3, 3, 2, False))) == 8


def _forced_win(board: inarow.Board, root: int, plies: int) -> bool:
    """Brute force: the root player wins within `plies` against every defence (paranoid)."""
    if plies == 0 or board.is_over:
        return False
    results = []
    for a in board.legal_moves():
        won = board.move(a)
        if won:
            r = board.winner == root
        elif board.is_over:
            r = False
        else:
            r = _forced_win(board, root, plies - 1)
        board.undo()
        results.append(r)
        if board.current_player == root and r:
            return True
    return any(results) if board.current_player == root else all(results)


@settings(max_examples=60, deadline=None)
@given(positions(max_players=3), st.integers(1, 3), st.integers(0, 1000))
def test_negamax_finds_forced_wins_within_its_depth(board, depth, seed):
    if board.is_over or board.width * board.height > 20:
        return
    root = board.current_player
    if not _forced_win(board, root, depth):
        return
    a = agents.negamax(depth, seed=seed)(board)
    board.move(a)
    assert board.winner == root or _forced_win(board, root, depth - 1)


def test_negamax_finds_the_tic_tac_toe_fork():
    # X in a corner, O on an edge next to it: X has forks that win within 5 plies.
    board = inarow.Board.from_moves([0, 1], inarow.Rules(3, 3, 3, 2, False))
    winning = {a for a in board.legal_moves() if _wins_after(board, a, 4)}
    assert winning and winning != set(board.legal_moves())
    for seed in range(10):
        assert agents.negamax(5, seed=seed)(board) in winning


def _wins_after(board, a, plies):
    root = board.current_player
    won = board.move(a)
    try:
        return won or _forced_win(board, root, plies)
    finally:
        board.undo()


@functools.cache
def _brute_score(cells: bytes, width: int, height: int, k: int) -> int:
    """Exact Pons score for the side to move, by brute force (small boards)."""
    grid = np.frombuffer(cells, dtype="int8").reshape(height, width)
    board = inarow.Board.from_numpy(grid, inarow.Rules(width, height, k))
    return max(_brute_move(board, a) for a in board.legal_moves())


def _brute_move(board: inarow.Board, a: int) -> int:
    n = board.width * board.height
    moves = board.num_stones
    won = board.move(a)
    try:
        if won:
            return (n + 1 - moves) // 2
        if board.is_over:
            return 0
        return -_brute_score(board.to_numpy().tobytes(), board.width, board.height, board.k)
    finally:
        board.undo()


@pytest.mark.parametrize("width,height,k", [(4, 4, 3), (5, 3, 3), (4, 3, 3)])
def test_the_perfect_agent_never_plays_a_worse_move_than_brute_force(width, height, k):
    import random

    rng = random.Random(width * 100 + height * 10 + k)
    agent = agents.perfect(seed=1, tt_bytes=1 << 20)
    checked = 0
    for _ in range(40):
        board = inarow.Board(inarow.Rules(width, height, k))
        for _ in range(rng.randrange(width * height - 1)):
            if board.is_over:
                break
            board.move(rng.choice(board.legal_moves()))
        if board.is_over:
            continue
        truth = {a: _brute_move(board, a) for a in board.legal_moves()}
        assert truth[agent(board)] == max(truth.values())
        checked += 1
    assert checked > 20


def test_the_perfect_agent_on_7x6_plays_the_solvers_best_scores():
    import random

    rng = random.Random(0)
    solver = inarow.Solver()
    agent = agents.perfect(seed=3)
    for _ in range(12):
        board = inarow.Board()
        for _ in range(rng.randrange(14, 26)):
            if board.is_over:
                break
            board.move(rng.choice(board.legal_moves()))
        if board.is_over:
            continue
        scores = solver.analyze(board)
        assert scores[agent(board)] == max(s for s in scores if s is not None)


def test_the_perfect_agent_refuses_rules_beyond_the_solver():
    agent = agents.perfect()
    for board in (
        inarow.Board(rules=inarow.Rules(players=3)),
        inarow.Board(inarow.Rules(12, 11, gravity=False)),
        inarow.Board(inarow.Rules(8, 8)),
    ):
        with pytest.raises(inarow.UnsupportedRulesError, match="solver"):
            agent(board)


def _sample(agent, board, n):
    counts: dict[int, int] = {}
    for _ in range(n):
        a = agent(board)
        counts[a] = counts.get(a, 0) + 1
    return counts


def test_temperature_zero_is_optimal_and_softmax_follows_the_scores():
    board = inarow.Board.from_pons("52753311433677442422121")
    scores = inarow.Solver().analyze(board)
    legal = [a for a, s in enumerate(scores) if s is not None]
    best = max(scores[a] for a in legal)
    assert len({scores[a] for a in legal}) >= 3, scores
    # t = 0: only best moves, every seed.
    for seed in range(5):
        counts = _sample(agents.perfect(0.0, seed=seed), board, 40)
        assert all(scores[a] == best for a in counts)
    # t = 2: frequencies within 5 standard deviations of exp(s / t) / Z.
    t, n = 2.0, 3000
    counts = _sample(agents.perfect(t, seed=11), board, n)
    z = sum(math.exp(scores[a] / t) for a in legal)
    for a in legal:
        p = math.exp(scores[a] / t) / z
        sd = math.sqrt(n * p * (1 - p))
        assert abs(counts.get(a, 0) - n * p) <= 5 * sd + 1, (a, counts, scores)
    # A large temperature spreads the mass over every legal move.
    counts = _sample(agents.perfect(1000.0, seed=12), board, 1400)
    assert set(counts) == set(legal)
    assert min(counts.values()) > 1400 / len(legal) * 0.7


def test_seeds_make_agents_deterministic():
    board = inarow.Board()
    for make in (agents.random, agents.greedy, lambda seed: agents.negamax(2, seed=seed)):
        a, b = make(seed=5), make(seed=5)
        assert [a(board) for _ in range(30)] == [b(board) for _ in range(30)]
    spread = {agents.random(seed=s)(board) for s in range(40)}
    assert len(spread) == 7


def test_repr_pickle_and_properties():
    cases = [
        (agents.random(seed=1), "inarow.agents.random(seed=1)"),
        (agents.greedy(), "inarow.agents.greedy(seed=None)"),
        (agents.negamax(4, seed=2), "inarow.agents.negamax(4, seed=2)"),
        (agents.perfect(0.5, seed=3), "inarow.agents.perfect(temperature=0.5, seed=3)"),
        (
            agents.perfect(seed=3, tt_bytes=1 << 20, threads=2),
            "inarow.agents.perfect(temperature=0.0, seed=3, tt_bytes=1048576, threads=2)",
        ),
    ]
    board = inarow.Board.from_moves([3, 3, 2])
    for agent, text in cases:
        assert repr(agent) == text
        assert repr(eval(text, {"inarow": inarow})) == text
        copy = pickle.loads(pickle.dumps(agent))
        assert repr(copy) == text and isinstance(copy, agents.Agent)
        if agent.seed is not None and agent.name != "perfect":
            fresh = eval(text, {"inarow": inarow})
            assert [copy(board) for _ in range(10)] == [fresh(board) for _ in range(10)]
    n = agents.negamax(3)
    assert (n.name, n.depth, n.temperature) == ("negamax", 3, None)
    p = agents.perfect(0.25)
    assert (p.name, p.depth, p.temperature, p.seed) == ("perfect", None, 0.25, None)


def test_batched_actions_are_legal_deterministic_and_thread_independent():
    import random

    rng = random.Random(1)
    boards = []
    for _ in range(60):
        b = inarow.Board(inarow.Rules(6, 6, 4, players=3, gravity=False))
        for _ in range(rng.randrange(10)):
            b.move(rng.choice(b.legal_moves()))
        if not b.is_over:
            boards.append(b)
    for make in (lambda: agents.greedy(seed=4), lambda: agents.negamax(2, seed=4)):
        one = make().actions(boards, threads=1)
        two = make().actions(boards, threads=2)
        assert one == two
        assert all(b.is_legal(a) for b, a in zip(boards, one))
    done = inarow.Board.from_moves([0, 1, 0, 1, 0, 1, 0])
    with pytest.raises(inarow.IllegalMoveError, match=r"boards\[2\]"):
        agents.greedy().actions([boards[0], boards[1], done])
    with pytest.raises(TypeError, match=r"boards\[1\]"):
        agents.greedy().actions([boards[0], "board"])
    with pytest.raises(inarow.UnsupportedRulesError, match=r"boards\[0\]"):
        agents.perfect().actions([inarow.Board(rules=inarow.Rules(players=3))])
    assert agents.random().actions([]) == []


@pytest.mark.parametrize(
    "make,error,match",
    [
        (lambda: agents.negamax(0), ValueError, "depth=0"),
        (lambda: agents.negamax(65), ValueError, "1..=64"),
        (lambda: agents.negamax(2.5), TypeError, "depth"),
        (lambda: agents.negamax(True), TypeError, "bool"),
        (lambda: agents.perfect(-1.0), ValueError, "temperature"),
        (lambda: agents.perfect(float("nan")), ValueError, "temperature"),
        (lambda: agents.perfect(float("inf")), ValueError, "temperature"),
        (lambda: agents.perfect("hot"), TypeError, "temperature"),
        (lambda: agents.perfect(True), TypeError, "bool"),
        (lambda: agents.perfect(tt_bytes=10), inarow.SolverConfigError, "tt_bytes"),
        (lambda: agents.perfect(threads=0), inarow.SolverConfigError, "threads"),
        (lambda: agents.random(seed=-1), ValueError, "seed"),
        (lambda: agents.greedy(seed="x"), TypeError, "seed"),
    ],
)
def test_bad_parameters_raise_clear_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_calling_with_anything_but_a_board_is_a_type_error():
    for bad in (None, 3, [0, 1], "4453"):
        with pytest.raises(TypeError, match="inarow.Board"):
            agents.greedy()(bad)


def test_the_cli_plays_against_an_agent():
    # Tic-tac-toe against a full-depth search: the human never wins.
    moves = "0 0\n0 1\n0 2\n1 0\n2 2\n2 0\n"
    r = play(*TIC_TAC_TOE_ARGS, "--opponent", "negamax:9", "--seed", "1", stdin=moves)
    assert r.returncode == 0, r.stderr
    assert "engine (negamax:9)" in r.stdout and "you win" not in r.stdout
    r = play("--opponent", "greedy", "--first", "engine", "--seed", "2", stdin="3\n3\n3\n")
    assert r.returncode == 0 and "engine (greedy)" in r.stdout
    r = play("--opponent", "negamax:0")
    assert r.returncode == 2 and "negamax[:DEPTH" in r.stderr
    r = play("--opponent", "perfect", "--players", "3")
    assert r.returncode == 2 and "solver" in r.stderr


def test_a_trained_network_file_is_an_agent(tmp_path):
    from inarow.pretrained import _weights_path

    path = tmp_path / "network.npz"
    path.write_bytes(_weights_path("tic_tac_toe").read_bytes())
    mine = inarow.agents.load(path, simulations=0)
    shipped = inarow.agents.pretrained("tic_tac_toe", simulations=0)
    board = inarow.Board.from_moves([4, 0], rules=inarow.Rules.tic_tac_toe())
    assert mine(board) == shipped(board)
    assert inarow.agents.named(f"{path}:7").simulations == 7
    with pytest.raises(FileNotFoundError, match="no network at"):
        inarow.agents.load(tmp_path / "none.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="is not a network saved by inarow train"):
        inarow.agents.load(tmp_path / "junk.npz")


@pytest.mark.parametrize("head", inarow.agents.NAME_HEADS)
def test_every_name_head_is_listed_and_names_an_agent(head):
    assert head in inarow.agents.NAMES
    agent = inarow.agents.named(head, seed=0)
    board = inarow.Board.from_moves([3, 3])
    assert agent(board) in board.legal_moves()
    with pytest.raises(ValueError, match=f"'{head}:x' is not an agent name"):
        inarow.agents.named(f"{head}:x")
