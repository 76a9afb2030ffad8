//! The pairing searches against a plain search over pairs written apart from
//! them: every pairing they claim is checked cell by cell, and the exact search,
//! given room, finds one exactly where the plain search does.

use super::geometry::Geometry;
use super::pairing::{defender_pair_cells, defender_pairing, exact_pairs_within};
use crate::rng::Rng;

/// The empty cells of each run of `k` free of `defender`'s stones, read off
/// the board's coordinates (not the geometry's lines).
fn open_runs(width: usize, height: usize, k: usize, defender: u64, empty: u64) -> Vec<u64> {
    let mut runs = Vec::new();
    for row in 0..height as i64 {
        for col in 0..width as i64 {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let cells: Vec<(i64, i64)> = (0..k as i64)
                    .map(|i| (row + i * dr, col + i * dc))
                    .collect();
                if cells.iter().all(|&(r, c)| {
                    (0..height as i64).contains(&r) && (0..width as i64).contains(&c)
                }) {
                    let run = cells.iter().fold(0u64, |m, &(r, c)| {
                        m | 1 << (r as usize * width + c as usize)
                    });
                    if run & defender == 0 {
                        runs.push(run & empty);
                    }
                }
            }
        }
    }
    runs
}

/// Whether disjoint pairs of cells outside `used` serve every run of `runs`:
/// the run with the fewest free cells tries every pair of them.
fn plain_pairing_exists(runs: &[u64], used: u64) -> bool {
    let Some(&run) = runs.iter().min_by_key(|&&r| (r & !used).count_ones()) else {
        return true;
    };
    let free: Vec<usize> = (0..64).filter(|&c| (run & !used) >> c & 1 == 1).collect();
    for (i, &a) in free.iter().enumerate() {
        for &b in &free[i + 1..] {
            let pair = 1u64 << a | 1 << b;
            let rest: Vec<u64> = runs.iter().copied().filter(|&r| r & pair != pair).collect();
            if plain_pairing_exists(&rest, used | pair) {
                return true;
            }
        }
    }
    false
}

/// Whether `pairs` is a pairing: disjoint pairs of empty cells, every open run
/// holding both cells of one.
fn is_pairing(runs: &[u64], empty: u64, pairs: &[(u8, u8)]) -> bool {
    let mut seen = 0u64;
    for &(a, b) in pairs {
        let pair = 1u64 << a | 1 << b;
        if a == b || pair & !empty != 0 || pair & seen != 0 {
            return false;
        }
        seen |= pair;
    }
    runs.iter().all(|&run| {
        pairs
            .iter()
            .any(|&(a, b)| run >> a & 1 == 1 && run >> b & 1 == 1)
    })
}

#[test]
fn the_exact_search_finds_a_pairing_exactly_where_one_exists() {
    let mut rng = Rng::new(59, 0);
    let mut found = [0; 2];
    for (width, height, k) in [(5, 5, 4), (6, 5, 4), (6, 6, 5), (7, 5, 5)] {
        let geo = Geometry::<u64>::new(width, height, k, false).unwrap();
        let board = (1u64 << (width * height)) - 1;
        for _ in 0..300 {
            // Enough stones that the plain search is quick.
            let (mut attacker, mut defender) = (0u64, 0u64);
            for _ in 0..3 + rng.below(8) {
                attacker |= 1 << rng.below((width * height) as u32);
            }
            for _ in 0..4 + rng.below(8) {
                defender |= 1 << rng.below((width * height) as u32);
            }
            defender &= !attacker;
            let empty = board & !(attacker | defender);
            let runs = open_runs(width, height, k, defender, empty);
            let exists = runs.iter().all(|r| r.count_ones() >= 2) && plain_pairing_exists(&runs, 0);
            let exact = exact_pairs_within(&geo, defender, empty, u32::MAX);
            assert_eq!(
                exact.is_some(),
                exists,
                "{width}x{height} k={k} {attacker:x} {defender:x}"
            );
            if let Some(pairs) = exact {
                assert!(is_pairing(&runs, empty, &pairs));
            }
            // What the solver's searches claim (either search, a budget) holds too.
            if let Some(pairs) = defender_pairing(&geo, defender, empty) {
                assert!(exists && is_pairing(&runs, empty, &pairs));
                let cells = pairs.iter().fold(0u64, |m, &(a, b)| m | 1 << a | 1 << b);
                assert_eq!(defender_pair_cells(&geo, defender, empty), Some(cells));
            } else {
                assert_eq!(defender_pair_cells(&geo, defender, empty), None);
            }
            found[usize::from(exists)] += 1;
        }
    }
    assert!(
        found[0] > 100 && found[1] > 100,
        "both outcomes sampled: {found:?}"
    );
}

#[test]
fn the_exact_search_finds_a_pairing_the_greedy_matching_misses() {
    // An 8x8 position of the 8,8,5 search (attacker X, defender O): the
    // matching's greedy groups find no pairing; 22 pairs exist.
    let (attacker, defender) = (0x1000_0208_0830_0800u64, 0x1814_3008_0000u64);
    let geo = Geometry::<u64>::new(8, 8, 5, false).unwrap();
    let empty = !(attacker | defender);
    let runs = open_runs(8, 8, 5, defender, empty);
    assert!(
        exact_pairs_within(&geo, defender, empty, 0).is_none(),
        "a choice is needed"
    );
    let pairs = defender_pairing(&geo, defender, empty).expect("a pairing");
    assert!(is_pairing(&runs, empty, &pairs));
}
