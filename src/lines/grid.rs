//! The line test on a plain grid: `height` rows of `width` cells, row-major, each
//! cell its owner (the default value: empty), with no bit layout. The win
//! detector's encoding (`crate::detect`): any owner type, any number of players,
//! lines of `k` or more (the freestyle rule).

/// Who holds lines on a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GridLines<T> {
    None,
    One(T),
    /// Lines of two or more owners.
    Several,
}

/// Whose runs of `k` or more cells (along a row, a column or a diagonal) `grid`
/// holds. Each run is walked from its first cell only.
#[inline]
pub(crate) fn grid_lines<T: Copy + PartialEq + Default>(
    grid: &[T],
    height: usize,
    width: usize,
    k: usize,
) -> GridLines<T> {
    let empty = T::default();
    let mut found = GridLines::None;
    let at = |r: isize, c: isize| -> T {
        if r < 0 || c < 0 || r >= height as isize || c >= width as isize {
            empty
        } else {
            grid[r as usize * width + c as usize]
        }
    };
    for r in 0..height as isize {
        for c in 0..width as isize {
            let v = at(r, c);
            if v == empty {
                continue;
            }
            for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
                if at(r - dr, c - dc) == v {
                    continue;
                }
                let mut len = 1;
                while len < k && at(r + dr * len as isize, c + dc * len as isize) == v {
                    len += 1;
                }
                if len >= k {
                    match found {
                        GridLines::None => found = GridLines::One(v),
                        GridLines::One(u) if u == v => {}
                        _ => return GridLines::Several,
                    }
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run of `k` cells checked one by one.
    fn brute(grid: &[u8], h: usize, w: usize, k: usize) -> GridLines<u8> {
        let mut owners = Vec::new();
        for r in 0..h as isize {
            for c in 0..w as isize {
                for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
                    let cells: Option<Vec<u8>> = (0..k as isize)
                        .map(|i| {
                            let (rr, cc) = (r + dr * i, c + dc * i);
                            ((0..h as isize).contains(&rr) && (0..w as isize).contains(&cc))
                                .then(|| grid[rr as usize * w + cc as usize])
                        })
                        .collect();
                    if let Some(cells) = cells {
                        if cells[0] != 0 && cells.iter().all(|&x| x == cells[0]) {
                            owners.push(cells[0]);
                        }
                    }
                }
            }
        }
        owners.sort_unstable();
        owners.dedup();
        match owners[..] {
            [] => GridLines::None,
            [v] => GridLines::One(v),
            _ => GridLines::Several,
        }
    }

    #[test]
    fn grid_lines_match_every_window_checked_one_by_one() {
        let mut rng = crate::rng::Rng::new(11, 0);
        for (h, w, k) in [
            (6, 7, 4),
            (3, 3, 3),
            (5, 5, 1),
            (4, 9, 5),
            (1, 6, 2),
            (7, 2, 3),
        ] {
            for _ in 0..400 {
                let grid: Vec<u8> = (0..h * w).map(|_| rng.below(3) as u8).collect();
                assert_eq!(
                    grid_lines(&grid, h, w, k),
                    brute(&grid, h, w, k),
                    "{grid:?}"
                );
            }
        }
    }
}
