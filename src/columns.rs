//! A CSV file's schema, declared once ([`columns!`](crate::columns!)): its
//! row struct, the columns in field order (what serde writes as the header),
//! each field's column name, and (on request) an encoder of the row into the
//! bytes the `csv` crate's writer gives.

use std::sync::Arc;

/// A row type's columns, in field order: the header serde writes.
pub trait Columns {
    /// The column names.
    const COLUMNS: &'static [&'static str];
}

/// A row that encodes itself, [`Columns`] in order, then a line feed.
pub trait Row: Columns {
    /// Appends the row to `out`.
    fn row(&self, out: &mut Vec<u8>);
}

/// A value written as one CSV field, byte for byte as the `csv` crate's
/// default writer writes it.
pub trait Cell {
    /// Appends the field to `out`.
    fn cell(&self, out: &mut Vec<u8>);
}

impl Cell for str {
    /// Quoted where the `csv` crate quotes (a comma, a quote, a line feed
    /// or a carriage return), its quotes doubled.
    fn cell(&self, out: &mut Vec<u8>) {
        let b = self.as_bytes();
        if b.iter().any(|&c| matches!(c, b',' | b'"' | b'\n' | b'\r')) {
            out.push(b'"');
            for &c in b {
                if c == b'"' {
                    out.push(b'"');
                }
                out.push(c);
            }
            out.push(b'"');
        } else {
            out.extend_from_slice(b);
        }
    }
}

impl Cell for String {
    fn cell(&self, out: &mut Vec<u8>) {
        self.as_str().cell(out)
    }
}

impl<T: Cell + ?Sized> Cell for Arc<T> {
    fn cell(&self, out: &mut Vec<u8>) {
        (**self).cell(out)
    }
}

impl<T: Cell> Cell for Option<T> {
    /// An empty field for none.
    fn cell(&self, out: &mut Vec<u8>) {
        if let Some(v) = self {
            v.cell(out)
        }
    }
}

macro_rules! integer_cells {
    ($($t:ty),*) => {$(
        impl Cell for $t {
            fn cell(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(itoa::Buffer::new().format(*self).as_bytes());
            }
        }
    )*};
}

integer_cells!(u32, u64, usize);

impl Cell for bool {
    /// `true` or `false`, as serde writes it.
    fn cell(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" })
    }
}

/// [`Cell`] for fieldless enums written as their `WORDS` (in declaration
/// order, as `words_of!` reads them).
#[macro_export]
macro_rules! word_cells {
    ($($t:ty),*) => {$(
        impl $crate::columns::Cell for $t {
            fn cell(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(<$t>::WORDS[*self as usize].as_bytes())
            }
        }
    )*};
}

/// Declares a CSV row struct and its schema from one list of fields: the
/// struct as written, its [`Columns`], and `NAMES`, a value of a second
/// struct (named after `in`) holding each field's column name. A field
/// written `field as "name": Type` has the column `name` (serde renames it
/// too); any other has its field's name. `#[cells]` before the struct
/// implements [`Row`] as well, when every field is a [`Cell`].
///
/// ```
/// sudoku_bench::columns! {
///     #[cells]
///     #[derive(serde::Serialize)]
///     pub struct Line in LineColumns {
///         pub name: String,
///         pub count as "n": u64,
///     }
/// }
/// use sudoku_bench::columns::{Columns, Row};
/// assert_eq!(Line::COLUMNS, ["name", "n"]);
/// assert_eq!(Line::NAMES.count, "n");
/// let mut out = Vec::new();
/// Line { name: "a,b".into(), count: 3 }.row(&mut out);
/// assert_eq!(out, b"\"a,b\",3\n");
/// ```
#[macro_export]
macro_rules! columns {
    (#[cells] $($t:tt)*) => { $crate::columns!(@schema cells $($t)*); };
    (@schema $cells:ident
        $(#[$m:meta])*
        $vis:vis struct $name:ident in $names:ident {
            $( $(#[$fm:meta])* $fvis:vis $f:ident $(as $col:literal)? : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$m])*
        $vis struct $name {
            $( $(#[$fm])* $(#[serde(rename = $col)])? $fvis $f: $ty, )*
        }

        #[doc = concat!("The column name of each field of [`", stringify!($name), "`].")]
        #[derive(Clone, Copy, Debug)]
        #[allow(missing_docs, dead_code)]
        $vis struct $names {
            $( pub $f: &'static str, )*
        }

        impl $name {
            /// Each field's column name.
            #[allow(dead_code)]
            pub const NAMES: $names = $names {
                $( $f: $crate::columns!(@name $f $($col)?), )*
            };
        }

        impl $crate::columns::Columns for $name {
            const COLUMNS: &'static [&'static str] = &[ $( $crate::columns!(@name $f $($col)?) ),* ];
        }

        $crate::columns!(@cells $cells $name { $($f),* });
    };
    (@name $f:ident) => { stringify!($f) };
    (@name $f:ident $col:literal) => { $col };
    (@cells cells $name:ident { $first:ident $(, $f:ident)* }) => {
        impl $crate::columns::Row for $name {
            fn row(&self, out: &mut Vec<u8>) {
                $crate::columns::Cell::cell(&self.$first, out);
                $(
                    out.push(b',');
                    $crate::columns::Cell::cell(&self.$f, out);
                )*
                out.push(b'\n');
            }
        }
    };
    (@cells plain $($rest:tt)*) => {};
    ($($t:tt)*) => { $crate::columns!(@schema plain $($t)*); };
}

/// The header line of `T`'s file, as the `csv` crate writes it.
pub fn header<T: Columns>() -> Vec<u8> {
    let mut out = Vec::new();
    for (i, c) in T::COLUMNS.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        c.cell(&mut out);
    }
    out.push(b'\n');
    out
}

/// What serde writes as the header of a file of `row`s: what a test pins
/// each [`Columns::COLUMNS`] to.
#[cfg(test)]
pub(crate) fn serde_header<T: serde::Serialize>(row: &T) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(row)?;
    let all = w.into_inner().map_err(|e| e.into_error())?;
    let end = all
        .iter()
        .position(|&b| b == b'\n')
        .map_or(all.len(), |i| i + 1);
    Ok(all[..end].to_vec())
}
