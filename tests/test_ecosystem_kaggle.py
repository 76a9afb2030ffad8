"""The ConnectX agent inside kaggle-environments itself: whole games against
Kaggle's "random" and "negamax" agents with no INVALID, TIMEOUT or ERROR status.
Needs ``pip install kaggle-environments`` (the ``ecosystems`` extra); run with
``-m ecosystem``."""

from __future__ import annotations

import pytest

pytest.importorskip("kaggle_environments", reason="kaggle-environments is not installed")
pytestmark = pytest.mark.ecosystem

from kaggle_environments import make  # noqa: E402

from inarow.connectx import agent  # noqa: E402


@pytest.mark.parametrize("opponent", ["random", "negamax"])
@pytest.mark.parametrize("first", [True, False])
def test_games_against_kaggles_agents(opponent, first):
    env = make("connectx", debug=True)
    agents = [agent, opponent] if first else [opponent, agent]
    steps = env.run(agents)
    final = steps[-1]
    assert [s["status"] for s in final] == ["DONE", "DONE"], final
    ours = final[0 if first else 1]
    # The solver never loses from either seat against these opponents.
    assert ours["reward"] >= (1 if first else 0), final
