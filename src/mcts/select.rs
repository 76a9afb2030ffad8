//! Choosing a child: PUCT (interior and root; UCT lives in the tree's hot path), Gumbel's interior
//! rule and its completed Q-values (mctx's `qtransform_completed_by_mix_value`).
//!
//! Every rule sees the children of one node as a contiguous slice and the value
//! of each child for the node's side to move (`None`: never visited).

use super::node::{Node, UNKNOWN};
use super::{GUMBEL_C_SCALE, GUMBEL_C_VISIT};

/// The share of the priors in the interior rule's target. Completed Q-values
/// are rescaled to the spread among the siblings, so a lead of 0.006 is a lead
/// of the whole scale and the improved policy alone would starve every other
/// child for good (with an evaluator that knows nothing, the winning reply two
/// plies down got 1 visit of 909). Each child keeps at least this share of its
/// prior, so a win or a refutation below it is found, as under PUCT.
pub(crate) const GUMBEL_INTERIOR_PRIOR_MIX: f32 = 0.25;

/// Low clamp for log-priors of actions whose prior underflows to 0.
pub(crate) const LOW_LOGIT: f32 = -1e9;

#[inline]
pub(crate) fn log_prior(p: f32) -> f32 {
    if p > 0.0 {
        p.ln().max(LOW_LOGIT)
    } else {
        LOW_LOGIT
    }
}

/// The first index of the largest score (ties go to the lower action).
#[inline]
fn argmax(scores: impl Iterator<Item = f32>) -> usize {
    let (mut best, mut best_score) = (0, f32::NEG_INFINITY);
    for (i, s) in scores.enumerate() {
        if s > best_score {
            best = i;
            best_score = s;
        }
    }
    best
}

/// The PUCT score at one node: Q normalised to [0, 1] by the node's own value and
/// its visited children (unvisited children take the minimum), plus
/// `c * sqrt(node visits) * prior / (1 + visits)`.
struct PuctScore {
    lo: f32,
    scale: f32,
    explore: f32,
}

impl PuctScore {
    fn new(q: &[Option<f32>], node_value: f32, node_visits: u32, c: f32) -> PuctScore {
        let (mut lo, mut hi) = (node_value, node_value);
        for v in q.iter().flatten() {
            lo = lo.min(*v);
            hi = hi.max(*v);
        }
        PuctScore {
            lo,
            scale: 1.0 / (hi - lo).max(1e-8),
            explore: c * (node_visits as f32).sqrt(),
        }
    }

    fn q(&self, q: Option<f32>) -> f32 {
        (q.unwrap_or(self.lo) - self.lo) * self.scale
    }

    fn of(&self, q: Option<f32>, prior: f32, visits: u32) -> f32 {
        self.q(q) + self.explore * prior / (1 + visits) as f32
    }
}

/// PUCT over children (see [`PuctScore`]): the plain definition, which the
/// tree's two-pass `select_puct` (its hot path) is tested against.
#[cfg(test)]
pub(crate) fn puct(
    q: &[Option<f32>],
    priors: impl Iterator<Item = f32> + Clone,
    children: &[Node],
    node_value: f32,
    node_visits: u32,
    c: f32,
) -> usize {
    let score = PuctScore::new(q, node_value, node_visits, c);
    argmax(
        q.iter()
            .zip(priors)
            .zip(children)
            .map(|((q, p), child)| score.of(*q, p, child.visits)),
    )
}

/// KataGo's forced playouts: the unproven root child furthest below its
/// `sqrt(k * prior * child visits)` visits, if one is below.
pub(crate) fn forced_child(priors: &[f32], children: &[Node], k: f32) -> Option<usize> {
    let total: u32 = children.iter().map(|c| c.visits).sum();
    let mut best: Option<(usize, f32)> = None;
    for (i, (p, c)) in priors.iter().zip(children).enumerate() {
        let gap = (k * p * total as f32).sqrt() - c.visits as f32;
        if c.proven == UNKNOWN && gap > 0.0 && best.is_none_or(|(_, g)| gap > g) {
            best = Some((i, gap));
        }
    }
    best.map(|(i, _)| i)
}

