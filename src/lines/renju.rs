//! Renju's forbidden moves: which empty cells black may not play.
//!
//! Black (the first player) may not make an overline (six or more in a row), a
//! double four (two fours at once, also two in one line as in `X.XXX.X`) or a
//! double three (two threes at once), unless the move makes exactly five, which
//! wins. The definitions are those of the Piskvork judge (renju's international
//! rules):
//!
//! - a **four** is a line where one more black stone makes exactly five; the move
//!   makes as many fours in a line as it has cells that complete such a five
//!   through it (an open `.XXXX.` is one four with two such cells);
//! - a **three** is a line where one more black stone makes a straight four (four in
//!   a row with both ends empty, each end completing exactly five) **by a move that
//!   is itself allowed**: not forbidden and not a five. That last clause is
//!   recursive: the judge plays the move and judges the cell that would make the
//!   straight four.
//!
//! The judge reads a [`Grid`], a plain row-major board, and is written apart from
//! the bit layouts so that any engine (and a test) can hand it a position.

use std::fmt;

/// The forbidden shapes, in the order the judge looks for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl Forbidden {
    /// The shape's name: `"overline"`, `"double four"`, `"double three"`.
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double four",
            Forbidden::DoubleThree => "double three",
        }
    }
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
/// Beyond the board's edge.
const WALL: u8 = 3;

/// The four line directions as (row, col) steps.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
/// How far along a line the judge reads on each side of the cell it judges.
const REACH: isize = 6;
const SPAN: usize = 2 * REACH as usize + 1;
const MID: usize = REACH as usize;

/// What black's stone on a cell would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Neither a five nor forbidden.
    Allowed,
    /// Exactly five in a row: a win, whatever else it makes.
    Five,
    Forbidden(Forbidden),
}

/// A board as the judge reads it: `height` rows of `width` cells, each
/// [`EMPTY`], [`BLACK`] or [`WHITE`], inside a border of [`REACH`] walls, so a
/// cell up to `REACH` steps off the board reads as a wall without a bounds test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    width: usize,
    height: usize,
    /// Cells of a padded row.
    stride: usize,
    cells: Vec<u8>,
}

impl Grid {
    /// The empty board.
    pub fn new(width: usize, height: usize) -> Grid {
        let stride = width + 2 * REACH as usize;
        let mut grid = Grid {
            width,
            height,
            stride,
            cells: vec![WALL; stride * (height + 2 * REACH as usize)],
        };
        grid.clear();
        grid
    }

    /// Empties every cell (keeps the allocation).
    pub fn clear(&mut self) {
        let pad = REACH as usize;
        for row in 0..self.height {
            let start = (row + pad) * self.stride + pad;
            self.cells[start..start + self.width].fill(EMPTY);
        }
    }

    /// The index of `(row, col)` in the padded cells (within `REACH` of the board).
    #[inline(always)]
    fn index(&self, row: isize, col: isize) -> usize {
        debug_assert!(row >= -REACH && col >= -REACH);
        debug_assert!(row < self.height as isize + REACH && col < self.width as isize + REACH);
        (row + REACH) as usize * self.stride + (col + REACH) as usize
    }

