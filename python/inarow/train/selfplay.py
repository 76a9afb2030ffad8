"""Self-play: many games at once, one ``inarow.MCTS`` tree each (Gumbel root, subtree
reuse), one network call per search round for every waiting leaf. Finished games
come back as training positions with their outcome as the value target, and the
auxiliary targets: the final board and the reply (the next move of the game).

With playout cap randomisation (``full_search_share < 1``) a round of moves is a
fast search with that probability's complement; its positions come back with an
all-zero policy target, which the learner leaves out of the policy loss.

With reference opponents (``opponents``), the last ``opponent_share`` of the game
slots play the network in one seat against those agents in the others; the
opponents' positions come back with an all-zero policy target too."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

import inarow
import inarow.agents
from inarow.train.config import TrainConfig

__all__ = ["Games", "SelfPlay", "opponent_agents"]

Evaluate = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass
class Games:
    """Positions of finished games: planes, legal masks, policy and value targets, and
    the auxiliary targets (see :func:`final_board_classes`; ``reply`` -1 at a game's
    last position)."""

    obs: np.ndarray
    mask: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    final_board: np.ndarray  # (n, height, width) uint8
    reply: np.ndarray  # (n,) int16
    games: int
    wins: np.ndarray  # (players + 1,): draws, then wins of player 1, 2, ...
    # The network's wins, draws and losses in games against reference opponents.
    vs_opponents: np.ndarray = field(default_factory=lambda: np.zeros(3, np.int64))

    #: The per-position fields, in ``ReplayBuffer.add``'s order.
    FIELDS: ClassVar[tuple[str, ...]] = ("obs", "mask", "policy", "value", "final_board", "reply")


def final_board_classes(final: np.ndarray, movers: np.ndarray, players: int) -> np.ndarray:
    """The final board ``(height, width)`` (0 empty, else the player) as seen by each
    side to move in ``movers``: ``(n, height, width)`` uint8, 0 empty and ``i`` the
    stones of the player ``i - 1`` turns after the mover (the order of the planes)."""
    relative = (final[None, :, :].astype(np.int64) - movers[:, None, None]) % players + 1
    return np.where(final[None, :, :] == 0, 0, relative).astype(np.uint8)


def reply_targets(actions: np.ndarray) -> np.ndarray:
    """The move that followed each of a game's searched moves: -1 after the last."""
    return np.append(actions[1:], -1).astype(np.int16)


def outcome_values(winner: int, movers: np.ndarray, players: int) -> np.ndarray:
    """Value targets of positions whose side to move was ``movers`` (1-based) in a game
    won by ``winner`` (0: a draw): ``(n, 1)`` for 2 players, else ``(n, players)`` with
    column ``i`` the player ``i`` turns after the mover; +1 the winner, -1 the others."""
    n = len(movers)
    if winner == 0:
        return np.zeros((n, 1 if players == 2 else players), np.float32)
    seats = (movers[:, None] - 1 + np.arange(players)[None, :]) % players + 1
    values = np.where(seats == winner, 1.0, -1.0).astype(np.float32)
    return values[:, :1] if players == 2 else values


def opponent_agents(config: TrainConfig, rng: np.random.Generator) -> list[Any]:
    """The agents ``config.opponents`` names, each checked by a move on the empty
    board of the run's rules (``ValueError`` naming the one that cannot play them)."""
    rules = inarow.Rules(**config.rules)
    agents = []
    for spec in config.opponents:
        try:
            agent = inarow.agents.named(spec, seed=int(rng.integers(2**62)), rules=rules)
        except ValueError as e:
            raise ValueError(f"opponent {spec!r}: {e}") from None
        try:
            agent(inarow.Board(rules=rules))
        except Exception as e:
            raise ValueError(f"opponent {spec!r} cannot play these rules: {e}") from e
        agents.append(agent)
    return agents


