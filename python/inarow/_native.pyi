"""Type stubs of the native module (checked with ``mypy.stubtest``)."""

import os
from collections.abc import Callable, Iterable
from typing import Any, Literal, Protocol, SupportsIndex, final

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

__all__ = [
    "Agent",
    "FORMAT_VERSION",
    "MAX_ENVS",
    "MAX_PLAYERS",
    "MAX_SIDE",
    "Board",
    "IllegalMoveError",
    "ForbiddenMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
    "CancelledError",
    "ConvNet",
    "MCTS",
    "Rules",
    "SearchResult",
    "SimulateResult",
    "Solver",
    "SolverConfigError",
    "UnsupportedRulesError",
    "VecEnv",
    "find_win",
    "match_openings",
    "play_match",
    "simulate",
    "winners",
    "winning_moves",
]

MAX_SIDE: int
MAX_PLAYERS: int
MAX_ENVS: int
FORMAT_VERSION: int

class IllegalMoveError(ValueError): ...
class ForbiddenMoveError(IllegalMoveError): ...
class InvalidRulesError(ValueError): ...
class InvalidPositionError(ValueError): ...
class UnsupportedRulesError(ValueError): ...
class SolverConfigError(ValueError): ...
class CancelledError(RuntimeError): ...

_Int = SupportsIndex
_Rule = Literal["freestyle", "standard", "renju"]

class _Event(Protocol):
    def is_set(self) -> bool: ...

# A name, a numpy type or a dtype equal to one of the three.
_ObsDtype = (
    Literal["uint8", "bool", "float32"]
    | type[np.uint8]
    | type[np.bool_]
    | type[np.float32]
    | type[bool]
    | np.dtype[np.uint8]
    | np.dtype[np.bool_]
    | np.dtype[np.float32]
)

