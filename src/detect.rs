//! The win detector on its own: which player has `k` in a row on each of many
//! grids, with no legality check.

use rayon::prelude::*;

/// `cells` holds `n` grids of `h` rows by `w` columns, row-major. Returns, per grid,
/// the player with a line of `k`, 0 for none, -1 when several players have lines.
pub fn winners(cells: &[i64], n: usize, h: usize, w: usize, k: usize) -> Vec<i64> {
    let per = h * w;
    if per == 0 {
        return vec![0; n];
    }
    cells
        .par_chunks(per)
        .with_min_len(256)
        .map(|grid| winner_of(grid, h, w, k))
        .collect()
}

fn winner_of(grid: &[i64], h: usize, w: usize, k: usize) -> i64 {
    let mut found = 0i64;
    let at = |r: isize, c: isize| -> i64 {
        if r < 0 || c < 0 || r >= h as isize || c >= w as isize {
            0
        } else {
            grid[r as usize * w + c as usize]
        }
    };
    for r in 0..h as isize {
        for c in 0..w as isize {
            let v = at(r, c);
            if v == 0 {
                continue;
            }
            for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
                // Count only from the start of a run.
                if at(r - dr, c - dc) == v {
                    continue;
                }
                let mut len = 1;
                while len < k && at(r + dr * len as isize, c + dc * len as isize) == v {
                    len += 1;
                }
                if len >= k {
                    if found == 0 || found == v {
                        found = v;
                    } else {
                        return -1;
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

    #[test]
    fn finds_lines_in_every_direction_and_flags_several() {
        let (h, w) = (4, 4);
        let mut grids = vec![0i64; 5 * h * w];
        for i in 0..3 {
            grids[i] = 1; // grid 0: row 0, cols 0..3
            grids[h * w + i * w] = 2; // grid 1: column 0
            grids[2 * h * w + i * w + i] = 3; // grid 2: diagonal
            grids[3 * h * w + i * w + (3 - i)] = 1; // grid 3: anti-diagonal
        }
        grids[4 * h * w] = 1;
        grids[4 * h * w + 1] = 1;
        grids[4 * h * w + 2] = 1;
        grids[4 * h * w + 12] = 2;
        grids[4 * h * w + 13] = 2;
        grids[4 * h * w + 14] = 2;
        assert_eq!(winners(&grids, 5, h, w, 3), vec![1, 2, 3, 1, -1]);
        assert_eq!(winners(&grids, 5, h, w, 4), vec![0, 0, 0, 0, 0]);
    }
}
