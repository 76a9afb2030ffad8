"""Self-play spread over a Ray cluster (``inarow train --ray [ADDRESS]``): actors on
the cluster's CPUs each run the batched self-play of `inarow.train.selfplay` with the
latest weights; the learner (the training loop, unchanged) takes their finished
games as they come and publishes its weights through Ray's object store every
``publish_steps`` training steps, which actors load before their next batch of moves.

Faults: an actor whose process or node dies is replaced (a new seed, the latest
weights) and the run goes on. What is lost is the games that actor had in progress:
at most one call's moves of ``config.games`` games, never a finished game twice.
The learner checkpoints as a local run does, so a lost head resumes from its last
checkpoint with ``--resume`` (locally or on Ray). Needs the ``ray`` extra
beside the ``train`` extra."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from inarow._ray import connect
from inarow.train.config import TrainConfig
from inarow.train.selfplay import Games

__all__ = ["RaySelfPlay", "connect"]

#: Searched moves (of every game of an actor) per call: long enough to finish games
#: and keep the calls cheap, short enough that new weights arrive often.
MOVES_PER_CALL = 8

#: How long one `RaySelfPlay.step` waits for a finished call before the learner
#: trains again.
WAIT_SECONDS = 0.05


def _actor_class(ray: Any) -> Any:
    @ray.remote(num_cpus=1)
    class SelfPlayActor:
        """Self-play on one CPU of the cluster (its network on the CPU, or on the
        GPU share Ray gave it) with the weights it was last given."""

        def __init__(self, config: dict[str, Any], seed: int, device: str) -> None:
            import torch

            from inarow.train.device import mixed_precision_allowed, torch_evaluator
            from inarow.train.network import Network
            from inarow.train.selfplay import SelfPlay

            if device == "cuda" and not torch.cuda.is_available():
                raise RuntimeError(
                    "this self-play actor was given a GPU share but torch sees no CUDA "
                    "device on its node (a CPU-only torch build, or a cluster that "
                    "declares GPUs it does not have)"
                )
            torch.set_num_threads(1)
            cfg = TrainConfig.from_dict(dict(config, threads=1, device=device))
            self.net = Network(cfg).to(device)
            self.version = -1
            mixed = cfg.mixed_precision and mixed_precision_allowed(torch.device(device))
            self.selfplay = SelfPlay(cfg, torch_evaluator(self.net, mixed), seed)

        def ready(self) -> bool:
            return True

        def play(self, weights: tuple[int, dict[str, np.ndarray]], moves: int) -> dict:
            import torch

            version, state = weights
            if version != self.version:
                self.net.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
                self.version = version
            sims, net_s = self.selfplay.simulations, self.selfplay.network_seconds
            parts = [g for g in (self.selfplay.step() for _ in range(moves)) if g is not None]
            return dict(
                games=_concat(parts),
                simulations=self.selfplay.simulations - sims,
                network_seconds=self.selfplay.network_seconds - net_s,
                version=version,
            )

    return SelfPlayActor


def _concat(parts: list[Games]) -> Games | None:
    if not parts:
        return None
    return Games(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in Games.FIELDS),
        games=sum(p.games for p in parts),
        wins=np.sum([p.wins for p in parts], axis=0),
        vs_opponents=np.sum([p.vs_opponents for p in parts], axis=0),
    )


def _check_actor_gpus(actor_gpus: float) -> None:
    """A share Ray can grant: a fraction of one GPU, or whole GPUs."""
    ok = isinstance(actor_gpus, (int, float)) and not isinstance(actor_gpus, bool)
    if not ok or not (
        actor_gpus == 0 or 0 < actor_gpus <= 1 or float(actor_gpus).is_integer() and actor_gpus > 1
    ):
        raise ValueError(
            f"actor_gpus={actor_gpus!r}: allowed 0 (CPU actors), a fraction in (0, 1] "
            "(actors sharing a GPU) or a whole number of GPUs"
        )


def _weights(net: Any) -> dict[str, np.ndarray]:
    return {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}


class RaySelfPlay:
    """The training loop's self-play source on a Ray cluster: the interface of
    `inarow.train.selfplay.SelfPlay` (``step()``, ``simulations``,
    ``network_seconds``), plus ``publish(net)`` and ``close()``."""

    def __init__(
        self,
        config: TrainConfig,
        net: Any,
        seed: int,
        address: str | None = None,
        actors: int | None = None,
        publish_steps: int = 20,
        on_replace: Callable[[str], None] | None = None,
        actor_gpus: float = 0.0,
    ) -> None:
        _check_actor_gpus(actor_gpus)
        self.ray = connect(address)
        self.config = config
        self.publish_steps = publish_steps
        self.on_replace = on_replace
        self._rng = np.random.default_rng(seed)
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        self.num_actors = max(1, cpus - 1) if actors is None else actors
        if self.num_actors < 1:
            raise ValueError(f"actors={actors}: allowed at least 1")
        have = self.ray.cluster_resources().get("GPU", 0)
        if actor_gpus > have:
            raise ValueError(
                f"actor_gpus={actor_gpus}: the cluster has {have:g} GPUs, and an actor "
                "needs its whole share on one node"
            )
        self.actor_gpus = actor_gpus
        self._actor_cls = _actor_class(self.ray).options(num_gpus=actor_gpus)
        self.version = 0
        self._weights = self.ray.put((self.version, _weights(net)))
        self._published_at = 0
        self.replaced = 0
        self.simulations = 0
        self.network_seconds = 0.0
        actors_now = [self._new_actor() for _ in range(self.num_actors)]
        try:
            # An actor that cannot start says why now, not through endless replacements.
            self.ray.get([a.ready.remote() for a in actors_now])
        except self.ray.exceptions.RayActorError as e:
            for a in actors_now:
                self.ray.kill(a)
            raise RuntimeError(f"self-play actors could not start: {e}") from e
        self._calls = {self._submit(a): a for a in actors_now}

    def _new_actor(self) -> Any:
        seed = int(self._rng.integers(2**62))
        device = "cuda" if self.actor_gpus > 0 else "cpu"
        return self._actor_cls.remote(self.config.to_dict(), seed, device)

    def _submit(self, actor: Any) -> Any:
        return actor.play.remote(self._weights, MOVES_PER_CALL)

    def publish(self, net: Any, steps: int) -> None:
        """Puts the weights in the object store when ``publish_steps`` training steps
        have passed since the last time; actors load them at their next call."""
        if steps - self._published_at < self.publish_steps:
            return
        self.version += 1
        self._weights = self.ray.put((self.version, _weights(net)))
        self._published_at = steps

    def step(self) -> Games | None:
        """The games the calls that finished (within `WAIT_SECONDS`) brought back;
        their actors start their next call at once. A call whose actor died is
        dropped and the actor replaced."""
        ready, _ = self.ray.wait(list(self._calls), num_returns=1, timeout=WAIT_SECONDS)
        if ready:
            more, _ = self.ray.wait(list(self._calls), num_returns=len(self._calls), timeout=0)
            ready = list(dict.fromkeys(ready + more))
        parts = []
        for ref in ready:
            actor = self._calls.pop(ref)
            try:
                out = self.ray.get(ref)
            except (self.ray.exceptions.RayActorError, self.ray.exceptions.WorkerCrashedError) as e:
                self.replaced += 1
                if self.on_replace is not None:
                    self.on_replace(f"self-play actor lost ({type(e).__name__}); replaced")
                actor = self._new_actor()
            else:
                self.simulations += out["simulations"]
                self.network_seconds += out["network_seconds"]
                if out["games"] is not None:
                    parts.append(out["games"])
            self._calls[self._submit(actor)] = actor
        return _concat(parts)

    def close(self) -> None:
        """Stops the actors (the cluster stays up)."""
        for actor in list(self._calls.values()):
            try:
                self.ray.kill(actor)
            except Exception:  # noqa: BLE001 (an actor already gone)
                pass
        self._calls.clear()

    def actors(self) -> list[Any]:
        """The live actors' handles (for tests and tools that kill one)."""
        return list(self._calls.values())
