"""The engine-vs-engine harness: opening books, the bookkeeping of a match (seats,
opening stones, logs, resuming), and the statistics against values worked out apart."""

from __future__ import annotations

import json
import math
import sys

import pytest

import inarow
from inarow.engines import EngineError
from inarow.tournament import book, compare, match, stats
from inarow.tournament.__main__ import main as cli_main

# ------------------------------------------------------------------------------ books


def test_cells_round_trip_and_the_centre():
    assert book.parse_cell("h8", 15) == 7 * 15 + 7
    assert book.parse_cell("a15", 15) == 0  # top left
    assert book.parse_cell("o1", 15) == 15 * 15 - 1  # bottom right
    assert book.parse_cell("A1", 15) == 14 * 15
    for action in range(15 * 15):
        assert book.parse_cell(book.cell_name(action, 15), 15) == action
    for bad in ["p8", "h16", "h0", "8h", "", "hh"]:
        with pytest.raises(ValueError):
            book.parse_cell(bad, 15)


def test_a_book_names_its_bad_line():
    assert book.parse_book("# c\n\nx h8 h9 # note\n")[0].cells == ("h8", "h9")
    with pytest.raises(ValueError, match="line 2"):
        book.parse_book("a h8\nb h8 h8\n")
    with pytest.raises(ValueError, match="line 2"):
        book.parse_book("a h8\na h9\n")
    with pytest.raises(ValueError, match="line 1"):
        book.parse_book("a h8 z9\n")
    with pytest.raises(ValueError, match="no book"):
        book.load_book("no-such-book")


def _canonical(actions, size=15):
    """The smallest of an opening's 8 symmetric images (black's stones as a set, white's
    as a set), for telling openings apart up to symmetry."""
    m = size - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, m - r),
        lambda r, c: (m - r, m - c),
        lambda r, c: (m - c, r),
        lambda r, c: (r, m - c),
        lambda r, c: (m - c, m - r),
        lambda r, c: (m - r, c),
        lambda r, c: (c, r),
    ]
    images = []
    for f in maps:
        cells = [f(*divmod(a, size)) for a in actions]
        moved = [r * size + c for r, c in cells]
        images.append((tuple(sorted(moved[0::2])), tuple(sorted(moved[1::2]))))
    return min(images)


def test_the_26_renju_openings_are_every_class_once():
    openings = book.load_book("renju-26")
    assert len(openings) == 26
    classes = {_canonical(o.actions(15)) for o in openings}
    assert len(classes) == 26
    direct = [o for o in openings if o.name.split("-")[0].endswith("D")]
    assert len(direct) == 13 and all(o.cells[:2] == ("h8", "h9") for o in direct)
    assert all(o.cells[:2] == ("h8", "i9") for o in openings if o not in direct)
    # Every third stone within the centre 5x5, after black h8 and a white stone beside
    # it, falls into one of these 26 classes.
    centre = 7
    every = set()
    for white in ("h9", "i9"):
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                third = (centre + dr) * 15 + centre + dc
                first = [112, book.parse_cell(white, 15)]
                if third not in first:
                    every.add(_canonical([*first, third]))
    assert every == classes


