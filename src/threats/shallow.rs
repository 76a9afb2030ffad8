//! Shallow cuts in the engine's alpha-beta search, a ply or two above the leaves
//! where the opponent threatens no win by fours:
//!
//! - futility pruning: a node whose evaluation already stands a margin above
//!   beta fails high on that evaluation without searching its moves;
//! - razoring: a node whose evaluation stands a margin below alpha is settled by
//!   the leaves' VCF probe alone (a win if the mover has one, else it fails low
//!   on its evaluation).
//!
//! Both are measured (docs/threats.md, "what each idea is worth") and off by
//! default; [`super::Engine::set_shallow_cuts`] switches them on.

/// Which shallow cuts the search makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShallowCuts {
    /// Futility pruning at nodes with up to two plies left (`FUTILITY_DEPTH`).
    pub futility: bool,
    /// Razoring at nodes with up to two plies left (`RAZOR_DEPTH`).
    pub razoring: bool,
}

/// Deepest node (plies left) where razoring cuts.
pub const RAZOR_DEPTH: u32 = 2;

/// Deepest node (plies left) where futility pruning cuts.
pub const FUTILITY_DEPTH: u32 = 2;

/// The margin of a node with `depth` plies left, for lines of `k`: four windows of
/// `k - 2` stones (about two open threes' worth) a ply.
pub fn margin(k: usize, depth: u32) -> i64 {
    let line_of_k_minus_2 = 1i64 << (3 * (k.saturating_sub(3)).min(15));
    4 * line_of_k_minus_2 * i64::from(depth)
}

/// The margin a ply under the learned evaluation, in its units (1,000 a unit
/// of log-odds).
pub const LEARNED_MARGIN: i64 = 1000;

/// The margin of a node with `depth` plies left in the evaluation's units:
/// [`margin`] for the line evaluation, [`LEARNED_MARGIN`] a ply for the learned one.
fn evaluation_margin(k: usize, depth: u32, learned: bool) -> i64 {
    if learned {
        LEARNED_MARGIN * i64::from(depth)
    } else {
        margin(k, depth)
    }
}

/// Whether futility pruning cuts a node of `depth` plies left whose side to move
/// evaluates to `eval`: it stands `margin(k, depth)` or more above `beta`
/// (`learned`: [`LEARNED_MARGIN`] a ply).
pub fn futile(
    cuts: ShallowCuts,
    k: usize,
    depth: u32,
    eval: i64,
    beta: i32,
    learned: bool,
) -> bool {
    let margin = evaluation_margin(k, depth, learned);
    cuts.futility && depth <= FUTILITY_DEPTH && eval - margin >= i64::from(beta)
}

/// Whether razoring settles a node of `depth` plies left whose side to move
/// evaluates to `eval` by its VCF probe: it stands `margin(k, depth)` or more
/// below `alpha` (`learned`: [`LEARNED_MARGIN`] a ply).
pub fn razor(
    cuts: ShallowCuts,
    k: usize,
    depth: u32,
    eval: i64,
    alpha: i32,
    learned: bool,
) -> bool {
    let margin = evaluation_margin(k, depth, learned);
    cuts.razoring && depth <= RAZOR_DEPTH && eval + margin <= i64::from(alpha)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ON: ShallowCuts = ShallowCuts {
        futility: true,
        razoring: false,
    };
    const RAZOR: ShallowCuts = ShallowCuts {
        futility: false,
        razoring: true,
    };

    #[test]
    fn the_margin_is_four_windows_of_k_minus_2_a_ply() {
        // Gomoku: a window of 3 stones weighs 64.
        assert_eq!(margin(5, 1), 256);
        assert_eq!(margin(5, 2), 512);
        assert_eq!(margin(4, 1), 32);
    }

    #[test]
    fn futility_cuts_only_a_margin_above_beta_near_the_leaves() {
        assert!(futile(ON, 5, 1, 296, 40, false));
        assert!(!futile(ON, 5, 1, 295, 40, false));
        assert!(futile(ON, 5, 2, 552, 40, false));
        assert!(!futile(ON, 5, 2, 551, 40, false));
        assert!(!futile(ON, 5, 3, 100_000, 40, false));
        assert!(!futile(ShallowCuts::default(), 5, 1, 100_000, 40, false));
        assert!(futile(ON, 5, 1, 1040, 40, true));
        assert!(!futile(ON, 5, 1, 1039, 40, true));
        assert!(futile(ON, 5, 2, 2040, 40, true));
        assert!(!futile(ON, 5, 2, 2039, 40, true));
    }

    #[test]
    fn razoring_cuts_only_a_margin_below_alpha_near_the_leaves() {
        assert!(razor(RAZOR, 5, 1, -216, 40, false));
        assert!(!razor(RAZOR, 5, 1, -215, 40, false));
        assert!(razor(RAZOR, 5, 2, -472, 40, false));
        assert!(!razor(RAZOR, 5, 2, -471, 40, false));
        assert!(!razor(RAZOR, 5, 3, -100_000, 40, false));
        assert!(!razor(ON, 5, 1, -100_000, 40, false));
        assert!(razor(RAZOR, 5, 1, -960, 40, true));
        assert!(!razor(RAZOR, 5, 1, -959, 40, true));
        assert!(!futile(RAZOR, 5, 1, 100_000, 40, false));
    }
}
