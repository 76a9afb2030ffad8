"""Objects shared between Python threads: serialized and correct, or a clear error,
never corruption; independent objects run in parallel with the interpreter released."""

from __future__ import annotations

import random
import threading

import numpy as np

import inarow


def run_threads(n: int, target) -> list[BaseException]:
    errors: list[BaseException] = []

    def guarded(i):
        try:
            target(i)
        except BaseException as e:  # noqa: BLE001 - collected for the assertion
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    return errors


def test_one_board_shared_by_threads_stays_consistent():
    board = inarow.Board(rules=inarow.Rules(width=9, height=9, k=5, gravity=False))
    refused = []

    def hammer(i):
        rng = random.Random(i)
        for _ in range(3000):
            try:
                if rng.random() < 0.6 and not board.is_over:
                    board.move(rng.randrange(board.num_actions))
                elif board.moves:
                    board.undo()
                board.legal_mask()
                board.to_numpy()
            except inarow.IllegalMoveError as e:
                refused.append(e)  # a race to the same cell or an undo of nothing
            except RuntimeError as e:
                # Another thread holds the board (a switch inside a call): refused
                # whole, with a clear message, the board untouched.
                assert "borrow" in str(e).lower()

    assert run_threads(4, hammer) == []
    assert refused  # contention really happened
    replay = inarow.Board.from_moves(
        board.moves, rules=inarow.Rules(width=9, height=9, k=5, gravity=False)
    )
    assert replay == board and replay.winner == board.winner
    np.testing.assert_array_equal(replay.to_numpy(), board.to_numpy())


def test_perft_on_a_snapshot_while_others_move():
    board = inarow.Board()
    counts = []

    def count(_):
        counts.append(board.perft(7))

    def move(_):
        for col in [0, 1, 2]:
            board.move(col)

    assert run_threads(1, count) == [] and counts == [823_536]
    errors = run_threads(2, lambda i: count(i) if i == 0 else move(i))
    assert errors == []
    assert counts[1] in (
        823_536,
        inarow.Board.from_moves([0]).perft(7),
        inarow.Board.from_moves([0, 1]).perft(7),
        inarow.Board.from_moves([0, 1, 2]).perft(7),
    )
    assert board.moves == [0, 1, 2]


def test_one_vec_env_shared_by_threads_serializes_or_refuses_clearly():
    env = inarow.VecEnv(512, seed=0, threads=1)
    busy = []

    def step(_):
        for _ in range(200):
            try:
                env.step(env.random_actions())
            except RuntimeError as e:  # the other thread holds the env: a clear refusal
                assert "borrow" in str(e).lower()
                busy.append(e)

    assert run_threads(3, step) == []
    for i in range(0, 512, 37):
        b = env.board(i)
        assert inarow.Board.from_moves(b.moves) == b


def test_one_solver_shared_by_threads_gives_correct_answers():
    solver = inarow.Solver(tt_bytes=1 << 22)
    lines = [
        ("2252576253462244111563365343671351441", -1),
        ("7422341735647741166133573473242566", 1),
        ("23163416124767223154467471272416755633", 0),
    ]
    results: list[tuple[int, int]] = []

    def solve(i):
        for moves, score in lines * 3:
            results.append((solver.solve(inarow.Board.from_pons(moves)), score))

    assert run_threads(3, solve) == []
    assert len(results) == 27 and all(got == want for got, want in results)


def test_independent_work_runs_with_the_interpreter_released():
    # While two threads simulate in Rust, this thread keeps running Python.
    done = threading.Event()
    ticks = 0

    def simulate(_):
        inarow.simulate(2_000_000, seed=3, threads=1)

    workers = threading.Thread(target=lambda: (run_threads(2, simulate), done.set()))
    workers.start()
    while not done.is_set():
        ticks += 1
    workers.join()
    assert ticks > 1000
