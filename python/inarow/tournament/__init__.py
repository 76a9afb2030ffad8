"""Engine against engine over fixed opening books: the harness that accepts or rejects a
change to an engine, and rates inarow against an external one.

::

    python -m inarow.tournament --a threats --b "gomocup:/path/to/pbrain-rapfi" \\
        --time 0.5 --book freestyle-15 --pairs 100 --log rapfi.jsonl

* :mod:`inarow.tournament.book`: opening books (``freestyle-15``, ``renju-26``) in
  gomoku notation (``h8``);
* :mod:`inarow.tournament.match`: players (Gomocup brains as processes, inarow's agents
  in this process), one game, a whole match logged game by game (resumable);
* :mod:`inarow.tournament.stats`: score and Elo with intervals per game (trinomial) and
  per pair of games (pentanomial), and the SPRT with its bounds;
* :mod:`inarow.tournament.compare`: two engines' matches against one opponent on the
  same openings and seats, compared pair by pair.

See ``docs/threats.md`` ("Measuring strength").
"""

from inarow.tournament.book import BOOKS, Opening, cell_name, load_book, parse_book, parse_cell
from inarow.tournament.match import (
    RULES,
    GameRecord,
    Summary,
    make_player,
    new_board,
    play_game,
    read_log,
    replay,
    run,
    summarize,
)
from inarow.tournament.stats import Estimate, Sprt, elo, elo_estimate, llr, sprt, sprt_bounds

__all__ = [
    "BOOKS",
    "RULES",
    "Estimate",
    "GameRecord",
    "Opening",
    "Sprt",
    "Summary",
    "cell_name",
    "elo",
    "elo_estimate",
    "llr",
    "load_book",
    "make_player",
    "new_board",
    "parse_book",
    "parse_cell",
    "play_game",
    "read_log",
    "replay",
    "run",
    "sprt",
    "sprt_bounds",
    "summarize",
]
