//! Renju in the threat searches: which of black's moves no white stone can make
//! forbidden.
//!
//! A white stone never makes black's overline or fours, but it can make one of
//! black's threes count: a three counts only where its straight four would be
//! allowed, and a white stone may unmake the shape that forbade that cell. So a
//! cell black may play can become a double three after a white stone lands
//! anywhere near. The cell stays allowed whatever white adds where it makes
//! fewer than two *shapes* of three: lines where one more black stone makes a
//! straight four, allowed or not (white stones only take such shapes away). The
//! VCT's argument that a defence off the winning line of fours changes nothing
//! needs black's moves along that line to stay allowed: it uses these.

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WALL: u8 = 3;
const REACH: isize = 6;
const SPAN: usize = 2 * REACH as usize + 1;
const MID: usize = REACH as usize;

/// How many of the four lines through the empty `cell` hold a shape of three for
/// black once black plays there: one more black stone on the line makes a
/// straight four through the cell (see the module docs). `cells` is row-major,
/// 0 empty, 1 black, 2 white.
pub(crate) fn three_shapes(cells: &[u8], width: usize, cell: usize) -> usize {
    let height = cells.len() / width;
    let (row, col) = ((cell / width) as isize, (cell % width) as isize);
    let at = |r: isize, c: isize| {
        if r < 0 || c < 0 || r >= height as isize || c >= width as isize {
            WALL
        } else {
            cells[r as usize * width + c as usize]
        }
    };
    let mut shapes = 0;
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        let mut line = [WALL; SPAN];
        for (i, v) in line.iter_mut().enumerate() {
            let t = i as isize - REACH;
            *v = at(row + t * dr, col + t * dc);
        }
        line[MID] = BLACK;
        let three = (MID - 4..=MID + 4).any(|e| {
            if e == MID || line[e] != EMPTY {
                return false;
            }
            let mut with = line;
            with[e] = BLACK;
            makes_straight_four(&with, e)
        });
        shapes += usize::from(three);
    }
    shapes
}

/// The first and last index of the run of black stones through `at`.
fn run_ends(line: &[u8; SPAN], at: usize) -> (usize, usize) {
    let up = line[at + 1..].iter().take_while(|&&c| c == BLACK).count();
    let down = line[..at].iter().rev().take_while(|&&c| c == BLACK).count();
    (at - down, at + up)
}

/// Whether the stone at `e` makes a straight four through the middle: four in a
/// row holding `e`, both ends empty and each completing exactly five.
fn makes_straight_four(line: &[u8; SPAN], e: usize) -> bool {
    let (first, last) = run_ends(line, MID);
    if last - first + 1 != 4 || !(first..=last).contains(&e) || first < 2 || last + 2 >= SPAN {
        return false;
    }
    line[first - 1] == EMPTY
        && line[last + 1] == EMPTY
        && line[first - 2] != BLACK
        && line[last + 2] != BLACK
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::renju::Grid;

    /// Row-major cells from rows of `x` (black), `o` (white) and `.`.
    fn cells(rows: &[&str]) -> Vec<u8> {
        rows.iter()
            .flat_map(|r| {
                r.chars().map(|ch| match ch {
                    'x' => 1,
                    'o' => 2,
                    _ => 0,
                })
            })
            .collect()
    }

    #[test]
    fn shapes_count_threes_whether_or_not_their_four_is_allowed() {
        let rows = [
            "..............",
            "......x.......",
            "......x.......",
            "..............",
            "....xx........",
            "..............",
            "..............",
        ];
        let c = cells(&rows);
        assert_eq!(three_shapes(&c, 14, 4 * 14 + 6), 2);
        // White closes the horizontal one's end: the split column's shape is left.
        let closed = cells(&[
            "..............",
            ".....x........",
            ".....x........",
            "..............",
            "..oxx.........",
            "..............",
            "..............",
        ]);
        assert_eq!(three_shapes(&closed, 14, 4 * 14 + 5), 1);
    }

    /// Every cell the judge allows with fewer than two shapes stays allowed after
    /// any one more white stone, on random clustered positions.
    #[test]
    fn few_shapes_keep_a_cell_allowed_whatever_white_adds() {
        let mut rng = crate::rng::Rng::new(31, 0);
        let (w, h) = (11, 11);
        let mut checked = 0;
        for _ in 0..20 {
            let mut board = vec![0u8; w * h];
            for _ in 0..(10 + rng.below(20)) {
                let cell = (2 + rng.below(7) as usize) * w + 2 + rng.below(7) as usize;
                board[cell] = 1 + rng.below(2) as u8;
            }
            let grid_of = |b: &[u8]| {
                let mut g = Grid::new(w, h);
                for (i, &v) in b.iter().enumerate() {
                    g.set(i / w, i % w, v);
                }
                g
            };
            let mut grid = grid_of(&board);
            for cell in (0..w * h).filter(|&c| board[c] == 0) {
                if grid.forbidden(cell / w, cell % w).is_some()
                    || three_shapes(&board, w, cell) >= 2
                {
                    continue;
                }
                let near =
                    |x: usize| (x / w).abs_diff(cell / w) <= 5 && (x % w).abs_diff(cell % w) <= 5;
                for x in (0..w * h).filter(|&x| x != cell && board[x] == 0 && near(x)) {
                    let mut with = board.clone();
                    with[x] = 2;
                    let mut g = grid_of(&with);
                    assert_eq!(
                        g.forbidden(cell / w, cell % w),
                        None,
                        "cell {cell} white {x}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }
}
