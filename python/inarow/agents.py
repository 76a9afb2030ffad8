"""Agents: callables ``agent(board) -> action`` for any rules of the family.

Every built-in agent is an :class:`Agent` (native: ``inarow.evaluate.match`` plays
two of them inside Rust, across threads). The board passed in is never modified;
a finished board raises :class:`inarow.IllegalMoveError`. The action is a column
with gravity, ``row * width + col`` without. An agent draws its tie-breaks and
samples from its own generator, seeded by ``seed`` (``None``: a fresh seed), so a
seeded agent replays the same moves for the same sequence of calls.

>>> import inarow
>>> board = inarow.Board.from_moves([3, 0, 3, 0, 3])
>>> inarow.agents.greedy(seed=0)(board)    # the second player must block column 3
3
>>> inarow.agents.negamax(4, seed=0)(board)
3

See ``docs/agents.md`` for the evaluation function, the 3+ player rule and the
strength of each agent.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable

from inarow._native import Agent, Rules

if TYPE_CHECKING:
    from inarow.pretrained import NetworkAgent

__all__ = [
    "NAMES",
    "NAME_HEADS",
    "Agent",
    "Curriculum",
    "curriculum",
    "greedy",
    "load",
    "named",
    "negamax",
    "perfect",
    "pretrained",
    "random",
    "threats",
]

#: The agent names every layer accepts (``named``, ``evaluate.match``, every env's
#: ``opponent=``, the CLI): the built-in agents' grammar (read natively, by
#: :meth:`Agent.named`) and the networks'.
NAMES = (
    "random, greedy, negamax[:DEPTH 1..64, default 4], perfect[:TEMPERATURE >= 0] (or "
    "solver[:TEMPERATURE]), threats[:SECONDS 0 < S <= 3600] or threats:nodes=N, "
    "pretrained[:SIMULATIONS >= 0], or the path of a network.npz[:SIMULATIONS]"
)


def random(seed: int | None = None) -> Agent:
    """A uniformly random legal move."""
    return Agent.random(seed)


def greedy(seed: int | None = None) -> Agent:
    """One move of look-ahead for itself and one for the next player, any rules.

    In order: a move that wins at once; else a move after which the next player
    cannot win at once (so it blocks a single threat and, with gravity, never plays
    under one); else a move onto one of the next player's winning cells; else any
    legal move. Random among the candidates of the first class that has any.
    """
    return Agent.greedy(seed)


def negamax(depth: int, seed: int | None = None) -> Agent:
    """Depth-limited alpha-beta search, ``depth`` plies (1..=64), any rules and players.

    Leaves are scored by line counting: every window of ``k`` cells in a row,
    column or diagonal that holds stones of one player only is worth ``4**(n-1)``
    to that player (``n`` its stones there); the value is the mover's sum minus
    the sum of every other player's. Wins score above any evaluation, sooner wins
    higher. With 2 players this is negamax; with 3 or more the *paranoid* rule:
    every other player minimises the mover's value. Random among moves of equal
    value. A forced win within ``depth`` plies is always found.
    """
    return Agent.negamax(depth, seed)


def perfect(
    temperature: float = 0.0,
    seed: int | None = None,
    tt_bytes: int | None = None,
    threads: int | None = None,
) -> Agent:
    """The exact solver's choice (2 players; gravity with ``width * (height + 1) <= 64``,
    free placement with at most 128 cells).

    Every legal move is scored exactly (Pons' convention, for the player who moves:
    larger is better, see :meth:`inarow.Solver.analyze`). Temperature 0: a move with
    the best score, uniformly among equals. Temperature ``t > 0``: move ``i`` with
    probability proportional to ``exp(score_i / t)``; without gravity one score per
    cell ``row * width + col`` (on 7x6 scores step by 1 per
    two plies of a win's distance, so ``t = 1`` already favours the best move
    strongly and ``t = 100`` is nearly uniform). Other rules raise
    :class:`inarow.UnsupportedRulesError` when the agent is called. ``tt_bytes``
    and ``threads`` configure its solver (defaults: 64 MiB, 1 thread); the table
    persists from call to call. On 7x6 Connect Four the shipped opening book scores
    the positions whose every move it holds: exactly in its first plies (its exact
    levels), else win/draw/loss (1/0/-1); there, in a lost position a move after
    which the opponent forces a win by their 4th stone scores below -1 (-2 for the
    slowest such loss, one less per stone sooner: exact scores rank every such move
    below the others), so at temperature 0 the agent plays uniformly among the
    moves of the best outcome, a soon-lost one only if all are. The book also
    bounds the search's positions within its depth (same scores, fewer nodes).
    """
    return Agent.perfect(temperature, seed, tt_bytes, threads)


def threats(
    time_limit: float = 1.0,
    nodes: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
) -> Agent:
    """The threat engine: the strongest agent for free-placement boards too big to
    solve (gomoku 15x15 and 20x20, 9x9 with k=5...), 2 players; a time-limited
    deepening search on gravity boards and below k=4.

    Each move, in order: complete a line; block the opponent's only cell to
    complete; play a proven forced win (VCF, then VCT: see :mod:`inarow.threats`);
    drop the moves after which the opponent wins by fours; then iterative-deepening
    alpha-beta (transposition table, candidate moves near the stones, an
    evaluation kept up to date move by move: for lines of five under freestyle and
    renju a model fitted to recorded games, elsewhere the line evaluation; a short
    VCF probe at the leaves).

    ``time_limit``: seconds per move (0 < t <= 3600). ``nodes``: positions per
    move instead (1..=2**40; the time limit then does not apply), so the moves
    are the same on any machine: with ``nodes`` and a ``seed`` the agent is
    deterministic. The seed breaks ties between equally promising moves. Where
    threats do not apply (gravity, ``k < 4``) it plays a move that wins or blocks
    the only win at once, else searches ``negamax`` depth 1, 2, 3... within the
    same budget and plays the best move of the deepest depth finished. Other than 2
    players: :class:`inarow.UnsupportedRulesError` when called. Ctrl-C stops a
    move. Strength and speed: ``docs/threats.md``.

    ``threads`` (1..=256, default 1): threads that search each move together on
    threat boards (the alpha-beta search shares its table between them, and the
    root moves are checked against the opponent's threats in parallel). A node
    budget then counts the first thread's nodes, and the move may differ from run
    to run: only ``threads=1`` is deterministic.
    """
    return Agent.threats(time_limit, nodes, seed, threads)


class Curriculum:
    """A schedule of opponents for the adapters' ``opponent=``: ``schedule(episode)``
    returns the opponent of episode ``episode`` (0, 1, 2... counted per env from its
    construction): an agent ``agent(board) -> action``, ``"random"`` or ``"solver"``.

    The wrapper is what tells a schedule from an agent: both are callables taking
    one argument, so ``opponent=`` reads a bare callable as an agent and only a
    ``Curriculum`` as a schedule. It is not itself callable.
    """

    def __init__(self, schedule: Callable[[int], Any]) -> None:
        if not callable(schedule) or isinstance(schedule, Curriculum):
            raise TypeError(f"schedule must be a callable episode -> opponent, got {schedule!r}")
        self.schedule = schedule

    def opponent_for(self, episode: int) -> Any:
        """The opponent of episode `episode` (0-based)."""
        return self.schedule(episode)

    def __repr__(self) -> str:
        return f"curriculum({self.schedule!r})"


def curriculum(schedule: Callable[[int], Any]) -> Curriculum:
    """Wraps ``schedule(episode) -> opponent`` for ``opponent=`` (see :class:`Curriculum`).

    >>> import inarow
    >>> stages = [inarow.agents.random(seed=0), inarow.agents.negamax(2, seed=0)]
    >>> schedule = inarow.agents.curriculum(lambda episode: stages[min(episode // 100, 1)])
    >>> schedule.opponent_for(150) is stages[1]
    True
    """
    return Curriculum(schedule)


def pretrained(
    game: str = "connect_four",
    simulations: int | None = None,
    proof_nodes: int = 0,
    symmetric: bool = False,
    stop_early: bool | None = None,
) -> NetworkAgent:
    """The network trained by self-play and shipped in the package, searching
    ``simulations`` per move with ``inarow.MCTS`` (PUCT, no root noise: deterministic);
    ``simulations=0`` plays the raw policy's most likely move. By default (``None``)
    Connect Four searches 600 simulations with ``stop_early=True`` (a median of 28-37
    ms a move on one core; 98.20% good moves on 12,000 fresh random openings, 98.12%
    at 400), every other game 200 without it. ``proof_nodes`` (0:
    off) adds threat proofs of that many positions each: a proven forced win is
    played, moves that let the opponent prove one are avoided (see
    :class:`inarow.pretrained.NetworkAgent`). ``symmetric=True`` averages the
    network over the board's symmetries (the mirror with gravity; each evaluation
    then costs two positions, or up to 8 without gravity): the Connect Four raw
    policy's good moves go from 96.63% to 96.73% on Pons' 6,000 positions and from
    94.2% to 94.7% on 600 random openings (within the noise); searching, it gained
    nothing measurable with the network shipped before. ``stop_early=True`` ends
    each search once the rest of its budget could not change the most visited move
    (the same move for fewer network calls; see
    :class:`inarow.pretrained.NetworkAgent`).

    ``game``: ``"connect_four"``, ``"tic_tac_toe"``, ``"5x5_k4_free"``,
    ``"6x6_k4_free"`` (5x5 and 6x6 boards, 4 in a row, free placement: 99.6-99.8%
    good moves with ``proof_nodes=20_000``) or ``"15x15_k5_free"`` (gomoku without
    opening rules: 78% wins against ``negamax(4)`` with ``proof_nodes=20_000``).
    Inference is numpy alone (the weights, under 1 MB each, ship in ``inarow/data``);
    the agent keeps the network's outputs for about 16 MB of positions, so a game's
    searches, which meet again what earlier ones evaluated, run several times faster
    than a first search of a position and choose the same moves
    (``agent.clear_cache()`` forgets them).
    ``agent.policy_value(board)`` gives the raw policy over actions and the value for
    the side to move; ``agent.actions(boards)`` searches many boards at once. Its
    training command and measured strength: ``docs/training.md``.
    """
    from inarow.pretrained import load_pretrained

    return load_pretrained(
        game,
        simulations=simulations,
        proof_nodes=proof_nodes,
        symmetric=symmetric,
        stop_early=stop_early,
    )


def load(
    path: str | os.PathLike,
    simulations: int = 200,
    proof_nodes: int = 0,
    symmetric: bool = False,
    stop_early: bool = False,
) -> NetworkAgent:
    """A network you trained (``inarow train``'s ``network.npz``) as an agent that
    searches ``simulations`` per move, with threat proofs of ``proof_nodes`` positions
    each if not 0, averaged over the board's symmetries if ``symmetric``, as
    :func:`pretrained` does for the shipped ones; it plays the rules
    it was trained on. ``FileNotFoundError`` for a missing file, ``ValueError`` for a
    file that is not such a network."""
    from inarow.pretrained import load_network

    return load_network(
        path,
        simulations=simulations,
        proof_nodes=proof_nodes,
        symmetric=symmetric,
        stop_early=stop_early,
    )


def named(spec: str, seed: int | None = None, game: str | None = None, rules: Any = None) -> Any:
    """The agent a name stands for (see :data:`NAMES`): ``"negamax:4"``,
    ``"perfect:0.5"``, ``"pretrained:200"``, a ``network.npz`` path with an optional
    ``:SIMULATIONS``. ``ValueError`` names what is allowed.

    The built-in agents' names are read by :meth:`Agent.named`, the one grammar
    every ``opponent=`` (``VecEnv``'s included) reads too; ``pretrained`` and network
    paths are read here. ``pretrained`` is the shipped network of ``game``; without
    ``game``, the one shipped for ``rules`` (an :class:`inarow.Rules` or a dict of its
    fields; ``ValueError`` where none is), and with neither, Connect Four's."""
    if not isinstance(spec, str):
        raise TypeError(f"an agent name must be a str, got {type(spec).__name__}")
    if spec.endswith(".npz") or ".npz:" in spec:
        path, _, sims = spec.rpartition(".npz")
        return load(path + ".npz", simulations=_count(sims, spec) if sims else 200)
    head, _, arg = spec.partition(":")
    try:
        if head != "pretrained":
            return Agent.named(spec, seed)
        simulations = _count(arg, spec) if arg else None
    except ValueError:
        raise ValueError(f"{spec!r} is not an agent name: allowed {NAMES}") from None
    return pretrained(game or _pretrained_game_of(spec, rules), simulations=simulations)


#: The heads (before any ``:``) of the names in :data:`NAMES`.
NAME_HEADS = ("random", "greedy", "negamax", "perfect", "solver", "threats", "pretrained")


def _pretrained_game_of(spec: str, rules: Any) -> str:
    """The game whose shipped network plays ``rules`` (Connect Four without rules)."""
    if rules is None:
        return "connect_four"
    from inarow.pretrained import PRETRAINED_RULES, pretrained_game

    if isinstance(rules, dict):
        rules = Rules(**rules)
    game = pretrained_game(rules)
    if game is None and rules.rule != "freestyle":
        board_game = pretrained_game(Rules(**{**rules.to_dict(), "rule": "freestyle"}))
        if board_game is not None:
            from inarow._native import UnsupportedRulesError

            # Its policy and values hold under the rule of its self-play games only.
            raise UnsupportedRulesError(
                f"{spec!r}: the network shipped for this board ({board_game}) plays "
                f"rule='freestyle' only, the rule it was trained under, not "
                f"rule={rules.rule!r}; train one under it (inarow train ... --rule "
                f"{rules.rule}) and name its network.npz"
            )
    if game is None:
        shipped = ", ".join(
            f"{g} ({r.width}x{r.height}, k={r.k}{', gravity' if r.gravity else ''})"
            for g, r in PRETRAINED_RULES.items()
        )
        raise ValueError(
            f"{spec!r}: no shipped network plays {rules}; networks ship for {shipped}. "
            "Name a network.npz you trained instead"
        )
    return game


def _count(text: str, spec: str) -> int:
    try:
        n = int(text.lstrip(":"))
    except ValueError:
        n = -1
    if n < 0:
        raise ValueError(f"{spec!r}: the simulations must be an integer >= 0")
    return n