# What `Solver.supports` reads: the five rule fields (a Rules, Board or VecEnv has them).
class _RulesLike(Protocol):
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def k(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def gravity(self) -> bool: ...

# The rules' fields, properties of each class that carries rules (Rules, Board, VecEnv).
class _RulesFields(_RulesLike, Protocol):
    @property
    def num_actions(self) -> int: ...

@final
class Rules(_RulesFields):
    """The rules of a k-in-a-row game: frozen, hashable, comparable, picklable."""

    def __new__(
        cls,
        width: _Int = 7,
        height: _Int = 6,
        k: _Int = 4,
        players: _Int = 2,
        gravity: bool = True,
        rule: _Rule = "freestyle",
    ) -> Rules: ...
    @staticmethod
    def connect_four() -> Rules: ...
    @staticmethod
    def tic_tac_toe() -> Rules: ...
    @staticmethod
    def gomoku(size: _Int = 15, rule: _Rule = "freestyle") -> Rules: ...
    @property
    def rule(self) -> _Rule: ...
    def replace(
        self,
        width: _Int | None = None,
        height: _Int | None = None,
        k: _Int | None = None,
        players: _Int | None = None,
        gravity: bool | None = None,
        rule: _Rule | None = None,
    ) -> Rules: ...
    def to_dict(self) -> dict[str, int | bool | str]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@disjoint_base
class Board(_RulesFields):
    """A k-in-a-row game: Connect Four by default."""

    def __new__(cls, rules: Rules | None = None) -> Board: ...
    @staticmethod
    def connect_four() -> Board: ...
    @staticmethod
    def tic_tac_toe() -> Board: ...
    @staticmethod
    def gomoku(size: _Int = 15, rule: _Rule = "freestyle") -> Board: ...
    @staticmethod
    def from_moves(moves: Iterable[_Int], rules: Rules | None = None) -> Board: ...
    @staticmethod
    def from_pons(digits: str, rules: Rules | None = None) -> Board: ...
    @staticmethod
    def from_numpy(arr: npt.ArrayLike, rules: Rules | None = None) -> Board: ...
    @staticmethod
    def from_bytes(data: bytes | bytearray | memoryview) -> Board: ...
    def to_bytes(self) -> bytes: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def is_draw(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def current_player(self) -> int: ...
    @property
    def moves(self) -> list[int]: ...
    @property
    def num_stones(self) -> int: ...
    @property
    def last_move(self) -> int | None: ...
    @property
    def last_cell(self) -> tuple[int, int] | None: ...
    @property
    def zobrist(self) -> int: ...
    def move(self, action: _Int) -> bool: ...
    def undo(self) -> int: ...
    def is_legal(self, action: _Int) -> bool: ...
    def legal_moves(self) -> list[int]: ...
    def forbidden_moves(
        self,
    ) -> list[tuple[int, Literal["overline", "double four", "double three"]]]: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    def to_numpy(self) -> npt.NDArray[np.int8]: ...
    def observation(
        self, dtype: _ObsDtype = "uint8", player: _Int | None = None
    ) -> npt.NDArray[Any]: ...
    def returns(self) -> npt.NDArray[np.float32]: ...
    def winning_line(self) -> list[tuple[int, int]] | None: ...
    def owner(self, row: _Int, col: _Int) -> int: ...
    def perft(self, depth: _Int) -> int: ...
    def count_games(self) -> int: ...
    def copy(self) -> Self: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: Any) -> Self: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __setstate__(self, state: tuple[bytes, dict[str, Any] | None]) -> None: ...
    def __len__(self) -> int: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def _repr_svg_(self) -> str | None: ...

def winners(boards: npt.ArrayLike, k: _Int = 4) -> npt.NDArray[np.int64]: ...

class _BoardsAgent(Protocol):
    """An agent that answers many boards at once (``inarow.agents.load``'s)."""

    def actions(self, boards: list[Board]) -> Iterable[int]: ...

@final
class VecEnv(_RulesFields):
    """A batch of games stepped together (Gymnasium vector conventions).

    ``reset``/``step``/``random_actions`` return fresh arrays that later calls never
    modify; ``reuse_buffers=True`` writes every call into the same arrays (no
    allocation; copy what you keep). With next-step autoreset, a game that ended
    shows an all-True ``info["action_mask"]`` / ``legal_mask()`` row until its reset
    (pgx's terminal mask): that step ignores its action.

    ``opponent``: None (self-play: each step plays one action for the side to move
    in every env), a built-in agent (an ``inarow.agents`` agent, or ``"random"``,
    ``"greedy"``, ``"negamax:D"``, ``"perfect"``), played in Rust inside ``step``
    from each env's seeded stream; a trained network (a ``network.npz`` path, with an
    optional ``":SIMULATIONS"``, as `inarow.agents.load` reads it; ``"pretrained"`` or
    ``"pretrained:SIMULATIONS"``, the network shipped for these rules; or any agent with a
    batched ``actions(boards) -> actions`` method such as the one ``load`` returns),
    given copies of the boards of the envs where it is to move, once per round; or a
    batched callable ``policy(obs, mask) -> actions`` called once per round with the
    ``(m, players, h, w)`` observations
    (its own view) and ``(m, num_actions)`` bool masks of the ``m`` envs where it is
    to move, returning ``m`` integer actions (read like every array argument; a
    wrong shape, dtype or an illegal action raises and the step is undone).
    ``agent_player``: the agent's seat, ``1..players`` or ``"random"`` (drawn per
    episode); the opponent plays the seats before it after every (auto)reset.
    Rewards, observations and ``info["agent_player"]`` (its seat; in an env whose
    episode ended, ``info["final_agent_player"]``) are the agent's.
    ``illegal_action="loss"``: an illegal action in range ends its episode as a
    loss for its player (``info["illegal_action"]``) instead of refusing the batch;
    under ``autoreset="disabled"`` that env then shows an all-False mask and refuses
    actions until ``reset(options={"reset_mask": ...})``.

    ``step`` returns ``(obs, rewards, terminated, truncated, info)``; ``info`` holds
    ``current_player``, ``action_mask``, ``winner``, ``player_rewards``, with an
    opponent ``agent_player`` and ``final_agent_player``, with illegal losses
    ``illegal_action``, and ``autoreset`` (or, same-step, ``final_obs`` and
    ``_final_obs``): each a ``(num_envs, ...)`` array. ``truncated`` is all False
    (the games always end): fresh zeros, or with ``reuse_buffers`` one shared
    read-only array."""

    def __new__(
        cls,
        num_envs: _Int,
        rules: Rules | None = None,
        seed: _Int | None = None,
        autoreset: Literal["next_step", "same_step", "disabled"] = "next_step",
        obs_dtype: _ObsDtype = "uint8",
        threads: _Int | None = None,
        reuse_buffers: bool = False,
        opponent: str
        | Agent
        | _BoardsAgent
        | Callable[[npt.NDArray[Any], npt.NDArray[np.bool_]], npt.ArrayLike]
        | None = None,
        agent_player: _Int | Literal["random"] | None = 1,
        illegal_action: Literal["raise", "loss"] = "raise",
    ) -> VecEnv: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def autoreset(self) -> str: ...
    @property
    def obs_dtype(self) -> str: ...
    @property
    def current_player(self) -> npt.NDArray[np.int8]: ...
    @property
    def reuse_buffers(self) -> bool: ...
    @property
    def player_rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def opponent(self) -> Any: ...
    @property
    def agent_player(self) -> Any: ...
    @property
    def illegal_action(self) -> str: ...
    def reset(
        self, seed: _Int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[Any], dict[str, Any]]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[Any],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]: ...
    def get_state(self) -> bytes: ...
    def set_state(self, state: bytes) -> None: ...
    def legal_mask(self) -> npt.NDArray[np.bool_]: ...
    def random_actions(self) -> npt.NDArray[np.int64]: ...
    def board(self, index: _Int) -> Board: ...
    def __len__(self) -> int: ...

