"""``inarow train --rule``: a run under renju plays only legal moves in self-play (no
cell forbidden to black), trains, and exports a network that plays renju alone; the
rule flag beside a named game (issue 57). Needs PyTorch (the train extra)."""

from __future__ import annotations

import io

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (the train extra)")
pytestmark = pytest.mark.ecosystem

import inarow  # noqa: E402
from inarow import cli  # noqa: E402
from inarow.train import cli as train_cli  # noqa: E402
from inarow.train.selfplay import SelfPlay  # noqa: E402

RENJU_9 = inarow.Rules(9, 9, 5, gravity=False, rule="renju")
TINY = [
    "--channels", "8", "--blocks", "1", "--games", "16", "--simulations", "4",
    "--gumbel-considered", "4", "--eval-minutes", "0",
    "--random-opening-plies", "4", "--no-progress",
]  # fmt: skip


def test_a_renju_run_plays_no_forbidden_move_and_exports_a_renju_network(tmp_path, monkeypatch):
    boards: list[inarow.Board] = []
    new_board = SelfPlay._new_board

    def recorded(self):  # every self-play board, kept to replay its game afterwards
        board = new_board(self)
        boards.append(board)
        return board

    monkeypatch.setattr(SelfPlay, "_new_board", recorded)
    run_dir = tmp_path / "run"
    args = ["train", "--width", "9", "--height", "9", "--k", "5", "--no-gravity"]
    args += ["--rule", "renju", "--minutes", "0.15", "--run-dir", str(run_dir), *TINY]
    out = io.StringIO()
    assert train_cli.run(cli._parser().parse_args(args), out) == 0, out.getvalue()
    assert out.getvalue().startswith("training 9x9_k5_p2_free_renju in ")
    finished = [b for b in boards if b.is_over]
    assert len(finished) >= 5
    # Each game replayed under renju: black never plays a cell forbidden to it, and
    # the legal mask (the network's and the search's) leaves those cells out.
    forbidden_seen = 0
    for board in finished:
        replay = inarow.Board(rules=RENJU_9)
        for action in board.moves:
            if replay.current_player == 1:
                forbidden = {cell for cell, _ in replay.forbidden_moves()}
                forbidden_seen += len(forbidden)
                assert action not in forbidden, (board.moves, action)
                assert not replay.legal_mask()[sorted(forbidden)].any()
            replay.move(action)
        assert replay.is_over and replay.winner == board.winner
    # Self-play met forbidden cells, so the check above had something to refuse.
    assert forbidden_seen > 0
    agent = inarow.agents.load(run_dir / "network.npz", simulations=4)
    assert inarow.Board(rules=RENJU_9).is_legal(agent(inarow.Board(rules=RENJU_9)))
    with pytest.raises(inarow.UnsupportedRulesError, match="plays rule='renju' only"):
        agent(inarow.Board(rules=inarow.Rules(9, 9, 5, gravity=False)))


def test_the_rule_flag_goes_with_a_named_game_or_with_rules():
    parser = cli._parser()

    def config(*argv):
        return train_cli._config(parser.parse_args(["train", *argv]))

    label, c = config("gomoku", "--rule", "renju")
    assert label == "gomoku_renju" and c.rules == inarow.Rules.gomoku(rule="renju").to_dict()
    label, c = config("tic_tac_toe", "--rule", "standard")
    assert label == "tic_tac_toe_standard" and c.rules["rule"] == "standard"
    label, c = config("tic_tac_toe")
    assert label == "tic_tac_toe" and "rule" not in c.rules
    label, _ = config("--width", "5", "--height", "5", "--no-gravity", "--rule", "standard")
    assert label == "5x5_k4_p2_free_standard"
    with pytest.raises(inarow.InvalidRulesError, match='rule="renju" needs k=5'):
        config("--no-gravity", "--rule", "renju")


def test_the_evaluation_matches_open_from_a_book_on_15x15_gomoku():
    from inarow.train.evaluation import match_openings

    assert match_openings(inarow.Rules.gomoku().to_dict()) == "freestyle-15"
    assert match_openings(inarow.Rules.gomoku(rule="renju").to_dict()) == "renju-26"
    for other in (inarow.Rules.gomoku(rule="standard"), RENJU_9, inarow.Rules.connect_four()):
        assert match_openings(other.to_dict()) is None  # 2 random plies
