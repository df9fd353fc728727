//! Numbers written as the reference tools write them, so that a re-implementation's output is
//! theirs byte for byte: C's `%.Ng` ([`c_general`]), which Python 2's `str` of a float and Perl's
//! `print` of a number are made of, and the fixed four decimals of Python and Java. Each tool
//! spells infinities and NaN its own way; the digits are C's wherever the tool uses C's.

/// C's `printf("%.{significant}g", value)` (glibc): `significant` significant digits (0 counts as
/// 1), correctly rounded, trailing zeros and a trailing point dropped; the exponent form
/// (`1.5e-05`, `1e+15`) when the exponent is below -4 or not below `significant`. NaN and the
/// infinities as glibc writes them: `nan`, `inf`, `-inf`.
pub fn c_general(value: f64, significant: usize) -> String {
    if value.is_nan() {
        return "nan".into();
    }
    if value.is_infinite() {
        return (if value > 0.0 { "inf" } else { "-inf" }).into();
    }
    let significant = significant.max(1);
    // Rounded to `significant` digits first: the exponent of the rounded value decides the form
    // (9.9999995 to 7 digits is 10.00000, exponent 1).
    let scientific = format!("{value:.*e}", significant - 1);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    if exponent < -4 || exponent >= significant as i64 {
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", without_trailing_zeros(mantissa), exponent.abs());
    }
    let decimals = (significant as i64 - 1 - exponent) as usize;
    without_trailing_zeros(&format!("{value:.decimals$}")).to_owned()
}

/// `digits` without the zeros ending its fraction, nor the point if nothing is left after it.
fn without_trailing_zeros(digits: &str) -> &str {
    match digits.contains('.') {
        true => digits.trim_end_matches('0').trim_end_matches('.'),
        false => digits,
    }
}

/// Python 2's `str(float)`: `%.12g`, with `.0` added to a number written with digits only.
pub fn python2_str(value: f64) -> String {
    let text = c_general(value, 12);
    match text.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
        true => text + ".0",
        false => text,
    }
}

/// Python's `"%0.4f" % x` (`nan`, `inf` spelled as Python spells them).
pub fn python_fixed4(value: f64) -> String {
    match value {
        x if x.is_nan() => "nan".into(),
        x if x.is_infinite() => (if x > 0.0 { "inf" } else { "-inf" }).into(),
        x => format!("{x:.4}"),
    }
}

/// A number as Perl's `print` writes it: `%.15g`, zero (of either sign) as `0`, and `NaN`,
/// `Inf`, `-Inf`.
pub fn perl_number(value: f64) -> String {
    match value {
        v if v.is_nan() => "NaN".into(),
        v if v.is_infinite() => (if v > 0.0 { "Inf" } else { "-Inf" }).into(),
        0.0 => "0".into(),
        v => c_general(v, 15),
    }
}

