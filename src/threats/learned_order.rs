//! The learned move ordering's weights (`scripts/fit_ordering.py`): a
//! candidate's score is `make[shape made] + take[shape taken] + profile . features`,
//! log-odds times 1000 that a stronger player chooses it.

use std::sync::OnceLock;

use super::learned_eval::{shape_of, SHAPES};
use super::patterns::{class::SCORED as CLASSES, classify, unpack, COMBOS};

/// The features beside the shapes: the classes made and taken (10 each), the
/// window profile ([`super::ThreatBoard::window_profile`], 10), the distance
/// to the opponent's last move and to the mover's (1, 2, 3, 4 or more: 4 each).
pub const PROFILE: usize = 38;

/// The weights of one rule.
pub struct OrderWeights {
    pub make: [i32; SHAPES],
    pub take: [i32; SHAPES],
    pub profile: [i32; PROFILE],
    /// [`OrderWeights::combo_scores`], built on first use.
    combos: OnceLock<(Vec<i32>, Vec<i32>)>,
}

/// Fitted to Rapfi's moves under freestyle.
#[rustfmt::skip]
pub static FREESTYLE: OrderWeights = OrderWeights {
    make: [
        -71, -211, 282, -125, -15, -66, -53, -314, 235, -149, -484, -97,
        38, -148, 42, -93, 274, 61, -34, -572, -231, -124, 43, 233,
        -74, 102, -344, 170, 651, 585, 127, 178, -6, 0, 0, 144,
        -139, -23, -4, 292, -123, 219, 640, 395, 370, 42, -417, -655,
        -152, -203, -228, -200, -18, -7, 0, -302, 383, -120, 529, -126,
        -270, -242, 211, 100, -45, 0, -134, 0, 0, 0, 156, 52,
        -226, -13, -205, -13, -184, 547, -197, -23, -171, -44, -31, 318,
        0, 0, -88, 57, 0, 0, 56, 128, 25, 63, 17, 0,
        -290, 0, 0, 0, 0, 0, 0, 0, 0, -111, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 80, -461, -263, 0, 575, 98,
        -1, 227, 0, -2, -21, 144, 0, 2, 0, 0, 0, 0,
        0, 0, -120, 177, -11, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, -8, 0, 0, -251, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 246, 12, 3, 0, 21, 0,
        0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0,
    ],
    take: [
        -208, -253, -144, -198, -2, -412, -355, -89, -26, 191, -191, -34,
        11, -30, -28, 435, 232, 350, -5, -24, -312, -8, -186, 496,
        -8, 119, -74, -1, -57, -1, -5, -2, 0, 0, 0, -117,
        -240, 219, -49, 140, -338, 311, -313, -108, -48, 9, 47, -10,
        113, -50, -5, 184, -6, 0, 0, 249, 40, 157, -369, -9,
        -9, -51, -18, -6, 0, 0, 0, 0, 0, 0, -339, 115,
        15, 197, -563, -471, 315, 421, 423, -52, 29, -155, -17, 155,
        -56, -17, -26, 0, 0, 0, -64, 662, -33, -241, -260, 0,
        -40, 0, 0, 0, -8, 0, 0, -22, 0, -238, 21, 0,
        0, 0, 0, -4, 0, 0, 0, -62, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 224, -204, -138, 0, 47, -112,
        155, 729, 177, -86, 76, -334, 77, 194, 45, 117, 0, 0,
        -80, 0, 39, -321, 96, -104, -104, 0, 0, 0, 0, 0,
        0, -68, 0, -8, 0, -3, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 498, 252, 184, 0, 327, 163,
        0, -144, 188, 3, 184, -167, 0, 0, 3, 0, 0, 0,
        0, 0, 5, -85, 0, -304, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0,
    ],
    profile: [
        7930, 3613, 3201, -1123, -2224, -55, -1464, -2468, -2254, -2694, 6382, 512,
        -1351, -1892, -2059, -2566, -3403, -3221, -4802, -4319, 43, 279, 770, 2192,
        7930, 43, 144, 201, 543, 6137, 492, 195, 43, -452, 379, 18,
        -43, -278,
    ],
    combos: OnceLock::new(),
};

impl OrderWeights {
    /// Per combination of four line patterns (`patterns::unpack`): the score
    /// of making it (`make` of its shape, plus its class's) and of taking it
    /// from the opponent.
    pub fn combo_scores(&self) -> (&[i32], &[i32]) {
        let (make, take) = self.combos.get_or_init(|| {
            let by = |shapes: &[i32; SHAPES], classes: &[i32]| -> Vec<i32> {
                (0..COMBOS as u16)
                    .map(|c| shapes[shape_of(c)] + classes[classify(unpack(c))])
                    .collect()
            };
            (
                by(&self.make, &self.profile[..CLASSES]),
                by(&self.take, &self.profile[CLASSES..2 * CLASSES]),
            )
        });
        (make, take)
    }
}
