"""What a training run is: the rules, the network's size, self-play, learning and
evaluation settings, with defaults per game (``TrainConfig.for_game``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from inarow._rules import PRESETS

__all__ = ["GAMES", "TrainConfig"]

#: Rules of the named games (``inarow train NAME``).
GAMES: dict[str, dict[str, Any]] = {
    name: PRESETS[name].to_dict() for name in ("connect_four", "tic_tac_toe")
}


#: The threat engine's nodes a move in the default rung (gomoku boards).
THREATS_RUNG_NODES = 20_000


@dataclass
class TrainConfig:
    """Every setting of a run; saved in its checkpoints, so ``--resume`` continues it."""

    rules: dict[str, Any] = field(default_factory=lambda: dict(GAMES["connect_four"]))
    # network: a residual conv tower with policy and value heads
    channels: int = 32
    blocks: int = 3
    # Auxiliary targets (KataGo), each a head of its own trained beside the policy and
    # value and left out of the exported network; the weight of its loss, 0 off:
    # the final board (each cell's owner at the game's end, seen from the side to
    # move) and the reply (the move played next, by the opponent).
    final_board_weight: float = 0.0
    reply_weight: float = 0.0
    # self-play
    games: int = 128  # games played at once, one tree each, one network call per round
    simulations: int = 32  # per move, Gumbel root (few simulations still improve the policy)
    gumbel_considered: int = 8
    # The search's root: "gumbel" (sequential halving; the improved policy is the
    # target) or "puct" (AlphaZero: Dirichlet noise; the visit counts are the target),
    # where `forced_playouts` > 0 adds KataGo's forced playouts and policy target pruning.
    root: str = "gumbel"
    forced_playouts: float = 0.0
    # Playout cap randomisation (KataGo): each round of moves is a full search
    # (`simulations`, its policy trained on) with this probability, else a fast one
    # (`fast_simulations`, played but its policy not trained on; value targets from
    # every position). 1.0: every move a full search.
    full_search_share: float = 1.0
    fast_simulations: int = 8
    temperature_plies: int = 8  # sample moves from the improved policy for these plies
    # Each searched move is replaced by a uniformly random legal one with this
    # probability (its position keeps the search's policy target): blunders that keep
    # self-play decisive where equal players only block each other (3+ players).
    random_move_share: float = 0.0
    # Threat proofs in self-play (2 players; 0: off): a forced win the threat search
    # proves within this many positions (VCT without gravity, VCF columns with it) is
    # played, and its first move is the position's policy target.
    selfplay_proof_nodes: int = 0
    # Each game opens with 0..random_opening_plies uniformly random moves (not trained
    # on), so self-play also visits the positions a strong player never reaches.
    random_opening_plies: int = 4
    # Reference opponents (a league against fixed agents): in `opponent_share` of the
    # self-play games the network takes one seat, drawn at random, and agents named
    # here (`inarow.agents.named`: "negamax:2", "random", a past run's network.npz)
    # take the others, drawn per seat. The network searches its own moves only; the
    # opponents' positions train the value head (their policy targets are left out).
    opponents: tuple[str, ...] = ()
    opponent_share: float = 0.5
    # learning
    batch_size: int = 256
    learning_rate: float = 2e-3
    weight_decay: float = 1e-4
    # The learning rate follows a cosine from learning_rate down to this share of it over
    # each invocation's time budget (a resumed run starts from the rate it had reached).
    final_learning_rate_share: float = 0.1
    replay_capacity: int = 200_000  # positions (before symmetry augmentation)
    replay_ratio: float = 4.0  # positions trained on per position played
    min_replay: int = 2_000  # positions played before the first training step
    # evaluation (0 disables an item)
    eval_minutes: float = 15.0
    eval_simulations: int = 200
    eval_per_set: int = 42  # Pons positions per set (42: every set's shipped analysis covers them)
    # Random openings per length judged by the solver, for the other rules it covers.
    eval_judged_per_set: int = 50
    eval_negamax_depths: tuple[int, ...] = (2, 4)
    eval_games: int = 10  # per depth, half in each seat
    eval_match_simulations: int = 50  # the searching agent's simulations in those games
    # A rung above negamax: eval_games against inarow.agents.threats with this many
    # nodes a move (0: none; 2 players). On by default for 2-player free-placement
    # boards with k >= 5 (gomoku), where the threat engine is the strongest reference.
    eval_threats_nodes: int = 0
    # the machine
    threads: int = 1  # torch and MCTS threads
    # Where the network trains and evaluates (inarow.train.device): "cpu", "cuda",
    # "cuda:N", "mps" or "auto". A run may resume on another device.
    device: str = "cpu"
    # bfloat16 autocast for the network's forward passes and losses, on a cuda device
    # or a CPU with native bfloat16 (weights, optimizer state and checkpoints stay
    # float32).
    mixed_precision: bool = False
    seed: int = 0

    def __post_init__(self) -> None:
        if not (
            isinstance(self.random_move_share, (int, float)) and 0.0 <= self.random_move_share < 1.0
        ):
            raise ValueError(
                f"random_move_share={self.random_move_share!r} is out of range: allowed 0 <= "
                "share < 1 (the share of self-play moves played at random)"
            )
        if isinstance(self.selfplay_proof_nodes, bool) or not (
            isinstance(self.selfplay_proof_nodes, int) and 0 <= self.selfplay_proof_nodes <= 2**40
        ):
            raise ValueError(
                f"selfplay_proof_nodes={self.selfplay_proof_nodes!r} is out of range: allowed "
                "0 (no proofs) to 2**40"
            )
        if self.selfplay_proof_nodes and self.rules["players"] != 2:
            raise ValueError(
                f"selfplay_proof_nodes={self.selfplay_proof_nodes}: threat proofs need 2 "
                f"players, these rules have {self.rules['players']}"
            )
        if isinstance(self.opponents, list):
            self.opponents = tuple(self.opponents)
        if not isinstance(self.opponents, tuple) or not all(
            isinstance(o, str) and o.strip() for o in self.opponents
        ):
            raise ValueError(
                f"opponents={self.opponents!r}: allowed a sequence of agent names "
                "(inarow.agents.NAMES), empty for pure self-play"
            )
        if not (
            isinstance(self.opponent_share, (int, float))
            and not isinstance(self.opponent_share, bool)
            and 0.0 < self.opponent_share <= 1.0
        ):
            raise ValueError(
                f"opponent_share={self.opponent_share!r} is out of range: allowed 0 < share "
                "<= 1 (the share of self-play games against the opponents)"
            )
        if isinstance(self.eval_threats_nodes, bool) or not (
            isinstance(self.eval_threats_nodes, int) and 0 <= self.eval_threats_nodes <= 2**40
        ):
            raise ValueError(
                f"eval_threats_nodes={self.eval_threats_nodes!r} is out of range: allowed "
                "0 (no threat-engine rung) to 2**40"
            )
        for name in ("final_board_weight", "reply_weight"):
            weight = getattr(self, name)
            if not (isinstance(weight, (int, float)) and 0.0 <= weight < float("inf")):
                raise ValueError(f"{name}={weight!r} is out of range: allowed a finite weight >= 0")
        if self.root not in ("gumbel", "puct"):
            raise ValueError(f'root={self.root!r} is not supported: allowed "gumbel", "puct"')
        if not (
            isinstance(self.forced_playouts, (int, float))
            and not isinstance(self.forced_playouts, bool)
            and 0.0 <= self.forced_playouts < float("inf")
        ):
            raise ValueError(
                f"forced_playouts={self.forced_playouts!r} is out of range: allowed 0 (off) "
                "or a finite k > 0 (KataGo uses 2)"
            )
        if self.forced_playouts and self.root != "puct":
            raise ValueError(
                f'forced_playouts={self.forced_playouts} needs root="puct" (a Gumbel root '
                "chooses its visits by sequential halving)"
            )
        if not 0.0 < self.full_search_share <= 1.0:
            raise ValueError(
                f"full_search_share={self.full_search_share!r} is out of range: allowed "
                "0 < share <= 1 (the share of move rounds whose policy is trained on)"
            )
        if self.full_search_share < 1.0 and not 1 <= self.fast_simulations:
            raise ValueError(
                f"fast_simulations={self.fast_simulations!r} is out of range: allowed >= 1"
            )

    @classmethod
    def for_game(cls, name: str, **overrides: Any) -> TrainConfig:
        """The documented defaults for ``name`` (``connect_four``, ``tic_tac_toe``, or
        ``custom`` with ``rules=``), then ``overrides``."""
        if name == "tic_tac_toe":
            base = cls(
                rules=dict(GAMES["tic_tac_toe"]),
                channels=32,
                blocks=2,
                games=64,
                simulations=16,
                gumbel_considered=9,
                temperature_plies=2,
                random_opening_plies=6,
                batch_size=128,
                replay_capacity=20_000,
                replay_ratio=8.0,
                min_replay=500,
                eval_minutes=0.5,
                eval_simulations=32,
                eval_negamax_depths=(9,),
                eval_games=20,
                eval_match_simulations=16,
            )
        elif name == "connect_four":
            base = cls(eval_games=20, threads=2)
        elif name == "custom":
            base = cls(eval_per_set=0)
        else:
            raise ValueError(
                f"game {name!r} is not known: allowed {sorted(GAMES)} or 'custom' with rules="
            )
        config = dataclasses.replace(base, **overrides)
        r = config.rules
        if (
            "eval_threats_nodes" not in overrides
            and r["players"] == 2
            and not r["gravity"]
            and r["k"] >= 5
        ):
            config = dataclasses.replace(config, eval_threats_nodes=THREATS_RUNG_NODES)
        return config

    @property
    def num_actions(self) -> int:
        r = self.rules
        return r["width"] if r["gravity"] else r["width"] * r["height"]

    @property
    def auxiliary_heads(self) -> tuple[bool, bool]:
        """Whether the network has the final-board head and the reply head."""
        return self.final_board_weight > 0, self.reply_weight > 0

    @property
    def value_size(self) -> int:
        """1 for 2 players (the side to move's value), else one value per player."""
        return 1 if self.rules["players"] == 2 else self.rules["players"]

    @property
    def is_connect_four(self) -> bool:
        return self.rules == GAMES["connect_four"]

    @property
    def is_tic_tac_toe(self) -> bool:
        return self.rules == GAMES["tic_tac_toe"]

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["eval_negamax_depths"] = list(self.eval_negamax_depths)
        d["opponents"] = list(self.opponents)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown training settings {sorted(unknown)}")
        d = dict(d)
        for name in ("eval_negamax_depths", "opponents"):
            if name in d:
                d[name] = tuple(d[name])
        return cls(**d)
