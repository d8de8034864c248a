//! Values written as words: one error for a word that is not one of them
//! ([`UnknownWord`]), `Display` and `FromStr` for a fieldless enum from its
//! words ([`words_of!`](crate::words_of)), and serde through them
//! ([`text`]), so that files keep the words a command line takes.

use std::fmt::Display;
use std::str::FromStr;

/// A word that is none of the ones a value is read from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not {what}: expected {expected}")]
pub struct UnknownWord {
    /// What was being read, with its article: `a mode`, `a schedule`.
    pub what: &'static str,
    /// The text found.
    pub text: String,
    /// The words accepted, in words.
    pub expected: String,
}

impl UnknownWord {
    /// `text` is not `what`; `expected` lists what is.
    pub fn new(what: &'static str, text: &str, expected: impl Into<String>) -> UnknownWord {
        UnknownWord {
            what,
            text: text.to_string(),
            expected: expected.into(),
        }
    }
}

/// The word of `names` that is `text`, as its index; else the error naming them.
pub fn pick(what: &'static str, text: &str, names: &[&str]) -> Result<usize, UnknownWord> {
    names
        .iter()
        .position(|n| *n == text)
        .ok_or_else(|| UnknownWord::new(what, text, names.join(", ")))
}

/// `Display` and `FromStr` for a fieldless enum from its `ALL` (every value,
/// in declaration order) and `WORDS` (their words, in the same order):
/// each word is written in one place, and unknown text is an error naming
/// `what` was expected. With `serde`, serde writes and reads the words too.
#[macro_export]
macro_rules! words_of {
    ($t:ty, $what:literal, serde) => {
        $crate::words_of!($t, $what);

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $crate::words::text::serialize(self, s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                $crate::words::text::deserialize(d)
            }
        }
    };
    ($t:ty, $what:literal) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(<$t>::WORDS[*self as usize])
            }
        }

        impl std::str::FromStr for $t {
            type Err = $crate::words::UnknownWord;

            fn from_str(word: &str) -> Result<$t, Self::Err> {
                $crate::words::pick($what, word, &<$t>::WORDS).map(|i| <$t>::ALL[i])
            }
        }
    };
}

/// `#[serde(with = "crate::words::text")]`: a value as its `Display` text,
/// read back through `FromStr`.
pub mod text {
    use super::*;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// Writes `value`'s `Display` text.
    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    /// Reads a value from its text.
    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let s = String::deserialize(d)?;
        s.parse().map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_word_names_what_was_expected() {
        let e = pick("a schedule", "fast", &["interleaved", "sequential"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"fast\" is not a schedule: expected interleaved, sequential"
        );
        assert_eq!(
            pick("a schedule", "sequential", &["interleaved", "sequential"]),
            Ok(1)
        );
    }
}
