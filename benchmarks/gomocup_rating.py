"""An inarow agent against an external Gomocup brain: score and Elo difference.

    python benchmarks/gomocup_rating.py --engine /path/to/pbrain-rapfi --time 0.5 --pairs 20
    python benchmarks/gomocup_rating.py --engine "python -m inarow pbrain --agent negamax:2" \\
        --agent negamax:3 --pairs 10
    python benchmarks/gomocup_rating.py --engine /path/to/pbrain-rapfi --rule renju \\
        --book renju-26 --time 0.5 --pairs 26

Gomoku on a ``--size`` board under ``--rule`` (freestyle, five or more in a row wins,
the default; standard, exactly five; renju), told to the engine as ``INFO rule``. Each
pair of games starts from one opening and is played twice, the agent taking each seat
once, so the opening's advantage cancels. The openings (``--book``): ``centre`` (the
default), ``--opening-stones`` stones drawn uniformly at random (from ``--seed``) in
the centre (``--opening-radius`` cells around it, the players alternating); or a book,
a shipped one's name (``freestyle-15``, ``renju-26``: written for 15x15) or a book
file (``inarow.tournament.load_book``'s format), pair i opening with the book's
opening i mod its size. Both sides get ``--time`` seconds per move: the engine through
``INFO timeout_turn``, the inarow agent as its time limit (``auto``:
``inarow.pbrain.BestWithinTime``, the threat engine on these boards; a fixed
``negamax:D`` ignores it;
the measured mean time per move of each side is printed so the comparison can be
checked). An engine fault (a crash, a timeout, an illegal move) loses that game for
the engine and is counted (the score without those games is printed too); the engine
then starts afresh.

Prints every game, then the agent's wins/draws/losses, its score with a 95% Wilson
interval (draws count half), and the Elo difference (agent minus engine) that score
means, ``-400 log10(1/score - 1)``, with the interval mapped the same way.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
import time

import harness

import inarow
from inarow.engines import EngineError, Gomocup
from inarow.evaluate import wilson_interval
from inarow.evaluate.openings import opening_set
from inarow.pbrain import BestWithinTime, DeepeningNegamax
from inarow.tournament.match import RULES
from inarow.tournament.stats import elo


def opening(rules: inarow.Rules, stones: int, radius: int, rng: random.Random) -> list[int]:
    """``stones`` distinct cells within ``radius`` of the centre, drawn uniformly, such
    that each is legal under ``rules`` and no five stands on the board (the players
    alternate from player 1)."""
    size = rules.width
    centre = size // 2
    cells = [
        (centre + dy) * size + centre + dx
        for dy in range(-radius, radius + 1)
        for dx in range(-radius, radius + 1)
        if 0 <= centre + dy < size and 0 <= centre + dx < size
    ]
    while True:
        moves = rng.sample(cells, stones)
        board = inarow.Board(rules=rules)
        for action in moves:
            if board.is_over or not board.is_legal(action):  # renju's forbidden cells
                break
            board.move(action)
        else:
            if not board.is_over:
                return moves


def play(
    agent,
    engine: Gomocup,
    moves: list[int],
    rules: inarow.Rules,
    agent_seat: int,
    time_per_move: float,
) -> tuple[int | None, str, dict[str, list[float]], list[int]]:
    """One game from the opening ``moves``: (winner seat or None, how it ended, the
    seconds each side spent per move, the game's actions)."""
    board = inarow.Board.from_moves(moves, rules=rules)
    spent: dict[str, list[float]] = {"agent": [], "engine": []}
    while not board.is_over:
        mover = board.current_player
        began = time.monotonic()
        if mover == agent_seat:
            if isinstance(agent, (BestWithinTime, DeepeningNegamax)):
                action = agent(board.copy(), time_limit=time_per_move)
            else:
                action = agent(board.copy())
            spent["agent"].append(time.monotonic() - began)
        else:
            try:
                action = engine(board.copy())
            except EngineError as e:
                return agent_seat, f"engine fault: {e}", spent, board.moves
            spent["engine"].append(time.monotonic() - began)
        board.move(action)
    how = f"{board.num_stones} stones"
    return board.winner, how, spent, board.moves


def main() -> int:
    p = harness.parser(__doc__, whole=True, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument(
        "--engine", required=True, help="the brain's command line (split as a shell does)"
    )
    p.add_argument("--engine-cwd", default=None, help="the brain's working directory")
    p.add_argument("--agent", default="auto", help="auto, or an inarow agent name (negamax:3...)")
    p.add_argument("--time", type=float, default=1.0, help="seconds per move, each side")
    p.add_argument("--pairs", type=int, default=10, help="openings, each played from both seats")
    p.add_argument("--size", type=int, default=15)
    p.add_argument("--rule", default="freestyle", choices=list(RULES))
    p.add_argument(
        "--book",
        default="centre",
        help="centre (random stones, --opening-stones/--opening-radius), freestyle-15, "
        "renju-26 or a book file",
    )
    p.add_argument("--opening-stones", type=int, default=3)
    p.add_argument("--opening-radius", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--games-file",
        default=None,
        help="write each game as a line: the agent's seat, the winner (0: draw), its actions",
    )
    args = p.parse_args()
    harness.print_machine()

    rules = inarow.Rules.gomoku(args.size, rule=args.rule)
    book = None if args.book == "centre" else opening_set(args.book, rules)
    rng = random.Random(args.seed)
    if args.agent == "auto":
        agent = BestWithinTime(seed=args.seed)
    else:
        agent = inarow.agents.named(args.agent, seed=args.seed)
    command = shlex.split(args.engine)
    wins = draws = losses = faults = 0
    spent_total: dict[str, list[float]] = {"agent": [], "engine": []}
    seat_wins = {1: 0, 2: 0}
    record = open(args.games_file, "w") if args.games_file else None
    with Gomocup(command, timeout_turn=args.time, rule=args.rule, cwd=args.engine_cwd) as engine:
        about = ", ".join(f"{k}={v}" for k, v in engine.about.items()) or "(no ABOUT)"
        print(f"engine: {about}")
        openings = f"of {args.opening_stones} stones" if book is None else f"from {book}"
        print(
            f"agent: {args.agent}; {args.size}x{args.size} {args.rule}, {args.time:g} s per "
            f"move, {args.pairs} openings {openings} x 2 seats"
        )
        started = time.monotonic()
        for pair in range(args.pairs):
            if book is None:
                moves = opening(rules, args.opening_stones, args.opening_radius, rng)
            else:
                moves = list(book.moves[pair % len(book)])
            for agent_seat in (1, 2):
                winner, how, spent, actions = play(
                    agent, engine, moves, rules, agent_seat, args.time
                )
                if record is not None:
                    print(agent_seat, winner or 0, *actions, file=record, flush=True)
                for side in spent:
                    spent_total[side] += spent[side]
                faults += how.startswith("engine fault")
                if winner is None:
                    draws += 1
                    result = "draw"
                elif winner == agent_seat:
                    wins += 1
                    seat_wins[agent_seat] += 1
                    result = "agent wins"
                else:
                    losses += 1
                    result = "engine wins"
                print(
                    f"pair {pair + 1:>3} agent as player {agent_seat}: {result:<11} ({how}) "
                    f"[{time.monotonic() - started:6.0f} s]",
                    flush=True,
                )
    if record is not None:
        record.close()
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    low, high = wilson_interval(wins + draws / 2, games)

    def mean(xs: list[float]) -> str:
        return f"{sum(xs) / len(xs):.3f} s" if xs else "-"

    print(
        f"\nagent {wins} wins, {draws} draws, {losses} losses in {games} games "
        f"(engine faults: {faults}; agent wins as player 1: {seat_wins[1]}, as player 2: "
        f"{seat_wins[2]})"
    )
    print(f"score {score:.3f}, 95% interval [{low:.3f}, {high:.3f}]")
    if faults and games > faults:
        clean = games - faults
        clean_score = (wins - faults + draws / 2) / clean
        clean_low, clean_high = wilson_interval(wins - faults + draws / 2, clean)
        print(
            f"without the {faults} faulted games: score {clean_score:.3f} "
            f"[{clean_low:.3f}, {clean_high:.3f}], Elo {elo(clean_score):+.0f} "
            f"[{elo(clean_low):+.0f}, {elo(clean_high):+.0f}]"
        )
    print(
        f"Elo difference (agent - engine): {elo(score):+.0f}, 95% interval "
        f"[{elo(low):+.0f}, {elo(high):+.0f}]"
    )
    print(
        f"mean time per move: agent {mean(spent_total['agent'])}, "
        f"engine {mean(spent_total['engine'])} (the engine's includes the pipes and the "
        "client's settle pause after a quick reply)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
