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
