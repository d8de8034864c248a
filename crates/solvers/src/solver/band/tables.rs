//! `band`'s tables: the triad patterns of a band word, the permutations that
//! fit them, and the exactly-three rule over a band's or stack's triads.

use super::BAND;

/// Bits of a 9-bit row pattern's three boxes: bit `k` when box `k` has a candidate.
pub(super) const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if (x >> (3 * k)) & 7 != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// 1 when a 9-bit row pattern has exactly one bit.
pub(super) const ONE: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x as u32).count_ones() == 1) as u8;
        x += 1;
    }
    t
};

/// The six ways three rows take three boxes, as 9-bit triad masks (bit `3r + k`).
pub(in crate::solver) const PERMUTATIONS: [u32; 6] = {
    const P: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u32; 6];
    let mut i = 0;
    while i < 6 {
        out[i] = (1 << P[i][0]) | (1 << (3 + P[i][1])) | (1 << (6 + P[i][2]));
        i += 1;
    }
    out
};

/// The band cells of each of the six [`PERMUTATIONS`].
pub(super) const PERMUTATION_CELLS: [u32; 6] = {
    let mut out = [0u32; 6];
    let mut i = 0;
    while i < 6 {
        out[i] = triad_cells(PERMUTATIONS[i]);
        i += 1;
    }
    out
};

/// The permutations inside a 9-bit triad pattern (bit `3r + k`: row `r` has a
/// candidate in box `k`): the union of their triads, and how many there are.
pub(super) const fn fit(x: u32) -> (u16, u8) {
    let (mut union, mut count) = (0u16, 0u8);
    let mut i = 0;
    while i < 6 {
        let p = PERMUTATIONS[i];
        if x & p == p {
            union |= p as u16;
            count += 1;
        }
        i += 1;
    }
    (union, count)
}

/// The triads that lie on a permutation inside a 9-bit triad pattern.
pub(super) const FEASIBLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = fit(x as u32).0;
        x += 1;
    }
    t
};

/// [`FEASIBLE`] as a 27-bit cell mask of the band (0 when no permutation fits).
pub(super) const COMPLEX: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = triad_cells(FEASIBLE[x] as u32);
        x += 1;
    }
    t
};

/// The band cells of each 9-bit triad pattern.
pub(super) const CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = triad_cells(x as u32);
        x += 1;
    }
    t
};

/// How many permutations fit in a 9-bit triad pattern (0 to 6).
pub(in crate::solver) const CONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = fit(x as u32).1;
        x += 1;
    }
    t
};

/// The triads of a 9-bit pattern whose row has no other triad (bit `3r + k`).
pub(super) const SETTLED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        let mut r = 0;
        while r < 3 {
            let g = (x >> (3 * r)) & 7;
            if g == 1 || g == 2 || g == 4 {
                t[x] |= (g << (3 * r)) as u16;
            }
            r += 1;
        }
        x += 1;
    }
    t
};

/// For each triad `3r + k` of a 9-bit pattern: the other triads of row `r` and of box `k`.
pub(super) const TRIAD_PEERS: [u16; 9] = {
    let mut t = [0u16; 9];
    let mut e = 0;
    while e < 9 {
        let (r, k) = (e / 3, e % 3);
        t[e] = ((7 << (3 * r)) | (0x49 << k)) as u16 & !(1 << e);
        e += 1;
    }
    t
};

/// The exactly-three rule: the three cells of a triad hold three different
/// digits. Given each digit's feasible triads in one band or stack (9-bit
/// patterns), returns per digit the triads it loses, or `None` when some triad
/// can no longer be filled or is claimed by four digits. A triad that only
/// three digits can reach takes all three; a triad three digits are settled in
/// refuses the others.
#[inline(always)]
pub(super) fn exactly_three(t: &[u32; 9]) -> Option<[u32; 9]> {
    let (mut g1, mut g2, mut g3, mut g4) = (0, 0, 0, 0);
    let (mut s1, mut s2, mut s3, mut s4) = (0, 0, 0, 0);
    let mut settled = [0u32; 9];
    for d in 0..9 {
        let x = t[d];
        g4 |= g3 & x;
        g3 |= g2 & x;
        g2 |= g1 & x;
        g1 |= x;
        let s = SETTLED[x as usize] as u32;
        settled[d] = s;
        s4 |= s3 & s;
        s3 |= s2 & s;
        s2 |= s1 & s;
        s1 |= s;
    }
    if g3 != 0x1ff || s4 != 0 {
        return None;
    }
    let only_three = g3 & !g4;
    let full = s3;
    let mut lose = [0u32; 9];
    if only_three == full {
        // Every triad reachable by exactly three digits already has them settled.
        return Some(lose);
    }
    for d in 0..9 {
        let x = t[d];
        let mut l = full & !settled[d];
        let mut forced = x & only_three & !settled[d];
        while forced != 0 {
            let e = forced.trailing_zeros() as usize;
            forced &= forced - 1;
            l |= TRIAD_PEERS[e] as u32;
        }
        lose[d] = l & x;
    }
    Some(lose)
}

/// Whole rows of a band for a 3-bit row mask.
pub(super) const ROWS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut m = 0;
    while m < 8 {
        let mut r = 0;
        while r < 3 {
            if m >> r & 1 != 0 {
                t[m] |= 0x1ff << (9 * r);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// For each cell of a band: the band's cells that are not its row or box peers (itself kept).
pub(super) const KEEP: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, k) = (p / 9, (p % 9) / 3);
        let peers = (0x1ff << (9 * r)) | ((0x7 << (3 * k)) * 0x40201);
        t[p] = (BAND & !peers) | (1 << p);
        p += 1;
    }
    t
};

/// The 9-bit triad pattern of a band word (bit `3r + k`: row `r` has a candidate in box `k`).
#[inline(always)]
pub(super) fn triads(a: u32) -> usize {
    SHRINK[(a & 0x1ff) as usize] as usize
        | (SHRINK[(a >> 9 & 0x1ff) as usize] as usize) << 3
        | (SHRINK[(a >> 18) as usize] as usize) << 6
}

/// The band cells of the triads in a 9-bit pattern.
#[inline(always)]
pub(super) const fn triad_cells(t: u32) -> u32 {
    let (mut m, mut bit) = (0, 0);
    while bit < 9 {
        if t >> bit & 1 != 0 {
            m |= 7 << (9 * (bit / 3) + 3 * (bit % 3));
        }
        bit += 1;
    }
    m
}

/// Spreads a 9-bit column mask over the three rows of a band.
#[inline(always)]
pub(super) fn columns(cols: u32) -> u32 {
    cols * 0x40201
}

/// The 9-bit mask of columns holding a cell of `cells`.
#[inline(always)]
pub(super) fn column_set(cells: u32) -> u32 {
    (cells | cells >> 9 | cells >> 18) & 0x1ff
}
