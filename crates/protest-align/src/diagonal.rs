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
///
/// On each side of the diagonal the weights form a geometric series (each step away from it
/// multiplies the weight by `exp(−λ/n)`), so two exponentials per side are enough; this is where
/// training spends most of its time.
pub fn weights(i: usize, m: usize, n: usize, tension: f64, weights: &mut Vec<f64>) -> f64 {
    weights.clear();
    weights.resize(n, 0.0);
    if n == 0 {
        return 0.0;
    }
    let x = i as f64 / m as f64;
    let step = (-tension / n as f64).exp();
    // Source positions 1..=last are on or left of the diagonal, the rest right of it.
    let last = ((x * n as f64).floor() as usize).min(n);
    if last >= 1 {
        let mut w = (tension * feature(i, last, m, n)).exp();
        for j in (1..=last).rev() {
            weights[j - 1] = w;
            w *= step;
        }
    }
    if last < n {
        let mut w = (tension * feature(i, last + 1, m, n)).exp();
        for j in last + 1..=n {
            weights[j - 1] = w;
            w *= step;
        }
    }
    weights.iter().sum()
}

/// The expected feature under the prior of target word `i` of `m` over `n` source words: the
/// derivative of the log partition function with respect to the tension.
fn expected_feature(i: usize, m: usize, n: usize, tension: f64, scratch: &mut Vec<f64>) -> f64 {
    let z = weights(i, m, n, tension, scratch);
    let weighted: f64 = scratch.iter().enumerate().map(|(j, w)| w * feature(i, j + 1, m, n)).sum();
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
    let mut scratch = Vec::new();
    for _ in 0..8 {
        let mut model = 0.0;
        for &((m, n), count) in sizes {
            let sum: f64 = (1..=m).map(|i| expected_feature(i, m, n, tension, &mut scratch)).sum();
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
    fn weights_are_the_exponentials_of_the_feature() {
        let mut w = Vec::new();
        for (i, m, n) in [(1, 1, 1), (3, 7, 5), (7, 7, 3), (1, 9, 20), (5, 9, 20), (2, 3, 0)] {
            let z = weights(i, m, n, 4.0, &mut w);
            let direct: Vec<f64> = (1..=n).map(|j| (4.0 * feature(i, j, m, n)).exp()).collect();
            assert_eq!(w.len(), direct.len());
            for (a, b) in w.iter().zip(&direct) {
                assert!((a - b).abs() < 1e-12 * b.max(1.0), "{i} {m} {n}: {a} vs {b}");
            }
            assert!((z - direct.iter().sum::<f64>()).abs() < 1e-9);
        }
    }

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
