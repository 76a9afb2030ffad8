//! The table of windows: every run of `k` cells along a row, a column or a
//! diagonal of a board, and the windows through each cell. Built once per board
//! size and `k`; the look-ahead board of the agents (`agents::LineBoard`) and the
//! threat engine's board (`threats::ThreatBoard`) keep their counts per window of
//! this one table.
//!
//! Cells are row-major (`row * width + col`, row 0 the top row). Windows are
//! listed direction by direction (horizontal, vertical, falling diagonal, rising
//! diagonal), each by its first cell in row-major order; with `k = 1` a cell is
//! one window (one direction), not four.
//!
//! A window's *flanks* are the cells just beyond its two ends along its line
//! (where on the board). Under an exact rule a window of `k` stones of one player
//! is a line only while neither flank holds that player's stone (else the run is
//! an overline): the table lists each window's flanks and the windows each cell
//! flanks.

/// A window: its first cell and the step between its cells (row-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub start: u32,
    pub step: i32,
}

impl Window {
    /// The window's `k` cells, from its first.
    #[inline]
    pub fn cells(self, k: usize) -> impl Iterator<Item = usize> {
        (0..k).map(move |i| (self.start as isize + self.step as isize * i as isize) as usize)
    }
}

/// The windows of a board (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct WindowTable {
    windows: Vec<Window>,
    /// The windows through each cell (CSR: `through_start[c]..through_start[c + 1]`).
    through_start: Vec<u32>,
    through: Vec<u32>,
    /// Per window, the cells just before its first and after its last cell
    /// (`NO_CELL` off the board).
    flanks: Vec<[u32; 2]>,
    /// The windows each cell flanks (CSR, as `through`).
    flanked_start: Vec<u32>,
    flanked: Vec<u32>,
}

/// A flank beyond the board's edge.
const NO_CELL: u32 = u32::MAX;

impl WindowTable {
    /// The windows of `k` cells of a `width` x `height` board, with their flanks
    /// where `with_flanks` (only an exact rule asks for them: without, no window
    /// has a flank, and a freestyle board is built at about half the cost).
    pub fn new(width: usize, height: usize, k: usize, with_flanks: bool) -> WindowTable {
        let (w, h) = (width as isize, height as isize);
        let directions: &[(isize, isize)] = if k == 1 {
            &[(0, 1)]
        } else {
            &[(0, 1), (1, 0), (1, 1), (1, -1)]
        };
        let on_board = |r: isize, c: isize| (0..h).contains(&r) && (0..w).contains(&c);
        let mut windows = Vec::new();
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); width * height];
        let mut flanks = Vec::new();
        let mut flanking: Vec<Vec<u32>> = if with_flanks {
            vec![Vec::new(); width * height]
        } else {
            Vec::new()
        };
        for &(dr, dc) in directions {
            for row in 0..h {
                for col in 0..w {
                    let (end_r, end_c) = (row + dr * (k as isize - 1), col + dc * (k as isize - 1));
                    if !on_board(end_r, end_c) {
                        continue;
                    }
                    let window = Window {
                        start: (row * w + col) as u32,
                        step: (dr * w + dc) as i32,
                    };
                    let index = windows.len() as u32;
                    for cell in window.cells(k) {
                        members[cell].push(index);
                    }
                    let ends = [(row - dr, col - dc), (end_r + dr, end_c + dc)];
                    if !with_flanks {
                        windows.push(window);
                        continue;
                    }
                    flanks.push(ends.map(|(r, c)| {
                        if on_board(r, c) {
                            let cell = (r * w + c) as usize;
                            flanking[cell].push(index);
                            cell as u32
                        } else {
                            NO_CELL
                        }
                    }));
                    windows.push(window);
                }
            }
        }
        let (through_start, through) = compressed(members);
        let (flanked_start, flanked) = if with_flanks {
            compressed(flanking)
        } else {
            (Vec::new(), Vec::new())
        };
        WindowTable {
            windows,
            through_start,
            through,
            flanks,
            flanked_start,
            flanked,
        }
    }

    /// How many windows the board has.
    #[inline]
    pub fn len(&self) -> usize {
        self.windows.len()
    }

    /// Window `index`.
    #[inline]
    pub fn window(&self, index: usize) -> Window {
        self.windows[index]
    }

    /// The windows through `cell`.
    #[inline]
    pub fn through(&self, cell: usize) -> &[u32] {
        &self.through[self.through_start[cell] as usize..self.through_start[cell + 1] as usize]
    }

    /// Whether a flank of window `index` satisfies `holds` (a cell -> whether it
    /// holds the player's stone): the window encoding's exact-line test, for a
    /// player whose lines must be exactly `k` the window is then no line.
    #[inline]
    pub fn flank_holds(&self, index: usize, holds: impl Fn(usize) -> bool) -> bool {
        self.flanks
            .get(index)
            .is_some_and(|ends| ends.iter().any(|&f| f != NO_CELL && holds(f as usize)))
    }

    /// The windows `cell` flanks (none in a table built without flanks).
    #[inline]
    pub fn flanked_by(&self, cell: usize) -> &[u32] {
        match (
            self.flanked_start.get(cell),
            self.flanked_start.get(cell + 1),
        ) {
            (Some(&from), Some(&to)) => &self.flanked[from as usize..to as usize],
            _ => &[],
        }
    }
}

