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
}

impl WindowTable {
    /// The windows of `k` cells of a `width` x `height` board.
    pub fn new(width: usize, height: usize, k: usize) -> WindowTable {
        let (w, h) = (width as isize, height as isize);
        let directions: &[(isize, isize)] = if k == 1 {
            &[(0, 1)]
        } else {
            &[(0, 1), (1, 0), (1, 1), (1, -1)]
        };
        let mut windows = Vec::new();
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); width * height];
        for &(dr, dc) in directions {
            for row in 0..h {
                for col in 0..w {
                    let (end_r, end_c) = (row + dr * (k as isize - 1), col + dc * (k as isize - 1));
                    if !(0..h).contains(&end_r) || !(0..w).contains(&end_c) {
                        continue;
                    }
                    let window = Window {
                        start: (row * w + col) as u32,
                        step: (dr * w + dc) as i32,
                    };
                    for cell in window.cells(k) {
                        members[cell].push(windows.len() as u32);
                    }
                    windows.push(window);
                }
            }
        }
        let mut through_start = Vec::with_capacity(width * height + 1);
        let mut through = Vec::new();
        through_start.push(0);
        for m in members {
            through.extend(m);
            through_start.push(through.len() as u32);
        }
        WindowTable {
            windows,
            through_start,
            through,
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
            let table = WindowTable::new(w, h, k);
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
        }
    }
}