class SelfPlay:
    """``step()`` plays one move in every game; finished games restart at once."""

    def __init__(self, config: TrainConfig, evaluate: Evaluate, seed: int) -> None:
        self.config = config
        self.rules = config.rules
        self.evaluate = evaluate
        self.rng = np.random.default_rng(seed)
        self.mcts = self._search(reuse_tree=True, seed=seed)
        # Slots selfplay_games.. play against the reference opponents: a search of
        # their own (no subtree reuse: the opponents move between the network's turns).
        self.selfplay_games = config.games
        self._opponents: list[Any] = []
        if config.opponents:
            self.selfplay_games = config.games - max(1, round(config.games * config.opponent_share))
            self._opponents = opponent_agents(config, self.rng)
            self.vs_mcts = self._search(reuse_tree=False, seed=int(self.rng.integers(2**62)))
        self.boards = [self._new_board() for _ in range(config.games)]
        # Per slot: the opponent of each seat (index into _opponents), -1 the network's.
        self._seats = [self._new_seats(i) for i in range(config.games)]
        self._searched = [0] * config.games  # the network's searched moves this game
        self._history: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, int, int]]] = [
            [] for _ in self.boards
        ]
        self.simulations = 0  # simulations run since construction
        self.moves = 0
        self.network_seconds = 0.0
        self.proof_seconds = 0.0  # spent in threat proofs (selfplay_proof_nodes)

    def _new_board(self) -> inarow.Board:
        """An empty board after 0..random_opening_plies random moves, never finished."""
        plies = int(self.rng.integers(0, self.config.random_opening_plies + 1))
        while True:
            board = inarow.Board(rules=inarow.Rules(**self.rules))
            for _ in range(plies):
                board.move(int(self.rng.choice(board.legal_moves())))
                if board.is_over:
                    break
            if not board.is_over:
                return board

    def _search(self, reuse_tree: bool, seed: int) -> inarow.MCTS:
        return inarow.MCTS(
            self.rules,
            num_simulations=self.config.simulations,
            root=self.config.root,
            gumbel_considered=self.config.gumbel_considered,
            forced_playouts=self.config.forced_playouts,
            reuse_tree=reuse_tree,
            seed=seed,
            threads=self.config.threads,
        )

    def _new_seats(self, slot: int) -> list[int] | None:
        """None in a self-play slot; else per seat (index ``player - 1``) -1 for the
        network's seat, drawn at random, and a random opponent for every other."""
        if slot < self.selfplay_games:
            return None
        players = self.rules["players"]
        seats = [int(self.rng.integers(len(self._opponents))) for _ in range(players)]
        seats[int(self.rng.integers(players))] = -1
        return seats

    def _opponent_moves(self, agent: Any, boards: list[inarow.Board]) -> list[int]:
        if isinstance(agent, inarow.agents.Agent):
            return agent.actions(
                boards, threads=self.config.threads, seed=int(self.rng.integers(2**62))
            )
        if hasattr(agent, "actions"):
            return list(agent.actions(boards))
        return [agent(b) for b in boards]

    def _timed_evaluate(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t = time.perf_counter()
        out = self.evaluate(obs, mask)
        self.network_seconds += time.perf_counter() - t
        return out

    def _proven_win(self, board: inarow.Board) -> int | None:
        """The first move of a forced win proven by threats (``selfplay_proof_nodes``)."""
        if not self.config.selfplay_proof_nodes:
            return None
        from inarow.threats import _proven_move

        t = time.perf_counter()
        move = _proven_move(board, self.config.selfplay_proof_nodes)
        self.proof_seconds += time.perf_counter() - t
        return move

    def _network_move(
        self,
        slot: int,
        board: inarow.Board,
        mask: np.ndarray,
        policy: np.ndarray,
        searched_action: int,
        full: bool,
    ) -> tuple[int, np.ndarray]:
        """The network's move in ``slot`` after its search, and the position's policy
        target: a proven win (one-hot target), else in the first plies a draw from the
        improved policy, else the search's move; then a random move at its share."""
        action = int(searched_action)
        target = policy.copy() if full else np.zeros_like(policy)
        proven = self._proven_win(board)
        if proven is not None:
            action = proven
            target = np.zeros_like(policy)
            target[proven] = 1.0
        # Counted from the game's first searched move, after its random opening.
        elif self._searched[slot] < self.config.temperature_plies:
            p = np.where(mask, policy, 0.0).astype(np.float64)
            action = int(self.rng.choice(len(p), p=p / p.sum()))
        if (
            proven is None
            and self.config.random_move_share
            and self.rng.random() < self.config.random_move_share
        ):
            action = int(self.rng.choice(np.flatnonzero(mask)))
        self._searched[slot] += 1
        return action, target

    def step(self) -> Games | None:
        """One move in every game (searched where the network moves); the positions of
        games that ended."""
        full = self.config.full_search_share >= 1.0 or (
            self.rng.random() < self.config.full_search_share
        )
        sims = self.config.simulations if full else self.config.fast_simulations
        n = len(self.boards)
        actions = np.zeros(n, np.int64)
        policy = np.zeros((n, self.config.num_actions), np.float32)
        searched = np.zeros(n, bool)
        selfplay = self.selfplay_games
        if selfplay:
            self.mcts.num_simulations = sims
            out = self.mcts.run(self.boards[:selfplay], self._timed_evaluate)
            policy[:selfplay], actions[:selfplay] = out.policy, out.actions
            searched[:selfplay] = True
        waiting: dict[int, list[int]] = {}  # opponent -> the slots where it moves
        network = []
        for i in range(selfplay, n):
            opponent = self._seats[i][self.boards[i].current_player - 1]
            if opponent < 0:
                network.append(i)
            else:
                waiting.setdefault(opponent, []).append(i)
        if network:
            self.vs_mcts.num_simulations = sims
            out = self.vs_mcts.run([self.boards[i] for i in network], self._timed_evaluate)
            policy[network], actions[network] = out.policy, out.actions
            searched[network] = True
        for opponent, slots in waiting.items():
            moves = self._opponent_moves(self._opponents[opponent], [self.boards[i] for i in slots])
            actions[slots] = moves
        self.simulations += sims * int(searched.sum())
        self.moves += n
        finished = []
        for i, board in enumerate(self.boards):
            mask = board.legal_mask()
            if searched[i]:
                actions[i], target = self._network_move(i, board, mask, policy[i], actions[i], full)
            else:  # an opponent's move: a value target only
                target = np.zeros_like(policy[i])
            self._history[i].append(
                (board.observation(), mask, target, board.current_player, int(actions[i]))
            )
        if selfplay:
            self.mcts.advance(actions[:selfplay])
        for i, board in enumerate(self.boards):
            board.move(int(actions[i]))
            if board.is_over:
                finished.append(i)
        if not finished:
            return None
        parts = []
        players = self.rules["players"]
        wins = np.zeros(players + 1, np.int64)
        vs_opponents = np.zeros(3, np.int64)
        for i in finished:
            winner = self.boards[i].winner or 0
            wins[winner] += 1
            seats = self._seats[i]
            if seats is not None:
                network_seat = seats.index(-1) + 1
                vs_opponents[0 if winner == network_seat else 1 if winner == 0 else 2] += 1
            hist = self._history[i]
            movers = np.array([h[3] for h in hist])
            parts.append(
                (
                    np.stack([h[0] for h in hist]),
                    np.stack([h[1] for h in hist]),
                    np.stack([h[2] for h in hist]),
                    outcome_values(winner, movers, players),
                    final_board_classes(self.boards[i].to_numpy(), movers, players),
                    reply_targets(np.array([h[4] for h in hist])),
                )
            )
            self._history[i] = []
            self._searched[i] = 0
            self.boards[i] = self._new_board()
            self._seats[i] = self._new_seats(i)
        return Games(
            *(np.concatenate([p[j] for p in parts]) for j in range(len(Games.FIELDS))),
            games=len(finished),
            wins=wins,
            vs_opponents=vs_opponents,
        )