/// Per-cell lists as one array and the start of each cell's list (with the end).
fn compressed(lists: Vec<Vec<u32>>) -> (Vec<u32>, Vec<u32>) {
    let mut starts = Vec::with_capacity(lists.len() + 1);
    let mut all = Vec::new();
    starts.push(0);
    for list in lists {
        all.extend(list);
        starts.push(all.len() as u32);
    }
    (starts, all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_run_of_k_cells_is_one_window_and_listed_at_each_of_its_cells() {
        for (w, h, k) in [
            (7, 6, 4),
            (3, 3, 3),
            (5, 1, 2),
            (1, 5, 1),
            (4, 9, 5),
            (6, 6, 7),
        ] {
            let table = WindowTable::new(w, h, k, true);
            // Brute force: every (cell, direction) whose k cells stay on the board.
            let mut expected = Vec::new();
            let dirs: &[(isize, isize)] = if k == 1 {
                &[(0, 1)]
            } else {
                &[(0, 1), (1, 0), (1, 1), (1, -1)]
            };
            for &(dr, dc) in dirs {
                for r in 0..h as isize {
                    for c in 0..w as isize {
                        let cells: Option<Vec<usize>> = (0..k as isize)
                            .map(|i| {
                                let (rr, cc) = (r + dr * i, c + dc * i);
                                ((0..h as isize).contains(&rr) && (0..w as isize).contains(&cc))
                                    .then_some((rr * w as isize + cc) as usize)
                            })
                            .collect();
                        expected.extend(cells);
                    }
                }
            }
            assert_eq!(table.len(), expected.len(), "{w}x{h} k={k}");
            for (i, cells) in expected.iter().enumerate() {
                assert_eq!(&table.window(i).cells(k).collect::<Vec<_>>(), cells);
                for &cell in cells {
                    assert!(table.through(cell).contains(&(i as u32)));
                }
            }
            let listed: usize = (0..w * h).map(|c| table.through(c).len()).sum();
            assert_eq!(listed, expected.len() * k);
            // Without flanks: the same windows, and no window has a flank.
            let bare = WindowTable::new(w, h, k, false);
            assert_eq!(bare.len(), table.len());
            for i in 0..table.len() {
                assert_eq!(bare.window(i), table.window(i));
                assert!(!bare.flank_holds(i, |_| true));
            }
            for cell in 0..w * h {
                assert_eq!(bare.through(cell), table.through(cell));
                assert!(bare.flanked_by(cell).is_empty());
            }
        }
    }

    #[test]
    fn flanks_are_the_cells_just_beyond_each_end_on_the_board() {
        for (w, h, k) in [(7, 6, 4), (5, 5, 5), (9, 3, 2), (1, 5, 1), (6, 6, 3)] {
            let table = WindowTable::new(w, h, k, true);
            let (wi, hi) = (w as isize, h as isize);
            let mut flanked = vec![Vec::new(); w * h];
            for i in 0..table.len() {
                let window = table.window(i);
                let cells: Vec<usize> = window.cells(k).collect();
                let (r0, c0) = ((cells[0] / w) as isize, (cells[0] % w) as isize);
                // The direction from the step: right, down, down-right, down-left.
                let (dr, dc) = match window.step {
                    1 => (0, 1),
                    s if s == w as i32 => (1, 0),
                    s if s == w as i32 + 1 => (1, 1),
                    _ => (1, -1),
                };
                let (dr, dc) = if k == 1 { (0, 1) } else { (dr, dc) };
                let beyond = |t: isize| {
                    let (r, c) = (r0 + dr * t, c0 + dc * t);
                    if (0..hi).contains(&r) && (0..wi).contains(&c) {
                        (r * wi + c) as u32
                    } else {
                        NO_CELL
                    }
                };
                let expect = [beyond(-1), beyond(k as isize)];
                assert_eq!(table.flanks[i], expect, "{w}x{h} k={k} window {i}");
                for cell in expect.into_iter().filter(|&c| c != NO_CELL) {
                    flanked[cell as usize].push(i as u32);
                }
            }
            for (cell, expect) in flanked.iter().enumerate() {
                assert_eq!(table.flanked_by(cell), expect.as_slice());
            }
        }
    }
}
