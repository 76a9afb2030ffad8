"""Board drawings: SVG for Jupyter (``Board._repr_svg_``) and the shared colours.

Pure Python (no numpy, no matplotlib): ``board_svg(board)`` returns an SVG string, or
None for boards larger than ``MAX_SVG_CELLS`` cells per side so that Jupyter falls
back to the text ``repr``. A board with gravity is a rack of discs; a free-placement
board is a grid (as a goban) with its stones on the intersections, rows and columns
numbered from 0 as ``str(board)`` numbers them (row 0 the top row: the cell in row
``r``, column ``c`` is the action ``r * width + c``).
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
#: A free-placement board's wood, grid lines and coordinates.
GRID_BOARD_COLOR = (222, 184, 107)
GRID_LINE_COLOR = (60, 40, 20)
EMPTY_COLOR = (235, 240, 250)
#: Ring around the last stone, and around the stones of the winning line.
LAST_COLOR = (255, 255, 255)
WIN_COLOR = (0, 230, 90)

CELL = 40  # pixels per cell in the SVG


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _ring(row: int, col: int, win: set[Any], last: Any, cell: int, plain: str) -> tuple[str, str]:
    """The class suffix and stroke of the stone at ``(row, col)``: green on the
    winning line, white on the last stone, else ``plain``."""
    if (row, col) in win:
        return " win", f'stroke="{_hex(WIN_COLOR)}" stroke-width="{cell * 0.1:g}"'
    if last is not None and (row, col) == tuple(last):
        return " last", f'stroke="{_hex(LAST_COLOR)}" stroke-width="{cell * 0.1:g}"'
    return "", plain


def _line_marks(line: list[Any], win: set[Any], last: Any, cell: int, x: Any, y: Any) -> list[str]:
    """The stroke joining the winning line's ends, and a dot on the deciding stone
    when it lies on the line; ``x(col)`` and ``y(row)`` place a cell's centre."""
    out = []
    if len(line) >= 2:
        (r0, c0), (r1, c1) = line[0], line[-1]
        out.append(
            f'<line class="winning-line" x1="{x(c0):g}" y1="{y(r0):g}" x2="{x(c1):g}" '
            f'y2="{y(r1):g}" stroke="{_hex(WIN_COLOR)}" stroke-width="{cell * 0.12:g}" '
            'stroke-linecap="round" opacity="0.8"/>'
        )
    if last is not None and tuple(last) in win:
        lr, lc = last
        out.append(
            f'<circle class="last-marker" cx="{x(lc):g}" cy="{y(lr):g}" r="{cell * 0.08:g}" '
            f'fill="{_hex(LAST_COLOR)}"/>'
        )
    return out


def board_svg(board: Any, size: int | None = None) -> str | None:
    """An SVG drawing of `board` (an ``inarow.Board``): discs coloured per player,
    the last stone ringed in white, the winning line (if any) ringed in green and
    joined by a line; with gravity a rack of discs, without a grid with the stones on
    its intersections and the rows and columns numbered from 0 (as ``str(board)``).
    `size` scales the cell size in pixels (default 40).

    Returns None when the board is wider or taller than ``MAX_SVG_CELLS`` (Jupyter
    then shows the text representation instead).
    """
    width, height = board.width, board.height
    if width > MAX_SVG_CELLS or height > MAX_SVG_CELLS:
        return None
    cell = CELL if size is None else int(size)
    if cell <= 0:
        raise ValueError(f"size={size!r} must be a positive number of pixels")
    if not board.gravity:
        return _grid_svg(board, cell)
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
            suffix, stroke = _ring(row, col, win, last, cell, "")
            cls = (f"p{owner}" if owner else "empty") + suffix
            out.append(f'<circle class="{cls}" {attrs}{(" " + stroke) if stroke else ""}/>')
    out += _line_marks(
        line, win, last, cell, lambda c: c * cell + cell / 2, lambda r: r * cell + cell / 2
    )
    out.append("</svg>")
    return "".join(out)


def _grid_svg(board: Any, cell: int) -> str:
    """A free-placement board: grid lines through the cells' centres, the stones on
    them, column numbers above and row numbers on the left, both from 0."""
    width, height = board.width, board.height
    pad = cell * 0.8  # room for the coordinates
    w_px, h_px = pad + width * cell, pad + height * cell

    def x(col: int) -> float:
        return pad + col * cell + cell / 2

    def y(row: int) -> float:
        return pad + row * cell + cell / 2

    line_color, font = _hex(GRID_LINE_COLOR), cell * 0.36
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w_px:g}" height="{h_px:g}" '
        f'viewBox="0 0 {w_px:g} {h_px:g}" class="inarow-board grid">',
        f'<rect width="{w_px:g}" height="{h_px:g}" fill="{_hex(GRID_BOARD_COLOR)}"/>',
    ]
    stroke = f'stroke="{line_color}" stroke-width="{max(cell * 0.03, 0.5):g}"'
    for col in range(width):
        out.append(
            f'<line class="grid" x1="{x(col):g}" y1="{y(0):g}" x2="{x(col):g}" '
            f'y2="{y(height - 1):g}" {stroke}/>'
        )
    for row in range(height):
        out.append(
            f'<line class="grid" x1="{x(0):g}" y1="{y(row):g}" x2="{x(width - 1):g}" '
            f'y2="{y(row):g}" {stroke}/>'
        )
    text = f'font-family="sans-serif" font-size="{font:g}" fill="{line_color}"'
    for col in range(width):
        out.append(
            f'<text class="col" x="{x(col):g}" y="{pad * 0.7:g}" text-anchor="middle" '
            f"{text}>{col}</text>"
        )
    for row in range(height):
        out.append(
            f'<text class="row" x="{pad * 0.85:g}" y="{y(row) + font * 0.35:g}" '
            f'text-anchor="end" {text}>{row}</text>'
        )
    cells = board.to_numpy().tolist()
    last = board.last_cell
    line = board.winning_line() or []
    win = set(line)
    radius = cell * 0.42
    for row in range(height):
        for col in range(width):
            owner = cells[row][col]
            if not owner:
                continue
            plain = f'stroke="{line_color}" stroke-width="{max(cell * 0.02, 0.5):g}"'
            suffix, ring = _ring(row, col, win, last, cell, plain)
            out.append(
                f'<circle class="p{owner}{suffix}" cx="{x(col):g}" cy="{y(row):g}" '
                f'r="{radius:g}" fill="{_hex(PLAYER_COLORS[owner - 1])}" {ring}/>'
            )
    out += _line_marks(line, win, last, cell, x, y)
    out.append("</svg>")
    return "".join(out)