_F32 = npt.NDArray[np.float32]

@final
class ConvNet:
    """A residual convolutional network's forward pass (see ``inarow.numpy_net``)."""

    def __new__(
        cls,
        planes: int,
        height: int,
        width: int,
        stem: tuple[_F32, _F32],
        blocks: list[tuple[tuple[_F32, _F32], tuple[_F32, _F32]]],
        policy_conv: tuple[_F32, _F32],
        policy_fc: tuple[_F32, _F32],
        value_conv: tuple[_F32, _F32],
        value_fc1: tuple[_F32, _F32],
        value_fc2: tuple[_F32, _F32],
    ) -> Self: ...
    def __call__(self, obs: _F32) -> tuple[_F32, _F32]: ...
    @property
    def cache(self) -> int: ...
    @cache.setter
    def cache(self, capacity: int) -> None: ...
    @property
    def cached(self) -> int: ...
    def clear_cache(self) -> None: ...
    @property
    def shape(self) -> tuple[int, int, int]: ...

@final
class SimulateResult:
    @property
    def games(self) -> int: ...
    @property
    def moves(self) -> int: ...
    @property
    def wins(self) -> list[int]: ...
    @property
    def draws(self) -> int: ...
    @property
    def lengths(self) -> list[int]: ...
    @property
    def seconds(self) -> float: ...
    @property
    def mean_length(self) -> float: ...
    @property
    def moves_per_second(self) -> float: ...

def simulate(
    num_games: _Int,
    rules: Rules | None = None,
    seed: _Int | None = None,
    threads: _Int | None = None,
    policy: Literal["random"] = "random",
    progress: bool | Callable[[int, int], object] | None = None,
    cancel: _Event | None = None,
) -> SimulateResult: ...

@final
class Solver:
    """An exact solver for 2-player boards: gravity with width * (height + 1) <= 64,
    free placement with width * height <= 128 (one score per cell in ``analyze``).

    Defaults: a table of up to 256 MiB (memory taken as searches fill it), one
    thread per core (gravity searches and free-placement outcomes share their
    tree among them) and the shipped opening book (7x6 Connect-Four openings answered
    without a search; ``book=False`` always searches). ``best_move`` never picks a
    worse win/draw/loss outcome; where the book answers, equal outcomes go centre
    first (a move that lets the opponent win at once last), elsewhere the best
    exact score does (ties centre first). ``book_levels``: the book's levels as
    ``(ply, "exact" | "weak")``, plies increasing (empty with ``book=False``).
    ``best_move(board, time_limit=seconds)`` is anytime: the best move proven
    within the budget, never a timeout (the order it falls back in: README).
    """

    def __new__(
        cls, tt_bytes: _Int = 268435456, threads: _Int | None = None, book: bool = True
    ) -> Solver: ...
    def solve(
        self,
        board: Board,
        weak: bool = False,
        journal: str | os.PathLike[str] | None = None,
        progress: bool | Callable[[int, None], object] | None = None,
    ) -> int: ...
    def analyze(self, board: Board, weak: bool = False) -> list[int | None]: ...
    def prove(
        self,
        board: Board,
        path: str | os.PathLike[str],
        parts_from: int | None = None,
        journal: str | os.PathLike[str] | None = None,
        progress: bool | Callable[[int, None], object] | None = None,
    ) -> int: ...
    @staticmethod
    def check_proof(
        path: str | os.PathLike[str],
        threads: int | None = None,
        progress: bool | Callable[[int, None], object] | None = None,
    ) -> int | None: ...
    def best_move(self, board: Board, time_limit: float | None = None) -> int: ...
    @staticmethod
    def supports(rules_or_board: Rules | Board) -> bool: ...
    @property
    def nodes(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def book(self) -> bool: ...
    @property
    def book_levels(self) -> list[tuple[int, str]]: ...
    def clear(self) -> None: ...
    def cancel(self) -> None: ...

_Evaluate = Callable[
    [npt.NDArray[np.float32], npt.NDArray[np.bool_]], tuple[npt.ArrayLike, npt.ArrayLike]
]
_Pending = tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]

@final
class SearchResult:
    """Per tree: visit counts and policy (N, A), values (N,) or (N, players), actions (N,)."""

    @property
    def visit_counts(self) -> npt.NDArray[np.int32]: ...
    @property
    def policy(self) -> npt.NDArray[np.float32]: ...
    @property
    def values(self) -> npt.NDArray[np.float32]: ...
    @property
    def actions(self) -> npt.NDArray[np.int64]: ...

