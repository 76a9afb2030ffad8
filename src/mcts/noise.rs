//! Root noise: Dirichlet for the PUCT root, Gumbel for the Gumbel root.

use crate::rng::Rng;

/// Uniform in the open interval (0, 1).
#[inline]
fn open_unit(rng: &mut Rng) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A standard normal draw (Marsaglia's polar method).
fn normal(rng: &mut Rng) -> f64 {
    loop {
        let u = 2.0 * open_unit(rng) - 1.0;
        let v = 2.0 * open_unit(rng) - 1.0;
        let s = u * u + v * v;
        if s < 1.0 && s > 0.0 {
            return u * (-2.0 * s.ln() / s).sqrt();
        }
    }
}

/// A Gamma(`alpha`, 1) draw (Marsaglia and Tsang; boosted for `alpha < 1`).
fn gamma(alpha: f64, rng: &mut Rng) -> f64 {
    if alpha < 1.0 {
        let boost = open_unit(rng).powf(1.0 / alpha);
        return gamma(alpha + 1.0, rng) * boost;
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = open_unit(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Fills `out` with a Dirichlet(`alpha`, ..., `alpha`) draw.
pub(crate) fn dirichlet(alpha: f64, out: &mut [f32], rng: &mut Rng) {
    let draws: Vec<f64> = out.iter().map(|_| gamma(alpha, rng)).collect();
    let total: f64 = draws.iter().sum();
    for (o, d) in out.iter_mut().zip(&draws) {
        *o = if total > 0.0 {
            (d / total) as f32
        } else {
            1.0 / draws.len() as f32
        };
    }
}

/// A standard Gumbel draw.
pub(crate) fn gumbel(rng: &mut Rng) -> f32 {
    (-(-open_unit(rng).ln()).ln()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_has_its_mean_and_variance() {
        let mut rng = Rng::new(4, 4);
        for alpha in [0.03, 0.3, 1.0, 2.5] {
            let n = 200_000;
            let xs: Vec<f64> = (0..n).map(|_| gamma(alpha, &mut rng)).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
            assert!(
                (mean - alpha).abs() < 0.03 * alpha.max(0.3),
                "{alpha}: {mean}"
            );
            assert!((var - alpha).abs() < 0.1 * alpha.max(0.3), "{alpha}: {var}");
        }
    }

    #[test]
    fn dirichlet_sums_to_one_and_gumbel_has_its_mean() {
        let mut rng = Rng::new(5, 5);
        let mut out = [0f32; 7];
        dirichlet(0.3, &mut out, &mut rng);
        assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(out.iter().all(|&x| x >= 0.0));
        let n = 200_000;
        let mean = (0..n).map(|_| gumbel(&mut rng) as f64).sum::<f64>() / n as f64;
        // Euler-Mascheroni constant.
        assert!((mean - 0.5772).abs() < 0.01, "{mean}");
    }
}