/// Java's `String.format("%.4f", x)` of a float: the shortest decimal digits of the value
/// (widened to double) rounded half up — so 1/32 prints 0.0313 where C would print 0.0312.
pub fn java_fixed4(x: f32) -> String {
    const DECIMALS: i32 = 4;
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return (if x > 0.0 { "Infinity" } else { "-Infinity" }).into();
    }
    let shortest = format!("{:e}", f64::from(x).abs());
    let (mantissa, exponent) = shortest.split_once('e').unwrap_or((&shortest, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    // The value is 0.d₁d₂… × 10^(exponent+1); keep the digits down to 10^-DECIMALS.
    let point = exponent + 1;
    let keep = point + DECIMALS;
    let digit = |i: i32| if (0..digits.len() as i32).contains(&i) { u64::from(digits[i as usize]) } else { 0 };
    let mut scaled: u64 = (0..keep.max(0)).fold(0, |n, i| n * 10 + digit(i));
    if digit(keep) >= 5 {
        scaled += 1;
    }
    let unit = 10u64.pow(DECIMALS as u32);
    let sign = if x.is_sign_negative() && scaled > 0 { "-" } else { "" };
    format!("{sign}{}.{:04}", scaled / unit, scaled % unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn general_as_c_printf_writes_it() {
        // What C's printf writes for a double:
        //   awk 'BEGIN { printf "%.6g|%.15g|%.12g|%.1g\n", X, X, X, X }'
        // (awk's printf is C's, on a double).
        let cases: [(f64, [&str; 4]); 18] = [
            (0.0, ["0", "0", "0", "0"]),
            (-0.0, ["-0", "-0", "-0", "-0"]),
            (1.0, ["1", "1", "1", "1"]),
            (-2.5, ["-2.5", "-2.5", "-2.5", "-2"]),
            (0.1, ["0.1", "0.1", "0.1", "0.1"]),
            (0.1 + 0.2, ["0.3", "0.3", "0.3", "0.3"]),
            (100.0 / 3.0, ["33.3333", "33.3333333333333", "33.3333333333", "3e+01"]),
            (1.0 / 3.0, ["0.333333", "0.333333333333333", "0.333333333333", "0.3"]),
            (0.0001, ["0.0001", "0.0001", "0.0001", "0.0001"]),
            (0.00001234, ["1.234e-05", "1.234e-05", "1.234e-05", "1e-05"]),
            (123456.5, ["123456", "123456.5", "123456.5", "1e+05"]),
            (1234567.0, ["1.23457e+06", "1234567", "1234567", "1e+06"]),
            (999999.5, ["1e+06", "999999.5", "999999.5", "1e+06"]),
            (1e15, ["1e+15", "1e+15", "1e+15", "1e+15"]),
            (123456789012345.6, ["1.23457e+14", "123456789012346", "1.23456789012e+14", "1e+14"]),
            (9.9999999999999995, ["10", "10", "10", "1e+01"]),
            (1e-300, ["1e-300", "1e-300", "1e-300", "1e-300"]),
            (6.02214076e23, ["6.02214e+23", "6.02214076e+23", "6.02214076e+23", "6e+23"]),
        ];
        for (value, [six, fifteen, twelve, one]) in cases {
            let ours = [6, 15, 12, 1].map(|n| c_general(value, n));
            assert_eq!(ours, [six, fifteen, twelve, one], "{value:e}");
        }
        // Ties of the exact binary value go to the even digit, as glibc's do:
        //   awk 'BEGIN { printf "%.1g %.2g %.1g %.0g\n", 0.25, 0.125, 2.5, 0.5 }'
        assert_eq!(
            [c_general(0.25, 1), c_general(0.125, 2), c_general(2.5, 1), c_general(0.5, 0)],
            ["0.2", "0.12", "2", "0.5"]
        );
        assert_eq!(
            [c_general(f64::NAN, 6), c_general(f64::INFINITY, 6), c_general(f64::NEG_INFINITY, 6)],
            ["nan", "inf", "-inf"]
        );
    }

    #[test]
    fn python_number_formats() {
        // CPython 2.7's str() of these floats.
        for (x, s) in [
            (1.0, "1.0"),
            (0.5, "0.5"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.1 + 0.2, "0.3"),
            (1e-5, "1e-05"),
            (1e16, "1e+16"),
            (123456789012.0, "123456789012.0"),
            (1234567890123.0, "1.23456789012e+12"),
            (1.0 / 3.0, "0.333333333333"),
            (-2.5, "-2.5"),
            (-3.0, "-3.0"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(python2_str(x), s, "{x}");
        }
        assert_eq!(python_fixed4(0.4), "0.4000");
        assert_eq!(python_fixed4(0.03125), "0.0312");
        assert_eq!(python_fixed4(f64::NAN), "nan");
    }

    #[test]
    fn numbers_as_perl_prints_them() {
        // What `perl -e 'print …'` prints for each.
        let cases = [
            (62.0054887695326_f64, "62.0054887695326"),
            (100.0 * 72.0 / 103.0, "69.9029126213592"),
            (100.0, "100"),
            (0.5, "0.5"),
            (100.0 / 3.0, "33.3333333333333"),
            (1e-5, "1e-05"),
            (1e15, "1e+15"),
            (0.1 + 0.2, "0.3"),
            (0.0001, "0.0001"),
            (123456789012345.6, "123456789012346"),
            (9.9999999999999995, "10"),
            (0.0, "0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Inf"),
            (f64::NEG_INFINITY, "-Inf"),
        ];
        for (value, perl) in cases {
            assert_eq!(perl_number(value), perl, "{value:e}");
        }
    }

    #[test]
    fn java_number_format() {
        assert_eq!(java_fixed4(12.0 / 35.0), "0.3429");
        assert_eq!(java_fixed4(1.0 / 32.0), "0.0313", "Java rounds the exact tie up");
        assert_eq!(java_fixed4(1.0 / 3.0), "0.3333");
        assert_eq!(java_fixed4(2.0 / 3.0), "0.6667");
        assert_eq!(java_fixed4(1.0), "1.0000");
        assert_eq!(java_fixed4(0.0), "0.0000");
        assert_eq!(java_fixed4(123.45678), "123.4568");
        assert_eq!(java_fixed4(0.00005), "0.0000", "the float is 4.99999987e-5");
        assert_eq!(java_fixed4(f32::NAN), "NaN");
        assert_eq!(java_fixed4(f32::INFINITY), "Infinity");
    }
}
