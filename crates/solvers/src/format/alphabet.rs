//! Symbol alphabets: which character stands for which digit, per grid size.

use crate::grid::Geometry;

/// A family of alphabets, chosen with `--alphabet`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum AlphabetKind {
    /// Decide from the input: 25×25 defaults to letters, 36×36 to `0-9A-Z`,
    /// 49×49 and 64×64 to numbers, others to digits; 16×16 input using `H`–`P`
    /// is read as letters, 25×25 input using a digit as `1-9A-P`.
    #[default]
    Auto,
    /// `1-9` then letters: `1-4`, `1-9`, `1-9A-G`, `1-9A-P`; numbers for 49×49 and 64×64.
    Digits,
    /// Letters from `A`: `A-D`, `A-I`, `A-P`, `A-Y`.
    Letters,
    /// `0-9` then letters: hexadecimal `0-9A-F` for 16×16, `0-9A-Z` for 36×36
    /// (`0` is then a digit, not a blank).
    Hex,
}

impl AlphabetKind {
    /// Names accepted on the command line.
    pub const NAMES: &'static [&'static str] = &["auto", "digits", "letters", "hex"];

    /// Symbol ranges accepted on the command line, each naming its family:
    /// `digits` (`1-4`, `1-9`, `1-9A-G`, `1-9A-P`), `letters` (`A-D`, `A-I`, `A-P`,
    /// `A-Y`) and `hex` (`0-9A-F`, `0-9A-Z`).
    pub const RANGES: &'static [(&'static str, AlphabetKind)] = &[
        ("1-4", AlphabetKind::Digits),
        ("1-9", AlphabetKind::Digits),
        ("1-9A-G", AlphabetKind::Digits),
        ("1-9A-P", AlphabetKind::Digits),
        ("A-D", AlphabetKind::Letters),
        ("A-I", AlphabetKind::Letters),
        ("A-P", AlphabetKind::Letters),
        ("A-Y", AlphabetKind::Letters),
        ("0-9A-F", AlphabetKind::Hex),
        ("0-9A-Z", AlphabetKind::Hex),
    ];

    /// Parses a name from [`AlphabetKind::NAMES`] or a range from
    /// [`AlphabetKind::RANGES`] (letters in either case).
    pub fn from_name(name: &str) -> Option<AlphabetKind> {
        let range = Self::RANGES
            .iter()
            .find(|(r, _)| r.eq_ignore_ascii_case(name.trim()));
        if let Some(&(_, kind)) = range {
            return Some(kind);
        }
        Some(match name.trim().to_ascii_lowercase().as_str() {
            "auto" => AlphabetKind::Auto,
            "digits" => AlphabetKind::Digits,
            "letters" => AlphabetKind::Letters,
            "hex" => AlphabetKind::Hex,
            _ => return None,
        })
    }
}

impl std::str::FromStr for AlphabetKind {
    type Err = crate::words::UnknownWord;

    /// Reads `--alphabet`: a name or a range, or an error listing both.
    fn from_str(s: &str) -> Result<AlphabetKind, Self::Err> {
        AlphabetKind::from_name(s).ok_or_else(|| {
            let ranges: Vec<&str> = AlphabetKind::RANGES.iter().map(|r| r.0).collect();
            crate::words::UnknownWord::new(
                "an alphabet",
                s,
                format!(
                    "a name ({}) or a range ({})",
                    AlphabetKind::NAMES.join(", "),
                    ranges.join(", ")
                ),
            )
        })
    }
}

/// Why a size has no alphabet of a kind, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoAlphabet(pub String);

/// What one character means under an alphabet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// An empty cell.
    Blank,
    /// A digit `1..=n`.
    Digit(u8),
}

const NOT_A_SYMBOL: u8 = 0xFF;
const BLANK: u8 = 0;

/// The symbols of one grid size: value `v` is written `written[v]`. Sides
/// with no one-character alphabet (49, 64) are written in numbers: each cell
/// a decimal number, `.` for a blank, the cells separated by spaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    lookup: [u8; 128],
    /// `.` then the symbols: the byte written for each value `0..=n` (empty in numbers).
    written: Vec<u8>,
    /// The side `n`.
    side: u8,
}

/// The bytes accepted as a blank cell (`0` only where it is no digit).
pub(crate) const BLANKS: [u8; 5] = [b'.', b'_', b'-', b'?', b'0'];

