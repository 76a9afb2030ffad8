"""`opponent=` in the Gymnasium, PettingZoo and RLlib adapters: any agent, a list of
agents drawn per episode, and curricula (`inarow.agents.curriculum`), deterministic
for a seed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="gymnasium is not installed")

import inarow  # noqa: E402
from inarow import Rules, agents  # noqa: E402
from inarow.gymnasium import InARowEnv  # noqa: E402


class Tagged:
    """An agent that plays the first legal move and logs its tag on every call."""

    def __init__(self, tag: str, log: list[str]) -> None:
        self.tag, self.log = tag, log

    def __call__(self, board: inarow.Board) -> int:
        self.log.append(self.tag)
        return board.legal_moves()[0]

    def __repr__(self) -> str:
        return f"Tagged({self.tag!r})"


def first_legal_episodes(env: InARowEnv, episodes: int, seed: int) -> list[Any]:
    """Plays `episodes` episodes with the first legal action; the opponent of each."""
    chosen = []
    for e in range(episodes):
        obs, _ = env.reset(seed=seed if e == 0 else None)
        chosen.append(env.episode_opponent)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return chosen


# --------------------------------------------------------------------- Gymnasium


def test_builtin_agents_are_opponents_and_replay_for_a_seed():
    def run() -> list[list[int]]:
        env = InARowEnv(opponent=agents.negamax(2, seed=5), agent_player=2)
        games = []
        for seed in (0, 1):
            env.reset(seed=seed)
            moves_before = env.board.moves
            obs, _, done, _, _ = env.step(3)
            while not done:
                obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
            games.append(moves_before + env.board.moves)
        return games

    first, second = run(), run()
    assert first == second
    for moves in first:
        assert inarow.Board.from_moves(moves).is_over  # every move was legal


def test_agent_names_and_network_paths_are_opponents_as_in_every_env():
    """The names `inarow.agents.named` reads (what the native envs take) play in the
    Python adapters too: each is that agent, seeded once, so a fresh env replays it."""
    from inarow.pretrained import _weights_path

    ttt = inarow.Rules.tic_tac_toe()
    network = str(_weights_path("tic_tac_toe")) + ":0"

    def games(opponent):
        env = InARowEnv(rules=ttt, opponent=opponent, agent_player=2)
        out = []
        for seed in range(3):
            obs, _ = env.reset(seed=seed)
            done = False
            while not done:
                obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            out.append(env.board.moves)
        return out

    for name in ("greedy", "negamax:2", network):
        assert games(name) == games(name)
    # The network answers exactly as the agent it names does on each board.
    oracle = agents.load(network.removesuffix(":0"), simulations=0)
    for moves in games(network):
        board = inarow.Board.from_moves([], rules=ttt)
        for i, a in enumerate(moves):
            if i % 2 == 0:
                assert a == oracle(board.copy())
            board.move(a)
    env = InARowEnv(rules=ttt, opponent=["random", "negamax:1"])
    assert env.opponent == ["random", "negamax:1"]
    # A known name with a bad argument: named's message; any other: the whole list, once.
    with pytest.raises(ValueError, match=r"'negamax:0' is not an agent name: .*DEPTH 1\.\.64") as e:
        InARowEnv(opponent="negamax:0")
    assert str(e.value).count("allowed") == 1
    with pytest.raises(ValueError, match=r"'minmax' is not supported: .*negamax\[:DEPTH") as e:
        InARowEnv(opponent="minmax")
    assert str(e.value).count("allowed") == 1 and "curriculum" in str(e.value)


def test_a_list_is_drawn_per_episode_from_the_seed():
    log: list[str] = []
    pool = [Tagged("a", log), Tagged("b", log), Tagged("c", log)]
    one = first_legal_episodes(InARowEnv(Rules(4, 4, 3), opponent=pool), 30, seed=7)
    two = first_legal_episodes(InARowEnv(Rules(4, 4, 3), opponent=pool), 30, seed=7)
    other = first_legal_episodes(InARowEnv(Rules(4, 4, 3), opponent=pool), 30, seed=8)
    assert [o.tag for o in one] == [o.tag for o in two]
    assert [o.tag for o in one] != [o.tag for o in other]
    assert {o.tag for o in one} == {"a", "b", "c"}  # uniform over 30 draws: all appear
    assert set(log) == {"a", "b", "c"}


def test_a_list_may_mix_names_and_agents():
    env = InARowEnv(Rules(4, 4, 3), opponent=["random", "solver", agents.greedy(seed=0)])
    chosen = first_legal_episodes(env, 12, seed=0)
    assert {type(o).__name__ for o in chosen} == {"str", "Agent"}


def test_a_curriculum_is_asked_once_per_episode_in_order():
    asked: list[int] = []
    log: list[str] = []
    easy, hard = Tagged("easy", log), Tagged("hard", log)

    def schedule(episode: int) -> Any:
        asked.append(episode)
        return easy if episode < 3 else hard

    env = InARowEnv(Rules(4, 4, 3), opponent=agents.curriculum(schedule))
    chosen = first_legal_episodes(env, 5, seed=0)
    assert asked == [0, 1, 2, 3, 4]
    assert [o.tag for o in chosen] == ["easy"] * 3 + ["hard"] * 2


def test_a_curriculum_may_name_random_and_solver():
    env = InARowEnv(
        Rules(4, 4, 3), opponent=agents.curriculum(lambda e: ["random", "solver"][e % 2])
    )
    assert first_legal_episodes(env, 4, seed=0) == ["random", "solver"] * 2


def test_a_failed_reset_does_not_count_as_an_episode():
    asked: list[int] = []
    fail = [True]

    def broken(board: inarow.Board) -> int:
        if fail[0]:
            raise RuntimeError("not ready")
        return board.legal_moves()[0]

    def schedule(episode: int) -> Any:
        asked.append(episode)
        return broken

    env = InARowEnv(Rules(4, 4, 3), agent_player=2, opponent=agents.curriculum(schedule))
    with pytest.raises(inarow.gymnasium.OpponentError, match="not ready"):
        env.reset(seed=0)
    fail[0] = False
    env.reset(seed=0)
    assert asked == [0, 0]


def test_curriculum_choices_are_checked_when_the_episode_starts():
    env = InARowEnv(Rules(5, 5, 3, players=3), opponent=agents.curriculum(lambda e: "solver"))
    with pytest.raises(inarow.UnsupportedRulesError, match="episode 0"):
        env.reset(seed=0)
    assert env.board is None  # nothing started
    for bad in (["random"], None, 3, agents.curriculum(lambda e: "random")):
        env = InARowEnv(Rules(4, 4, 3), opponent=agents.curriculum(lambda e, bad=bad: bad))
        with pytest.raises(ValueError, match="of episode 0 .* is not supported"):
            env.reset(seed=0)


def test_a_bare_callable_is_an_agent_not_a_schedule():
    # A schedule passed without the wrapper is called as an agent: what it returns
    # (an agent) is not an action, and the error says so.
    env = InARowEnv(Rules(4, 4, 3), agent_player=2, opponent=lambda episode: agents.random(seed=0))
    with pytest.raises(
        inarow.IllegalMoveError,
        match=r"returned inarow.agents.random\(seed=0\) .* not a legal action",
    ):
        env.reset(seed=0)
    assert not callable(agents.curriculum(lambda e: "random"))


@pytest.mark.parametrize(
    "bad, error, message",
    [
        ([], ValueError, r"opponent=\[\] is empty"),
        (["random", "minimax"], ValueError, r"opponent\[1\] 'minimax' is not supported"),
        (["random", 3], ValueError, r"opponent\[1\] 3 is not supported"),
        ([agents.curriculum(lambda e: "random")], ValueError, r"opponent\[0\]"),
        ("minimax", ValueError, "opponent 'minimax' is not supported"),
    ],
)
def test_bad_opponents_are_refused_at_construction(bad, error, message):
    with pytest.raises(error, match=message):
        InARowEnv(opponent=bad)


def test_solver_in_a_list_needs_rules_it_covers():
    with pytest.raises(inarow.UnsupportedRulesError, match=r"opponent\[1\]='solver'"):
        InARowEnv(Rules(15, 15, 5, gravity=False), opponent=["random", "solver"])


def test_curriculum_needs_a_callable():
    with pytest.raises(TypeError, match="schedule must be a callable"):
        agents.curriculum([agents.random()])  # type: ignore[arg-type]


def test_rules_keyword_in_the_single_env():
    env = InARowEnv(rules=inarow.Rules.tic_tac_toe())
    assert env.rules == inarow.Rules.tic_tac_toe() and env.action_space.n == 9
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        InARowEnv(width=7)  # refused keyword


# ---------------------------------------------------------------------- PettingZoo


def pettingzoo_games(seed: int, episodes: int, **kwargs: Any) -> list[tuple[list[int], list]]:
    from inarow.pettingzoo import raw_env

    env = raw_env(**kwargs)
    games = []
    for e in range(episodes):
        env.reset(seed=seed if e == 0 else None)
        while env.agents and not all(env.terminations.values()):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(np.flatnonzero(mask)[0]))
        games.append((env.board.moves, [env.rewards[a] for a in env.possible_agents]))
    return games


def test_pettingzoo_with_an_opponent_has_one_agent():
    pytest.importorskip("pettingzoo")
    from inarow.pettingzoo import raw_env

    assert raw_env(opponent=agents.greedy(seed=0), agent_player=2).possible_agents == ["player_1"]
    assert raw_env(rules=Rules(players=3), opponent="random").possible_agents == ["player_0"]
    with pytest.raises(ValueError, match="agent_player=3 is invalid: allowed 1..=2"):
        raw_env(opponent="random", agent_player=3)


def test_pettingzoo_opponent_lists_replay_for_a_seed_and_rewards_are_returns():
    pytest.importorskip("pettingzoo")

    def kwargs() -> dict[str, Any]:  # fresh agents: each carries its own generator
        return dict(rules=inarow.Rules(4, 4, 3), opponent=["random", agents.greedy(seed=3)])

    one = pettingzoo_games(11, 10, **kwargs())
    assert one == pettingzoo_games(11, 10, **kwargs())
    assert one != pettingzoo_games(12, 10, **kwargs())
    for moves, (reward,) in one:
        board = inarow.Board.from_moves(moves, inarow.Rules(4, 4, 3))
        assert board.is_over and reward == board.returns()[0]


def test_pettingzoo_curriculum_and_a_failing_opponent_keeps_the_state():
    pytest.importorskip("pettingzoo")
    from inarow.pettingzoo import raw_env

    asked: list[int] = []

    def schedule(episode: int) -> Any:
        asked.append(episode)
        return "random"

    env = raw_env(rules=Rules(width=4, height=4, k=3), opponent=agents.curriculum(schedule))
    for seed in range(3):
        env.reset(seed=seed)
    assert asked == [0, 1, 2]
    env = raw_env(opponent=lambda b: 99)
    env.reset(seed=0)
    before = env.board.copy()
    with pytest.raises(inarow.IllegalMoveError, match="returned 99"):
        env.step(3)
    assert env.board == before and env.board.moves == before.moves


# --------------------------------------------------------------------------- RLlib


@pytest.mark.rllib
def test_rllib_with_an_opponent_list_replays_for_a_seed():
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed")
    from inarow.rllib import InARowMultiAgentEnv

    def games(seed: int) -> list[tuple[list[int], dict[str, float]]]:
        config = dict(rules=inarow.Rules(4, 4, 3), opponent=["random", agents.greedy(seed=2)])
        env = InARowMultiAgentEnv({**config, "agent_player": 2})
        assert env.possible_agents == ["player_2"]
        out = []
        for e in range(8):
            obs, _ = env.reset(seed=seed if e == 0 else None)
            assert list(obs) == ["player_2"]
            while True:
                legal = np.flatnonzero(env.board.legal_mask())
                obs, rewards, terminated, _, _ = env.step({"player_2": int(legal[0])})
                if terminated["__all__"]:
                    break
                # RLlib needs a reward with the observation that follows an action.
                assert list(obs) == ["player_2"] and rewards == {"player_2": 0.0}
            board = env.board
            assert rewards == {"player_2": float(board.returns()[1])}
            out.append((board.moves, rewards))
        return out

    assert games(5) == games(5)
    assert games(5) != games(6)


def test_play_opponents_is_gone():
    # The episode loop is the native one (inarow._episode); the Python copy nothing
    # called was deleted.
    assert not hasattr(inarow.opponents, "play_opponents")
    assert "play_opponents" not in inarow.opponents.__all__


@pytest.mark.parametrize("name", ["perfect", "perfect:0.5", "solver:1"])
def test_a_perfect_opponent_beyond_the_solver_is_refused_at_construction(name):
    # Was: constructed, then UnsupportedRulesError at the first reset().
    with pytest.raises(inarow.UnsupportedRulesError, match=f"opponent='{name}'.*12x11"):
        InARowEnv(rules=inarow.Rules(12, 11, 5, 2, False), opponent=name)
    with pytest.raises(inarow.UnsupportedRulesError, match=r"opponent\[1\]="):
        InARowEnv(rules=inarow.Rules(12, 11, 5, 2, False), opponent=["random", agents.perfect()])
    with pytest.raises(inarow.UnsupportedRulesError, match="threats"):
        InARowEnv(rules=inarow.Rules(9, 9, 5, 3, False), opponent="threats:nodes=100")


def test_the_solver_opponent_says_what_the_solver_covers():
    # 12x11 free placement is beyond the solver because of its 132 cells, not for
    # want of gravity: the message names both limits.
    with pytest.raises(inarow.UnsupportedRulesError) as e:
        InARowEnv(rules=inarow.Rules(12, 11, 5, 2, False), opponent="solver")
    assert "without gravity width * height <= 128" in str(e.value)
    InARowEnv(rules=inarow.Rules(4, 4, 3, 2, False), opponent="solver").reset(seed=0)
