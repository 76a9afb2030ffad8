"""`inarow._svg.board_svg` (Board._repr_svg_) and `inarow.plot.plot_analysis`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import inarow
from inarow._svg import MAX_SVG_CELLS, PLAYER_COLORS, board_svg

NS = "{http://www.w3.org/2000/svg}"


def circles(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(f"{NS}circle")


def hexcolor(rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def test_svg_is_valid_xml_with_one_disc_per_cell_coloured_per_player():
    board = inarow.Board.from_moves([3, 3, 4], rules=inarow.Rules(width=7, height=6))
    svg = board._repr_svg_()
    assert svg == board_svg(board)
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg" and root.get("width") == str(7 * 40)
    discs = [c for c in circles(svg) if "last-marker" not in c.get("class")]
    assert len(discs) == 42
    fills = [c.get("fill") for c in discs]
    assert fills.count(hexcolor(PLAYER_COLORS[0])) == 2
    assert fills.count(hexcolor(PLAYER_COLORS[1])) == 1
    # disc of cell (row 5, col 3) is player 1's: index 5 * 7 + 3 in row-major order
    assert discs[5 * 7 + 3].get("fill") == hexcolor(PLAYER_COLORS[0])
    assert discs[4 * 7 + 3].get("fill") == hexcolor(PLAYER_COLORS[1])


def test_last_move_and_winning_line_highlighted():
    board = inarow.Board.from_moves([3, 3, 4])
    classes = [c.get("class") for c in circles(board_svg(board))]
    assert [i for i, c in enumerate(classes) if "last" in c.split()] == [5 * 7 + 4]
    assert not any("win" in c.split() for c in classes)
    assert "winning-line" not in board_svg(board)

    won = inarow.Board.from_moves([3, 3, 4, 4, 2, 2, 5])
    svg = board_svg(won)
    classes = [c.get("class") for c in circles(svg) if "last-marker" not in c.get("class")]
    wins = {divmod(i, 7) for i, c in enumerate(classes) if "win" in c.split()}
    assert wins == set(won.winning_line()) == {(5, 2), (5, 3), (5, 4), (5, 5)}
    line = ET.fromstring(svg).find(f"{NS}line")
    assert line is not None and line.get("class") == "winning-line"
    assert (line.get("x1"), line.get("x2")) == ("100", "220")  # columns 2 and 5, centres
    assert "last-marker" in svg  # the deciding stone, on the line, is still marked


def test_many_players_free_placement_and_empty_board():
    b = inarow.Board(inarow.Rules(5, 5, 3, players=16, gravity=False))
    for a in range(16):
        b.move(a)
    fills = [c.get("fill") for c in circles(board_svg(b))]
    assert fills[:16] == [hexcolor(c) for c in PLAYER_COLORS]
    empty = board_svg(inarow.Board(inarow.Rules(3, 3, 3, gravity=False)))
    assert "last" not in empty and "win" not in empty


def test_size_cap_returns_none_for_text_fallback():
    assert (
        board_svg(inarow.Board(inarow.Rules(MAX_SVG_CELLS, MAX_SVG_CELLS, 5, gravity=False)))
        is not None
    )
    big = inarow.Board(inarow.Rules(MAX_SVG_CELLS + 1, 4, 4))
    assert board_svg(big) is None and big._repr_svg_() is None
    assert board_svg(inarow.Board(inarow.Rules(4, MAX_SVG_CELLS + 1, 4))) is None


def test_size_parameter_scales():
    svg = board_svg(inarow.Board(inarow.Rules(3, 2, 3)), size=10)
    assert re.search(r'width="30" height="20"', svg)
    free = ET.fromstring(board_svg(inarow.Board(inarow.Rules(3, 3, 3, gravity=False)), size=10))
    assert free.get("width") == free.get("height") == str(3 * 10 + 8)  # the labels' margin
    with pytest.raises(ValueError):
        board_svg(inarow.Board(), size=0)


def test_plot_analysis_bars_match_solver():
    pytest.importorskip("matplotlib", reason="matplotlib is not installed")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from inarow.plot import plot_analysis

    board = inarow.Board.from_pons("7422341735647741166133573473242566")
    solver = inarow.Solver()
    ax = plot_analysis(board, solver)
    scores = solver.analyze(board)
    heights = [p.get_height() for p in ax.patches]
    assert heights == [0 if s is None else s for s in scores]
    outlined = [i for i, p in enumerate(ax.patches) if p.get_linewidth() == 2]
    best = max(s for s in scores if s is not None)
    assert outlined == [i for i, s in enumerate(scores) if s == best]
    assert "player 1" in ax.get_title() or "player 2" in ax.get_title()
    plt.close("all")
    # Free placement: a grid coloured by each free cell's score, the best outlined.
    ttt = inarow.Board.from_moves([0, 4], rules=inarow.Rules(width=3, height=3, k=3, gravity=False))
    ax = plot_analysis(ttt, solver)
    shown = ax.images[0].get_array()
    scores = solver.analyze(ttt)
    for a, s in enumerate(scores):
        assert shown.mask[a // 3, a % 3] if s is None else shown[a // 3, a % 3] == s
    best = max(s for s in scores if s is not None)
    outlined = sorted((round(p.get_y() + 0.5) * 3 + round(p.get_x() + 0.5)) for p in ax.patches)
    assert outlined == [a for a, s in enumerate(scores) if s == best]
    plt.close("all")
    with pytest.raises(inarow.UnsupportedRulesError):
        plot_analysis(inarow.Board(inarow.Rules(12, 11, 5, gravity=False)), solver)


def test_free_placement_is_a_grid_with_coordinates_from_zero():
    board = inarow.Board.from_moves(
        [1 * 4 + 2, 0], rules=inarow.Rules(width=4, height=3, k=3, gravity=False)
    )
    svg = board_svg(board)
    root = ET.fromstring(svg)
    assert hexcolor(inarow._svg.BOARD_COLOR) not in svg  # no Connect-Four rack
    grid = [line for line in root.findall(f"{NS}line") if line.get("class") == "grid"]
    assert len(grid) == 4 + 3  # a line through each column and each row
    texts = {(t.get("class"), t.text): t for t in root.findall(f"{NS}text")}
    assert {text for cls, text in texts if cls == "col"} == {"0", "1", "2", "3"}
    assert {text for cls, text in texts if cls == "row"} == {"0", "1", "2"}
    stones = circles(svg)  # only the stones, on the intersections
    assert [s.get("class").split()[0] for s in stones] == ["p2", "p1"]  # row-major order
    x_stone = next(s for s in stones if s.get("class").startswith("p1"))
    # The stone of action 6 (row 1, column 2) sits under column label 2, beside row label 1.
    assert x_stone.get("cx") == texts[("col", "2")].get("x")
    assert float(x_stone.get("cy")) == pytest.approx(float(texts[("row", "1")].get("y")), abs=8)
    assert "last" in stones[0].get("class").split()  # action 0, played last
    won = inarow.Board.from_moves(
        [0, 4, 1, 5, 2], rules=inarow.Rules(width=4, height=3, k=3, gravity=False)
    )
    svg = board_svg(won)
    assert "winning-line" in svg
    assert sum("win" in c.get("class").split() for c in circles(svg)) == 3
