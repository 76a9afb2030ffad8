"""A CleanRL-style PPO with action masks over `inarow.gymnasium.InARowVectorEnv`
against a built-in opponent: one file, plain torch, no wrappers.

    python examples/cleanrl_masked_ppo.py                 # tic-tac-toe vs random, ~4 s
    python examples/cleanrl_masked_ppo.py --connect-four --steps 200000

The opponent's replies run inside the native step, so every transition is the
agent's move; ``autoreset_mode="same_step"`` gives CleanRL's classic loop (a done
env's next observation is already the new episode's). Illegal moves are masked
out of the policy (``logits.masked_fill(~mask, -inf)``); the env is built with
``illegal_action="raise"`` (its default is "loss"), so an unmasked illegal action
would stop the run.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from inarow import Rules
from inarow.gymnasium import InARowVectorEnv


class Agent(nn.Module):
    def __init__(self, obs_size: int, num_actions: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(obs_size, 128), nn.Tanh())
        self.actor = nn.Linear(128, num_actions)
        self.critic = nn.Linear(128, 1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(obs)).squeeze(-1)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        hidden = self.body(obs)
        logits = self.actor(hidden).masked_fill(~mask, float("-inf"))
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)


def train(
    total_steps: int = 40_000,
    num_envs: int = 16,
    num_steps: int = 64,
    rules: Rules | None = None,
    opponent: str = "random",
    seed: int = 0,
    log=print,
) -> dict[str, list[float]]:
    """Trains and returns, per iteration, the mean episode return (the agent's
    win rate minus its loss rate) of the episodes finished in that rollout. ``rules``:
    tic-tac-toe when None."""
    rules = rules if rules is not None else Rules.tic_tac_toe()
    torch.manual_seed(seed)
    envs = InARowVectorEnv(
        num_envs,
        rules=rules,
        obs_dtype="float32",
        autoreset_mode="same_step",
        opponent=opponent,
        agent_player="random",
        illegal_action="raise",
        seed=seed,
    )
    shape = envs.single_observation_space["observation"].shape
    num_actions = int(envs.single_action_space.n)
    agent = Agent(int(np.prod(shape)), num_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-3, eps=1e-5)
    gamma, lam, clip, epochs, minibatches = 0.99, 0.95, 0.2, 4, 4

    obs_buf = torch.zeros((num_steps, num_envs, *shape))
    mask_buf = torch.zeros((num_steps, num_envs, num_actions), dtype=torch.bool)
    act_buf = torch.zeros((num_steps, num_envs), dtype=torch.long)
    logp_buf = torch.zeros((num_steps, num_envs))
    rew_buf = torch.zeros((num_steps, num_envs))
    done_buf = torch.zeros((num_steps, num_envs))
    val_buf = torch.zeros((num_steps, num_envs))

    obs, _ = envs.reset(seed=seed)
    next_obs = torch.as_tensor(obs["observation"])
    next_mask = torch.as_tensor(obs["action_mask"]).bool()
    next_done = torch.zeros(num_envs)
    history: dict[str, list[float]] = {"mean_return": [], "episodes": []}
    iterations = total_steps // (num_envs * num_steps)
    for iteration in range(iterations):
        returns = []
        for t in range(num_steps):
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            assert next_mask[torch.arange(num_envs), action].all(), "a masked action was sampled"
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs, reward, terminated, truncated, _ = envs.step(action.numpy())
            rew_buf[t] = torch.as_tensor(reward)
            done = terminated | truncated
            returns.extend(reward[done].tolist())
            next_obs = torch.as_tensor(obs["observation"])
            next_mask = torch.as_tensor(obs["action_mask"]).bool()
            next_done = torch.as_tensor(done, dtype=torch.float32)

        with torch.no_grad():  # generalised advantage estimation
            next_value = agent.value(next_obs)
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(num_envs)
            for t in reversed(range(num_steps)):
                nonterminal = 1.0 - (next_done if t == num_steps - 1 else done_buf[t + 1])
                following = next_value if t == num_steps - 1 else val_buf[t + 1]
                delta = rew_buf[t] + gamma * following * nonterminal - val_buf[t]
                last = delta + gamma * lam * nonterminal * last
                advantages[t] = last
            targets = advantages + val_buf

        b_obs, b_mask = obs_buf.flatten(0, 1), mask_buf.flatten(0, 1)
        b_act, b_logp = act_buf.flatten(), logp_buf.flatten()
        b_adv, b_target = advantages.flatten(), targets.flatten()
        batch = num_envs * num_steps
        for _ in range(epochs):
            order = torch.randperm(batch)
            for part in order.chunk(minibatches):
                _, logp, entropy, value = agent.act(b_obs[part], b_mask[part], b_act[part])
                ratio = (logp - b_logp[part]).exp()
                adv = b_adv[part]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip, 1 + clip))
                loss = (
                    policy_loss.mean()
                    + 0.5 * ((value - b_target[part]) ** 2).mean()
                    - 0.01 * entropy.mean()
                )
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()

        mean_return = float(np.mean(returns)) if returns else 0.0
        history["mean_return"].append(mean_return)
        history["episodes"].append(float(len(returns)))
        log(
            f"iteration {iteration + 1}/{iterations}: {len(returns)} episodes, mean return {mean_return:+.2f}"
        )
    return history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=40_000)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--connect-four", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    rules = Rules.connect_four() if args.connect_four else None
    start = time.perf_counter()
    history = train(args.steps, args.envs, rules=rules, opponent=args.opponent, seed=args.seed)
    first, last = history["mean_return"][0], history["mean_return"][-1]
    print(f"mean return {first:+.2f} -> {last:+.2f} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
