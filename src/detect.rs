//! The win detector on its own: which player has `k` in a row on each of many
//! grids, with no legality check. The line test on a grid is `crate::lines`'.

use crate::lines::GridLines;

/// Cells below which `winners` stays on the calling thread (about a millisecond
/// of work: more than starting a thread costs).
const PARALLEL_MIN_CELLS: usize = 1 << 20;

/// `cells` holds `n` grids of `h` rows by `w` columns, row-major. Returns, per grid,
/// the player with a line of `k`, 0 for none, -1 when several players have lines.
/// Large batches are split across one thread per core; threads the system refuses
/// leave their share to the calling thread.
pub fn winners(cells: &[i64], n: usize, h: usize, w: usize, k: usize) -> Vec<i64> {
    let per = h * w;
    if per == 0 || n == 0 {
        return vec![0; n];
    }
    let of_grids =
        |grids: &[i64]| -> Vec<i64> { grids.chunks(per).map(|g| winner_of(g, h, w, k)).collect() };
    let threads = if n * per >= PARALLEL_MIN_CELLS {
        crate::threads::cores()
    } else {
        1
    };
    let share = n.div_ceil(threads) * per;
    std::thread::scope(|scope| {
        let mut parts = cells.chunks(share);
        let first = parts.next().unwrap_or_default();
        let others: Vec<_> = parts
            .map(|grids| {
                crate::threads::spawn_scoped(scope, "inarow-winners", move || of_grids(grids))
                    .ok_or(grids)
            })
            .collect();
        let mut out = of_grids(first);
        for part in others {
            match part {
                Ok(handle) => match handle.join() {
                    Ok(v) => out.extend(v),
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                // A thread the system refused: its share is done here.
                Err(grids) => out.extend(of_grids(grids)),
            }
        }
        out
    })
}

/// The grid's owner of lines of `k` or more ([`crate::lines::grid_lines`]): 0
/// none, -1 several.
#[inline]
fn winner_of(grid: &[i64], h: usize, w: usize, k: usize) -> i64 {
    match crate::lines::grid_lines(grid, h, w, k) {
        GridLines::None => 0,
        GridLines::One(owner) => owner,
        GridLines::Several => -1,
    }
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
        assert_eq!(winners(&[], 0, h, w, 4), Vec::<i64>::new());
        assert_eq!(winners(&[], 3, 0, w, 4), vec![0; 3]);
    }

    #[test]
    fn large_batches_agree_with_and_without_threads() {
        // Enough grids to split across threads; then again with every spawn refused.
        let (h, w) = (6, 7);
        let n = PARALLEL_MIN_CELLS / (h * w) + 1000;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let cells: Vec<i64> = (0..n * h * w)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % 3) as i64
            })
            .collect();
        let one_by_one: Vec<i64> = cells.chunks(h * w).map(|g| winner_of(g, h, w, 4)).collect();
        assert_eq!(winners(&cells, n, h, w, 4), one_by_one);
        crate::threads::REFUSE_SPAWN.with(|r| r.set(true));
        let alone = winners(&cells, n, h, w, 4);
        crate::threads::REFUSE_SPAWN.with(|r| r.set(false));
        assert_eq!(alone, one_by_one);
        assert!(one_by_one.contains(&1) && one_by_one.contains(&0));
    }
}
