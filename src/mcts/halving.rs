//! Sequential halving at the Gumbel root, as in mctx (Danihelka et al., 2022,
//! "Policy improvement by planning with Gumbel"): the visit count a considered
//! action must have to be searched at each simulation of a run.

/// For each simulation `0..num_simulations` of a run, the visit count (in this run)
/// that the root action searched next must have. With `considered` actions the
/// budget is split in `ceil(log2(considered))` phases; each keeps the better half.
pub(crate) fn considered_visits(considered: usize, num_simulations: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..num_simulations as u32).collect();
    }
    let log2max = (considered as f64).log2().ceil() as usize;
    let mut sequence = Vec::with_capacity(num_simulations);
    let mut visits = vec![0u32; considered];
    let mut num_considered = considered;
    while sequence.len() < num_simulations {
        let extra = (num_simulations / (log2max * num_considered)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..num_considered]);
            for v in &mut visits[..num_considered] {
                *v += 1;
            }
        }
        visits.sort_unstable_by(|a, b| b.cmp(a));
        num_considered = (num_considered / 2).max(2);
    }
    sequence.truncate(num_simulations);
    sequence
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_schedule() {
        // 4 actions, 16 simulations: 2 phases; 16 / (2 * 4) = 2 rounds of 4, then
        // 16 / (2 * 2) = 4 rounds of the best 2.
        assert_eq!(
            considered_visits(4, 16),
            vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
        );
        assert_eq!(considered_visits(1, 4), vec![0, 1, 2, 3]);
        assert_eq!(considered_visits(16, 3), vec![0, 0, 0]);
        // The whole budget is always scheduled.
        for (m, n) in [(16, 800), (7, 50), (2, 9), (225, 64)] {
            assert_eq!(considered_visits(m, n).len(), n);
        }
    }
}
