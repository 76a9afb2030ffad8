"""Zero-sum credit assignment for self-play over `inarow.VecEnv`.

In self-play each step plays one move for the side to move in every env, and the
step's ``rewards`` belong to that mover: the winner's last move gets +1, but the
loser has already moved, so its -1 is not in ``rewards``. ``info["player_rewards"]``
(also ``env.player_rewards``), ``(num_envs, players)``, holds every player's
result on the step that ends a game. The recipe: remember, per env and player,
the index of that player's latest move; when a game ends, write each player's
result onto its own latest move and mark it done. Every player then learns from
its own transitions with a sparse terminal reward (zero-sum: the results of a
game add up to 0 with two players), which is what PPO/DQN-style learners expect.

    python examples/selfplay_credit.py        # a random rollout, credited and summarised

Steps that only reset a finished game (next-step autoreset: ``info["autoreset"]``)
carry no move and are skipped. Games still running when the rollout ends keep
reward 0 and done False on their moves: bootstrap them from the value of the
next observation, as for any truncated rollout.
"""

from __future__ import annotations

import numpy as np

import inarow


def credit(
    movers: np.ndarray,
    player_rewards: np.ndarray,
    terminated: np.ndarray,
    skipped: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-move rewards and dones from a self-play rollout of ``T`` steps.

    ``movers`` ``(T, n)``: the player (1-based) who moved at each step (the
    ``current_player`` before it); ``player_rewards`` ``(T, n, players)`` and
    ``terminated`` ``(T, n)``: the step's outputs; ``skipped`` ``(T, n)``: steps
    that played no move (autoreset). Returns ``rewards`` ``(T, n)`` float32 (a
    player's result on its last move of each finished game, else 0) and ``dones``
    ``(T, n)`` bool (that last move).
    """
    steps, n = movers.shape
    players = player_rewards.shape[2]
    rewards = np.zeros((steps, n), dtype=np.float32)
    dones = np.zeros((steps, n), dtype=bool)
    latest = np.full((n, players), -1)  # step of each player's latest move, -1: none yet
    envs = np.arange(n)
    for t in range(steps):
        moved = ~skipped[t]
        latest[envs[moved], movers[t, moved] - 1] = t
        for i in np.flatnonzero(terminated[t] & moved):
            for p in range(players):
                if latest[i, p] >= 0:
                    rewards[latest[i, p], i] = player_rewards[t, i, p]
                    dones[latest[i, p], i] = True
            latest[i] = -1
    return rewards, dones


def rollout(env: inarow.VecEnv, steps: int) -> dict[str, np.ndarray]:
    """Random self-play moves, recorded as `credit` needs them (plus the actions)."""
    record: dict[str, list[np.ndarray]] = {
        k: [] for k in ("movers", "actions", "player_rewards", "terminated", "skipped")
    }
    movers = env.current_player.copy()
    for _ in range(steps):
        actions = env.random_actions()
        _, _, terminated, _, info = env.step(actions)
        record["movers"].append(movers)
        record["actions"].append(actions)
        record["player_rewards"].append(info["player_rewards"])
        record["terminated"].append(terminated)
        record["skipped"].append(info["autoreset"])
        movers = info["current_player"].copy()
    return {k: np.stack(v) for k, v in record.items()}


def main() -> None:
    env = inarow.VecEnv(256, seed=0)
    r = rollout(env, 200)
    rewards, dones = credit(r["movers"], r["player_rewards"], r["terminated"], r["skipped"])
    first = r["movers"] == 1
    games = int(r["terminated"].sum())
    print(f"{games} games finished in {r['movers'].size} steps")
    print(f"credited return of player 1: {rewards[first].sum() / games:+.3f} per game")
    print(f"credited return of player 2: {rewards[~first].sum() / games:+.3f} per game")
    print(f"sum over both players: {rewards.sum():+.1f} (zero-sum)")


if __name__ == "__main__":
    main()