/// KataGo's policy target pruning: each child's visits (into `out`) less the forced
/// playouts that PUCT would not have given it. A child other than `best` (the most
/// visited) loses visits, at most its forced ones, while its PUCT score stays at or
/// below `best`'s; one left with a single visit or none counts 0.
#[allow(clippy::too_many_arguments)]
pub(crate) fn pruned_visits(
    q: &[Option<f32>],
    priors: &[f32],
    children: &[Node],
    node_value: f32,
    node_visits: u32,
    c: f32,
    k: f32,
    best: usize,
    out: &mut Vec<f32>,
) {
    let score = PuctScore::new(q, node_value, node_visits, c);
    let total: u32 = children.iter().map(|c| c.visits).sum();
    let star = score.of(q[best], priors[best], children[best].visits);
    out.clear();
    out.extend(children.iter().enumerate().map(|(i, child)| {
        let n = child.visits as f32;
        if i == best || child.visits == 0 {
            return n;
        }
        let gap = star - score.q(q[i]);
        let kept = if gap <= 0.0 {
            n
        } else {
            // The fewest visits at which PUCT scores this child no higher than `best`.
            let needed = (score.explore * priors[i] / gap - 1.0).ceil();
            let forced = (k * priors[i] * total as f32).sqrt();
            needed.max((n - forced).ceil()).min(n)
        };
        if kept <= 1.0 {
            0.0
        } else {
            kept
        }
    }));
}

/// Gumbel's completed Q-values, rescaled to [0, 1] and scaled by
/// `(C_VISIT + max visits) * C_SCALE`: visited children keep their Q, the others
/// take the mixed value of the node's raw value and its visited children's Q.
pub(crate) fn completed_q(
    q: &[Option<f32>],
    log_priors: &[f32],
    children: &[Node],
    raw_value: f32,
    out: &mut Vec<f32>,
) {
    let mut visits_sum = 0f32;
    let mut max_visits = 0u32;
    for child in children {
        visits_sum += child.visits as f32;
        max_visits = max_visits.max(child.visits);
    }
    // Softmax of the log-priors: the priors renormalised over these children.
    let top = log_priors.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let (mut prob_sum, mut weighted) = (0f32, 0f32);
    for (q, &lp) in q.iter().zip(log_priors) {
        let p = (lp - top).exp().max(f32::MIN_POSITIVE);
        if let Some(v) = q {
            prob_sum += p;
            weighted += p * v;
        }
    }
    let mixed = if prob_sum > 0.0 {
        (raw_value + visits_sum * weighted / prob_sum) / (visits_sum + 1.0)
    } else {
        raw_value
    };
    out.clear();
    out.extend(q.iter().map(|q| q.unwrap_or(mixed)));
    let lo = out.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let scale = (GUMBEL_C_VISIT + max_visits as f32) * GUMBEL_C_SCALE / (hi - lo).max(1e-8);
    for v in out.iter_mut() {
        *v = (*v - lo) * scale;
    }
}

/// Gumbel's interior rule: the child whose visit share lags most behind the
/// improved policy `softmax(log prior + sigma(completed q))`, mixed with the
/// priors ([`GUMBEL_INTERIOR_PRIOR_MIX`]).
pub(crate) fn gumbel_interior(
    log_priors: &[f32],
    sigma: &[f32],
    children: &[Node],
    scratch: &mut Vec<f32>,
) -> usize {
    improved_policy(log_priors, sigma, scratch);
    for (p, child) in scratch.iter_mut().zip(children) {
        *p = (1.0 - GUMBEL_INTERIOR_PRIOR_MIX) * *p + GUMBEL_INTERIOR_PRIOR_MIX * child.prior;
    }
    let visits_sum: u32 = children.iter().map(|c| c.visits).sum();
    let share = 1.0 / (1 + visits_sum) as f32;
    argmax(
        scratch
            .iter()
            .zip(children)
            .map(|(p, child)| p - child.visits as f32 * share),
    )
}