def test_the_freestyle_book_is_centred_distinct_and_unfinished():
    openings = book.load_book("freestyle-15")
    assert len(openings) >= 40
    assert len({_canonical(o.actions(15)) for o in openings}) == len(openings)
    for o in openings:
        actions = o.actions(15)
        assert len(actions) == 3
        assert all(max(abs(a // 15 - 7), abs(a % 15 - 7)) <= 3 for a in actions)
        board = inarow.Board.from_moves(actions, rules=inarow.Rules.gomoku(15))
        assert not board.is_over and board.current_player == 2


# ------------------------------------------------------------------------------ statistics


def test_elo_and_score_are_inverse():
    for d in [-800, -241, -10, 0, 35.5, 400]:
        assert stats.elo(stats.score_of(d)) == pytest.approx(d)
    assert stats.elo(0.75) == pytest.approx(400 * math.log10(3))
    assert stats.elo(0) == -math.inf and stats.elo(1) == math.inf


def test_sprt_bounds():
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19)) and lower == pytest.approx(-math.log(19))
    assert upper == pytest.approx(2.944, abs=1e-3)
    lower, upper = stats.sprt_bounds(0.05, 0.10)
    assert (lower, upper) == pytest.approx((math.log(0.10 / 0.95), math.log(0.90 / 0.05)))
    with pytest.raises(ValueError):
        stats.sprt_bounds(0, 0.05)


@pytest.mark.parametrize("wins,losses", [(30, 20), (12, 25), (100, 98)])
def test_without_draws_the_gsprt_is_the_bernoulli_sprt(wins, losses):
    """With wins and losses only, the distribution of mean s is (s, 1 - s): the LLR is
    the plain SPRT of a coin (up to the weight the fits give the unseen draws)."""
    s0, s1 = stats.score_of(0), stats.score_of(20)
    expected = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    counts = stats.trinomial(wins, 0, losses)
    assert stats.llr(counts, 0, 20) == pytest.approx(expected, rel=1e-4)
    assert stats.llr(counts, 20, 0) == pytest.approx(-expected, rel=1e-4)


def test_the_gsprt_with_draws_and_pairs():
    counts = stats.trinomial(40, 25, 35)
    exact = stats.llr(counts, -5, 5)

    # The fit under a mean constraint, worked out apart for three outcomes: maximize
    # sum n_i log p_i over p on the line of mean s by a fine grid search.
    def profile(s):
        best = -math.inf
        steps = 20000
        for i in range(1, steps):
            pd = i / steps * min(1.0, 2 * min(s, 1 - s))
            pw = s - pd / 2
            pl = 1 - pw - pd
            if pw > 0 and pl > 0:
                best = max(best, 40 * math.log(pw) + 25 * math.log(pd) + 35 * math.log(pl))
        return best

    s0, s1 = stats.score_of(-5), stats.score_of(5)
    assert exact == pytest.approx(profile(s1) - profile(s0), abs=1e-3)
    # The normal approximation agrees for small differences.
    assert stats.llr_normal(counts, -5, 5) == pytest.approx(exact, rel=0.02)
    pairs = stats.pentanomial([2, 1, 1, 1.5, 0.5, 1, 2, 0, 1, 1.5])
    assert pairs == {0.0: 1, 0.25: 1, 0.5: 4, 0.75: 2, 1.0: 2}
    assert stats.llr_normal(pairs, 0, 10) == pytest.approx(stats.llr(pairs, 0, 10), rel=0.1)
    # Five wins only: a coin's evidence, not certainty.
    s0, s1 = stats.score_of(0), stats.score_of(10)
    five = stats.llr(stats.trinomial(5, 0, 0), 0, 10)
    assert five == pytest.approx(5 * math.log(s1 / s0), rel=0.05)
    assert stats.llr(stats.trinomial(0, 0, 0), 0, 10) == 0.0
    with pytest.raises(ValueError):
        stats.pentanomial([3])


def test_a_few_samples_of_two_values_cannot_decide_the_sprt():
    # Two drawn pairs and one won pair: a fit over the seen values only read this as
    # an LLR of +17 (bounds +-2.94) and accepted a change after three pairs.
    lower, upper = stats.sprt_bounds()
    for pairs in ([1, 1, 2], [1] * 27 + [2] * 3, [1, 1, 1], [2, 2, 2], [1, 2]):
        value = stats.llr(stats.pentanomial(pairs), 0, 25)
        assert lower < value < upper, (pairs, value)
        assert value == pytest.approx(stats.llr_normal(stats.pentanomial(pairs), 0, 25), abs=0.6)


def test_the_sprt_decides_both_ways():
    assert stats.sprt(stats.trinomial(600, 0, 400), 0, 20).verdict == "H1"
    assert stats.sprt(stats.trinomial(400, 0, 600), 0, 20).verdict == "H0"
    assert stats.sprt(stats.trinomial(11, 0, 9), 0, 20).verdict == "continue"


def test_elo_estimate_against_values_worked_by_hand():
    e = stats.elo_estimate(stats.trinomial(60, 0, 40))
    half = 1.959963984540054 * math.sqrt(0.24 / 100)
    assert (e.score, e.low, e.high) == pytest.approx((0.6, 0.6 - half, 0.6 + half))
    assert e.elo == pytest.approx(-400 * math.log10(1 / 0.6 - 1))
    # Every game won: the Wilson interval (the normal one would be a point).
    w = stats.elo_estimate(stats.trinomial(10, 0, 0))
    assert w.score == 1 and 0.65 < w.low < 0.75 and w.high == 1 and w.elo == math.inf
    # Pairs: 2 pairs of 1.5 points and 2 of 0.5: mean 0.5, var 1/16 per pair.
    p = stats.elo_estimate(stats.pentanomial([1.5, 1.5, 0.5, 0.5]))
    assert p.samples == 4
    assert p.low == pytest.approx(0.5 - 1.959963984540054 * math.sqrt(1 / 16 / 4))


# ------------------------------------------------------------------------------ matches


class _Corner(match.Player):
    """Plays the first (or last) empty cell, and records the boards it was shown."""

    def __init__(self, last: bool):
        self.spec = "last" if last else "first"
        self.last = last
        self.seen: list[list[int]] = []
        self.seeds: list[int] = []

    def start_game(self, seed):
        self.seeds.append(seed)

    def play(self, board):
        self.seen.append(list(board.moves))
        empty = [a for a in range(board.num_actions) if board.legal_mask()[a]]
        return empty[-1] if self.last else empty[0]


@pytest.mark.parametrize("a_seat", [1, 2])
def test_a_game_applies_the_opening_and_seats_the_players(a_seat):
    a, b = _Corner(last=False), _Corner(last=True)
    opening = book.parse_book("x h8 h9 i9")[0].actions(15)
    winner, how, moves, spent, plies = match.play_game(a, b, opening, a_seat, 15, "freestyle")
    assert moves[:3] == opening
    # After the 3 stones white (player 2) moves: A's stones are at the corners it picks.
    for ply, action in enumerate(moves[3:], start=3):
        mover = 1 + ply % 2
        empty_before = [c for c in range(225) if c not in moves[:ply]]
        expected = empty_before[0] if mover == a_seat else empty_before[-1]
        assert action == expected
    assert all(seen[:3] == opening for seen in a.seen + b.seen)
    assert plies["a"] + plies["b"] == len(moves) - 3
    board = inarow.Board.from_moves(moves, rules=inarow.Rules.gomoku(15))
    assert board.is_over and (board.winner or 0) == winner


def test_an_engine_fault_loses_the_game_for_that_side():
    class Crashing(_Corner):
        def play(self, board):
            raise EngineError("the brain exited")

    for a_seat in (1, 2):
        winner, how, moves, _, _ = match.play_game(
            _Corner(False), Crashing(True), [112], a_seat, 15, "freestyle"
        )
        assert winner == a_seat and how.startswith("fault b")
        assert moves == ([112] if a_seat == 1 else [112, 0])  # A, white, moved first


def test_a_match_logs_every_game_resumes_and_replays(tmp_path):
    openings = book.load_book("renju-26")[:2]
    log = str(tmp_path / "games.jsonl")
    played = []
    kw = dict(pairs=2, nodes=300, seed=5, log=log, on_game=played.append)
    s = match.run("threats", "negamax:1", openings, **kw)
    assert [(r.pair, r.a_seat, r.opening) for r in played] == [
        (0, 1, "1D-kansei"),
        (0, 2, "1D-kansei"),
        (1, 1, "2D-keigetsu"),
        (1, 2, "2D-keigetsu"),
    ]
    with open(log) as f:
        lines = [json.loads(line) for line in f]
    assert len(lines) == 4 and s.games == 4
    for r in match.read_log(log):
        assert r.moves[:3] == r.opening_moves == openings[r.pair % 2].actions(15)
        board = match.replay(r)
        assert board.is_over and (board.winner or 0) == r.winner
        assert r.plies["a"] + r.plies["b"] == len(r.moves) - 3
    assert sum(s.by_seat[1]) == sum(s.by_seat[2]) == 2
    assert sum(s.pairs.values()) == 2
    # Resume: a longer match plays only what is missing; the same seeds replay.
    played.clear()
    s2 = match.run("threats", "negamax:1", openings, **{**kw, "pairs": 3})
    assert [(r.pair, r.a_seat) for r in played] == [(2, 1), (2, 2)]
    assert s2.games == 6 and played[0].opening == "1D-kansei"
    replayed = []
    match.run(
        "threats", "negamax:1", openings[:1], pairs=1, nodes=300, seed=5, on_game=replayed.append
    )
    assert [r.moves for r in replayed] == [r.moves for r in match.read_log(log)[:2]]
    # Other settings never mix into a log.
    with pytest.raises(ValueError, match="other settings"):
        match.run("threats", "negamax:2", openings, **kw)


def test_node_budgets_replay_move_for_move(tmp_path):
    openings = book.load_book("freestyle-15")[:2]
    logs = []
    for name in ("a", "b"):
        log = str(tmp_path / f"{name}.jsonl")
        match.run("threats:nodes=400", "threats:nodes=200", openings, pairs=2, seed=3, log=log)
        logs.append(match.read_log(log))
    assert [r.moves for r in logs[0]] == [r.moves for r in logs[1]]
    # Paired, the two matches do not differ.
    d = compare.paired_difference(*logs)
    assert (d.pairs, d.mean, d.stderr, d.games_differing) == (2, 0.0, 0.0, 0)
    assert d.points_first == d.points_second == sum(r.a_points for r in logs[0])


def test_summary_counts_by_seat_and_pair():
    def rec(pair, a_seat, winner):
        return match.GameRecord({}, pair, "o", [], a_seat, winner, "five", [])

    records = [rec(0, 1, 1), rec(0, 2, 1), rec(1, 1, 1), rec(1, 2, 2), rec(2, 1, 0)]
    s = match.summarize(records, sprt=(0, 10, 0.05, 0.05))
    assert (s.wins, s.draws, s.losses) == (3, 1, 1)
    assert s.by_seat == {1: (2, 1, 0), 2: (1, 0, 1)}
    assert s.pairs == {0.0: 0, 0.25: 0, 0.5: 1, 0.75: 0, 1.0: 1}  # pair 2 is incomplete
    assert s.first_player_score == pytest.approx(3.5 / 5)
    assert s.sprt is not None and s.sprt.upper == pytest.approx(math.log(19))
    assert "A as player 2 (white): W/D/L 1/0/1" in str(s)


def test_unknown_rules_and_players_are_refused():
    with pytest.raises(ValueError, match="rule"):
        match.new_board(15, "caro")
    with pytest.raises(ValueError, match="unknown options"):
        match.make_player("threats:depth=3", time_limit=1.0)
    with pytest.raises(ValueError, match="time"):
        match.make_player("gomocup:pbrain-x", time_limit=None, nodes=100)


def test_a_gomocup_brain_plays_in_the_match(tmp_path):
    """Both kinds of player in one match: inarow in this process against inarow as a
    Gomocup brain (a separate process)."""
    brain = f"gomocup:{sys.executable} -m inarow pbrain --agent greedy"
    openings = book.load_book("freestyle-15")[:1]
    s = match.run("threats:nodes=300", brain, openings, pairs=1, time_limit=1.0)
    assert s.games == 2 and not s.faults


def test_the_command_line(tmp_path, capsys):
    log = str(tmp_path / "m.jsonl")
    args = ["--a", "threats", "--b", "negamax:1", "--nodes", "300", "--pairs", "1"]
    assert cli_main([*args, "--book", "renju-26", "--log", log, "--sprt", "0,50"]) == 0
    out = capsys.readouterr().out
    assert "A as player 1 (black)" in out and "LLR" in out and "pair    1 1D-kansei" in out
    assert cli_main(["--summary", log]) == 0
    assert "W/D/L" in capsys.readouterr().out


def test_another_build_plays_the_same_moves_when_it_is_this_build(tmp_path):
    """``threats:native=PATH`` loads a build of the extension beside this one (for A/B
    tests of two builds); this build's own file plays move for move as this build."""
    native = inarow._native.__file__
    openings = book.load_book("renju-26")[3:4]
    moves = []
    for a in ("threats:nodes=400", f"threats:nodes=400,native={native}"):
        log = str(tmp_path / f"{len(moves)}.jsonl")
        match.run(a, "threats:nodes=200", openings, pairs=1, seed=9, log=log)
        moves.append([r.moves for r in match.read_log(log)])
    assert moves[0] == moves[1]


def test_show_opens_a_logged_game_in_inarow_play(tmp_path, capsys):
    log = str(tmp_path / "m.jsonl")
    match.run("threats", "negamax:1", book.load_book("renju-26")[:1], pairs=1, nodes=300, log=log)
    assert cli_main(["--show", f"{log}:2"]) == 0
    out = capsys.readouterr().out
    record = match.read_log(log)[1]
    assert "player 1 (X) negamax:1, player 2 (O) threats" in out
    assert "1.h8 2.h9 3.h10 4." in out
    command = out.strip().splitlines()[-1]
    assert command.startswith("inarow play --rules gomoku --width 15 --height 15 --moves ")
    assert command.endswith('"' + " ".join(map(str, record.moves)) + '"')


def test_the_games_score_has_wilson_interval():
    e = stats.wilson_estimate(3, 23)
    assert (e.low, e.high) == pytest.approx(inarow.evaluate.wilson_interval(3, 23))
    assert e.low > 0 and e.elo_low > -math.inf


@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_an_engine_that_does_not_play_the_rules_is_refused_before_any_game(rule, tmp_path):
    # The perfect agent: 15x15 is beyond the solver (and renju beyond it anyway).
    log = tmp_path / "m.jsonl"
    with pytest.raises(inarow.UnsupportedRulesError, match=rule):
        match.run(
            "perfect",
            "random",
            book.load_book("renju-26")[:1],
            pairs=1,
            nodes=100,
            rule=rule,
            log=str(log),
        )
    assert match.read_log(str(log)) == []


def test_the_rule_judges_the_games():
    s = match.run("random", "random", book.load_book("renju-26")[:2], pairs=2, rule="renju")
    assert s.games == 4


def test_the_gsprt_of_a_mean_over_two_outcomes_is_the_bernoulli_sprt():
    # Outcomes -1 and +1, means -0.2 and +0.2: coins of p0 = 0.4 and p1 = 0.6.
    counts = {1.0: 30, -1.0: 20}
    expected = 30 * math.log(0.6 / 0.4) + 20 * math.log(0.4 / 0.6)
    assert stats.llr_of_mean(counts, (-1.0, 1.0), -0.2, 0.2) == pytest.approx(expected, rel=1e-6)
    assert stats.llr_of_mean({}, (-1.0, 1.0), -0.2, 0.2) == 0.0
    with pytest.raises(ValueError, match="strictly between"):
        stats.llr_of_mean(counts, (-1.0, 1.0), 0.0, 1.0)


def test_a_match_stops_when_its_stop_says():
    openings = book.load_book("renju-26")[:3]
    s = match.run(
        "threats:nodes=300",
        "negamax:1",
        openings,
        pairs=3,
        nodes=300,
        rule="renju",
        stop=lambda records: len(records) >= 2,
    )
    assert s.games == 2


def test_the_command_line_pairs_a_match_with_a_base_log(tmp_path, capsys):
    """``--base-log`` and ``--paired-sprt``: the match stops when the paired SPRT
    against another engine's log (here, made up: it lost every game) decides."""
    openings = book.load_book("renju-26")
    args = ["--a", "threats", "--b", "negamax:1", "--nodes", "300", "--pairs", "8"]
    args += ["--book", "renju-26", "--rule", "renju"]
    config = match.match_config("random", "negamax:1", openings, 15, "renju", None, 300, 0, 1)
    base = tmp_path / "base.jsonl"
    lines = []
    for pair in range(8):
        for seat in (1, 2):
            o = openings[pair]
            r = match.GameRecord(config, pair, o.name, o.actions(15), seat, 3 - seat, "five", [])
            lines.append(r.to_json() + "\n")
    base.write_text("".join(lines))
    log = str(tmp_path / "m.jsonl")
    paired = ["--base-log", str(base), "--paired-sprt", "0,1.5"]
    assert cli_main([*args, "--log", log, *paired]) == 0
    out = capsys.readouterr().out
    records = match.read_log(log)
    assert all(r.a_points == 1 for r in records)  # so the SPRT decides at the sixth pair
    assert len(records) == 12 and "decided H1 at pair 6" in out
    with pytest.raises(SystemExit):
        cli_main([*args, "--log", log, "--base-log", str(base)])  # no --paired-sprt
    assert "go together" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli_main([*args, "--time", "0.5", "--log", str(tmp_path / "t.jsonl"), *paired])
    assert "differ in 'time'" in capsys.readouterr().err