    /// Sets the cell `(row, col)` to `value` (`EMPTY`, `BLACK` or `WHITE`).
    #[inline]
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        let i = self.index(row as isize, col as isize);
        self.cells[i] = value;
    }

    /// The cell `(row, col)`.
    #[inline]
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[self.index(row as isize, col as isize)]
    }

    /// Why black may not play the empty cell `(row, col)`, or `None` where it may
    /// (a move that makes exactly five is never forbidden).
    pub fn forbidden(&mut self, row: usize, col: usize) -> Option<Forbidden> {
        debug_assert_eq!(self.get(row, col), EMPTY);
        match self.verdict(row as isize, col as isize) {
            Verdict::Forbidden(f) => Some(f),
            Verdict::Allowed | Verdict::Five => None,
        }
    }

    /// Every empty cell black may not play, row-major (`row * width + col`), with
    /// why. Only cells whose lines hold the black stones a forbidden shape needs
    /// are judged: five others within five cells along one line (an overline),
    /// four within four along one (two fours in one line), or two lines each with
    /// two within three (a three) or three within four (a four). The counts come
    /// from the stones, not cell by cell.
    pub fn forbidden_cells(&mut self) -> Vec<(usize, Forbidden)> {
        let (w, h) = (self.width as isize, self.height as isize);
        // Per cell and direction: black stones within 3, 4 and 5 cells.
        let mut near = vec![[[0u8; 4]; 3]; self.width * self.height];
        let stones = (0..h).flat_map(|row| (0..w).map(move |col| (row, col)));
        for (row, col) in stones.filter(|&(r, c)| self.cells[self.index(r, c)] == BLACK) {
            for (d, (dr, dc)) in DIRECTIONS.into_iter().enumerate() {
                for t in (-5..=5isize).filter(|&t| t != 0) {
                    let (r, c) = (row + t * dr, col + t * dc);
                    if (0..h).contains(&r) && (0..w).contains(&c) {
                        let counts = &mut near[(r * w + c) as usize];
                        for (within, count) in counts.iter_mut().enumerate() {
                            if t.unsigned_abs() <= 3 + within {
                                count[d] += 1;
                            }
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (i, [c3, c4, c5]) in near.iter().enumerate() {
            let lines = (0..4).filter(|&d| c3[d] >= 2 || c4[d] >= 3).count();
            let may = lines >= 2 || c4.iter().any(|&n| n >= 4) || c5.iter().any(|&n| n >= 5);
            if may && self.get(i / self.width, i % self.width) == EMPTY {
                if let Some(kind) = self.forbidden(i / self.width, i % self.width) {
                    out.push((i, kind));
                }
            }
        }
        out
    }

    /// The cells of the line through `(row, col)` along `d`, from `REACH` cells
    /// before it to `REACH` after (`MID` is the cell itself).
    fn line(&self, row: isize, col: isize, (dr, dc): (isize, isize)) -> [u8; SPAN] {
        let step = dr * self.stride as isize + dc;
        let first = self.index(row, col) as isize - REACH * step;
        std::array::from_fn(|i| self.cells[(first + i as isize * step) as usize])
    }

    /// Black stones within five cells of `(row, col)` along its four lines: a
    /// five, an overline, two fours or two threes through it all need four.
    fn black_nearby(&self, row: isize, col: isize) -> usize {
        let at = self.index(row, col) as isize;
        let mut n = 0;
        for (dr, dc) in DIRECTIONS {
            let step = dr * self.stride as isize + dc;
            for t in 1..=5 {
                n += usize::from(self.cells[(at + t * step) as usize] == BLACK);
                n += usize::from(self.cells[(at - t * step) as usize] == BLACK);
            }
        }
        n
    }

    /// What black's stone on the empty `(row, col)` would do: played, judged and
    /// taken back (the grid is unchanged after).
    fn verdict(&mut self, row: isize, col: isize) -> Verdict {
        if self.black_nearby(row, col) < 4 {
            return Verdict::Allowed;
        }
        let index = self.index(row, col);
        self.cells[index] = BLACK;
        let verdict = self.judge_placed(row, col);
        self.cells[index] = EMPTY;
        verdict
    }

    /// The verdict on black's stone just placed at `(row, col)`.
    fn judge_placed(&mut self, row: isize, col: isize) -> Verdict {
        let lines = DIRECTIONS.map(|d| self.line(row, col, d));
        let runs = lines.map(|l| run_through(&l, MID));
        if runs.contains(&5) {
            return Verdict::Five;
        }
        if runs.iter().any(|&r| r >= 6) {
            return Verdict::Forbidden(Forbidden::Overline);
        }
        // A four through the stone needs four black stones within four cells
        // of it along the line, a three (a straight four one stone away) three
        // within three: most lines have neither, and are not examined.
        let near =
            |l: &[u8; SPAN], r: usize| l[MID - r..=MID + r].iter().filter(|&&c| c == BLACK).count();
        let fours: usize = lines.iter().filter(|l| near(l, 4) >= 4).map(fours_in).sum();
        if fours >= 2 {
            return Verdict::Forbidden(Forbidden::DoubleFour);
        }
        let may_three = lines.map(|l| near(&l, 3) >= 3);
        if may_three.iter().filter(|&&m| m).count() < 2 {
            return Verdict::Allowed;
        }
        let mut threes = 0;
        for ((line, d), may) in lines.iter().zip(DIRECTIONS).zip(may_three) {
            if may && self.is_three(line, row, col, d) {
                threes += 1;
                if threes == 2 {
                    return Verdict::Forbidden(Forbidden::DoubleThree);
                }
            }
        }
        Verdict::Allowed
    }

    /// Whether `line` (through black's stone at `(row, col)` along `d`) is a
    /// three: one more black stone on it makes a straight four, and black may
    /// play that stone (the recursive clause).
    fn is_three(&mut self, line: &[u8; SPAN], row: isize, col: isize, d: (isize, isize)) -> bool {
        for t in -4..=4isize {
            let e = (MID as isize + t) as usize;
            if t == 0 || line[e] != EMPTY {
                continue;
            }
            let mut with = *line;
            with[e] = BLACK;
            if !makes_straight_four(&with, e)
                || self.verdict(row + t * d.0, col + t * d.1) != Verdict::Allowed
            {
                continue;
            }
            return true;
        }
        false
    }
}

/// The length of the run of black stones through `at` (which holds one).
fn run_through(line: &[u8; SPAN], at: usize) -> usize {
    let up = line[at + 1..].iter().take_while(|&&c| c == BLACK).count();
    let down = line[..at].iter().rev().take_while(|&&c| c == BLACK).count();
    up + 1 + down
}

/// The first and last index of the run of black stones through `at`.
fn run_ends(line: &[u8; SPAN], at: usize) -> (usize, usize) {
    let up = line[at + 1..].iter().take_while(|&&c| c == BLACK).count();
    let down = line[..at].iter().rev().take_while(|&&c| c == BLACK).count();
    (at - down, at + up)
}

/// The fours black's stone in the middle of `line` makes along it: the empty
/// cells within four of it where one more stone makes exactly five through it,
/// an open four (two such cells five apart) counting once.
fn fours_in(line: &[u8; SPAN]) -> usize {
    let mut cells = [0usize; 2];
    let mut n = 0;
    for e in MID - 4..=MID + 4 {
        if line[e] != EMPTY {
            continue;
        }
        let mut with = *line;
        with[e] = BLACK;
        if run_through(&with, MID) == 5 {
            // At most one such cell on each side of the stone.
            cells[n.min(1)] = e;
            n += 1;
        }
    }
    match n {
        2 if cells[1] - cells[0] == 5 => 1,
        n => n,
    }
}

/// Whether black's stone at `e` (just added to `line`, beside the stone in the
/// middle) makes a straight four through the middle: exactly four in a row, both
/// ends empty, and each end completing exactly five.
fn makes_straight_four(line: &[u8; SPAN], e: usize) -> bool {
    if run_through(line, MID) != 4 {
        return false;
    }
    let (first, last) = run_ends(line, MID);
    if !(first..=last).contains(&e) || first < 2 || last + 2 >= SPAN {
        return false;
    }
    line[first - 1] == EMPTY
        && line[last + 1] == EMPTY
        && line[first - 2] != BLACK
        && line[last + 2] != BLACK
}

/// How many of the four lines through the empty `cell` hold a shape of three for
/// black once black plays there: one more black stone on the line makes a
/// straight four through the cell, allowed or not. `cells` is row-major, 0 empty,
/// 1 black, 2 white.
///
/// The threat searches ask it for black's moves no white stone can make
/// forbidden. A white stone never makes black's overline or fours, but it can make one of
/// black's threes count: a three counts only where its straight four would be
/// allowed, and a white stone may unmake the shape that forbade that cell. So a
/// cell black may play can become a double three after a white stone lands
/// anywhere near. The cell stays allowed whatever white adds where it makes
/// fewer than two *shapes* of three: lines where one more black stone makes a
/// straight four, allowed or not (white stones only take such shapes away). The
/// VCT's argument that a defence off the winning line of fours changes nothing
/// needs black's moves along that line to stay allowed: it uses these.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid from rows of `x` (black), `o` (white) and `.`.
    fn grid(rows: &[&str]) -> Grid {
        let mut g = Grid::new(rows[0].len(), rows.len());
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                g.set(
                    r,
                    c,
                    match ch {
                        'x' => BLACK,
                        'o' => WHITE,
                        _ => EMPTY,
                    },
                );
            }
        }
        g
    }

    /// The verdict on the cell marked `?`.
    fn judge(rows: &[&str]) -> Option<Forbidden> {
        let at = rows
            .iter()
            .enumerate()
            .find_map(|(r, l)| l.find('?').map(|c| (r, c)))
            .expect("a ? cell");
        let clean: Vec<String> = rows.iter().map(|l| l.replace('?', ".")).collect();
        let refs: Vec<&str> = clean.iter().map(String::as_str).collect();
        let mut g = grid(&refs);
        let before = g.clone();
        let verdict = g.forbidden(at.0, at.1);
        assert_eq!(g, before, "the judge leaves the grid as it found it");
        // The whole-board scan agrees with the judge cell by cell.
        let mut each = Vec::new();
        for i in 0..g.width * g.height {
            if g.get(i / g.width, i % g.width) == EMPTY {
                if let Some(kind) = g.forbidden(i / g.width, i % g.width) {
                    each.push((i, kind));
                }
            }
        }
        assert_eq!(g.forbidden_cells(), each);
        verdict
    }

    #[test]
    fn overline_is_forbidden_but_a_five_wins_whatever_else_it_makes() {
        assert_eq!(judge(&["...xxx?xx....."]), Some(Forbidden::Overline));
        assert_eq!(judge(&["....xx?xx....."]), None);
        // An exact five beside an overline in another direction is a five.
        assert_eq!(
            judge(&[
                "......x.......",
                "......x.......",
                "......x.......",
                "......x.......",
                "..xxx.?xx.....",
                "..............",
                "..............",
            ]),
            None
        );
    }

    #[test]
    fn double_fours_across_and_along_one_line() {
        assert_eq!(
            judge(&[
                "......x.......",
                "......x.......",
                "......x.......",
                "..............",
                "...xxx?.......",
                "..............",
            ]),
            Some(Forbidden::DoubleFour)
        );
        assert_eq!(judge(&["..x.xx?.x....."]), Some(Forbidden::DoubleFour));
        assert_eq!(judge(&[".xx.x?.xx....."]), Some(Forbidden::DoubleFour));
        // A straight four is one four.
        assert_eq!(judge(&["....xx?x......"]), None);
    }

    #[test]
    fn double_threes_count_only_threes_that_can_become_straight_fours() {
        let open = [
            "..............",
            "......x.......",
            "......x.......",
            "..............",
            "....xx?.......",
            "..............",
            "..............",
        ];
        assert_eq!(judge(&open), Some(Forbidden::DoubleThree));
        // White closes one end of the horizontal three: it can only become a
        // four that is not straight, so it is no three.
        let closed = [
            "..............",
            "......x.......",
            "......x.......",
            "..............",
            "..oxx?........",
            "..............",
            "..............",
        ];
        assert_eq!(judge(&closed), None);
        // Split threes count too.
        let split = [
            "..............",
            "......x.......",
            "..............",
            "......x.......",
            "...x.x?.......",
            "..............",
            "..............",
        ];
        assert_eq!(judge(&split), Some(Forbidden::DoubleThree));
    }

    #[test]
    fn a_three_whose_straight_four_would_be_forbidden_is_no_three() {
        // Found by comparing the Piskvork judge with a variant that counts every
        // three: the cell makes two threes, but one of them becomes a straight
        // four only by a move forbidden to black, so it is no three and the cell
        // is allowed (the judge of pip renju agrees).
        let rows = [
            "...........",
            "o..o.......",
            ".x....o....",
            "...xxoo....",
            ".x....o....",
            ".ox.oxo....",
            ".xoxox..o..",
            "oxxx.......",
            "x...o......",
            "..x?x......",
            "..o........",
        ];
        assert_eq!(judge(&rows), None);
    }
}

#[cfg(test)]
mod three_shape_tests {
    use super::*;

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