impl Alphabet {
    /// The alphabet of `kind` for `geometry`; `Err` names why it does not exist.
    /// `Auto` gives the default: letters for 25×25, digits otherwise.
    pub fn new(geometry: Geometry, kind: AlphabetKind) -> Result<Alphabet, NoAlphabet> {
        let n = geometry.side();
        let numbers = n > 36;
        let symbols: Vec<u8> = match kind {
            AlphabetKind::Auto if n == 25 => (b'A'..).take(n).collect(),
            AlphabetKind::Auto | AlphabetKind::Hex if n == 36 => {
                (b'0'..=b'9').chain(b'A'..=b'Z').collect()
            }
            AlphabetKind::Digits | AlphabetKind::Letters if n == 36 => {
                return Err(NoAlphabet(format!(
                    "{geometry} has 36 digits: its one-character alphabet is 0-9A-Z (--alphabet hex)"
                )))
            }
            AlphabetKind::Auto | AlphabetKind::Digits if numbers => Vec::new(),
            AlphabetKind::Auto | AlphabetKind::Digits => {
                (b'1'..=b'9').chain(b'A'..=b'Z').take(n).collect()
            }
            AlphabetKind::Letters if numbers => {
                return Err(NoAlphabet(format!(
                    "{geometry} has no one-character alphabet: its cells are numbers 1-{n} separated by spaces (--alphabet digits)"
                )))
            }
            AlphabetKind::Letters => (b'A'..).take(n).collect(),
            AlphabetKind::Hex if n == 16 => (b'0'..=b'9').chain(b'A'..=b'F').collect(),
            AlphabetKind::Hex => {
                return Err(NoAlphabet(format!(
                    "the hex alphabet is for 16x16 (0-9A-F) and 36x36 (0-9A-Z) grids, not {geometry}"
                )))
            }
        };
        let mut lookup = [NOT_A_SYMBOL; 128];
        for blank in BLANKS {
            lookup[blank as usize] = BLANK;
        }
        if numbers {
            return Ok(Alphabet::numbers(geometry));
        }
        for (i, &s) in symbols.iter().enumerate() {
            lookup[s as usize] = i as u8 + 1;
            lookup[s.to_ascii_lowercase() as usize] = i as u8 + 1;
        }
        let written = std::iter::once(b'.')
            .chain(symbols.iter().copied())
            .collect();
        Ok(Alphabet {
            lookup,
            written,
            side: n as u8,
        })
    }

    /// Cells written as numbers separated by spaces (`1`…`n`, `.` for a
    /// blank), at any size: how puzzles given as numbers are answered.
    pub fn numbers(geometry: Geometry) -> Alphabet {
        // One-character tokens of a numbers row; longer ones are read by `decode_token`.
        let mut lookup = [NOT_A_SYMBOL; 128];
        for blank in BLANKS {
            lookup[blank as usize] = BLANK;
        }
        for d in 1..=9u8.min(geometry.side() as u8) {
            lookup[(b'0' + d) as usize] = d;
        }
        Alphabet {
            lookup,
            written: Vec::new(),
            side: geometry.side() as u8,
        }
    }

    /// True when cells are written as numbers separated by spaces (sides 49
    /// and 64, or [`Alphabet::numbers`]).
    #[inline]
    pub fn is_numbers(&self) -> bool {
        self.written.is_empty()
    }

