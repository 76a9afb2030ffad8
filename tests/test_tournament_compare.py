"""Two matches against one opponent compared pair by pair (inarow.tournament.compare)."""

from __future__ import annotations

import math
import random

import pytest

from inarow.tournament import compare, match

CONFIG = {"b": "gomocup:brain", "size": 15, "rule": "freestyle", "time": 0.5, "nodes": None}


def rec(pair, a_seat, winner, opening=(112, 113, 97), **config):
    return match.GameRecord(
        {**CONFIG, **config}, pair, f"o{pair}", list(opening), a_seat, winner, "five", []
    )


def log(results):
    """Records from A's results per pair: (seat 1, seat 2) with 1 a win, 0 a loss, None a draw."""
    out = []
    for pair, seats in enumerate(results):
        for a_seat, result in zip((1, 2), seats):
            winner = 0 if result is None else a_seat if result else 3 - a_seat
            out.append(rec(pair, a_seat, winner))
    return out


def test_the_difference_against_values_worked_by_hand():
    first = log([(1, 1), (1, 0), (0, 0), (None, 1)])  # 2, 1, 0, 1.5 points
    second = log([(1, 0), (1, 0), (1, 0), (0, 0)])  # 1, 1, 1, 0
    d = compare.paired_difference(first, second)
    diffs = [1, 0, -1, 1.5]
    mean = sum(diffs) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / 3)
    assert (d.pairs, d.points_first, d.points_second) == (4, 4.5, 3.0)
    assert d.mean == pytest.approx(0.375)
    assert d.stderr == pytest.approx(sd / 2)
    assert d.games_differing == 4
    low, high = d.interval()
    assert low == pytest.approx(0.375 - 1.959963984540054 * sd / 2)
    assert high > 0.375 > low
    assert "4 pairs: 4.5 against 3 points; +0.375 points a pair" in str(d)
    # Swapped, the difference changes sign and nothing else.
    r = compare.paired_difference(second, first)
    assert (r.mean, r.stderr, r.games_differing) == (-d.mean, d.stderr, d.games_differing)


def test_only_pairs_complete_in_both_logs_count():
    first = log([(1, 1), (1, 0), (0, 0)])
    second = log([(0, 0), (1, 0), (1, 1)])[:-1]  # the last pair lacks its second game
    d = compare.paired_difference(first, second)
    assert (d.pairs, d.points_first, d.points_second, d.mean) == (2, 3.0, 1.0, 1.0)


def test_matches_that_are_not_paired_are_refused():
    games = log([(1, 1), (1, 0)])
    with pytest.raises(ValueError, match="differ in 'b'"):
        compare.paired_difference(
            games, [rec(g.pair, g.a_seat, g.winner, b="other") for g in games]
        )
    with pytest.raises(ValueError, match="differ in 'time'"):
        compare.paired_difference(games, [rec(g.pair, g.a_seat, g.winner, time=1.0) for g in games])
    moved = [rec(g.pair, g.a_seat, g.winner, opening=(0, 1, 2)) for g in games]
    with pytest.raises(ValueError, match="pair 0 seat 1: openings"):
        compare.paired_difference(games, moved)
    with pytest.raises(ValueError, match="1 pair"):
        compare.paired_difference(games, games[:3])
    with pytest.raises(ValueError, match="pair 1 seat 2 is logged twice"):
        compare.paired_difference(games + games[-1:], games)


def test_the_command_line(tmp_path, capsys):
    paths = []
    for name, results in (("a", [(1, 1), (1, 0)]), ("b", [(1, 0), (0, 0)])):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(r.to_json() + "\n" for r in log(results)))
        paths.append(str(path))
    assert compare.main(paths) == 0
    assert "2 pairs: 3 against 1 points; +1.000 points a pair" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        compare.main([paths[0], str(tmp_path / "missing.jsonl")])
    assert e.value.code == 2
    assert "missing.jsonl: no games logged" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        compare.main([*paths, "extra"])


def test_a_later_record_under_other_settings_is_refused():
    games = log([(1, 1), (1, 0)])
    resumed = games[:3] + [rec(1, 2, 1, time=1.0)]
    with pytest.raises(ValueError, match=r"differ in 'time'.*second log, pair 1 seat 2"):
        compare.paired_difference(games, resumed)


def normal_llr(differences, h0, h1):
    n = len(differences)
    mean = sum(differences) / n
    var = sum((x - mean) ** 2 for x in differences) / n
    return n * (h1 - h0) * (2 * mean - h0 - h1) / (2 * var)


