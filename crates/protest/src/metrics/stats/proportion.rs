//! A proportion's 95 % confidence interval: Wilson's score interval (Wilson 1927), which stays
//! within 0 and 1 and, unlike the normal approximation, does not collapse to a point when every
//! one of few items is a success — a system judged correct on all 12 decided examples is not
//! known to be 100 % correct.

/// The 0.975 quantile of the standard normal distribution: a two-sided 95 % interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// The 95 % Wilson score interval of `successes` out of `trials`; `None` without trials.
pub fn wilson(successes: u64, trials: u64) -> Option<(f64, f64)> {
    if trials == 0 || successes > trials {
        return None;
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z_95 * Z_95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z_95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and at n successes the interval ends at 0 or 1 exactly, not a rounding error away.
    let low = if successes == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if successes == trials { 1.0 } else { (centre + half).min(1.0) };
    Some((low, high))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounded(interval: Option<(f64, f64)>) -> (String, String) {
        let (low, high) = interval.unwrap();
        (format!("{low:.4}"), format!("{high:.4}"))
    }

    #[test]
    fn newcombes_examples() {
        // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
        // method 3 (the score method without continuity correction).
        let s = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        assert_eq!(rounded(wilson(81, 263)), s("0.2553", "0.3662"));
        assert_eq!(rounded(wilson(15, 148)), s("0.0624", "0.1605"));
        assert_eq!(rounded(wilson(0, 20)), s("0.0000", "0.1611"));
        assert_eq!(rounded(wilson(1, 29)), s("0.0061", "0.1718"));
    }

    #[test]
    fn all_or_none_of_few_is_not_certain() {
        let (low, high) = wilson(12, 12).unwrap();
        assert_eq!((format!("{low:.3}"), high), ("0.758".to_owned(), 1.0));
        let (low, high) = wilson(0, 3).unwrap();
        assert_eq!((low, format!("{high:.3}")), (0.0, "0.561".to_owned()));
        assert_eq!(wilson(0, 0), None);
        assert_eq!(wilson(3, 2), None);
    }
}
