"""The threat engine: strength on gomoku 15x15 and the speed of its searches.

    python benchmarks/threats.py                                  # 40 games vs negamax:4 at 0.25 s/move
    python benchmarks/threats.py --time 1.0 --games 40 --opponents negamax:4 negamax:3
    python benchmarks/threats.py --games 0 --finder 200           # the finders' speed only
    python benchmarks/threats.py --time 0.5 --search-threads 4 --opponents threats:0.5 --finder 0

Matches on free-placement 15x15, k=5, both seats, every opening played from both:
``--opening centre`` (default) opens with ``--opening-plies`` random stones within
two cells of the centre (balanced: nobody's stones sit out of play), the games
run here, two at a time with ``--threads 2``; ``--opening board`` uses
``inarow.evaluate.match``'s uniformly random opening moves anywhere on the board,
where a player whose stones land far apart starts stones down. Win rates carry
95% Wilson intervals. ``--finder N`` times ``inarow.threats.find_win`` on N random positions
(stones near the centre) and reports how many hold a VCF, and the time per answer.
"""

from __future__ import annotations

import random
import time

import harness

import inarow
from inarow import agents, evaluate
from inarow.threats import find_win

GOMOKU = dict(width=15, height=15, k=5, gravity=False)


def centre_opening(plies: int, rng: random.Random) -> list[int]:
    """``plies`` distinct random cells within two cells of the centre."""
    cells = [r * 15 + c for r in range(5, 10) for c in range(5, 10)]
    return rng.sample(cells, plies)


def play(
    engine_seconds: float,
    opponent: str,
    opening: list[int],
    seat: int,
    seed: int,
    search_threads: int = 1,
) -> tuple:
    """One game from ``opening``, the engine as player ``seat``: (winner seat or 0, moves)."""
    engine = agents.threats(engine_seconds, seed=seed, threads=search_threads)
    other = agents.named(opponent, seed=seed)
    board = inarow.Board(rules=inarow.Rules(**GOMOKU))
    for a in opening:
        board.move(a)
    while not board.is_over:
        agent = engine if board.current_player == seat else other
        board.move(int(agent(board.copy())))
    return board.winner or 0, board.num_stones


def centre_match(
    seconds: float,
    opponent: str,
    games: int,
    plies: int,
    threads: int,
    seed: int,
    search_threads: int = 1,
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(seed)
    openings = [centre_opening(plies, rng) for _ in range((games + 1) // 2)]
    jobs = [(openings[i // 2], 1 + i % 2, seed * 100_000 + i) for i in range(games)]
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(lambda j: play(seconds, opponent, *j, search_threads), jobs))
    wins = sum(w == seat for (_, seat, _), (w, _) in zip(jobs, results))
    draws = sum(w == 0 for w, _ in results)
    lo, hi = evaluate.wilson_interval(wins, games)
    seats = ", ".join(
        f"as player {s}: {sum(w == s for (_, t, _), (w, _) in zip(jobs, results) if t == s)}"
        f"/{sum(t == s for _, t, _ in jobs)}"
        for s in (1, 2)
    )
    moves = sum(m for _, m in results) / games
    engine = (
        f"threats({seconds}, threads={search_threads})"
        if search_threads > 1
        else f"threats({seconds})"
    )
    print(
        f"{engine} vs {opponent}, centre openings of {plies}: {wins} won, {draws} drawn, "
        f"{games - wins - draws} lost of {games}: win rate {wins / games:.1%} [{lo:.1%}, {hi:.1%}] "
        f"({seats}); {moves:.0f} stones per game, {time.perf_counter() - start:.0f} s",
        flush=True,
    )


def strength(
    seconds: float, opponents: list[str], games: int, opening_plies: int, threads: int, seed: int
) -> None:
    engine = agents.threats(seconds, seed=0)
    for opponent in opponents:
        r = evaluate.match(
            engine,
            opponent,
            games=games,
            rules=GOMOKU,
            seed=seed,
            opening_plies=opening_plies,
            threads=threads,
        )
        lo, hi = r.win_interval
        seats = ", ".join(f"as player {s.seat}: {s.wins}/{s.games}" for s in r.seats)
        print(
            f"threats({seconds}) vs {opponent}: {r.wins} won, {r.draws} drawn, {r.losses} lost of "
            f"{r.games}: win rate {r.win_rate:.1%} [{lo:.1%}, {hi:.1%}] ({seats}); "
            f"{r.moves / r.games:.0f} moves per game, {r.seconds:.0f} s",
            flush=True,
        )


def finder(positions: int, stones: int, seed: int) -> None:
    rng = random.Random(seed)
    boards = []
    while len(boards) < positions:
        b = inarow.Board(rules=inarow.Rules(**GOMOKU))
        for _ in range(stones):
            r, c = rng.randrange(4, 11), rng.randrange(4, 11)
            if b.is_legal(r * 15 + c) and not b.is_over:
                b.move(r * 15 + c)
        if not b.is_over:
            boards.append(b)
    for kind, nodes in (("vcf", 1_000_000), ("vct", 200_000)):
        start = time.perf_counter()
        found = sum(find_win(b, kind, max_nodes=nodes) is not None for b in boards)
        t = time.perf_counter() - start
        print(
            f"find_win({kind!r}, max_nodes={nodes:,}) on {positions} positions of {stones} random "
            f"stones near the centre: {found} wins, {t / positions * 1e3:.2f} ms per answer",
            flush=True,
        )


def main() -> None:
    p = harness.parser(__doc__, whole=True)
    p.add_argument("--time", type=float, default=0.25, help="seconds per move of the engine")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--opponents", nargs="+", default=["negamax:4"])
    p.add_argument("--opening-plies", type=int, default=4)
    p.add_argument("--opening", choices=["centre", "board"], default="centre")
    p.add_argument("--threads", type=int, default=1, help="games played at once")
    p.add_argument(
        "--search-threads", type=int, default=1, help="the engine's threads= (threads per move)"
    )
    p.add_argument(
        "--finder", type=int, default=100, help="positions for the finders' timing (0: none)"
    )
    p.add_argument("--stones", type=int, default=14)
    p.add_argument("--seed", type=int, default=1, help="the matches' seed (their openings)")
    args = p.parse_args()
    harness.print_machine()
    if args.finder:
        finder(args.finder, args.stones, seed=0)
    if args.games and args.opening == "board":
        strength(args.time, args.opponents, args.games, args.opening_plies, args.threads, args.seed)
    elif args.games:
        for opponent in args.opponents:
            centre_match(
                args.time,
                opponent,
                args.games,
                args.opening_plies,
                args.threads,
                args.seed,
                args.search_threads,
            )


if __name__ == "__main__":
    main()
