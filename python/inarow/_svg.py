"""Board drawings: SVG for Jupyter (``Board._repr_svg_``) and the shared colours.

Pure Python (no numpy, no matplotlib): ``board_svg(board)`` returns an SVG string, or
None for boards larger than ``MAX_SVG_CELLS`` cells per side so that Jupyter falls
back to the text ``repr``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_SVG_CELLS", "PLAYER_COLORS", "board_svg"]

#: Largest width or height drawn as SVG; larger boards return None (text fallback).
MAX_SVG_CELLS = 32

#: Disc colours of players 1..16 as (r, g, b).
PLAYER_COLORS: tuple[tuple[int, int, int], ...] = (
    (220, 40, 40),  # 1 red
    (245, 200, 20),  # 2 yellow
    (40, 160, 60),  # 3 green
    (150, 70, 200),  # 4 purple
    (240, 130, 20),  # 5 orange
    (20, 180, 200),  # 6 cyan
    (230, 80, 170),  # 7 pink
    (120, 80, 40),  # 8 brown
    (30, 30, 30),  # 9 black
    (240, 240, 240),  # 10 white
    (130, 130, 130),  # 11 grey
    (20, 90, 40),  # 12 dark green
    (0, 0, 140),  # 13 navy
    (150, 0, 40),  # 14 maroon
    (160, 200, 40),  # 15 lime
    (255, 170, 150),  # 16 salmon
)
#: Board background and empty cells.
BOARD_COLOR = (30, 80, 190)
EMPTY_COLOR = (235, 240, 250)
#: Ring around the last stone, and around the stones of the winning line.
LAST_COLOR = (255, 255, 255)
WIN_COLOR = (0, 230, 90)

CELL = 40  # pixels per cell in the SVG


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def board_svg(board: Any, size: int | None = None) -> str | None:
    """An SVG drawing of `board` (an ``inarow.Board``): discs coloured per player,
    the last stone ringed in white, the winning line (if any) ringed in green and
    joined by a line. `size` scales the cell size in pixels (default 40).

    Returns None when the board is wider or taller than ``MAX_SVG_CELLS`` (Jupyter
    then shows the text representation instead).
    """
    width, height = board.width, board.height
    if width > MAX_SVG_CELLS or height > MAX_SVG_CELLS:
        return None
    cell = CELL if size is None else int(size)
    if cell <= 0:
        raise ValueError(f"size={size!r} must be a positive number of pixels")
    cells = board.to_numpy().tolist()
    last = board.last_cell
    line = board.winning_line() or []
    win = set(line)
    r = cell * 0.4
    w_px, h_px = width * cell, height * cell
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w_px}" height="{h_px}" '
        f'viewBox="0 0 {w_px} {h_px}" class="inarow-board">',
        f'<rect width="{w_px}" height="{h_px}" fill="{_hex(BOARD_COLOR)}"/>',
    ]
    for row in range(height):
        for col in range(width):
            owner = cells[row][col]
            cx, cy = col * cell + cell / 2, row * cell + cell / 2
            fill = EMPTY_COLOR if owner == 0 else PLAYER_COLORS[owner - 1]
            attrs = f'cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{_hex(fill)}"'
            cls = f"p{owner}" if owner else "empty"
            stroke = ""
            if (row, col) in win:
                cls += " win"
                stroke = f' stroke="{_hex(WIN_COLOR)}" stroke-width="{cell * 0.1:g}"'
            elif last is not None and (row, col) == tuple(last):
                cls += " last"
                stroke = f' stroke="{_hex(LAST_COLOR)}" stroke-width="{cell * 0.1:g}"'
            out.append(f'<circle class="{cls}" {attrs}{stroke}/>')
    if len(line) >= 2:
        (r0, c0), (r1, c1) = line[0], line[-1]
        out.append(
            f'<line class="winning-line" x1="{c0 * cell + cell / 2:g}" '
            f'y1="{r0 * cell + cell / 2:g}" x2="{c1 * cell + cell / 2:g}" '
            f'y2="{r1 * cell + cell / 2:g}" stroke="{_hex(WIN_COLOR)}" '
            f'stroke-width="{cell * 0.12:g}" stroke-linecap="round" opacity="0.8"/>'
        )
    if last is not None and tuple(last) in win:
        # The deciding stone is on the line: mark it with a small white dot as well.
        lr, lc = last
        out.append(
            f'<circle class="last-marker" cx="{lc * cell + cell / 2:g}" '
            f'cy="{lr * cell + cell / 2:g}" r="{cell * 0.08:g}" fill="{_hex(LAST_COLOR)}"/>'
        )
    out.append("</svg>")
    return "".join(out)