    /// Meaning of one space-separated token of a numbers row or of a block
    /// row in HDU style: a decimal number `1..=n` (above 36 every all-digit
    /// token is a number, `0` a blank), else a one-character symbol.
    pub fn decode_token(&self, token: &str) -> Option<Symbol> {
        let decimal = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
        if decimal && (token.len() > 1 || self.side > 36) {
            return match token.parse::<usize>() {
                Ok(0) if self.side > 36 => Some(Symbol::Blank),
                Ok(v) if (1..=self.side as usize).contains(&v) => Some(Symbol::Digit(v as u8)),
                _ => None,
            };
        }
        let mut chars = token.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => self.decode(c),
            _ => None,
        }
    }

    /// Digit `d` as written: its symbol, or its number in numbers (`.` for `0`).
    pub fn symbol(&self, d: u8) -> String {
        match d {
            0 => ".".to_string(),
            d if self.is_numbers() => d.to_string(),
            d => self.encode(d).to_string(),
        }
    }

    /// The default alphabet of a size.
    pub fn default_for(geometry: Geometry) -> Alphabet {
        Alphabet::new(geometry, AlphabetKind::Auto).expect("auto alphabet exists for every size")
    }

    /// Resolves `Auto` by looking at sample symbols of the input (see [`AlphabetKind::Auto`]).
    pub fn detect(
        geometry: Geometry,
        kind: AlphabetKind,
        sample: &str,
    ) -> Result<Alphabet, NoAlphabet> {
        if kind != AlphabetKind::Auto {
            return Alphabet::new(geometry, kind);
        }
        let upper = |c: char| c.to_ascii_uppercase();
        let resolved = match geometry.side() {
            16 if sample.chars().map(upper).any(|c| ('H'..='P').contains(&c)) => {
                AlphabetKind::Letters
            }
            25 if sample.chars().any(|c| ('1'..='9').contains(&c)) => AlphabetKind::Digits,
            _ => AlphabetKind::Auto,
        };
        Alphabet::new(geometry, resolved)
    }

    /// Meaning of one character, or `None` if it is neither a symbol nor a blank.
    #[inline]
    pub fn decode(&self, c: char) -> Option<Symbol> {
        let code = *self.lookup.get(c as usize)?;
        match code {
            NOT_A_SYMBOL => None,
            BLANK => Some(Symbol::Blank),
            d => Some(Symbol::Digit(d)),
        }
    }

    /// Decodes ASCII symbols into cell values (`0` for a blank) after `out`'s;
    /// `Err` gives the index of the first byte that is neither (the first, in
    /// numbers: they have no one-character form).
    #[inline]
    pub fn decode_ascii(&self, bytes: &[u8], out: &mut Vec<u8>) -> Result<(), usize> {
        if self.is_numbers() {
            return Err(0);
        }
        // Every byte looked up without a branch (a byte past ASCII reads as
        // no symbol); the first that is none is found only on failure.
        let start = out.len();
        let mut bad = false;
        out.extend(bytes.iter().map(|&b| {
            let code = self.lookup[(b & 0x7f) as usize];
            bad |= code == NOT_A_SYMBOL || b > 0x7f;
            code
        }));
        if !bad {
            return Ok(());
        }
        out.truncate(start);
        Err(bytes
            .iter()
            .position(|&b| b > 0x7f || self.lookup[b as usize] == NOT_A_SYMBOL)
            .unwrap_or(0))
    }

    /// Appends the symbols of `cells` (`.` for `0`; `?` for a value past the
    /// alphabet, which no grid holds) to `out`: one ASCII byte each, or in
    /// numbers each cell's number, separated by single spaces.
    pub fn encode_into(&self, cells: &[u8], out: &mut Vec<u8>) {
        if self.is_numbers() {
            let mut buf = itoa::Buffer::new();
            for (i, &d) in cells.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                match d {
                    0 => out.push(b'.'),
                    d => out.extend_from_slice(buf.format(d).as_bytes()),
                }
            }
            return;
        }
        out.extend(
            cells
                .iter()
                .map(|&d| self.written.get(d as usize).copied().unwrap_or(b'?')),
        );
    }

    /// The character of digit `d` (`1..=n`), or `.` for `0` (`?` for a digit
    /// in numbers, which has no one-character form: see [`Alphabet::symbol`]).
    #[inline]
    pub fn encode(&self, digit: u8) -> char {
        self.written.get(digit as usize).map_or('?', |&b| b as char)
    }

    /// Words for error messages, like `one of 1-9 or a blank (. _ - 0 ?)`.
    pub fn describe(&self) -> String {
        if self.is_numbers() {
            return format!(
                "a number 1-{} or a blank (. 0), the cells separated by spaces",
                self.side
            );
        }
        let symbols = &self.written[1..];
        let first = symbols[0] as char;
        let last = *symbols.last().expect("non-empty") as char;
        let digits: String = if symbols.len() > 9 && symbols[0] == b'1' {
            format!("1-9{}-{}", symbols[9] as char, last)
        } else if symbols[0] == b'0' {
            format!("0-9A-{last}")
        } else {
            format!("{first}-{last}")
        };
        let blanks = if self.lookup[b'0' as usize] == BLANK {
            ". _ - 0 ?"
        } else {
            ". _ - ?"
        };
        format!("one of {digits} or a blank ({blanks})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(side: usize) -> Geometry {
        Geometry::from_side(side).unwrap()
    }

    #[test]
    fn defaults_per_size() {
        assert_eq!(Alphabet::default_for(g(9)).encode(9), '9');
        assert_eq!(Alphabet::default_for(g(16)).encode(16), 'G');
        assert_eq!(Alphabet::default_for(g(25)).encode(1), 'A');
        assert_eq!(Alphabet::default_for(g(25)).encode(25), 'Y');
        assert_eq!(Alphabet::default_for(g(4)).encode(4), '4');
    }

    #[test]
    fn hex_makes_zero_a_digit() {
        let hex = Alphabet::new(g(16), AlphabetKind::Hex).unwrap();
        assert_eq!(hex.decode('0'), Some(Symbol::Digit(1)));
        assert_eq!(hex.decode('f'), Some(Symbol::Digit(16)));
        assert_eq!(hex.decode('.'), Some(Symbol::Blank));
        assert!(Alphabet::new(g(9), AlphabetKind::Hex).is_err());
        let a36 = Alphabet::default_for(g(36));
        assert_eq!((a36.encode(1), a36.encode(36)), ('0', 'Z'));
        assert_eq!(a36.decode('0'), Some(Symbol::Digit(1)));
        assert_eq!(a36, Alphabet::new(g(36), AlphabetKind::Hex).unwrap());
        assert!(Alphabet::new(g(36), AlphabetKind::Digits)
            .unwrap_err()
            .0
            .contains("0-9A-Z"));
        let dflt = Alphabet::default_for(g(16));
        assert_eq!(dflt.decode('0'), Some(Symbol::Blank));
    }

    #[test]
    fn letters_are_case_insensitive() {
        let a = Alphabet::new(g(16), AlphabetKind::Letters).unwrap();
        assert_eq!(a.decode('p'), Some(Symbol::Digit(16)));
        assert_eq!(a.decode('P'), Some(Symbol::Digit(16)));
        assert_eq!(a.decode('Q'), None);
        assert_eq!(a.decode('é'), None);
    }

    #[test]
    fn detection() {
        let a = Alphabet::detect(g(16), AlphabetKind::Auto, "AB-HP").unwrap();
        assert_eq!(a.encode(16), 'P');
        let a = Alphabet::detect(g(25), AlphabetKind::Auto, "12.A").unwrap();
        assert_eq!(a.encode(10), 'A');
        let a = Alphabet::detect(g(25), AlphabetKind::Auto, "AB.Y").unwrap();
        assert_eq!(a.encode(1), 'A');
    }

    #[test]
    fn every_range_is_the_alphabet_of_its_family_at_one_size() {
        for &(range, kind) in AlphabetKind::RANGES {
            // "1-9A-G" spelled out: 1..=9 then A..=G.
            let b = range.as_bytes();
            let spelled: String = b
                .chunks(3)
                .flat_map(|c| (c[0]..=c[2]).map(char::from))
                .collect();
            let side = spelled.len();
            let a = Alphabet::new(g(side), kind).unwrap();
            let written: String = (1..=side as u8).map(|d| a.encode(d)).collect();
            assert_eq!(written, spelled, "{range}");
            assert_eq!(AlphabetKind::from_name(&range.to_lowercase()), Some(kind));
            assert_eq!(range.parse::<AlphabetKind>(), Ok(kind));
        }
        assert_eq!("letters".parse::<AlphabetKind>(), Ok(AlphabetKind::Letters));
        let err = "A-Z".parse::<AlphabetKind>().unwrap_err().to_string();
        assert!(
            err.contains("\"A-Z\"") && err.contains("1-9A-G") && err.contains("hex"),
            "{err}"
        );
    }
}