def test_the_paired_sprt_is_near_its_normal_approximation_and_decides_in_pair_order():
    # 200 pairs: most alike, a few better, fewer worse: +0.1 points a pair.
    pattern = [(1, 0)] * 6 + [(1, 1)] * 2 + [(0, 0)] * 2  # first
    before = [(1, 0)] * 6 + [(1, 0)] * 2 + [(1, 0), (0, 0)]  # second
    first, second = log(pattern * 20), log(before * 20)
    d = compare.paired_difference(first, second)
    assert d.mean == pytest.approx(0.1) and len(d.differences) == 200
    test = compare.paired_sprt(d, 0.0, 0.1)
    assert test.final.llr == pytest.approx(normal_llr(d.differences, 0.0, 0.1), rel=0.15)
    assert test.final.unit == "points a pair" and test.pairs == 200
    # The verdict is where the LLR of the pairs so far first leaves the bounds.
    prefix = None
    for n in range(2, 201):
        partial = compare.paired_difference(first[: 2 * n], second[: 2 * n])
        value = compare.paired_sprt(partial, 0.0, 0.1).final.llr
        if not test.final.lower < value < test.final.upper:
            prefix = n
            break
    assert prefix is not None and test.decided_at == prefix
    assert test.verdict == "H1" and value > 0
    # Swapped, the evidence is for the opposite sign.
    swapped = compare.paired_sprt(compare.paired_difference(second, first), 0.0, 0.1)
    assert swapped.final.llr < test.final.lower and swapped.verdict == "H0"


def test_the_paired_sprt_decides_both_ways_and_waits_when_it_cannot_tell():
    better = compare.paired_difference(log([(1, 1), (1, 0)] * 40), log([(1, 0)] * 80))
    assert compare.paired_sprt(better, 0.0, 0.2).verdict == "H1"
    worse = compare.paired_difference(log([(0, 0), (1, 0)] * 40), log([(1, 0)] * 80))
    assert compare.paired_sprt(worse, 0.0, 0.2).verdict == "H0"
    alike = compare.paired_difference(
        log([(1, 1), (0, 0), (1, 0), (1, 0)]), log([(1, 0), (1, 0), (1, 0), (1, 0)])
    )
    undecided = compare.paired_sprt(alike, 0.0, 0.2)
    assert (undecided.verdict, undecided.decided_at) == ("continue", None)
    assert "undecided" in str(undecided)
    with pytest.raises(ValueError, match="strictly between"):
        compare.paired_sprt(alike, 0.0, 2.0)


def test_the_command_line_runs_the_paired_sprt(tmp_path, capsys):
    paths = []
    for name, results in (("a", [(1, 1), (1, 0)] * 40), ("b", [(1, 0)] * 80)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(r.to_json() + "\n" for r in log(results)))
        paths.append(str(path))
    assert compare.main([*paths, "--sprt", "0,0.2"]) == 0
    out = capsys.readouterr().out
    assert "SPRT H0 0 H1 0.2 (points a pair)" in out and "decided H1 at pair" in out
    for bad in ("0", "0,2", "0,0", "x,y"):
        with pytest.raises(SystemExit):
            compare.main([*paths, "--sprt", bad])
        assert "H0" in capsys.readouterr().err


def test_a_paired_stop_waits_for_the_sprt_and_refuses_other_settings():
    base = log([(0, 0)] * 8)  # the base engine lost every game
    better = log([(1, 1)] * 8)
    stop = compare.paired_stop(base, CONFIG, 0.0, 1.5)
    assert not stop([]) and not stop(better[:2])  # fewer than two pairs: wait
    # +2 a pair: the SPRT of 0 against 1.5 decides at the sixth pair.
    assert not stop(better[:10]) and stop(better[:12])
    with pytest.raises(ValueError, match="differ in 'time'"):
        compare.paired_stop(base, {**CONFIG, "time": 1.0}, 0.0, 1.5)
    with pytest.raises(ValueError, match="no games"):
        compare.paired_stop([], CONFIG, 0.0, 1.5)
    moved = [rec(g.pair, g.a_seat, g.winner, opening=(0, 1, 2)) for g in better]
    with pytest.raises(ValueError, match="openings"):
        stop(moved[:4])  # not swallowed as "too few pairs"


def test_a_paired_stop_agrees_with_the_whole_sprt_after_every_game():
    # Seed 8: the SPRT leaves its bounds at pair 27 and is back inside by pair 30.
    rng = random.Random(8)
    results = [(rng.random() < 0.6, rng.random() < 0.4) for _ in range(30)]
    base = log([(rng.random() < 0.5, rng.random() < 0.3) for _ in range(30)])
    games = log(results)
    # In play order, then with pair 3 arriving last (a log resumed after a gap).
    late = [g for g in games if g.pair != 3] + [g for g in games if g.pair == 3]
    for order in (games, late):
        stop = compare.paired_stop(base, CONFIG, 0.0, 0.5)
        for n in range(len(order) + 1):
            try:
                d = compare.paired_difference(order[:n], base)
            except compare.TooFewPairs:
                assert not stop(order[:n])
                continue
            expected = compare.paired_sprt(d, 0.0, 0.5).decided_at is not None
            assert stop(order[:n]) == expected, (n, d)
