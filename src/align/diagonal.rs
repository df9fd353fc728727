//! fast_align's alignment prior (Dyer, Chahuneau & Smith 2013): target word `i` of `m` links to
//! source word `j` of `n` with a weight that falls off exponentially with the distance of
//! `(i, j)` from the diagonal, `exp(λ · −|i/m − j/n|)`. The tension `λ` says how strongly
//! alignments stay near the diagonal. Positions are 1-based, as in the paper.

/// The largest and smallest tension fast_align lets the optimisation reach.
const TENSION_RANGE: (f64, f64) = (0.1, 14.0);

/// `−|i/m − j/n|`: how far a link lies from the diagonal (0 on it).
pub fn feature(i: usize, j: usize, m: usize, n: usize) -> f64 {
    -(i as f64 / m as f64 - j as f64 / n as f64).abs()
}

/// The unnormalised prior weights of target word `i` of `m` linking to each of the `n` source
/// words, written into `weights`; returns their sum.
pub fn weights(i: usize, m: usize, n: usize, tension: f64, weights: &mut Vec<f64>) -> f64 {
    weights.clear();
    weights.extend((1..=n).map(|j| (tension * feature(i, j, m, n)).exp()));
    weights.iter().sum()
}

/// The expected feature under the prior of target word `i` of `m` over `n` source words: the
/// derivative of the log partition function with respect to the tension.
fn expected_feature(i: usize, m: usize, n: usize, tension: f64) -> f64 {
    let (mut z, mut weighted) = (0.0, 0.0);
    for j in 1..=n {
        let f = feature(i, j, m, n);
        let w = (tension * f).exp();
        z += w;
        weighted += w * f;
    }
    weighted / z
}

/// Moves the tension towards the value at which the prior's expected feature matches the one
/// observed in the posteriors (`empirical`, per target token), by fast_align's eight gradient
/// steps. `sizes` counts sentence pairs by (target length, source length).
pub fn optimise_tension(mut tension: f64, empirical: f64, sizes: &[((usize, usize), usize)]) -> f64 {
    let tokens: usize = sizes.iter().map(|&((m, _), count)| m * count).sum();
    if tokens == 0 {
        return tension;
    }
    for _ in 0..8 {
        let mut model = 0.0;
        for &((m, n), count) in sizes {
            let sum: f64 = (1..=m).map(|i| expected_feature(i, m, n, tension)).sum();
            model += count as f64 * sum;
        }
        model /= tokens as f64;
        tension = (tension + (empirical - model) * 20.0).clamp(TENSION_RANGE.0, TENSION_RANGE.1);
    }
    tension
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_peak_on_the_diagonal() {
        let mut w = Vec::new();
        let z = weights(2, 4, 4, 4.0, &mut w);
        assert_eq!(w.len(), 4);
        assert!((w.iter().sum::<f64>() - z).abs() < 1e-12);
        assert!((w[1] - 1.0).abs() < 1e-12, "on the diagonal the weight is exp(0)");
        assert!(w[1] > w[0] && w[1] > w[2] && w[2] > w[3]);
    }

    #[test]
    fn tension_grows_when_posteriors_hug_the_diagonal() {
        let sizes = [((10, 10), 5)];
        // Posteriors exactly on the diagonal: feature 0 everywhere, so the tension rises.
        let tighter = optimise_tension(4.0, 0.0, &sizes);
        assert!(tighter > 4.0);
        // Posteriors spread far from it: the tension falls, but never below the minimum.
        let looser = optimise_tension(4.0, -0.5, &sizes);
        assert!(looser < 4.0 && looser >= TENSION_RANGE.0);
        assert_eq!(optimise_tension(4.0, 0.0, &[]), 4.0);
    }
}
