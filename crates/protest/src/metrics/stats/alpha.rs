//! Krippendorff's alpha for nominal data: agreement of any number of raters, with missing
//! ratings, beyond chance (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011).

use std::collections::HashMap;
use std::hash::Hash;

/// α = 1 − D_o / D_e over the coincidence matrix of the pairable values. `units` holds, per
/// rated item, the values the raters gave it (missing ones left out); items with fewer than two
/// values cannot be paired and are skipped. `None` when nothing is pairable or all pairable
/// values are the same (no variation to disagree on).
pub fn nominal<T: Eq + Hash>(units: &[Vec<T>]) -> Option<f64> {
    let mut index: HashMap<&T, usize> = HashMap::new();
    let coded: Vec<Vec<usize>> = units
        .iter()
        .map(|unit| {
            unit.iter()
                .map(|v| {
                    let next = index.len();
                    *index.entry(v).or_insert(next)
                })
                .collect()
        })
        .collect();
    let k = index.len();
    // o[c][k]: each ordered pair of values within a unit of m values counts 1/(m−1).
    let mut o = vec![vec![0.0_f64; k]; k];
    for unit in coded.iter().filter(|u| u.len() >= 2) {
        let weight = 1.0 / (unit.len() - 1) as f64;
        for (i, &c) in unit.iter().enumerate() {
            for (j, &d) in unit.iter().enumerate() {
                if i != j {
                    o[c][d] += weight;
                }
            }
        }
    }
    let n_c: Vec<f64> = o.iter().map(|row| row.iter().sum()).collect();
    let n: f64 = n_c.iter().sum();
    let off_diagonal = |f: &dyn Fn(usize, usize) -> f64| -> f64 {
        (0..k).flat_map(|c| (0..k).filter(move |&d| d != c).map(move |d| (c, d))).map(|(c, d)| f(c, d)).sum()
    };
    let observed = off_diagonal(&|c, d| o[c][d]);
    let expected = off_diagonal(&|c, d| n_c[c] * n_c[d]);
    (n > 1.0 && expected > 0.0).then(|| 1.0 - (n - 1.0) * observed / expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round3(x: f64) -> String {
        format!("{x:.3}")
    }

    /// Krippendorff (2011), example A: two observers, binary data, 10 units. α = 0.095.
    #[test]
    fn binary_two_observers() {
        let a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
        let b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
        let units: Vec<Vec<i32>> = a.iter().zip(b).map(|(&x, y)| vec![x, y]).collect();
        assert_eq!(round3(nominal(&units).unwrap()), "0.095");
    }

    /// Krippendorff (2011), example C: four observers, values 1–5, missing data, 12 units.
    /// Nominal α = 0.743.
    #[test]
    fn nominal_four_observers_with_missing_values() {
        let observers: [[Option<u8>; 12]; 4] = {
            let n = None;
            let s = Some;
            [
                [s(1), s(2), s(3), s(3), s(2), s(1), s(4), s(1), s(2), n, n, n],
                [s(1), s(2), s(3), s(3), s(2), s(2), s(4), s(1), s(2), s(5), n, s(3)],
                [n, s(3), s(3), s(3), s(2), s(3), s(4), s(2), s(2), s(5), s(1), n],
                [s(1), s(2), s(3), s(3), s(2), s(4), s(4), s(1), s(2), s(5), s(1), n],
            ]
        };
        let units: Vec<Vec<u8>> = (0..12).map(|u| observers.iter().filter_map(|o| o[u]).collect()).collect();
        assert_eq!(round3(nominal(&units).unwrap()), "0.743");
        // Unit 12 has one value only and does not count: dropping it changes nothing.
        assert_eq!(nominal(&units[..11]), nominal(&units));
    }

    #[test]
    fn perfect_and_undefined() {
        assert_eq!(nominal(&[vec!["yes", "yes", "yes"], vec!["no", "no"]]), Some(1.0));
        assert_eq!(nominal(&[vec!["yes", "yes"], vec!["yes", "yes"]]), None);
        assert_eq!(nominal::<u8>(&[vec![1], vec![]]), None);
    }
}
