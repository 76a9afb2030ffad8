"""The run's CSV log (pure Python: no torch)."""

from __future__ import annotations

import csv
import math

from inarow.train.log import TRAINING_COLUMNS, CsvLog, read_log


def test_a_log_from_before_a_column_existed_gains_it_on_resume(tmp_path):
    path = tmp_path / "log.csv"
    old_header = [c for c in TRAINING_COLUMNS if c not in ("cores", "torch_threads")]
    old_header += ["pons_good_raw", "an_old_column"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(old_header)
        w.writerow(["10", "5"] + [""] * (len(old_header) - 2))
        w.writerow(["20", "9"] + [""] * (len(old_header) - 4) + ["0.9", "7"])
    log = CsvLog(path, ["pons_good_raw", "pons_good_search"])
    assert log.columns == old_header + ["cores", "torch_threads", "pons_good_search"]
    log.write(dict(seconds=30.0, games=12, cores=1.5, torch_threads=2, pons_good_search=0.97))
    values = read_log(path)
    assert values["seconds"] == [10, 20, 30] and values["games"] == [5, 9, 12]
    assert values["pons_good_raw"][1] == 0.9 and math.isnan(values["pons_good_raw"][2])
    assert math.isnan(values["cores"][0]) and values["cores"][2] == 1.5
    assert values["torch_threads"][2] == 2 and values["pons_good_search"][2] == 0.97
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[2][len(old_header) - 1] == "7"  # a column this version does not know stays
    assert all(len(r) == len(log.columns) for r in rows)
    assert not (tmp_path / "log.csv.tmp").exists()
    # Opened again with the same columns: nothing to add, nothing rewritten.
    before = path.read_bytes()
    assert CsvLog(path, ["pons_good_raw", "pons_good_search"]).columns == log.columns
    assert path.read_bytes() == before


def test_a_new_log_has_the_training_and_evaluation_columns(tmp_path):
    log = CsvLog(tmp_path / "log.csv", ["negamax2_win"])
    assert log.columns == TRAINING_COLUMNS + ["negamax2_win"]
    log.write(dict(seconds=1.0, games=3))
    assert read_log(tmp_path / "log.csv")["games"] == [3]


def test_a_rung_is_printed_with_its_games_interval_and_perfect_play_in_w_d_l_order():
    from inarow.train.cli import summary
    from inarow.train.evaluation import rung_results

    row = {
        "negamax9_win": 0.1,
        "negamax9_draw": 0.75,
        "negamax9_loss": 0.15,
        "negamax9_games": 20.0,
        "negamax9_perfect": 0.5,
        "negamax2_win": 0.5,
        "negamax2_draw": 0.5,
        "negamax2_loss": 0.0,  # a row logged before the games were: no interval
    }
    (n2, text2), (n9, text9) = rung_results(row)
    assert (n2, text2) == ("negamax:2", "score 0.750, W/D/L 0.50/0.50/0.00")
    assert n9 == "negamax:9"
    assert text9 == (
        "score 0.475 [0.279, 0.680] over 20 games, W/D/L 0.10/0.75/0.15, "
        "perfect play 0.500 from the same openings"
    )
    table = summary(
        dict(games=1, positions=2, simulations=3, train_steps=4, seconds=60, parameters=5)
        | dict(last=row, run_dir="run", interrupted=False)
    )
    # One row per opponent, W/D/L in that order (was: alphabetical, draw loss win).
    assert "negamax9 draw" not in table
    assert [line.split()[1] for line in table.splitlines() if line.startswith("vs ")] == [
        "negamax:2",
        "negamax:9",
    ]


def test_the_evaluation_logs_each_rungs_games_and_perfect_play():
    import numpy as np

    from inarow.train.config import TrainConfig
    from inarow.train.evaluation import evaluation_columns, measure_strength

    config = TrainConfig.for_game("tic_tac_toe", eval_games=10, eval_simulations=2)
    config = TrainConfig.from_dict(config.to_dict() | dict(eval_match_simulations=1))

    def net(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # uniform, even
        return np.zeros((len(planes), 9), np.float32), np.zeros(len(planes), np.float32)

    assert {"negamax9_games", "negamax9_perfect"} <= set(evaluation_columns(config))
    row = measure_strength(net, config, seed=0)
    assert row["negamax9_games"] == 10
    assert row["negamax9_perfect"] == 0.5  # negamax:9 plays tic-tac-toe perfectly
