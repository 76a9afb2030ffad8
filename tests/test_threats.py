"""The threat engine: the VCF finder against an exhaustive search written here,
the VCT finder's lines, the engine as an agent and an opponent, and refusals."""

from __future__ import annotations

import pickle
import random

import pytest

import inarow
from inarow import agents, evaluate
from inarow.threats import find_win, winning_moves

GOMOKU = dict(width=15, height=15, k=5, gravity=False)


# --------------------------------------------------------------------- an exhaustive VCF


class Plain:
    """A position as a list of cells (0 empty, 1 and 2 the players) with its windows."""

    def __init__(self, board: inarow.Board) -> None:
        self.w, self.h, self.k = board.width, board.height, board.k
        grid = board.to_numpy()
        self.cells = [int(grid[i // self.w, i % self.w]) for i in range(self.w * self.h)]
        self.windows = []
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for r in range(self.h):
                for c in range(self.w):
                    er, ec = r + dr * (self.k - 1), c + dc * (self.k - 1)
                    if 0 <= er < self.h and 0 <= ec < self.w:
                        self.windows.append(
                            [(r + dr * i) * self.w + c + dc * i for i in range(self.k)]
                        )
        self.through = [[] for _ in self.cells]
        for win in self.windows:
            for cell in win:
                self.through[cell].append(win)

    def completions(self, p: int) -> set[int]:
        """The empty cells where a stone of `p` makes `k` in a window."""
        out = set()
        for win in self.windows:
            values = [self.cells[i] for i in win]
            if values.count(p) == self.k - 1 and values.count(0) == 1:
                out.add(win[values.index(0)])
        return out

    def makes_four(self, cell: int, p: int) -> bool:
        """Whether a stone of `p` on the empty `cell` leaves a window of `k - 1` and an empty cell."""
        return any(
            sum(self.cells[i] == p for i in win) == self.k - 2
            and all(self.cells[i] in (0, p) for i in win)
            for win in self.through[cell]
        )

    def vcf(self, a: int, depth: int) -> bool:
        """Whether `a`, to move, wins by fours within `depth` of its moves."""
        if self.completions(a):
            return True
        if depth <= 1:
            return False
        theirs = self.completions(3 - a)
        if len(theirs) >= 2:
            return False
        empty = [c for c, v in enumerate(self.cells) if v == 0]
        candidates = list(theirs) if theirs else empty
        for cell in candidates:
            if not self.makes_four(cell, a):
                continue
            self.cells[cell] = a
            mine = self.completions(a)
            won = len(mine) >= 2
            if len(mine) == 1:
                (block,) = mine
                self.cells[block] = 3 - a
                won = self.vcf(a, depth - 1)
                self.cells[block] = 0
            self.cells[cell] = 0
            if won:
                return True
        return False


def check_vcf_line(board: inarow.Board, line: list[int]) -> None:
    """Every attacker move a four (the last completes a line), every defender move
    the one cell the attacker threatens while the defender threatens none."""
    plain = Plain(board)
    a = board.current_player
    assert len(line) % 2 == 1
    for i, cell in enumerate(line):
        assert plain.cells[cell] == 0
        if i % 2 == 0:
            if i + 1 < len(line):
                assert plain.makes_four(cell, a), (line, i)
            plain.cells[cell] = a
        else:
            assert cell in plain.completions(a) and not plain.completions(3 - a), (line, i)
            plain.cells[cell] = 3 - a
    replay = board.copy()
    for cell in line:
        replay.move(cell)
    assert replay.winner == a


def random_position(rng: random.Random, rules: dict, stones: int, spread: int) -> inarow.Board:
    board = inarow.Board(rules=inarow.Rules(**rules))
    lo = (rules["width"] - spread) // 2
    for _ in range(stones):
        r, c = lo + rng.randrange(spread), lo + rng.randrange(spread)
        if board.is_legal(r * rules["width"] + c) and not board.is_over:
            board.move(r * rules["width"] + c)
    return board


@pytest.mark.parametrize(
    "rules, stones, spread, depth, count",
    [
        (GOMOKU, 16, 7, 5, 60),
        (dict(width=9, height=9, k=5, gravity=False), 18, 7, 6, 60),
        (dict(width=7, height=7, k=4, gravity=False), 10, 6, 6, 80),
    ],
    ids=["15x15-k5", "9x9-k5", "7x7-k4"],
)
def test_vcf_finder_agrees_with_an_exhaustive_search(rules, stones, spread, depth, count):
    rng = random.Random(f"{rules['width']}-{rules['k']}")
    found = 0
    for _ in range(count):
        board = random_position(rng, rules, stones, spread)
        if board.is_over:
            continue
        plain = Plain(board)
        exists = plain.vcf(board.current_player, depth)
        line = find_win(board, "vcf", max_depth=depth, max_nodes=2**40)
        assert (line is not None) == exists, list(board.moves)
        if line is not None:
            found += 1
            assert (len(line) + 1) // 2 <= depth
            check_vcf_line(board, line)
            assert line[0] in winning_moves(board, "vcf", max_depth=depth, max_nodes=2**40)
    assert found >= 3  # the positions do hold wins to check


def test_vct_lines_are_played_through_against_every_defender_reply_tried():
    rng = random.Random(5)
    seen = 0
    while seen < 5:
        board = random_position(rng, GOMOKU, 12, 7)
        if board.is_over or find_win(board, "vcf") is not None:
            continue
        line = find_win(board, "vct", max_depth=6, max_nodes=200_000)
        if line is None:
            continue
        seen += 1
        attacker = board.current_player
        replay = board.copy()
        for cell in line:
            replay.move(cell)
        assert replay.winner == attacker
        # Whatever the engine replies, the attacker keeps a forced win to the end.
        defender = agents.threats(nodes=3000, seed=0)
        while not board.is_over:
            if board.current_player == attacker:
                board.move(find_win(board, "vct", max_depth=6, max_nodes=500_000)[0])
            else:
                board.move(defender(board))
        assert board.winner == attacker


def test_gravity_threats_are_columns_and_replay_to_a_win():
    # Connect Four: X has three on the bottom row with both ends open.
    board = inarow.Board.from_moves([1, 1, 2, 2, 3, 6])
    assert winning_moves(board) == [0, 4]
    line = find_win(board)
    assert line is not None and len(line) == 1
    # A random agent misses some of those wins; missed_wins judges gravity boards too.
    r = evaluate.missed_wins(agents.random(seed=1), [board] * 4)
    assert r.wins == 4 and len(r.missed) >= 1
    # Random 8x7, k=5 positions: every line found replays to the attacker's win.
    rng = random.Random(4)
    seen = 0
    for _ in range(300):
        b = inarow.Board(rules=inarow.Rules(width=8, height=7, k=5))
        for _ in range(rng.randrange(8, 30)):
            if b.is_over:
                break
            b.move(rng.choice(b.legal_moves()))
        if b.is_over or winning_moves(b, max_depth=1):
            continue
        line = find_win(b, max_depth=6)
        if line is None:
            continue
        seen += 1
        attacker = b.current_player
        for i, a in enumerate(line):
            assert b.is_legal(a)
            b.move(a)
            assert b.is_over == (i == len(line) - 1)
        assert b.winner == attacker
    assert seen >= 3


def test_finder_arguments_and_refusals():
    board = inarow.Board(rules=inarow.Rules(**GOMOKU))
    assert find_win(board) is None and winning_moves(board, "vct", max_depth=3) == []
    with pytest.raises(ValueError, match="kind"):
        find_win(board, "vcx")
    with pytest.raises(ValueError, match="max_depth=0 is out of range"):
        find_win(board, max_depth=0)
    with pytest.raises(ValueError, match="max_nodes=0 is out of range"):
        find_win(board, max_nodes=0)
    with pytest.raises(TypeError):
        find_win(board, max_depth=True)
    with pytest.raises(inarow.UnsupportedRulesError, match='kind="vct".*gravity'):
        find_win(inarow.Board(), "vct")
    with pytest.raises(inarow.UnsupportedRulesError, match="2 players"):
        find_win(inarow.Board(rules=inarow.Rules(width=8, height=8, k=5, players=3, gravity=False)))
    done = inarow.Board(rules=inarow.Rules(**GOMOKU))
    for cell in [0, 20, 1, 21, 2, 22, 3, 23, 4]:
        done.move(cell)
    with pytest.raises(inarow.IllegalMoveError):
        find_win(done)


def test_the_smallest_k_win_at_once_and_vct_moves_include_the_vcf_ones():
    one = inarow.Board(rules=inarow.Rules(width=3, height=3, k=1, gravity=False))
    for kind in ("vcf", "vct"):
        line = find_win(one, kind)
        assert line is not None and len(line) == 1, (kind, line)
        assert winning_moves(one, kind) == list(range(9))
    two = inarow.Board(rules=inarow.Rules(width=4, height=4, k=2, gravity=False))
    every = list(range(16))
    assert winning_moves(two, "vcf") == every
    assert winning_moves(two, "vct") == every
    assert find_win(two, "vct") is not None


# --------------------------------------------------------------------- the engine


def play(rules: dict, moves: list[int]) -> inarow.Board:
    board = inarow.Board(rules=inarow.Rules(**rules))
    for m in moves:
        board.move(m)
    return board


def test_engine_completes_its_four_and_blocks_the_opponents():
    # Row 7 holds X's four (cols 3..6); O holds three on row 9.
    x = [7 * 15 + c for c in (3, 4, 5, 6)]
    o = [9 * 15 + c for c in (3, 4, 5)] + [0]
    board = play(GOMOKU, [m for pair in zip(x, o) for m in pair])
    assert board.current_player == 1
    assert agents.threats(nodes=1000, seed=0)(board) in (7 * 15 + 2, 7 * 15 + 7)
    board = play(GOMOKU, [m for pair in zip(x, o) for m in pair][:-1])
    assert board.current_player == 2
    assert agents.threats(nodes=1000, seed=0)(board) in (7 * 15 + 2, 7 * 15 + 7)


def test_engine_plays_a_known_vcf():
    # X: a broken three on row 7 and a column of three through (7, 9); X to move.
    x = [7 * 15 + 5, 7 * 15 + 6, 7 * 15 + 8, 5 * 15 + 9, 6 * 15 + 9, 8 * 15 + 9]
    o = [7 * 15 + 4, 0, 14, 14 * 15, 14 * 15 + 14, 7]
    board = play(GOMOKU, [m for pair in zip(x, o) for m in pair])
    engine = agents.threats(nodes=5000, seed=0)
    assert engine(board) in winning_moves(board)


def test_engine_is_deterministic_under_nodes_and_a_seed():
    rng = random.Random(9)
    boards = [random_position(rng, GOMOKU, 8, 5) for _ in range(4)]
    first = [agents.threats(nodes=20_000, seed=4)(b) for b in boards]
    again = [agents.threats(nodes=20_000, seed=4)(b) for b in boards]
    assert first == again
    assert all(b.is_legal(a) for b, a in zip(boards, first))


def test_engine_names_repr_pickle_and_refusals():
    engine = agents.threats(0.5, seed=3)
    assert repr(engine) == "inarow.agents.threats(time_limit=0.5, seed=3)"
    assert engine.name == "threats" and engine.time_limit == 0.5 and engine.nodes is None
    counted = pickle.loads(pickle.dumps(agents.threats(nodes=700, seed=1)))
    assert repr(counted) == "inarow.agents.threats(nodes=700, seed=1)"
    assert repr(agents.named("threats:nodes=700", seed=1)) == repr(counted)
    assert agents.named("threats:0.5", seed=3).time_limit == 0.5
    assert agents.named("threats").time_limit == 1.0
    for bad in ("threats:0", "threats:-1", "threats:nodes=0", "threats:x"):
        with pytest.raises(ValueError, match="not an agent name"):
            agents.named(bad)
    with pytest.raises(ValueError, match="time_limit=0 is out of range"):
        agents.threats(0)
    with pytest.raises(ValueError, match="nodes=0 is out of range"):
        agents.threats(nodes=0)
    with pytest.raises(TypeError):
        agents.threats(True)


def test_engine_threads_find_the_same_wins_pickle_and_refuse_bad_counts():
    x = [7 * 15 + 5, 7 * 15 + 6, 7 * 15 + 8, 5 * 15 + 9, 6 * 15 + 9, 8 * 15 + 9]
    o = [7 * 15 + 4, 0, 14, 14 * 15, 14 * 15 + 14, 7]
    board = play(GOMOKU, [m for pair in zip(x, o) for m in pair])
    engine = agents.threats(nodes=5000, seed=0, threads=3)
    assert engine.threads == 3 and agents.threats().threads == 1
    assert engine(board) in winning_moves(board)
    assert repr(engine) == "inarow.agents.threats(nodes=5000, seed=0, threads=3)"
    assert repr(pickle.loads(pickle.dumps(engine))) == repr(engine)
    # Quiet positions: every thread count answers legally within its budget.
    rng = random.Random(5)
    for threads in (2, 4):
        for b in [random_position(rng, GOMOKU, 10, 4) for _ in range(3)]:
            assert b.is_legal(agents.threats(0.05, seed=1, threads=threads)(b))
    for bad in (0, 257, -1):
        with pytest.raises(ValueError, match=f"threads={bad} is out of range"):
            agents.threats(threads=bad)
    with pytest.raises(TypeError):
        agents.threats(threads=2.5)


def test_engine_deepens_negamax_where_threats_do_not_apply():
    # Tic-tac-toe: X threatens the top row; O must block.
    board = play(dict(width=3, height=3, k=3, gravity=False), [0, 4, 1])
    assert agents.threats(nodes=10, seed=0)(board) == 2
    # Connect Four: X wins at once, else O blocks the only open end.
    assert agents.threats(nodes=10, seed=0)(inarow.Board.from_moves([2, 2, 3, 3, 4, 4])) in (1, 5)
    assert agents.threats(nodes=10, seed=0)(inarow.Board.from_moves([0, 6, 1, 6, 2])) == 3
    # With a node budget the moves are the same for a seed; more nodes search deeper
    # and beat the fixed-depth search they grow from.
    c4 = inarow.Board.from_moves([3, 3, 2])
    assert {agents.threats(nodes=5000, seed=4)(c4) for _ in range(3)} == {
        agents.threats(nodes=5000, seed=4)(c4)
    }
    r = evaluate.match(
        agents.threats(nodes=20_000, seed=0), "negamax:2", games=20, rules="connect_four", seed=3
    )
    assert r.wins > r.losses, r
    with pytest.raises(inarow.UnsupportedRulesError, match="2 players"):
        agents.threats(nodes=10)(
            inarow.Board(rules=inarow.Rules(width=8, height=8, k=5, players=3, gravity=False))
        )


def test_engine_as_an_opponent_and_in_matches():
    env = inarow.VecEnv(2, rules=inarow.Rules(**GOMOKU), opponent="threats:nodes=300", seed=0)
    env.reset(seed=0)
    env.step([112, 0])
    with pytest.raises(ValueError, match="threats:nodes=N"):
        inarow.VecEnv(1, rules=inarow.Rules(**GOMOKU), opponent="threats:nodes=-3")
    r = evaluate.match(agents.threats(nodes=2000, seed=0), "greedy", games=2, rules=GOMOKU, seed=0)
    assert r.wins == 2


def test_missed_wins_reports_the_random_agent_not_the_engine():
    x = [7 * 15 + 5, 7 * 15 + 6, 7 * 15 + 7]
    o = [0, 14, 14 * 15]
    board = play(GOMOKU, [m for pair in zip(x, o) for m in pair])
    r = evaluate.missed_wins(
        agents.random(seed=0), [board, inarow.Board(rules=inarow.Rules(**GOMOKU))]
    )
    assert (r.positions, r.wins, len(r.missed)) == (2, 1, 1)
    assert r.missed[0].index == 0 and r.missed[0].win == find_win(board)
    assert evaluate.missed_wins(agents.threats(nodes=2000, seed=0), [board]).missed == []


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_lands_in_a_long_engine_move_and_the_engine_plays_again(threads):
    import _thread
    import threading
    import time

    board = play(GOMOKU, [112, 113, 97])
    engine = agents.threats(time_limit=3600, seed=0, threads=threads)
    sent: list[float] = []

    def fire():
        time.sleep(0.3)
        sent.append(time.perf_counter())
        _thread.interrupt_main()

    threading.Thread(target=fire, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        engine(board)
    assert time.perf_counter() - sent[0] < 2.0
    assert board.is_legal(agents.threats(nodes=500, seed=0)(board))
