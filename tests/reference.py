"""A deliberately plain reference implementation of the k-in-a-row rules.

Independent of the engine: a 2-D list grid, explicit loops over the four line
directions, no bitboards and no cleverness, so that it can be read and trusted.
It serves two purposes:

* the oracle of ``test_differential.py`` (same observables as ``inarow.Board``);
* the generator of the known counts in ``tests/data/perft/*.perft``:
  ``python tests/reference.py --generate`` (re)writes them.

Conventions (those of ``inarow``): the grid is ``height`` rows of ``width`` cells,
row 0 on top; 0 is empty, 1..players the owner; a gravity action is a column (the
stone drops to the lowest empty row), a free-placement action is ``row * width + col``;
players move in turn from player 1; ``k`` in a row in any of the four directions
wins, wherever the last stone sits in the line; a full board without a line is a
draw.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

# Line directions as (row step, col step), each pointing "forward" (rightwards, or
# downwards for the vertical): horizontal, vertical, diagonal, anti-diagonal.
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (-1, 1)]


class IllegalMove(Exception):
    """A move the rules forbid."""


class Reference:
    """One game under fixed rules, played move by move."""

    def __init__(self, width=7, height=6, k=4, players=2, gravity=True):
        self.width = width
        self.height = height
        self.k = k
        self.players = players
        self.gravity = gravity
        self.grid = [[0] * width for _ in range(height)]
        self.moves = []
        self.cells_played = []  # the (row, col) of each move, in order
        self.current_player = 1
        self.winner = None
        # Every run of >= k stones through the deciding stone (one per direction).
        self.winning_lines = []

    # -- observables -------------------------------------------------------

    @property
    def num_actions(self):
        if self.gravity:
            return self.width
        return self.width * self.height

    def stones(self):
        count = 0
        for row in self.grid:
            for cell in row:
                if cell != 0:
                    count += 1
        return count

    @property
    def is_draw(self):
        return self.winner is None and self.stones() == self.width * self.height

    @property
    def is_over(self):
        return self.winner is not None or self.stones() == self.width * self.height

    def legal_moves(self):
        if self.is_over:
            return []
        result = []
        if self.gravity:
            for col in range(self.width):
                if self.grid[0][col] == 0:
                    result.append(col)
        else:
            for row in range(self.height):
                for col in range(self.width):
                    if self.grid[row][col] == 0:
                        result.append(row * self.width + col)
        return result

    def legal_mask(self):
        mask = [False] * self.num_actions
        for action in self.legal_moves():
            mask[action] = True
        return mask

    def to_grid(self):
        """A copy of the grid: ``height`` lists of ``width`` owners, row 0 on top."""
        return [list(row) for row in self.grid]

    def observation(self):
        """Planes ``[players][height][width]`` of 0/1: plane i holds the stones of the
        player i turns after the side to move."""
        planes = []
        for i in range(self.players):
            owner = (self.current_player - 1 + i) % self.players + 1
            plane = []
            for row in range(self.height):
                plane.append(
                    [1 if self.grid[row][col] == owner else 0 for col in range(self.width)]
                )
            planes.append(plane)
        return planes

    @property
    def winning_line(self):
        """The first of ``winning_lines`` (cells left to right, top to bottom), or None."""
        if not self.winning_lines:
            return None
        return self.winning_lines[0]

    # -- moves ---------------------------------------------------------------

    def cell_of(self, action):
        """The cell an action would fill now; raises IllegalMove."""
        if not isinstance(action, int) or action < 0 or action >= self.num_actions:
            raise IllegalMove(f"action {action!r} out of range")
        if self.is_over:
            raise IllegalMove("the game is over")
        if self.gravity:
            col = action
            row = self.height - 1
            while row >= 0 and self.grid[row][col] != 0:
                row -= 1
            if row < 0:
                raise IllegalMove(f"column {col} is full")
            return row, col
        row = action // self.width
        col = action % self.width
        if self.grid[row][col] != 0:
            raise IllegalMove(f"cell ({row}, {col}) is occupied")
        return row, col

    def run_through(self, row, col, dr, dc):
        """The cells of the run of ``grid[row][col]``'s owner through (row, col) along
        (dr, dc), ordered from the backward end to the forward end."""
        owner = self.grid[row][col]
        r, c = row, col
        while True:
            pr, pc = r - dr, c - dc
            if 0 <= pr < self.height and 0 <= pc < self.width and self.grid[pr][pc] == owner:
                r, c = pr, pc
            else:
                break
        cells = []
        while 0 <= r < self.height and 0 <= c < self.width and self.grid[r][c] == owner:
            cells.append((r, c))
            r, c = r + dr, c + dc
        return cells

    def play(self, action):
        """Plays ``action`` for the current player; returns True when it wins."""
        row, col = self.cell_of(action)
        player = self.current_player
        self.grid[row][col] = player
        self.moves.append(action)
        self.cells_played.append((row, col))
        self.current_player = player % self.players + 1
        lines = []
        for dr, dc in DIRECTIONS:
            run = self.run_through(row, col, dr, dc)
            if len(run) >= self.k:
                lines.append(run)
        if lines:
            self.winner = player
            self.winning_lines = lines
            return True
        return False

    def undo(self):
        """Takes back the last move; returns its action."""
        if not self.moves:
            raise IllegalMove("no move to undo")
        action = self.moves.pop()
        row, col = self.cells_played.pop()
        self.grid[row][col] = 0
        self.current_player = (self.current_player - 2) % self.players + 1
        # The position before the last move was not over, or no move would follow it.
        self.winner = None
        self.winning_lines = []
        return action

    # -- counting ------------------------------------------------------------

    def perft(self, depth):
        """Move sequences of exactly ``depth`` plies (a finished game is not extended).

        At depth 1 the legal moves are counted instead of played one by one: the
        same number, obtained without a play/undo per leaf.
        """
        if depth == 0:
            return 1
        legal = self.legal_moves()
        if depth == 1:
            return len(legal)
        total = 0
        for action in legal:
            self.play(action)
            total += self.perft(depth - 1)
            self.undo()
        return total

    def count_games(self):
        """Complete games (ending in a win or a draw) from here."""
        if self.is_over:
            return 1
        total = 0
        for action in self.legal_moves():
            self.play(action)
            total += self.count_games()
            self.undo()
        return total


def winner_of_grid(grid, k):
    """``inarow.winners`` for one grid, plainly: the owner of a run of >= k cells,
    0 if none, -1 if several players have runs."""
    height = len(grid)
    width = len(grid[0]) if height else 0
    found = set()
    for row in range(height):
        for col in range(width):
            owner = grid[row][col]
            if owner == 0:
                continue
            for dr, dc in DIRECTIONS:
                length = 0
                r, c = row, col
                while 0 <= r < height and 0 <= c < width and grid[r][c] == owner:
                    length += 1
                    r, c = r + dr, c + dc
                if length >= k:
                    found.add(owner)
    if not found:
        return 0
    if len(found) > 1:
        return -1
    return found.pop()


# -- the known-count files ------------------------------------------------------

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "perft")

HEADER = """\
# Known counts of k-in-a-row games, one per line, generated by the plain reference
# implementation tests/reference.py (`python tests/reference.py --generate`), never by
# the engine. Fields, separated by single spaces:
#   width height k players gravity(0/1) moves depth count
# moves: the actions played from the empty board before counting, comma-separated
#   (a column with gravity, row*width+col without), or - for the empty board.
# depth: an integer d for perft(d), the number of move sequences of exactly d plies
#   (a finished game is not extended; perft(0) = 1); or the word `games` for
#   count_games(), the number of complete games (won or drawn) from the position.
# The reference's perft counts the legal moves at depth 1 instead of playing them
#   (same number, no play/undo per leaf); everything else is plain recursion.
"""

# (file name, comment, [(width, height, k, players, gravity, moves, depths)]);
# depths is a list of integers and/or "games".
SUITES = [
    (
        "connect_four.perft",
        "Connect Four (7x6, 4 in a row, 2 players, gravity); depth 8 = 5,673,234.",
        [
            (7, 6, 4, 2, True, [], list(range(9))),
            # Pons "4453": columns 3, 3, 4, 2 (0-based).
            (7, 6, 4, 2, True, [3, 3, 4, 2], list(range(6))),
            # Player 1 threatens both ends of an open three: games end at depth 3.
            (7, 6, 4, 2, True, [3, 3, 4, 4, 5, 5], list(range(6))),
            # The article game on an 8x6 board, one move before player 2 wins.
            (8, 6, 4, 2, True, [3, 2, 4, 3, 5, 6, 5, 4, 5, 5, 6], list(range(5))),
        ],
    ),
    (
        "tic_tac_toe.perft",
        "Tic-tac-toe (3x3, 3 in a row, free placement): 255,168 complete games.",
        [
            (3, 3, 3, 2, False, [], list(range(10)) + ["games"]),
            # After X in the centre and O in a corner.
            (3, 3, 3, 2, False, [4, 0], [0, 1, 2, 3, "games"]),
        ],
    ),
    (
        "gravity_variants.perft",
        "Gravity variants: several players, short lines, one-column and one-row boards.",
        [
            (5, 4, 3, 3, True, [], list(range(9))),
            (5, 4, 3, 3, True, [2, 2, 1], list(range(6))),
            (4, 3, 3, 2, True, [], [0, 1, 2, 3, 4, 5, 6, "games"]),
            (4, 4, 3, 4, True, [], list(range(7))),
            (1, 5, 2, 2, True, [], [0, 1, 2, 3, 4, 5, "games"]),
            (6, 1, 2, 3, True, [], [0, 1, 2, 3, 4, "games"]),
            (9, 9, 5, 2, True, [], [0, 1, 2, 3, 4]),
            # An open four on the bottom row (columns 2..5): player 1 wins at once.
            (9, 9, 5, 2, True, [4, 4, 3, 3, 5, 5, 2, 2], [0, 1, 2, 3, 4]),
        ],
    ),
    (
        "free_variants.perft",
        "Free-placement variants: small boards, several players, k = 1 and 2.",
        [
            (4, 4, 3, 2, False, [], list(range(7))),
            (4, 4, 3, 2, False, [5, 6, 10], list(range(5))),
            (8, 8, 5, 3, False, [], [0, 1, 2, 3]),
            (3, 3, 2, 3, False, [], [0, 1, 2, 3, 4, 5, "games"]),
            (3, 3, 1, 2, False, [], [0, 1, 2, "games"]),
            (3, 3, 3, 3, False, [], [0, 1, 2, 3, 4, 5, 6, 7, "games"]),
            # Player 1 has an open four in row 3 (columns 1..4) and is to move.
            (
                8,
                8,
                5,
                3,
                False,
                [25, 0, 7, 26, 2, 5, 27, 56, 63, 28, 58, 61],
                [0, 1, 2, 3],
            ),
            (5, 2, 2, 2, False, [], [0, 1, 2, 3, 4, "games"]),
        ],
    ),
]


def parse_line(line):
    """One data line -> (width, height, k, players, gravity, moves, depth, count);
    depth is an int or the string "games"."""
    fields = line.split()
    if len(fields) != 8:
        raise ValueError(f"expected 8 fields, got {len(fields)}: {line!r}")
    width, height, k, players = (int(f) for f in fields[:4])
    if fields[4] not in ("0", "1"):
        raise ValueError(f"gravity must be 0 or 1: {line!r}")
    gravity = fields[4] == "1"
    moves = [] if fields[5] == "-" else [int(a) for a in fields[5].split(",")]
    depth = fields[6] if fields[6] == "games" else int(fields[6])
    count = int(fields[7])
    return width, height, k, players, gravity, moves, depth, count


def read_perft_files(directory=DATA_DIR):
    """Every data line of every ``*.perft`` file: a list of (file name, line number,
    parsed fields)."""
    entries = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".perft"):
            continue
        with open(os.path.join(directory, name)) as f:
            for number, line in enumerate(f, start=1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                entries.append((name, number, parse_line(line)))
    return entries


def generate(directory=DATA_DIR):
    os.makedirs(directory, exist_ok=True)
    for name, comment, cases in SUITES:
        lines = [HEADER, f"# {comment}\n"]
        for width, height, k, players, gravity, moves, depths in cases:
            for depth in depths:
                ref = Reference(width, height, k, players, gravity)
                for action in moves:
                    ref.play(action)
                start = time.perf_counter()
                count = ref.count_games() if depth == "games" else ref.perft(depth)
                seconds = time.perf_counter() - start
                moves_field = ",".join(str(a) for a in moves) if moves else "-"
                line = (
                    f"{width} {height} {k} {players} {int(gravity)} {moves_field} {depth} {count}"
                )
                print(f"{name}: {line}  ({seconds:.1f} s)", flush=True)
                lines.append(line + "\n")
        with open(os.path.join(directory, name), "w") as f:
            f.writelines(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--generate", action="store_true", help=f"(re)write the known counts in {DATA_DIR}"
    )
    args = parser.parse_args(argv)
    if args.generate:
        generate()
    else:
        parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