@final
class MCTS:
    """Batched Monte Carlo tree search: one tree per game, leaves evaluated in one call."""

    def __new__(
        cls,
        rules: Board | _RulesLike | dict[str, Any] | None = None,
        *,
        num_simulations: _Int = 800,
        c_puct: float = 1.25,
        c_uct: float = 2.0,
        root: Literal["puct", "gumbel"] = "puct",
        dirichlet_alpha: float = 0.3,
        dirichlet_fraction: float = 0.25,
        gumbel_considered: _Int = 16,
        forced_playouts: float = 0.0,
        reuse_tree: bool = True,
        seed: _Int = 0,
        threads: _Int | None = None,
        max_memory: _Int = 4294967296,
        lookahead: bool = True,
        stop_early: bool = False,
    ) -> MCTS: ...
    def run(
        self,
        boards: Iterable[Board] | VecEnv,
        evaluate: _Evaluate | ConvNet | Literal["rollout"],
        rollouts: _Int | None = None,
    ) -> SearchResult: ...
    def start(self, boards: Iterable[Board] | VecEnv) -> _Pending | None: ...
    def feed(self, logits: npt.ArrayLike, values: npt.ArrayLike) -> _Pending | None: ...
    def result(self) -> SearchResult: ...
    def advance(self, actions: npt.ArrayLike) -> None: ...
    @property
    def num_simulations(self) -> int: ...
    @num_simulations.setter
    def num_simulations(self, value: _Int) -> None: ...
    @property
    def root(self) -> str: ...
    @property
    def threads(self) -> int: ...
    @property
    def num_trees(self) -> int: ...
    @property
    def num_actions(self) -> int: ...

@final
class Agent:
    """A built-in agent: ``agent(board) -> action`` (see ``inarow.agents``)."""

    @staticmethod
    def random(seed: _Int | None = None) -> Agent: ...
    @staticmethod
    def greedy(seed: _Int | None = None) -> Agent: ...
    @staticmethod
    def negamax(depth: _Int, seed: _Int | None = None) -> Agent: ...
    @staticmethod
    def perfect(
        temperature: float | None = None,
        seed: _Int | None = None,
        tt_bytes: _Int | None = None,
        threads: _Int | None = None,
    ) -> Agent: ...
    @staticmethod
    def threats(
        time_limit: float | None = None,
        nodes: _Int | None = None,
        seed: _Int | None = None,
        threads: _Int | None = None,
    ) -> Agent: ...
    @staticmethod
    def named(name: str, seed: _Int | None = None) -> Agent: ...
    def check_rules(self, rules: Rules) -> None: ...
    def __call__(self, board: Board) -> int: ...
    def actions(
        self,
        boards: Iterable[Board],
        threads: _Int | None = None,
        seed: _Int | None = None,
        first_stream: _Int | None = None,
    ) -> list[int]: ...
    def draw_seed(self) -> int: ...
    @property
    def name(self) -> Literal["random", "greedy", "negamax", "perfect", "threats"]: ...
    @property
    def depth(self) -> int | None: ...
    @property
    def temperature(self) -> float | None: ...
    @property
    def time_limit(self) -> float | None: ...
    @property
    def nodes(self) -> int | None: ...
    @property
    def threads(self) -> int | None: ...
    @property
    def seed(self) -> int | None: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def find_win(
    board: Board,
    kind: Literal["vcf", "vct"] | None = None,
    max_depth: _Int | None = None,
    max_nodes: _Int | None = None,
) -> list[int] | None: ...
def winning_moves(
    board: Board,
    kind: Literal["vcf", "vct"] | None = None,
    max_depth: _Int | None = None,
    max_nodes: _Int | None = None,
) -> list[int]: ...
def play_match(
    a: Callable[[Board], object],
    b: Callable[[Board], object],
    games: _Int,
    rules: Rules | None = None,
    seed: _Int | None = None,
    swap: bool | None = None,
    threads: _Int | None = None,
    progress: Callable[[int, int], object] | None = None,
    opening_plies: _Int | None = None,
    first_game: _Int | None = None,
    keep_games: bool | Literal["losses"] | None = None,
    *,
    openings: Iterable[Iterable[_Int]] | None = None,
) -> dict[str, Any]: ...
def match_openings(
    games: _Int,
    rules: Rules | None = None,
    seed: _Int | None = None,
    swap: bool | None = None,
    opening_plies: _Int | None = None,
    first_game: _Int | None = None,
    *,
    openings: Iterable[Iterable[_Int]] | None = None,
) -> list[tuple[list[int], int, int]]: ...
