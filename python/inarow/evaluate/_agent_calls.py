"""What the evaluations share about agents: their moves on a set of boards, and the
checks before they go to Ray tasks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import inarow
from inarow._native import Agent, Board


def check_ray_args(ray: Any, chunk: Any, chunk_name: str) -> None:
    if not isinstance(ray, str):
        raise TypeError(
            f'ray must be None (run here), "local", "auto" or a cluster address, got {ray!r}'
        )
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise ValueError(
            f"{chunk_name}={chunk!r}: allowed None (sized by timing) or an integer >= 1"
        )


def require_picklable(agent: Any, name: str) -> None:
    """Raises ``TypeError`` naming ``agent`` if Ray cannot send it to a task."""
    from inarow._ray import ray_module

    cloudpickle = ray_module("evaluate's ray=").cloudpickle
    try:
        cloudpickle.dumps(agent)
    except Exception as e:  # noqa: BLE001 (pickling raises many kinds)
        raise TypeError(
            f"agent {name} ({agent!r}) cannot go to Ray tasks: it does not pickle "
            f"({type(e).__name__}: {e}); give a picklable callable (a function, or an "
            "object whose attributes pickle), or run with ray=None"
        ) from e


def agent_actions(
    agent: Any, boards: Sequence[Board], threads: int | None, first: int = 0
) -> list[int]:
    """The agent's action on each board; ``first``: the index of ``boards[0]`` in the
    set (errors name positions by it)."""
    if isinstance(agent, Agent):
        return agent.actions(boards, threads=threads)
    if not callable(agent):
        raise TypeError(
            "agent must be an inarow.agents agent or a callable agent(board) -> action, "
            f"got {type(agent).__name__}"
        )
    batched = getattr(agent, "actions", None)
    # An agent with a batched ``actions(boards)`` (a network agent) chooses for all at once.
    chosen = list(batched([b.copy() for b in boards])) if callable(batched) else None
    if chosen is not None and len(chosen) != len(boards):
        raise ValueError(
            f"agent {agent!r}.actions returned {len(chosen)} actions for {len(boards)} boards"
        )
    out = []
    for i, board in enumerate(boards):
        action = agent(board.copy()) if chosen is None else chosen[i]
        if isinstance(action, bool) or not hasattr(action, "__index__"):
            raise TypeError(
                f"agent {agent!r} returned {action!r} ({type(action).__name__}) on position "
                f"{first + i}: an agent must return an integer action"
            )
        if not board.is_legal(action):
            raise inarow.IllegalMoveError(
                f"agent {agent!r} returned an illegal action {action!r} on position {first + i}: "
                f"legal actions {board.legal_moves()}"
            )
        out.append(int(action))
    return out
