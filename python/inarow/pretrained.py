"""Agents driven by a policy/value network: the network alone, or ``inarow.MCTS``
with the network as its evaluator. ``inarow.agents.pretrained`` builds one on the
numpy weights shipped in the package (no deep-learning framework needed)."""

from __future__ import annotations

import hashlib
import itertools
import threading
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import inarow
from inarow._native import Board, ConvNet
from inarow.symmetry import symmetries

__all__ = ["NetworkAgent", "PRETRAINED", "load_pretrained"]

#: Shipped weights: game name -> file in ``inarow/data``.
PRETRAINED = {
    "connect_four": "connect_four.npz",
    "tic_tac_toe": "tic_tac_toe.npz",
    "5x5_k4_free": "5x5_k4_free.npz",
    "6x6_k4_free": "6x6_k4_free.npz",
    "15x15_k5_free": "15x15_k5_free.npz",
}

#: The rules each shipped network plays.
PRETRAINED_RULES = {
    "connect_four": inarow.Rules.connect_four(),
    "tic_tac_toe": inarow.Rules.tic_tac_toe(),
    "5x5_k4_free": inarow.Rules(width=5, height=5, k=4, players=2, gravity=False),
    "6x6_k4_free": inarow.Rules(width=6, height=6, k=4, players=2, gravity=False),
    "15x15_k5_free": inarow.Rules(width=15, height=15, k=5, players=2, gravity=False),
}


#: The search a shipped agent makes unless told otherwise, ``(simulations,
#: stop_early)``: Connect Four's 600 simulations stopping early cost a move about
#: what 200 without it did before the native forward pass's tap-major kernel
#: (docs/training.md, "Connect Four"); every other game: 200, plain.
DEFAULT_SEARCH: dict[str, tuple[int, bool]] = {"connect_four": (600, True)}
PLAIN_SEARCH = (200, False)


def default_search(game: str) -> tuple[int, bool]:
    """``(simulations, stop_early)`` of ``game``'s shipped agent by default."""
    return DEFAULT_SEARCH.get(game, PLAIN_SEARCH)


def pretrained_game(rules: inarow.Rules) -> str | None:
    """The game of `PRETRAINED` whose network plays `rules`, if any."""
    return next((n for n, r in PRETRAINED_RULES.items() if r == rules), None)


Net = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]

#: About the memory the loaders' agents give their cache of network outputs.
CACHE_BYTES = 16 << 20


def default_cache(rules: dict[str, Any]) -> int:
    """Positions a cache of about `CACHE_BYTES` holds for ``rules`` (a key, the
    logits, the value and Python's overhead per position: 14.6 MiB at capacity for
    Connect Four, 15.4 MiB for 15x15, measured with tracemalloc)."""
    actions = inarow.Rules(**rules).num_actions
    return CACHE_BYTES // (320 + 4 * (actions + rules["players"]))


