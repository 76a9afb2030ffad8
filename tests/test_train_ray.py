"""Self-play on a Ray cluster (``inarow train --ray``), on a simulated two-node cluster
on this machine: a tic-tac-toe run learns as a local one does, actors lost with
their node are replaced and the games keep coming, and a run resumes across the two
kinds. Needs ray and torch (CI's second environment); marker ``rllib``."""

from __future__ import annotations

import math

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (the ray extra)")
torch = pytest.importorskip("torch", reason="torch is not installed (the train extra)")
pytestmark = pytest.mark.rllib

from ray.cluster_utils import Cluster  # noqa: E402

from inarow.train import TrainConfig, train  # noqa: E402
from inarow.train.distributed import RaySelfPlay  # noqa: E402
from inarow.train.log import read_log  # noqa: E402
from inarow.train.network import Network  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    """A head without CPUs for actors and two worker nodes of one CPU each."""
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    nodes = [c.add_node(num_cpus=1) for _ in range(2)]
    ray.init(address=c.address, log_to_driver=False)
    yield c, nodes
    ray.shutdown()
    c.shutdown()


def _config(**changes):
    settings = dict(games=16, simulations=8, min_replay=200, eval_minutes=0.25, eval_games=4)
    settings.update(changes)
    return TrainConfig.for_game("tic_tac_toe", **settings)


def test_a_run_on_the_cluster_learns_and_resumes_locally(cluster, tmp_path):
    run_dir = tmp_path / "run"
    first = train(_config(), run_dir, minutes=0.75, progress=False, ray="", actors=2)
    assert first["games"] > 500 and first["train_steps"] > 50
    log = read_log(run_dir / "log.csv")
    mistakes = [m for m in log["mistakes_raw"] if not math.isnan(m)]
    assert mistakes[-1] < mistakes[0] / 4, mistakes  # the untrained network's first
    # The same run goes on in one process: the counters and the log continue.
    second = train(None, run_dir, minutes=0.1, resume=True, progress=False)
    assert second["games"] > first["games"] and second["train_steps"] > first["train_steps"]
    assert len(read_log(run_dir / "log.csv")["seconds"]) > len(log["seconds"])


def test_actors_lost_with_a_node_are_replaced_and_games_keep_coming(cluster):
    c, nodes = cluster
    config = _config()
    source = RaySelfPlay(config, Network(config), seed=0, actors=2)
    try:
        games = 0
        while games < 50:
            got = source.step()
            games += 0 if got is None else got.games
        extra = c.add_node(num_cpus=1)  # room for the replacement
        c.remove_node(nodes[1])  # one actor's node goes down mid-call
        before = games
        while games < before + 50:
            got = source.step()
            if got is not None:
                games += got.games
                assert np.isfinite(got.value).all() and len(got.obs) == len(got.policy)
        for _ in range(200):  # the lost call surfaces within a few steps
            if source.replaced:
                break
            source.step()
        assert source.replaced >= 1 and len(source.actors()) == 2
        nodes[1] = extra
    finally:
        source.close()


def test_weights_are_published_every_few_steps(cluster):
    config = _config()
    net = Network(config)
    source = RaySelfPlay.__new__(RaySelfPlay)  # the publishing rule alone, no cluster
    source.ray, source.publish_steps, source._published_at, source.version = ray, 20, 0, 0
    source.publish(net, 10)
    assert source.version == 0
    source.publish(net, 20)
    assert source.version == 1 and source._published_at == 20


def test_gpu_actors_are_checked_before_any_game(cluster):
    """GPU shares Ray cannot grant, or a node without CUDA behind a declared GPU,
    are refused at once with the reason (not by replacing actors forever)."""
    c, _ = cluster
    config = _config()
    for bad in (-1, 1.5, True, "1"):
        with pytest.raises(ValueError, match="allowed 0 .CPU actors."):
            RaySelfPlay(config, Network(config), seed=0, actors=1, actor_gpus=bad)
    with pytest.raises(ValueError, match="the cluster has 0 GPUs"):
        RaySelfPlay(config, Network(config), seed=0, actors=1, actor_gpus=0.5)
    with pytest.raises(ValueError, match="GPU actors need ray="):
        train(config, "unused", minutes=0.1, progress=False, actor_gpus=0.5)
    if torch.cuda.is_available():
        return
    gpu_node = c.add_node(num_cpus=1, num_gpus=1)  # declared, not there
    try:
        c.wait_for_nodes()
        with pytest.raises(RuntimeError, match="torch sees no CUDA device"):
            RaySelfPlay(config, Network(config), seed=0, actors=2, actor_gpus=0.5)
    finally:
        c.remove_node(gpu_node)