/// `softmax(log prior + sigma)` into `out`.
pub(crate) fn improved_policy(log_priors: &[f32], sigma: &[f32], out: &mut Vec<f32>) {
    out.clear();
    out.extend(log_priors.iter().zip(sigma).map(|(l, s)| l + s));
    let top = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in out.iter_mut() {
        *v = (*v - top).exp();
        sum += *v;
    }
    for v in out.iter_mut() {
        *v /= sum;
    }
}

/// mctx's `score_considered`: among the `eligible` actions visited exactly
/// `considered_visit` times this run, the largest `gumbel + logit + sigma`.
pub(crate) fn gumbel_root(
    considered_visit: u32,
    gumbel: &[f32],
    log_priors: &[f32],
    sigma: &[f32],
    run_visits: &[u32],
    eligible: &[bool],
) -> Option<usize> {
    let top = log_priors.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut best: Option<(usize, f32)> = None;
    for i in 0..gumbel.len() {
        if run_visits[i] != considered_visit || !eligible[i] {
            continue;
        }
        let score = (gumbel[i] + log_priors[i] - top + sigma[i]).max(LOW_LOGIT);
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(visits: &[u32]) -> Vec<Node> {
        visits
            .iter()
            .map(|&v| Node {
                visits: v,
                ..Node::default()
            })
            .collect()
    }

    #[test]
    fn puct_prefers_prior_until_values_speak() {
        let children = nodes(&[0, 0]);
        assert_eq!(
            puct(
                &[None, None],
                [0.2, 0.8].into_iter(),
                &children,
                0.0,
                1,
                1.25
            ),
            1
        );
        let children = nodes(&[10, 10]);
        assert_eq!(
            puct(
                &[Some(0.9), Some(-0.9)],
                [0.3, 0.7].into_iter(),
                &children,
                0.0,
                21,
                1.25
            ),
            0
        );
    }

    #[test]
    fn forced_child_is_the_one_furthest_below_its_share() {
        // 100 child visits, k = 2: child 1 (prior 0.5) is owed 10 and has 4;
        // child 2 (prior 0.02) is owed 2 and has 0; child 0 has more than it is owed.
        let children = nodes(&[96, 4, 0]);
        let priors = [0.48, 0.5, 0.02];
        assert_eq!(forced_child(&priors, &children, 2.0), Some(1));
        let children = nodes(&[90, 10, 0]);
        assert_eq!(forced_child(&priors, &children, 2.0), Some(2));
        let children = nodes(&[88, 10, 2]);
        assert_eq!(forced_child(&priors, &children, 2.0), None);
        // A proven child is owed nothing: its value is known.
        let mut children = nodes(&[90, 10, 0]);
        children[2].proven = 1;
        assert_eq!(forced_child(&priors, &children, 2.0), None);
    }

    #[test]
    fn pruning_takes_back_the_forced_visits_puct_would_not_give() {
        // The best child (0): Q 0.5, 80 visits, PUCT 1 + 1.25 * sqrt(101) * 0.3 / 81 =
        // 1.047. Child 1: Q -0.5 (normalised 0), 15 visits, 10 of them forced
        // (sqrt(2 * 0.5 * 100)); PUCT gives it 12.56 * 0.5 / (1 + n) <= 1.047 from
        // n = 6 on, so it keeps 6. Child 2: Q 0.5, as good as the best, keeps its
        // visits; child 3 has one visit: pruned to 0.
        let children = nodes(&[80, 15, 4, 1]);
        let q = [Some(0.5), Some(-0.5), Some(0.5), Some(0.0)];
        let priors = [0.3, 0.5, 0.1, 0.1];
        let mut out = Vec::new();
        pruned_visits(&q, &priors, &children, 0.4, 101, 1.25, 2.0, 0, &mut out);
        assert_eq!(out[0], 80.0);
        assert_eq!(out[1], 6.0, "{out:?}");
        assert_eq!(out[2], 4.0);
        assert_eq!(out[3], 0.0);
        // Without forced visits nothing is taken but the single visits.
        pruned_visits(&q, &priors, &children, 0.4, 101, 1.25, 0.0, 0, &mut out);
        assert_eq!(out, vec![80.0, 15.0, 4.0, 0.0]);
    }

    proptest::proptest! {
        /// Pruning keeps the most visited child whole, never adds visits, takes at
        /// most a child's forced visits (or all of a child left with one), and only
        /// while PUCT would still score the child at or below the most visited one.
        #[test]
        fn pruning_takes_only_forced_visits_puct_would_not_give(
            visits in proptest::collection::vec(0u32..400, 2..9),
            raw_priors in proptest::collection::vec(0.001f32..1.0, 9),
            values in proptest::collection::vec(-1.0f32..1.0, 9),
            k in 0.5f32..4.0,
            c in 0.5f32..3.0,
            node_value in -1.0f32..1.0,
        ) {
            let n = visits.len();
            let total: u32 = visits.iter().sum();
            proptest::prop_assume!(total > 0);
            let sum: f32 = raw_priors[..n].iter().sum();
            let priors: Vec<f32> = raw_priors[..n].iter().map(|p| p / sum).collect();
            let q: Vec<Option<f32>> =
                (0..n).map(|i| (visits[i] > 0).then_some(values[i])).collect();
            let children = nodes(&visits);
            let best = most_visited_index(&visits);
            let mut out = Vec::new();
            pruned_visits(&q, &priors, &children, node_value, total + 1, c, k, best, &mut out);
            let score = PuctScore::new(&q, node_value, total + 1, c);
            let star = score.of(q[best], priors[best], visits[best]);
            proptest::prop_assert_eq!(out[best], visits[best] as f32);
            for i in (0..n).filter(|&i| i != best) {
                let (kept, had) = (out[i], visits[i] as f32);
                let forced = (k * priors[i] * total as f32).sqrt();
                proptest::prop_assert!(kept <= had && kept.fract() == 0.0);
                proptest::prop_assert!(kept == 0.0 || (kept >= had - forced && kept > 1.0));
                if kept < had && kept > 0.0 {
                    let at_kept = score.of(q[i], priors[i], kept as u32);
                    proptest::prop_assert!(at_kept <= star + 1e-4, "{} > {}", at_kept, star);
                }
            }
        }
    }

    fn most_visited_index(visits: &[u32]) -> usize {
        (0..visits.len())
            .max_by_key(|&i| (visits[i], std::cmp::Reverse(i)))
            .unwrap()
    }

    #[test]
    fn completed_q_fills_unvisited_with_the_mixed_value() {
        let children = nodes(&[2, 0, 0]);
        let lp = [0.5f32.ln(), 0.25f32.ln(), 0.25f32.ln()];
        let mut out = Vec::new();
        completed_q(&[Some(1.0), None, None], &lp, &children, 0.0, &mut out);
        // mixed = (0 + 2 * 1.0) / 3; rescaled over {1, 2/3, 2/3}: 1, 0, 0 times (50 + 2) * 0.1.
        assert!((out[0] - 5.2).abs() < 1e-4, "{out:?}");
        assert!(out[1].abs() < 1e-4 && out[2].abs() < 1e-4, "{out:?}");
    }

    #[test]
    fn gumbel_root_only_considers_the_scheduled_visit_count() {
        let g = [0.0, 5.0, 0.0];
        let lp = [0.0, 0.0, 0.0];
        let sigma = [0.0, 0.0, 0.0];
        let all = [true; 3];
        assert_eq!(gumbel_root(0, &g, &lp, &sigma, &[0, 0, 0], &all), Some(1));
        assert_eq!(gumbel_root(0, &g, &lp, &sigma, &[0, 1, 0], &all), Some(0));
        assert_eq!(gumbel_root(2, &g, &lp, &sigma, &[0, 1, 0], &all), None);
        // An ineligible action (proven lost) never competes, however it scores.
        let not_the_best = [true, false, true];
        assert_eq!(
            gumbel_root(0, &g, &lp, &sigma, &[0, 0, 0], &not_the_best),
            Some(0)
        );
    }
}