class NetworkAgent:
    """``agent(board) -> action``: the most visited move of a PUCT search of
    ``simulations`` per move (no root noise, so deterministic), or with
    ``simulations=0`` the network's most likely legal move.

    ``proof_nodes`` (2 players; 0: off) adds threat proofs (:mod:`inarow.threats`:
    VCT on free-placement boards, VCF columns on gravity boards), each search
    bounded by that many positions: a proven forced win for the side to move is
    played at once; otherwise the moves after which the opponent has a proven forced
    win are set aside, and if the search's move is one of them, the most visited of
    the others is played (when every move loses, the search's move stands).

    ``symmetric=True`` averages the network's policy and value over the board's
    symmetries that keep the rules (test-time augmentation: the mirror with gravity,
    up to 8 images without), for the raw policy and for every position the search
    evaluates; each call then costs that many positions.

    ``net(obs) -> (logits, values)`` takes the search's planes ``(B, players, H, W)``
    float32. ``actions(boards)`` searches many boards at once, one network call per
    round for all of them (``inarow.evaluate.move_accuracy`` uses it).

    ``stop_early=True`` ends each search once no remaining simulation could change
    the most visited move (``inarow.MCTS(stop_early=True)``): the same move for
    fewer network calls, bar a proof the rest of the budget would have found, so
    a larger ``simulations`` fits the same time.

    ``cache`` (0: off) keeps the network's outputs for up to that many positions,
    the oldest dropped first, so that a position met again costs no network call:
    about one leaf in nine of a search is a transposition, and in a game each search
    meets again most of what the last ones evaluated. For a network that does not
    change while cached (``clear_cache()`` forgets; replacing ``net`` does too).
    With a plain :class:`inarow.numpy_net.NumpyNet` the search calls its native
    network from Rust, through that network's own cache of ``cache`` positions: the
    same outputs and moves, without a Python call per leaf.
    """

    def __init__(
        self,
        net: Net,
        rules: dict[str, Any],
        simulations: int = 200,
        c_puct: float = 1.25,
        name: str = "network",
        proof_nodes: int = 0,
        symmetric: bool = False,
        cache: int = 0,
        stop_early: bool = False,
    ) -> None:
        for flag, value in (("symmetric", symmetric), ("stop_early", stop_early)):
            if not isinstance(value, bool):
                raise TypeError(f"{flag}={value!r}: allowed True or False")
        if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 0:
            raise ValueError(f"simulations={simulations!r}: allowed an integer >= 0")
        if isinstance(cache, bool) or not isinstance(cache, int) or not 0 <= cache <= 2**32:
            raise ValueError(f"cache={cache!r}: allowed an integer 0..=2**32 (positions kept)")
        if (
            isinstance(proof_nodes, bool)
            or not isinstance(proof_nodes, int)
            or not 0 <= proof_nodes <= 2**40
        ):
            raise ValueError(f"proof_nodes={proof_nodes!r}: allowed an integer 0..=2**40")
        if proof_nodes and rules["players"] != 2:
            raise inarow.UnsupportedRulesError(
                f"proof_nodes={proof_nodes}: threat proofs need 2 players, these rules have "
                f"{rules['players']}"
            )
        self.net = net
        self.rules = dict(rules)
        self.simulations = simulations
        self.proof_nodes = proof_nodes
        self.symmetric = symmetric
        self.stop_early = stop_early
        self._images = symmetries(self.rules) if symmetric else []
        self.name = name
        self._c_puct = c_puct
        self._search: inarow.MCTS | None = None
        self._search_settings: tuple[int, bool] | None = None
        self.cache = cache
        self._cached: dict[bytes, tuple[np.ndarray, Any]] = {}
        self._cached_net: Net | None = None
        self._cache_lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        # A copy starts with an empty cache, a fresh lock and no search of its own.
        state = self.__dict__.copy()
        state.update(_cached={}, _cached_net=None, _cache_lock=None, _search=None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._cache_lock = threading.Lock()

    def clear_cache(self) -> None:
        """Forgets every cached network output (see ``cache``)."""
        with self._cache_lock:
            self._cached.clear()
        native = getattr(self.net, "_native", None)
        if isinstance(native, ConvNet):
            native.clear_cache()

    def __repr__(self) -> str:
        proofs = f" proof_nodes={self.proof_nodes}" if self.proof_nodes else ""
        symmetric = " symmetric" if self.symmetric else ""
        early = " stop_early" if self.stop_early else ""
        return (
            f"<NetworkAgent {self.name} simulations={self.simulations}{proofs}{symmetric}{early}>"
        )

    def _check(self, board: Board, where: str) -> None:
        if not isinstance(board, Board):
            raise TypeError(f"{where} must be an inarow.Board, got {type(board).__name__}")
        mine = inarow.Rules(**self.rules)
        if board.rules.to_dict() | {"rule": mine.rule} != mine.to_dict() | {"rule": mine.rule}:
            raise ValueError(f"{where} has rules {board.rules!r}; this agent plays {mine!r}")
        if board.rules.rule != mine.rule:
            # Its values and policy hold under the rule of its self-play games only.
            raise inarow.UnsupportedRulesError(
                f"{where} plays rule={board.rules.rule!r}; this network plays "
                f"rule={mine.rule!r} only, the rule it was trained under"
            )
        if board.is_over:
            raise inarow.IllegalMoveError(f"{where}: the game is over")

    def evaluate(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The MCTS evaluator: the network's logits and values."""
        return self._forward(obs)

    def _forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The network on ``obs``, each position looked up in the cache first."""
        if not self.cache:
            return self._forward_net(obs)
        obs = np.ascontiguousarray(obs, dtype=np.float32)
        if len(obs) == 1:
            return self._forward_one(obs)
        # A 128-bit digest as the key: a few bytes a position, whatever the board.
        keys = [hashlib.blake2b(row, digest_size=16).digest() for row in obs]
        with self._cache_lock:
            self._forget_a_replaced_net()
            found = [self._cached.get(k) for k in keys]
        missing = [i for i, hit in enumerate(found) if hit is None]
        if missing:
            logits, values = self._forward_net(obs[missing] if len(missing) < len(obs) else obs)
            with self._cache_lock:
                for j, i in enumerate(missing):
                    found[i] = entry = (logits[j].copy(), values[j].copy())
                    self._cached[keys[i]] = entry
                over = len(self._cached) - self.cache
                if over > 0:  # dicts keep insertion order: the oldest go first
                    for k in list(itertools.islice(self._cached, over)):
                        del self._cached[k]
        return (
            np.stack([hit[0] for hit in found]),  # type: ignore[index]
            np.stack([hit[1] for hit in found]),  # type: ignore[index]
        )

    def _forget_a_replaced_net(self) -> None:
        """Empties the cache if ``net`` was replaced since it was filled (the caller
        holds the lock)."""
        if self._cached_net is not self.net:
            self._cached.clear()
            self._cached_net = self.net

    def _forward_one(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`_forward` of one position ``(1, players, H, W)``: the search's usual call,
        kept free of the batch path's lists and stacking."""
        key = hashlib.blake2b(obs, digest_size=16).digest()
        with self._cache_lock:
            self._forget_a_replaced_net()
            hit = self._cached.get(key)
        if hit is not None:
            return hit[0][None], hit[1][None]
        logits, values = self._forward_net(obs)
        entry = (logits[0].copy(), values[0].copy())
        with self._cache_lock:
            self._cached[key] = entry
            if len(self._cached) > self.cache:  # dicts keep insertion order
                del self._cached[next(iter(self._cached))]
        return logits, values

    def _forward_net(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The network on ``obs`` ``(B, players, H, W)``, averaged over the board's
        symmetries if ``symmetric``: each image's logits are mapped back to this
        board's actions before the mean."""
        if not self.symmetric:
            return self.net(obs)
        images = self._images
        b, (height, width) = obs.shape[0], obs.shape[-2:]
        logits, values = self.net(np.concatenate([s.planes(obs) for s in images]))
        back = [
            s.inverse().actions(logits[i * b : (i + 1) * b], height, width)
            for i, s in enumerate(images)
        ]
        mean_values = values.reshape(len(images), b, *values.shape[1:]).mean(axis=0)
        return np.mean(back, axis=0, dtype=np.float32), mean_values.astype(np.float32)

    def policy_value(self, board: Board) -> tuple[np.ndarray, np.ndarray | float]:
        """The raw network on ``board``: the policy over actions (0 at illegal ones) and
        the value (a float for the side to move with 2 players, else per player, column
        ``i`` the player ``i`` turns after the side to move)."""
        self._check(board, "board")
        obs = board.observation()[None].astype(np.float32)
        logits, values = self._forward(obs)
        mask = board.legal_mask()
        z = np.where(mask, logits[0], -np.inf)
        p = np.exp(z - z.max())
        p /= p.sum()
        v = values[0]
        return p.astype(np.float32), (float(v) if np.ndim(v) == 0 else np.asarray(v))

    def actions(self, boards: Iterable[Board]) -> list[int]:
        boards = list(boards)
        for i, b in enumerate(boards):
            self._check(b, f"boards[{i}]")
        if not boards:
            return []
        if self.simulations == 0:
            obs = np.stack([b.observation() for b in boards]).astype(np.float32)
            masks = np.stack([b.legal_mask() for b in boards])
            logits, _ = self._forward(obs)
            preference = np.where(masks, logits, -np.inf)
            chosen = [int(a) for a in preference.argmax(axis=1)]
        else:
            out = self._mcts().run(boards, self._evaluator())
            preference = out.visit_counts.astype(np.float64)
            chosen = [int(a) for a in out.actions]
        if self.proof_nodes:
            chosen = [
                self._proven(b, a, preference[i]) for i, (b, a) in enumerate(zip(boards, chosen))
            ]
        return chosen

    def _proven(self, board: Board, choice: int, preference: np.ndarray) -> int:
        """``choice`` checked by threat proofs (see the class)."""
        from inarow.threats import _proven_move

        win = _proven_move(board, self.proof_nodes)
        if win is not None:
            return win
        # The moves in the search's order of preference, until one is not a proven loss.
        legal = board.legal_moves()
        ordered = [choice] + sorted((a for a in legal if a != choice), key=lambda a: -preference[a])
        for action in ordered:
            after = board.copy()
            after.move(action)
            if after.is_over or _proven_move(after, self.proof_nodes) is None:
                return int(action)
        return choice

    def __call__(self, board: Board) -> int:
        return self.actions([board])[0]

    def _evaluator(self) -> Any:
        """What the search calls: a plain `NumpyNet`'s native network, called from
        Rust through its own cache of ``cache`` positions (the same outputs, so the
        same search, without a Python call a leaf); else `evaluate`."""
        from inarow.numpy_net import NumpyNet

        if type(self.net) is not NumpyNet or self.symmetric:
            return self.evaluate
        native = self.net.native
        if native.cache != self.cache:
            native.cache = self.cache
        return native

    def _mcts(self) -> inarow.MCTS:
        settings = (self.simulations, self.stop_early)
        if self._search is None or self._search_settings != settings:
            self._search = inarow.MCTS(
                self.rules,
                num_simulations=self.simulations,
                root="puct",
                c_puct=self._c_puct,
                dirichlet_fraction=0.0,
                reuse_tree=False,
                threads=1,
                stop_early=self.stop_early,
            )
            self._search_settings = settings
        return self._search


def _weights_path(game: str) -> Path:
    try:
        name = PRETRAINED[game]
    except KeyError:
        raise ValueError(
            f"no pretrained network for {game!r}: allowed {sorted(PRETRAINED)}"
        ) from None
    return Path(str(resources.files("inarow") / "data" / name))


def load_pretrained(
    game: str,
    simulations: int | None = None,
    proof_nodes: int = 0,
    symmetric: bool = False,
    stop_early: bool | None = None,
) -> NetworkAgent:
    """The shipped network for ``game`` as a :class:`NetworkAgent` (no deep-learning
    framework: :mod:`inarow.numpy_net`); ``None`` settings take the game's
    :func:`default_search`."""
    from inarow.numpy_net import NumpyNet

    path = _weights_path(game)
    default_simulations, default_stop_early = default_search(game)
    if simulations is None:
        simulations = default_simulations
    if stop_early is None:
        stop_early = default_stop_early
    if not path.is_file():
        raise FileNotFoundError(
            f"the pretrained weights {path} are missing (a broken installation?)"
        )
    net = NumpyNet.load(path)
    return NetworkAgent(
        net,
        net.rules,
        simulations=simulations,
        name=f"pretrained {game}",
        proof_nodes=proof_nodes,
        symmetric=symmetric,
        cache=default_cache(net.rules),
        stop_early=stop_early,
    )


def load_network(
    path: str | Path,
    simulations: int = 200,
    proof_nodes: int = 0,
    symmetric: bool = False,
    stop_early: bool = False,
) -> NetworkAgent:
    """A network saved by ``inarow train`` (its ``network.npz``) as a
    :class:`NetworkAgent` for the rules it was trained on."""
    from inarow.numpy_net import NumpyNet

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no network at {str(path)!r}: give the network.npz of a run")
    try:
        net = NumpyNet.load(path)
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{str(path)!r} is not a network saved by inarow train: {e}") from e
    return NetworkAgent(
        net,
        net.rules,
        simulations=simulations,
        name=f"network {path.name}",
        proof_nodes=proof_nodes,
        symmetric=symmetric,
        cache=default_cache(net.rules),
        stop_early=stop_early,
    )


def _as_list(boards: Sequence[Board]) -> list[Board]:
    return list(boards)
