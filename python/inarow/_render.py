"""The board drawn for the adapters' ``render()``: text ("ansi") and an RGB image
("rgb_array", numpy only)."""

from __future__ import annotations

import numpy as np

import inarow
from inarow._svg import BOARD_COLOR, EMPTY_COLOR, LAST_COLOR, PLAYER_COLORS, WIN_COLOR


def render_rgb(board: inarow.Board, cell: int = 32) -> np.ndarray:
    """The board as an ``(height * cell, width * cell, 3)`` uint8 image (numpy only):
    discs coloured per player, last stone ringed white, winning line ringed green."""
    h, w = board.height, board.width
    yy, xx = np.mgrid[0:cell, 0:cell]
    d2 = (yy - (cell - 1) / 2) ** 2 + (xx - (cell - 1) / 2) ** 2
    rad = cell * 0.42
    disc = d2 <= rad**2
    ring = disc & (d2 >= (rad * 0.72) ** 2)
    cells = board.to_numpy()
    img = np.empty((h * cell, w * cell, 3), dtype=np.uint8)
    img[...] = BOARD_COLOR
    palette = np.array((EMPTY_COLOR, *PLAYER_COLORS), dtype=np.uint8)
    tiles = np.broadcast_to(BOARD_COLOR, (h, w, cell, cell, 3)).astype(np.uint8)
    tiles = tiles.copy()
    tiles[:, :, disc] = palette[cells][:, :, None, :]
    for (r, c), color in (
        *((rc, LAST_COLOR) for rc in ([board.last_cell] if board.last_cell else [])),
        *((rc, WIN_COLOR) for rc in (board.winning_line() or [])),
    ):
        tiles[r, c][ring] = color
    img[...] = tiles.transpose(0, 2, 1, 3, 4).reshape(h * cell, w * cell, 3)
    return img


def render_ansi(board: inarow.Board) -> str:
    """The board as text with a line saying who won or is to move."""
    s = str(board)
    if board.winner is not None:
        s += f"player {board.winner} wins\n"
    elif board.is_draw:
        s += "draw\n"
    else:
        s += f"player {board.current_player} to move\n"
    return s
