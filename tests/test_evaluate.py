"""inarow.evaluate: matches, move accuracy, the Pons analysis files and their generator."""

from __future__ import annotations

import importlib.util
import random
import sys
import warnings
from pathlib import Path

import pytest
from strategies import random_play_boards

import inarow
from inarow import _native, agents, evaluate

ROOT = Path(__file__).resolve().parents[1]
SHARED_PONS = ROOT.parents[1] / "shared" / "data" / "connect4-pons"


def _pons_source() -> Path | None:
    """The six set files: in the package, else the shared data directory."""
    for d in (evaluate.pons._pons_dir(), SHARED_PONS):
        if all((d / name).is_file() for name in evaluate.PONS_SETS):
            return d
    return None


def _script():
    spec = importlib.util.spec_from_file_location(
        "pons_analysis", ROOT / "scripts" / "pons_analysis.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ----------------------------------------------------------------------------- match


def test_match_counts_add_up_per_seat_and_overall():
    r = evaluate.match(agents.greedy(), agents.random(), games=301, seed=3)
    assert r.games == 301 == r.wins + r.draws + r.losses
    assert [s.seat for s in r.seats] == [1, 2]
    assert [s.games for s in r.seats] == [151, 150]
    for field in ("games", "wins", "draws", "losses"):
        assert sum(getattr(s, field) for s in r.seats) == getattr(r, field)
    assert r.win_rate > 0.9 and r.win_interval[0] < r.win_rate < r.win_interval[1]
    assert r.score == pytest.approx((r.wins + r.draws / 2) / r.games)
    assert "player 1" in str(r) and "inarow.agents.greedy" in str(r)
    fixed = evaluate.match(agents.greedy(), agents.random(), games=40, swap=False)
    assert [s.games for s in fixed.seats] == [40, 0]


def test_swapping_the_agents_replays_the_same_games_from_the_other_side():
    a, b = agents.negamax(1), agents.greedy()
    ab = evaluate.match(a, b, games=200, seed=9)
    ba = evaluate.match(b, a, games=200, seed=9)
    assert (ab.wins, ab.draws, ab.losses) == (ba.losses, ba.draws, ba.wins)
    assert ab.seats[0].wins == ba.seats[1].losses and ab.moves == ba.moves


def test_matches_are_deterministic_for_a_seed_and_independent_of_threads():
    a, b = agents.random(), agents.random()
    one = evaluate.match(a, b, games=2000, seed=1, threads=1)
    two = evaluate.match(a, b, games=2000, seed=1, threads=2)
    other = evaluate.match(a, b, games=2000, seed=2, threads=2)
    assert (one.wins, one.draws, one.losses, one.moves) == (
        two.wins,
        two.draws,
        two.losses,
        two.moves,
    )
    assert (one.wins, one.moves) != (other.wins, other.moves)


def test_random_openings_are_shared_by_each_round_and_keep_swap_symmetry():
    a, b = agents.negamax(3), agents.negamax(2)
    plain = evaluate.match(a, b, games=100, seed=2)
    opened = evaluate.match(a, b, games=100, seed=2, opening_plies=4)
    assert opened.opening_plies == 4 and opened.moves != plain.moves
    back = evaluate.match(b, a, games=100, seed=2, opening_plies=4)
    assert (opened.wins, opened.losses, opened.moves) == (back.losses, back.wins, back.moves)
    # The Python slow path plays the same openings: a wrapper of a seeded random agent
    # sees boards with 4 stones on its first move.
    first_seen = []

    def watcher(board):
        if len(first_seen) < 10 and board.num_stones <= 5:
            first_seen.append(board.num_stones)
        return board.legal_moves()[0]

    evaluate.match(watcher, agents.random(), games=6, opening_plies=4)
    assert set(first_seen) <= {4, 5} and 4 in first_seen


def test_three_players_rotate_a_seat_against_copies_of_b():
    r = evaluate.match(
        agents.negamax(2),
        agents.random(),
        games=90,
        rules=dict(width=6, height=6, players=3, k=3, gravity=False),
    )
    assert [s.games for s in r.seats] == [30, 30, 30]
    assert r.games == 90 and r.wins > r.losses
    assert r.rules == dict(width=6, height=6, k=3, players=3, gravity=False)


def test_rules_by_name_board_or_dict():
    for rules in (
        "tic_tac_toe",
        inarow.Board.tic_tac_toe(),
        dict(width=3, height=3, k=3, gravity=False),
    ):
        r = evaluate.match(
            agents.negamax(9), agents.negamax(9), games=20, rules=rules, opening_plies=0
        )
        assert r.draws == 20  # tic-tac-toe is a draw under perfect play, from the start


def test_python_callable_agents_play_through_the_slow_path():
    def first_legal(board):
        board.move(board.legal_moves()[0])  # a copy: the match's board is untouched
        return board.legal_moves()[0] if not board.is_over else board.moves[-1]

    class Seeded:
        def __init__(self, seed):
            self.rng = random.Random(seed)

        def __call__(self, board):
            return self.rng.choice(board.legal_moves())

    r = evaluate.match(agents.greedy(), Seeded(0), games=60, seed=1)
    assert r.games == 60 and r.wins > 45
    again = evaluate.match(agents.greedy(), Seeded(0), games=60, seed=1)
    assert (r.wins, r.draws, r.moves) == (again.wins, again.draws, again.moves)
    r = evaluate.match(first_legal, agents.random(), games=10)
    assert r.games == 10
    # A Python wrapper of a native agent gets the same games as the agent itself
    # only statistically; both beat random by far.
    greedy = agents.greedy(seed=0)
    wrapped = evaluate.match(lambda b: greedy(b), agents.random(), games=100)
    assert wrapped.win_rate > 0.8
    calls = []
    evaluate.match(agents.random(), Seeded(1), games=5, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (5, 5)


def test_match_takes_the_names_the_envs_take():
    by_name = evaluate.match("negamax:1", "greedy", games=40, seed=3)
    by_agent = evaluate.match(agents.negamax(1), agents.greedy(), games=40, seed=3)
    assert (by_name.wins, by_name.draws, by_name.losses) == (
        by_agent.wins,
        by_agent.draws,
        by_agent.losses,
    )
    ttt = evaluate.match("pretrained:0", "random", games=20, rules="tic_tac_toe")
    assert ttt.losses == 0
    with pytest.raises(ValueError, match="not an agent name: allowed random, greedy"):
        evaluate.match("negamax:99", "greedy", games=2)


def test_a_match_that_repeats_one_game_says_so():
    # Two deterministic agents from the start position: one game per seat, repeated.
    net = agents.pretrained("tic_tac_toe", simulations=0)

    def first_legal(board):
        return board.legal_moves()[0]

    with pytest.warns(evaluate.RepeatedGameWarning, match="opening_plies=2"):
        r = evaluate.match(net, first_legal, games=10, rules="tic_tac_toe", opening_plies=0)
    assert r.repeats_one_game
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        varied = evaluate.match(net, first_legal, games=10, rules="tic_tac_toe")  # default: 2
        assert not varied.repeats_one_game
        assert not evaluate.match(agents.greedy(), agents.random(), games=10).repeats_one_game


def test_match_progress_reports_completion_for_native_agents_and_surfaces_callback_errors():
    # Two native agents play in Rust; a short match ends before the timer's
    # first report, so only the final report tells the callback it is done.
    calls = []
    evaluate.match(
        agents.random(), agents.greedy(), games=5, progress=lambda d, t: calls.append((d, t))
    )
    assert calls and calls[-1] == (5, 5)

    def broken(done, total):
        raise OSError(f"the display fell over at {done}/{total}")

    with pytest.raises(OSError, match="fell over at 5/5"):
        evaluate.match(agents.random(), agents.greedy(), games=5, progress=broken)


@pytest.mark.parametrize(
    "agent,error,match",
    [
        (lambda b: "3", TypeError, r"agent a \(.*\) in game 0, move 1 returned '3'"),
        (lambda b: None, TypeError, "returned None"),
        (lambda b: 2.0, TypeError, "integer action"),
        (lambda b: True, TypeError, "returned True"),
        (lambda b: 99, inarow.IllegalMoveError, "illegal action 99: out of range: allowed 0..=2"),
        (lambda b: -1, inarow.IllegalMoveError, "illegal action -1"),
        (lambda b: 0, inarow.IllegalMoveError, "column 0 is full"),
    ],
)
def test_agents_returning_garbage_raise_errors_naming_them(agent, error, match):
    with pytest.raises(error, match=match) as info:
        # 3x2, k=3: only rows win, so always playing column 0 fills it before any line.
        evaluate.match(
            agent,
            agents.random(),
            games=4,
            swap=False,
            rules=dict(width=3, height=2, k=3),
            opening_plies=0,
        )
    if error is TypeError:
        assert info.value.__cause__ is not None


def test_an_agent_that_raises_propagates_its_exception():
    def broken(board):
        raise KeyError("no move")

    with pytest.raises(KeyError, match="no move"):
        evaluate.match(agents.random(), broken, games=2)


@pytest.mark.parametrize(
    "kwargs,error,match",
    [
        (dict(games=0), ValueError, "games=0"),
        (dict(games=-5), ValueError, "games=-5"),
        (dict(games=2**41), ValueError, "games"),
        (dict(games=2.5), TypeError, "games"),
        (dict(rules="chess"), ValueError, "chess"),
        (dict(rules=42), TypeError, "rules"),
        (dict(rules=dict(width=0)), inarow.InvalidRulesError, "width=0"),
        (dict(rules=dict(colour="red")), ValueError, "unknown keys"),
        (dict(rules=inarow.Board.from_moves([3])), ValueError, "empty board"),
        (dict(seed=-1), ValueError, "seed"),
        (dict(swap="yes"), TypeError, "swap"),
        (dict(threads=0), ValueError, "threads"),
        (dict(progress="bar"), TypeError, "progress"),
        (dict(opening_plies=-1), ValueError, "opening_plies=-1"),
        (dict(opening_plies=43), ValueError, "0..=42"),
        (dict(opening_plies="4"), TypeError, "opening_plies"),
    ],
)
def test_bad_match_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        evaluate.match(agents.random(), agents.random(), **kwargs)


def test_non_agents_and_mismatched_rules_are_refused():
    with pytest.raises(TypeError, match="a must be an agent"):
        evaluate.match(42, agents.random())
    with pytest.raises(TypeError, match="b must be an agent"):
        evaluate.match(agents.random(), [1])
    # A string is an agent name now (as the envs' opponent=), and a wrong one says so.
    with pytest.raises(ValueError, match="'gready' is not an agent name"):
        evaluate.match(agents.random(), "gready")
    with pytest.raises(inarow.UnsupportedRulesError, match="agent b"):
        evaluate.match(agents.random(), agents.perfect(), rules=dict(players=3))
    with pytest.raises(inarow.UnsupportedRulesError):
        evaluate.match(agents.perfect(), agents.random(), rules="gomoku")


def test_wilson_interval_known_values():
    lo, hi = evaluate.wilson_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = evaluate.wilson_interval(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert evaluate.wilson_interval(0, 0) == (0.0, 1.0)


# ------------------------------------------------------ chunks (what ray= relies on)

_CHUNKS = [(0, 33), (33, 1), (34, 99), (133, 67)]  # cut rounds in the middle


def _counts(raw):
    return {key: value for key, value in raw.items() if key != "seconds"}


@pytest.mark.parametrize("swap", [True, False])
def test_chunks_from_first_game_add_up_to_the_whole_match(swap):
    a, b = agents.negamax(2), agents.greedy()
    settings = dict(seed=7, swap=swap, opening_plies=2)
    whole = _native.play_match(a, b, 200, **settings)
    parts = [_native.play_match(a, b, n, first_game=f, **settings) for f, n in _CHUNKS]
    for key in ("games", "wins", "draws", "losses", "moves"):
        assert sum(p[key] for p in parts) == whole[key], key
    for seat in range(2):
        assert [sum(p["seats"][seat][i] for p in parts) for i in range(4)] == list(
            whole["seats"][seat]
        )
    assert _counts(evaluate.matches._merge_match_counts(parts[::-1], 2)) == _counts(whole)
    # A chunk is its own games, not the first games again.
    assert _counts(parts[2]) != _counts(_native.play_match(a, b, 99, **settings))


def test_chunks_of_a_python_agent_match_and_of_one_repeated_game_merge_exactly():
    def leftmost(board):
        return board.legal_moves()[0]

    def rightmost(board):
        return board.legal_moves()[-1]

    for plies in (0, 2):  # 0: deterministic agents repeat one game per seat
        settings = dict(seed=3, opening_plies=plies, rules=inarow.Rules.tic_tac_toe())
        whole = _native.play_match(rightmost, leftmost, 60, **settings)
        chunks = [(0, 7), (7, 40), (47, 13)]
        parts = [
            _native.play_match(rightmost, leftmost, n, first_game=f, **settings) for f, n in chunks
        ]
        merged = evaluate.matches._merge_match_counts(parts, 2)
        assert _counts(merged) == _counts(whole)
        assert merged["repeats_one_game"] == (plies == 0)


@pytest.mark.parametrize("bad", [-1, 2**40 - 9, 2**70])
def test_first_game_out_of_range_is_refused(bad):
    with pytest.raises(ValueError, match=rf"first_game={bad} is out of range: allowed 0\.\."):
        _native.play_match(agents.random(), agents.random(), 10, first_game=bad)
    with pytest.raises(TypeError, match="first_game"):
        _native.play_match(agents.random(), agents.random(), 10, first_game=1.5)


def test_agent_actions_in_slices_from_a_drawn_seed_equal_one_call():
    boards = random_play_boards(30, plies=(4, 20))
    for make in (lambda: agents.random(seed=4), lambda: agents.negamax(2, seed=4)):
        one, sliced = make(), make()
        first = one.actions(boards, threads=2)
        seed = sliced.draw_seed()
        parts = [
            sliced.actions(boards[i : i + 7], seed=seed, first_stream=i) for i in (0, 7, 14, 21, 28)
        ]
        assert [a for part in parts for a in part] == first
        # Both generators moved on alike: the next calls agree too.
        assert one.actions(boards) == sliced.actions(boards)
    rng = agents.random(seed=4)
    assert rng.actions(boards, seed=5) == agents.random(seed=9).actions(boards, seed=5)
    with pytest.raises(ValueError, match=r"seed=-1 is out of range: allowed 0\.\.=2\*\*64-1"):
        rng.actions(boards, seed=-1)
    with pytest.raises(ValueError, match="first_stream=-2 is out of range"):
        rng.actions(boards, first_stream=-2)


def test_ray_without_ray_installed_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(ImportError, match=r"ray= needs Ray, inarow's 'ray' extra"):
        evaluate.match(agents.random(), agents.random(), games=10, ray="local")
    with pytest.raises(ImportError, match=r"ray= needs Ray"):
        evaluate.move_accuracy(agents.random(), random_play_boards(2), ray="local", progress=False)


def test_ray_arguments_are_checked_before_any_cluster():
    with pytest.raises(ValueError, match="chunk_games=10 needs ray="):
        evaluate.match(agents.random(), agents.random(), games=20, chunk_games=10)
    with pytest.raises(TypeError, match="ray must be None"):
        evaluate.match(agents.random(), agents.random(), games=20, ray=1)
    with pytest.raises(ValueError, match="chunk_games=0: allowed None"):
        evaluate.match(agents.random(), agents.random(), games=20, ray="local", chunk_games=0)
    with pytest.raises(ValueError, match="games=0 is out of range"):
        evaluate.match(agents.random(), agents.random(), games=0, ray="local")
    with pytest.raises(ValueError, match="chunk_positions=5 needs ray="):
        evaluate.move_accuracy(agents.random(), random_play_boards(2), chunk_positions=5)


# --------------------------------------------------------------------- move accuracy


def test_move_accuracy_on_boards_against_an_independent_count():
    boards = random_play_boards(40)
    solver = inarow.Solver()
    truth = [solver.analyze(b) for b in boards]
    perfect = evaluate.move_accuracy(agents.perfect(seed=0), boards, progress=False)
    assert perfect.overall.positions == 40
    assert perfect.good_rate == perfect.perfect_rate == 1.0

    def leftmost(board):
        return board.legal_moves()[0]

    sign = lambda x: (x > 0) - (x < 0)  # noqa: E731
    good = sum(
        sign(t[b.legal_moves()[0]]) == sign(max(s for s in t if s is not None))
        for b, t in zip(boards, truth)
    )
    best = sum(
        t[b.legal_moves()[0]] == max(s for s in t if s is not None) for b, t in zip(boards, truth)
    )
    r = evaluate.move_accuracy(leftmost, {"late": boards}, progress=False)
    assert (r.sets["late"].good, r.sets["late"].perfect) == (good, best)
    assert best < 40
    assert r.sets["late"].good_interval[0] <= r.good_rate <= r.sets["late"].good_interval[1]
    assert "late" in str(r) and "overall" in str(r)


def test_move_accuracy_refuses_bad_positions_and_agents():
    boards = random_play_boards(3)
    done = inarow.Board.from_moves([0, 1, 0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="game is over"):
        evaluate.move_accuracy(agents.random(), [boards[0], done], progress=False)
    with pytest.raises(TypeError, match="inarow.Board"):
        evaluate.move_accuracy(agents.random(), [boards[0], "4453"], progress=False)
    with pytest.raises(inarow.UnsupportedRulesError):
        evaluate.move_accuracy(
            agents.random(), [inarow.Board(rules=inarow.Rules(players=3))], progress=False
        )
    with pytest.raises(ValueError, match="positions='kaggle'"):
        evaluate.move_accuracy(agents.random(), "kaggle")
    with pytest.raises(ValueError, match="per_set"):
        evaluate.move_accuracy(agents.random(), boards, per_set=0)
    with pytest.raises(inarow.IllegalMoveError, match="illegal action 9"):
        evaluate.move_accuracy(lambda b: 9, boards, progress=False)
    with pytest.raises(TypeError, match="returned 'x'"):
        evaluate.move_accuracy(lambda b: "x", boards, progress=False)
    with pytest.raises(TypeError, match="agent must be"):
        evaluate.move_accuracy(3, boards, progress=False)


@pytest.fixture
def small_pons(tmp_path, monkeypatch):
    """A data directory of six small sets (late positions, quick to solve)."""
    source = _pons_source()
    if source is None:
        pytest.skip("Pons' set files are not available")
    lines = (source / "Test_L3_R1").read_text().splitlines()[:30]
    for i, name in enumerate(evaluate.PONS_SETS):
        (tmp_path / name).write_text("\n".join(lines[5 * i : 5 * i + 5]) + "\n")
    monkeypatch.setattr(evaluate.pons, "_pons_dir", lambda: tmp_path)
    return tmp_path


def test_pons_accuracy_from_computed_truth_then_from_generated_analysis_files(
    small_pons, monkeypatch
):
    computed = evaluate.move_accuracy(agents.greedy(seed=1), "pons", progress=False)
    assert list(computed.sets) == list(evaluate.PONS_SETS)
    assert computed.overall.positions == 30
    script = _script()
    solver = inarow.Solver()
    for name in evaluate.PONS_SETS:
        assert (
            script.generate(
                small_pons / name, small_pons / f"{name}.analysis", solver, progress=False
            )
            == 5
        )

    class NoSolver:
        def __init__(self, *a, **k):
            raise AssertionError("the shipped analysis must be used")

    monkeypatch.setattr(inarow, "Solver", NoSolver)
    monkeypatch.setattr(evaluate.pons, "_COMPUTED_PONS", {})  # only the files may answer
    shipped = evaluate.move_accuracy(agents.greedy(seed=1), "pons", progress=False)
    assert shipped.sets == computed.sets
    perfect = evaluate.move_accuracy(agents.perfect(seed=0), "pons", per_set=2, progress=False)
    assert perfect.overall.positions == 12 and perfect.perfect_rate == 1.0
    # A corrupted analysis line is reported, not trusted.
    path = small_pons / "Test_L2_R1.analysis"
    rows = path.read_text().splitlines()
    rows[1] = "1234 0 0 0 0 0 0 0"
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(ValueError, match="line 2 is corrupt"):
        evaluate.move_accuracy(agents.random(), "pons", progress=False)


def test_a_partial_analysis_file_answers_its_lines_and_only_the_rest_is_solved(
    small_pons, monkeypatch
):
    script = _script()
    solver = inarow.Solver()
    for name in evaluate.PONS_SETS:
        limit = 2 if name == "Test_L1_R3" else None
        script.generate(
            small_pons / name, small_pons / f"{name}.analysis", solver, limit=limit, progress=False
        )
    solved = []
    real_solver = inarow.Solver

    class CountingSolver:
        def __init__(self, *a, **k):
            self.inner = real_solver()

        def analyze(self, board):
            solved.append("".join(str(c + 1) for c in board.moves))
            return self.inner.analyze(board)

    monkeypatch.setattr(inarow, "Solver", CountingSolver)
    monkeypatch.setattr(evaluate.pons, "_COMPUTED_PONS", {})
    result = evaluate.move_accuracy(agents.greedy(seed=1), "pons", progress=False)
    rest = [line.split()[0] for line in (small_pons / "Test_L1_R3").read_text().splitlines()[2:]]
    assert solved == rest
    assert result.overall.positions == 30
    assert evaluate.pons_positions()["Test_L1_R3"][1].analysis is not None
    assert evaluate.pons_positions()["Test_L1_R3"][2].analysis is None


def test_the_generator_resumes_after_a_cut_and_verifies(small_pons):
    script = _script()
    solver = inarow.Solver()
    name = "Test_L3_R1"
    full = small_pons / "full.analysis"
    script.generate(small_pons / name, full, solver, progress=False)
    part = small_pons / f"{name}.analysis"
    assert script.generate(small_pons / name, part, solver, limit=2, progress=False) == 2
    with open(part, "a") as f:
        f.write("4455 1 2")  # a line cut by an interruption
    assert script.generate(small_pons / name, part, solver, progress=False) == 3
    assert part.read_text() == full.read_text()
    assert script.verify(small_pons / name, part, solver, sample=5, seed=0) == 0
    rows = part.read_text().splitlines()
    fields = rows[3].split()
    fields[1] = "." if fields[1] != "." else "0"
    rows[3] = " ".join(fields)
    part.write_text("\n".join(rows) + "\n")
    assert script.verify(small_pons / name, part, solver, sample=5, seed=0) == 1
    assert (
        script.main(["--sets", str(small_pons), "--only", name, "--verify", "5", "--no-progress"])
        == 1
    )


def test_shipped_analysis_files_agree_with_the_solver_on_a_sample():
    directory = evaluate.pons._pons_dir()
    files = [directory / f"{n}.analysis" for n in ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2")]
    if not all(f.is_file() for f in files):
        pytest.skip("the Pons analysis files are not generated yet")
    script = _script()
    solver = inarow.Solver()
    for f in files:
        assert script.verify(directory / f.stem, f, solver, sample=5, seed=1) == 0


def test_pons_positions_load_the_six_sets(monkeypatch):
    source = _pons_source()
    if source is None:
        pytest.skip("Pons' set files are not available")
    monkeypatch.setattr(evaluate.pons, "_pons_dir", lambda: source)
    sets = evaluate.pons_positions(per_set=3)
    assert list(sets) == list(evaluate.PONS_SETS)
    for positions in sets.values():
        assert len(positions) == 3
        for p in positions:
            inarow.Board.from_pons(p.moves)


def test_judged_positions_of_chosen_lengths():
    """``lengths`` names the sets: distinct boards of exactly that many stones, not
    over, the same for a seed; lengths a board cannot hold are refused."""
    sets = evaluate.judged_positions("connect_four", 30, seed=3, lengths=[16, 6, 6, 11])
    assert list(sets) == ["plies 6", "plies 11", "plies 16"]
    for name, boards in sets.items():
        plies = int(name.split()[1])
        assert len(boards) == 30
        assert all(b.num_stones == plies and not b.is_over for b in boards)
        assert len({tuple(b.moves) for b in boards}) == 30
    again = evaluate.judged_positions("connect_four", 30, seed=3, lengths=[6, 11, 16])
    assert [b.moves for b in again["plies 11"]] == [b.moves for b in sets["plies 11"]]
    other = evaluate.judged_positions("connect_four", 30, seed=4, lengths=[11])
    assert [b.moves for b in other["plies 11"]] != [b.moves for b in sets["plies 11"]]
    for bad in ([42], [-1], [2.5], [True]):
        with pytest.raises(ValueError, match="out of range: allowed 0..=41"):
            evaluate.judged_positions("connect_four", 3, lengths=bad)


@pytest.mark.parametrize(
    ("opponent", "perfect_score"), [("random", 0.908), ("greedy", 0.740), ("negamax:2", 0.592)]
)
def test_a_match_says_what_perfect_play_scores_from_the_same_openings(opponent, perfect_score):
    # The numbers: a perfect player from 2 random plies, each opening from
    # both seats, on tic-tac-toe; the reference plays exactly a's games.
    r = evaluate.match("greedy", opponent, games=1000, rules="tic_tac_toe", seed=0)
    assert r.reference is not None and r.reference.games == 1000
    assert r.reference.score == pytest.approx(perfect_score, abs=0.03)
    same = evaluate.match("perfect", opponent, games=1000, rules="tic_tac_toe", seed=0)
    assert (r.reference.wins, r.reference.draws) == (same.wins, same.draws)
    text = str(r)
    assert f"score of a perfect player in a's place: {r.reference.score:.3f}" in text
    assert "the openings (2 random plies) were, for a's seat:" in text


def test_a_progress_callable_follows_the_reference_pass_and_can_stop_it():
    seen = []
    r = evaluate.match(
        "greedy",
        "random",
        games=50,
        rules="tic_tac_toe",
        reference=True,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert r.reference is not None
    assert seen.count((50, 50)) == 2  # the match's games, then the reference's

    class Late(Exception):
        pass

    passes = []

    def stop_in_the_reference(done, total):
        if passes:  # the match's games are done: this is the reference's pass
            raise Late
        if done == total:
            passes.append(done)

    with pytest.raises(Late):
        evaluate.match(
            "greedy",
            "random",
            games=50,
            rules="tic_tac_toe",
            reference=True,
            progress=stop_in_the_reference,
        )


def test_the_openings_values_count_what_perfect_play_gets_from_each_opening():
    r = evaluate.match("perfect", "perfect", games=200, rules="tic_tac_toe", seed=3)
    o = r.opening_values
    assert o is not None and o.won + o.drawn + o.lost == o.games == 200
    # Each opening from both seats: what one seat wins the other loses.
    assert o.won == o.lost
    # Perfect against perfect scores exactly what the openings decided.
    assert (r.wins, r.draws, r.losses) == (o.won, o.drawn, o.lost)
    assert r.score == o.score
    # Connect Four's openings are solved by the book (without random openings the
    # empty board is a first-player win); its reference, tens of times the cost of a
    # match of fast agents, is played only when asked for.
    c4 = evaluate.match("greedy", "random", games=4, opening_plies=0, seed=0)
    assert (c4.opening_values.won, c4.opening_values.lost) == (2, 2) and c4.reference is None
    c4 = evaluate.match("greedy", "random", games=4, seed=0, reference=True)
    assert c4.reference.games == 4


def test_opening_values_and_reference_are_off_where_asked_or_beyond_the_solver():
    r = evaluate.match("greedy", "random", games=10, rules="tic_tac_toe", opening_values=False)
    assert r.opening_values is None and r.reference is not None
    r = evaluate.match("greedy", "random", games=10, rules="tic_tac_toe", reference=False)
    assert r.reference is None and r.opening_values is not None
    r = evaluate.match("greedy", "random", games=10, rules="gomoku")
    assert r.opening_values is None and r.reference is None
    assert "perfect" not in str(r)
    with pytest.raises(inarow.UnsupportedRulesError, match="opening_values=True needs rules"):
        evaluate.match("greedy", "random", games=10, rules="gomoku", opening_values=True)
    with pytest.raises(TypeError, match="reference must be None, True or False"):
        evaluate.match("greedy", "random", games=10, reference="yes")


@pytest.mark.parametrize("native", [True, False])
def test_keep_games_returns_the_games_that_from_moves_opens(native):
    def agent():  # a built-in agent (played natively) or a Python callable
        return "negamax:1" if native else agents.negamax(1, seed=0).__call__

    a = agent()
    r = evaluate.match(a, "random", games=60, rules="tic_tac_toe", keep_games=True, seed=1)
    assert [g.index for g in r.kept] == list(range(60))
    assert sum(g.result == "loss" for g in r.kept) == r.losses
    for g in r.kept:
        board = g.board()
        assert board.is_over and (board.winner or 0) == g.winner
        assert inarow.Board.from_moves(g.moves, rules=inarow.Rules.tic_tac_toe()) == board
        assert g.opening_plies == 2 and g.seat == g.index % 2 + 1
    losses = evaluate.match(
        agent(), "random", games=60, rules="tic_tac_toe", keep_games="losses", seed=1
    )
    assert losses.kept == tuple(g for g in r.kept if g.result == "loss")
    assert evaluate.match(a, "random", games=4, rules="tic_tac_toe").kept == ()
    with pytest.raises(ValueError, match="keep_games='wins' is invalid: allowed False, True"):
        evaluate.match(a, "random", games=4, keep_games="wins")


def test_move_accuracy_shows_a_random_agents_expected_rate_beside_the_agents():
    # The floor of the good-move rate: good moves / legal moves, averaged, exactly.
    boards = [inarow.Board.from_moves(m) for m in ([3, 3, 4, 4], [0, 1, 0, 1, 0], [3])]
    solver = inarow.Solver()
    expected = 0.0
    for board in boards:
        scores = [s for s in solver.analyze(board) if s is not None]
        sign = [(s > 0) - (s < 0) for s in scores]
        expected += sign.count(max(sign)) / len(scores)
    r = evaluate.move_accuracy(agents.greedy(seed=0), {"few": boards}, progress=False)
    assert r.sets["few"].random_good == pytest.approx(expected)
    assert r.overall.random_good_rate == pytest.approx(expected / 3)
    assert "random good" in str(r).splitlines()[0]
    assert f"{expected / 3:12.1%}" in str(r).splitlines()[-1]
    # Pons' sets: a random agent keeps the best outcome 65.1% of the time, greedy 78.0%.
    pons = evaluate.move_accuracy(agents.greedy(seed=0), per_set=200, progress=False)
    random_agent = evaluate.move_accuracy(agents.random(seed=0), per_set=200, progress=False)
    assert pons.overall.random_good == random_agent.overall.random_good
    assert abs(random_agent.overall.good - pons.overall.random_good) < 40


def test_kept_games_and_openings_of_chunks_are_the_whole_matchs():
    a, b = agents.negamax(2), agents.greedy()
    settings = dict(seed=7, opening_plies=2)
    whole = _native.play_match(a, b, 200, keep_games=True, **settings)
    parts = [
        _native.play_match(a, b, n, first_game=f, keep_games=True, **settings) for f, n in _CHUNKS
    ]
    assert evaluate.matches._merge_match_counts(parts[::-1], 2)["kept"] == whole["kept"]
    assert [g[0] for g in whole["kept"]] == list(range(200))
    # The openings match_openings lists are the ones the games began with.
    openings = _native.match_openings(200, **settings)
    assert sum(n for _, _, n in openings) == 200
    begun = {(tuple(m[:2]), seat) for _, seat, _, m in whole["kept"]}
    assert begun == {(tuple(moves), seat) for moves, seat, _ in openings}
