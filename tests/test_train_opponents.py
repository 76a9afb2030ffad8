"""Self-play against reference opponents (``TrainConfig.opponents``): the opponents
play their seats, only the network's moves carry a policy target, the network's
results against them are counted, and agents that cannot play the rules are refused
before any game."""

from __future__ import annotations

import numpy as np
import pytest
from harness import blind_evaluator

from inarow.train.config import TrainConfig
from inarow.train.selfplay import SelfPlay

P3 = dict(width=5, height=4, k=3, players=3, gravity=False)


_blind = blind_evaluator()
_blind3 = blind_evaluator(players=3)


def _finished(play: SelfPlay, games: int) -> list:
    parts, done = [], 0
    while done < games:
        out = play.step()
        if out is not None:
            parts.append(out)
            done += out.games
    return parts


def _split_games(part):
    """Each finished game's policy targets (a game's last position has reply -1)."""
    ends = np.flatnonzero(part.reply == -1)
    return np.split(part.policy, ends[:-1] + 1)


def test_a_network_never_beats_a_perfect_opponent_and_trains_on_its_own_moves_only():
    config = TrainConfig.for_game(
        "tic_tac_toe",
        games=8,
        random_opening_plies=0,  # a random opening may hand the network a won game
        opponents=("negamax:9",),
        opponent_share=1.0,
    )
    play = SelfPlay(config, _blind, seed=4)
    assert play.selfplay_games == 0
    parts = _finished(play, 40)
    results = np.sum([p.vs_opponents for p in parts], axis=0)
    assert results.sum() == sum(p.games for p in parts)
    assert results[0] == 0 and results[2] > 0  # a blind network loses to perfect play
    for part in parts:
        for policy in _split_games(part):
            searched = policy.sum(1) > 0
            np.testing.assert_allclose(policy[searched].sum(1), 1.0, atol=1e-5)
            # Two players alternate: the network's searched moves are every other one.
            assert (searched[1:] != searched[:-1]).all(), searched


def test_three_players_one_network_seat_and_self_play_beside():
    config = TrainConfig.for_game(
        "custom",
        rules=P3,
        games=8,
        simulations=8,
        opponents=("random", "greedy"),
        opponent_share=0.5,
    )
    play = SelfPlay(config, _blind3, seed=7)
    assert play.selfplay_games == 4
    parts = _finished(play, 60)
    vs_games = int(np.sum([p.vs_opponents for p in parts]))
    assert 0 < vs_games < sum(p.games for p in parts)
    zero_policy_games = 0
    for part in parts:
        for policy in _split_games(part):
            searched = policy.sum(1) > 0
            if searched.all():
                continue  # a self-play game
            zero_policy_games += 1
            # One network seat of three: its moves are every third position.
            first = int(np.flatnonzero(searched)[0])
            assert first < 3
            assert np.array_equal(np.flatnonzero(searched), np.arange(first, len(policy), 3))
    assert zero_policy_games == vs_games


def test_opponents_are_checked_and_round_trip():
    with pytest.raises(ValueError, match="opponent_share"):
        TrainConfig.for_game("tic_tac_toe", opponents=("random",), opponent_share=0.0)
    with pytest.raises(ValueError, match="opponents"):
        TrainConfig.for_game("tic_tac_toe", opponents=("",))
    with pytest.raises(ValueError, match="opponents"):
        TrainConfig.for_game("tic_tac_toe", opponents="negamax:2")
    config = TrainConfig.for_game("tic_tac_toe", opponents=["negamax:2", "random"])
    assert config.opponents == ("negamax:2", "random")
    assert TrainConfig.from_dict(config.to_dict()) == config
    for bad, message in (
        ("nonsense", "not an agent name"),
        ("pretrained", "no shipped network plays"),
        ("perfect", "cannot play these rules"),
    ):
        config = TrainConfig.for_game(
            "custom", rules=dict(width=8, height=8, k=5, players=3, gravity=False), opponents=(bad,)
        )
        with pytest.raises(ValueError, match=message):
            SelfPlay(config, _blind3, seed=0)


def test_the_opponents_flag_reaches_the_config(capsys):
    from inarow.cli import _parser
    from inarow.train.cli import _config

    args = _parser().parse_args(
        ["train", "tic_tac_toe", "--opponents", "negamax:2, random", "--opponent-share", "0.25"]
    )
    config = _config(args)[1]
    assert config.opponents == ("negamax:2", "random") and config.opponent_share == 0.25
    with pytest.raises(SystemExit):
        _parser().parse_args(["train", "--opponents", ","])
    assert "names no agent" in capsys.readouterr().err
