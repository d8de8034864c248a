//! Values written as words: one error for a word that is not one of them,
//! and serde through `Display` and `FromStr`, so that files keep the words
//! the command line takes.
//!
//! The error, the enum's words and serde through them live with the solvers
//! ([`sudoku_solvers::words`]), re-exported here; what only the workbench
//! reads (shares, durations, limits, labels) is below.

pub use sudoku_solvers::words::{pick, text, UnknownWord};

use std::fmt::Display;
use std::str::FromStr;

/// Reads a share written `3%` or `0.03`, any value.
pub fn share(text: &str) -> Result<f64, UnknownWord> {
    let t = text.trim();
    match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|p| p / 100.0),
        None => t.parse::<f64>(),
    }
    .ok()
    .filter(|v| v.is_finite())
    .ok_or_else(|| UnknownWord::new("a share", text, "a share such as 3% or 0.03"))
}

/// Reads a share from 0 to below 1, written `3%` or `0.03`.
pub fn fraction(text: &str) -> Result<f64, UnknownWord> {
    share(text).and_then(|v| {
        (0.0..1.0).contains(&v).then_some(v).ok_or_else(|| {
            UnknownWord::new(
                "a share from 0% to below 100%",
                text,
                "a share such as 3% or 0.03",
            )
        })
    })
}

/// Reads a duration: `250ms`, `2s`, `1.5s`, `3m`, `1h` or a bare number of
/// seconds (`ns`, `us`/`µs`, `ms`, `s`, `m`/`min`, `h`).
pub fn duration(text: &str) -> Result<std::time::Duration, UnknownWord> {
    let s = text.trim();
    let bad = || {
        UnknownWord::new(
            "a duration",
            text,
            "a number and a unit (ns, us, ms, s, m or h) such as 500ms, 2s or 1m",
        )
    };
    let (num, unit) = match s.find(|c: char| c.is_alphabetic()) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let value: f64 = num.trim().parse().map_err(|_| bad())?;
    let secs = match unit {
        "ns" => value / 1e9,
        "us" | "µs" => value / 1e6,
        "ms" => value / 1e3,
        "s" => value,
        "m" | "min" => value * 60.0,
        "h" => value * 3600.0,
        _ => return Err(bad()),
    };
    std::time::Duration::try_from_secs_f64(secs).map_err(|_| bad())
}

/// Parses a whole number of at least 1.
pub fn positive<T: std::str::FromStr + Default + PartialEq>(s: &str) -> Result<T, String> {
    match s.parse::<T>() {
        Ok(n) if n != T::default() => Ok(n),
        _ => Err("expected a whole number of 1 or more".to_string()),
    }
}

/// Reads `--cpu-limit`: a duration ([`duration`]) above zero.
pub fn cpu_limit(text: &str) -> Result<std::time::Duration, String> {
    above_zero(text, "CPU time")
}

/// Reads `--time-limit`: a duration ([`duration`]) above zero (a limit of
/// nothing would stop every solve before it began).
pub fn time_limit(text: &str) -> Result<std::time::Duration, String> {
    above_zero(text, "time")
}

fn above_zero(text: &str, what: &str) -> Result<std::time::Duration, String> {
    match duration(text) {
        Ok(d) if d.is_zero() => Err(format!(
            "`{text}` is no {what} a puzzle could be solved in: give more than 0, like 100ms"
        )),
        Ok(d) => Ok(d),
        Err(e) => Err(e.to_string()),
    }
}

/// Reads a mean count of guesses (`--min-guesses`, `--max-guesses`): a
/// finite number of 0 or more.
pub fn mean_guesses(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!(
            "`{text}`: expected a mean number of guesses, 0 or more, like 1.5"
        )),
    }
}

/// A run's label (`--label`): one line of at most 200 characters.
pub fn label(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > 200 || text.chars().any(char::is_control) {
        return Err(format!(
            "{text:?}: expected a label of 1 to 200 characters on one line, like a commit (abc1234) or v2"
        ));
    }
    Ok(text.to_string())
}

/// `#[serde(with = "crate::words::texts")]`: a list of values as their texts.
pub mod texts {
    use super::*;
    use serde::{de::Error, ser::SerializeSeq, Deserialize, Deserializer, Serializer};

    /// Writes each value's `Display` text.
    pub fn serialize<T: Display, S: Serializer>(values: &[T], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(values.len()))?;
        for v in values {
            seq.serialize_element(&v.to_string())?;
        }
        seq.end()
    }

    /// Reads each value from its text.
    pub fn deserialize<'de, T, D>(d: D) -> Result<Vec<T>, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|s| s.parse().map_err(D::Error::custom))
            .collect()
    }
}

/// `#[serde(with = "crate::words::millis")]`: an optional duration as a
/// number of milliseconds (`null` for none), as run files have always kept it.
pub mod millis {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    /// Writes the milliseconds, or `null`.
    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_some(&(d.as_secs_f64() * 1e3)),
            None => s.serialize_none(),
        }
    }

    /// Reads the milliseconds back (a negative or non-finite number is an error).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        match Option::<f64>::deserialize(d)? {
            None => Ok(None),
            Some(ms) => Duration::try_from_secs_f64(ms / 1e3)
                .map(Some)
                .map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_their_units() {
        use std::time::Duration;
        assert_eq!(duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(duration("3m"), Ok(Duration::from_secs(180)));
        assert_eq!(duration("10µs"), Ok(Duration::from_micros(10)));
        for bad in ["", "ms", "2 weeks", "-1s", "nan"] {
            let e = duration(bad).unwrap_err().to_string();
            assert!(e.contains("is not a duration"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn threads_are_bounded_by_the_cores() {
        use crate::usage::{check_threads, most_threads, THREADS_FLOOR};
        // A small machine may still ask for a few; a large one for 4 a core.
        assert_eq!((most_threads(1), most_threads(2)), (THREADS_FLOOR, 16));
        assert_eq!((most_threads(8), most_threads(64)), (32, 256));
        assert_eq!(most_threads(usize::MAX), usize::MAX);
        assert_eq!(check_threads(16, 2), Ok(16));
        let e = check_threads(100_000, 2).unwrap_err().to_string();
        assert!(
            e.starts_with("100000 threads is more than this machine takes: at most 16 (4 a core on its 2 cores is 8, raised to the 16 every machine may take)"),
            "{e}"
        );
        let e = check_threads(33, 8).unwrap_err().to_string();
        assert!(e.contains("at most 32 (4 a core on its 8 cores)"), "{e}");
    }

    #[test]
    fn shares_read_as_percent_or_fraction() {
        assert_eq!(share("3%"), Ok(0.03));
        assert_eq!(share(" 0.5 "), Ok(0.5));
        assert_eq!(share("150%"), Ok(1.5));
        assert!(share("three").is_err() && share("inf").is_err());
        assert_eq!(fraction("20%"), Ok(0.2));
        let e = fraction("100%").unwrap_err().to_string();
        assert!(e.contains("is not a share from 0% to below 100%"), "{e}");
    }
}