#[cfg(test)]
mod numbers {
    use super::*;

    #[test]
    fn sides_past_36_are_written_and_read_as_numbers() {
        let g = Geometry::from_side(64).unwrap();
        let a = Alphabet::default_for(g);
        assert!(a.is_numbers());
        let mut out = Vec::new();
        a.encode_into(&[1, 0, 64, 10], &mut out);
        assert_eq!(out, b"1 . 64 10");
        assert_eq!((a.symbol(64), a.symbol(0)), ("64".into(), ".".into()));
        assert_eq!(a.decode_token("64"), Some(Symbol::Digit(64)));
        assert_eq!(a.decode_token("7"), Some(Symbol::Digit(7)));
        assert_eq!(a.decode_token("0"), Some(Symbol::Blank));
        assert_eq!(a.decode_token("."), Some(Symbol::Blank));
        assert_eq!(a.decode_token("65"), None);
        assert_eq!(a.decode_token("A"), None);
        assert!(a.decode_ascii(b"123", &mut Vec::new()).is_err());
        assert!(a.describe().contains("1-64"));
        let err = Alphabet::new(g, AlphabetKind::Letters)
            .unwrap_err()
            .to_string();
        assert!(err.contains("numbers 1-64"), "{err}");
        // 16x16 in HDU style keeps hex's 0 a digit, and reads 10 as ten.
        let hex = Alphabet::new(Geometry::from_side(16).unwrap(), AlphabetKind::Hex).unwrap();
        assert_eq!(hex.decode_token("0"), Some(Symbol::Digit(1)));
        assert_eq!(hex.decode_token("10"), Some(Symbol::Digit(10)));
    }
}
