"""The trainer's stall watch (pure Python: no torch): a run whose headline measure
stops improving beyond its noise for three evaluations is called stalled, once."""

from __future__ import annotations

from types import SimpleNamespace

from inarow.train.stall import StallWatch, headline

TTT = SimpleNamespace(eval_per_set=0, eval_negamax_depths=(9,), eval_games=20)
C4 = SimpleNamespace(eval_per_set=42, eval_negamax_depths=(2, 4), eval_games=20)


def watch(rows, config):
    w = StallWatch()
    return [w.add(headline(r, config)) for r in rows]


def test_mistakes_that_stop_falling_stall_once():
    said = watch([{"mistakes_search": m} for m in (300, 40, 40, 41, 40, 40, 39)], TTT)
    assert said[:4] == [None] * 4
    assert "stalled: 3 evaluations" in said[4] and "best 40, now 40" in said[4]
    assert said[5] is None  # said once per stall
    assert said[6] is None  # 39 is progress: the watch starts again


def test_a_stall_ends_when_an_evaluation_beats_the_best():
    w = StallWatch()
    for m in (300, 40, 40, 41):
        w.add(headline({"mistakes_search": m}, TTT))
        assert not w.stalled
    w.add(headline({"mistakes_search": 40}, TTT))
    assert w.stalled
    w.add(headline({"mistakes_search": 40}, TTT))
    assert w.stalled  # still, though said once
    w.add(headline({"mistakes_search": 39}, TTT))
    assert not w.stalled


def test_a_perfect_run_never_stalls():
    assert watch([{"mistakes_search": m} for m in (12, 0, 0, 0, 0, 0)], TTT) == [None] * 6


def test_rates_move_only_beyond_their_noise():
    # 252 judged positions: 0.80 -> 0.82 is within the interval, 0.80 -> 0.92 is not.
    rows = [{"pons_good_search": g} for g in (0.5, 0.80, 0.82, 0.81, 0.83)]
    said = watch(rows, C4)
    assert said[:4] == [None] * 4 and "Pons good moves" in said[4]
    rows = [{"pons_good_search": g} for g in (0.5, 0.80, 0.82, 0.92, 0.93, 0.92)]
    assert watch(rows, C4) == [None] * 6


def test_the_ladder_measure_is_the_strongest_depth_played():
    row = {"negamax2_win": 1.0, "negamax2_draw": 0.0, "negamax4_win": 0.25, "negamax4_draw": 0.5}
    h = headline(row, C4)
    assert h.name == "score against negamax:4" and h.value == 0.5 and h.low < 0.5 < h.high
    # An evaluation cut before its last match measures the depths it played.
    assert headline({"negamax2_win": 1.0, "negamax2_draw": 0.0}, C4).name.endswith(":2")
    assert headline({}, C4) is None


def test_a_stall_with_drawn_self_play_is_named_a_collapse_onto_draws():
    rows = [{"negamax2_win": 0.0, "negamax2_draw": 1.0, "negamax2_loss": 0.0}] * 4
    config = SimpleNamespace(eval_per_set=0, eval_negamax_depths=(2,), eval_games=12)
    w = StallWatch()
    said = [w.add(headline(r, config), draw_share=0.99) for r in rows]
    assert said[:3] == [None] * 3
    assert (
        "collapsed onto draws (99% of its games" in said[3] and "--random-opening-plies" in said[3]
    )
    w = StallWatch()
    said = [w.add(headline(r, config), draw_share=0.3) for r in rows]
    assert "collapsed" not in said[3] and "larger net" in said[3]


def test_a_resumed_watch_continues_from_the_logged_evaluations(tmp_path):
    from inarow.train.log import TRAINING_COLUMNS, CsvLog, logged_evaluations

    assert logged_evaluations(tmp_path / "none.csv") == []
    log = CsvLog(tmp_path / "log.csv", ["mistakes_search"])
    for i, m in enumerate((300, 40, 41, 40)):
        log.write(dict(seconds=float(i), games=i))  # a training row: not an evaluation
        log.write(dict(seconds=float(i), games=i, mistakes_search=m))
    rows = logged_evaluations(tmp_path / "log.csv")
    assert [r["mistakes_search"] for r in rows] == [300, 40, 41, 40]
    assert "mistakes_search" not in TRAINING_COLUMNS
    w = StallWatch()
    for r in rows:
        assert w.add(headline(r, TTT)) is None
    # Two evaluations without progress were logged: the next one in the resumed session stalls.
    assert "stalled: 3 evaluations" in w.add(headline({"mistakes_search": 40}, TTT))


def test_a_stall_above_the_best_says_the_rise_may_be_below_the_noise():
    # The fourth Connect Four run's evaluations: each within the noise of 0.964 on 252
    # positions, together above it.
    rows = [{"pons_good_search": g} for g in (0.837, 0.964, 0.960, 0.980, 0.988)]
    said = watch(rows, C4)
    assert said[:4] == [None] * 4
    assert "average 0.976, better than the best" in said[4] and "larger net" not in said[4]
    rows = [{"pons_good_search": g} for g in (0.837, 0.964, 0.960, 0.952, 0.956)]
    assert "larger net" in watch(rows, C4)[4]
