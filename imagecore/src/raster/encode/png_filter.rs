//! PNG row filters (PNG spec, section 9) and the choice of one per row.
//!
//! A filter replaces each byte by its difference from a prediction (the byte to the left, above,
//! their average, or Paeth's choice of the three), which turns smooth gradients and photo-like
//! rows into small numbers that deflate well; on flat colour and hard edges it can add entropy
//! instead. [`choose_filter`] takes the filter whose output has the smallest sum of absolute
//! values (as signed bytes), the heuristic libpng and the `png` crate use, with a bias towards no
//! filter: its sum must be beaten by an eighth before another filter is taken.

/// A PNG filter type, its value the byte that precedes a filtered row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// The bytes as they are.
    None = 0,
    /// Minus the byte `bpp` to the left.
    Sub = 1,
    /// Minus the byte above.
    Up = 2,
    /// Minus the floor of the average of left and above.
    Average = 3,
    /// Minus Paeth's predictor of left, above and upper left.
    Paeth = 4,
}

const ALL: [Filter; 5] = [
    Filter::None,
    Filter::Sub,
    Filter::Up,
    Filter::Average,
    Filter::Paeth,
];

/// Paeth's predictor of `a` (left), `b` (above) and `c` (upper left): whichever is nearest to
/// `a + b − c`, ties to `a` then `b`. Written with selects rather than branches, so that a loop of
/// it vectorises.
#[inline(always)]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let (ia, ib, ic) = (i16::from(a), i16::from(b), i16::from(c));
    let (pa, pb, pc) = ((ib - ic).abs(), (ia - ic).abs(), (ia + ib - 2 * ic).abs());
    let (near, distance) = if pb < pa { (b, pb) } else { (a, pa) };
    if pc < distance {
        c
    } else {
        near
    }
}

/// Calls `$run(args…, f)` with `f(x, a, b, c)`, the byte `$filter` writes for `x` given its left
/// (`a`), above (`b`) and upper-left (`c`) neighbours: one closure type per filter, so each loop
/// is compiled for one filter and vectorises.
macro_rules! with_filter {
    ($filter:expr, $run:ident($($arg:expr),*)) => {
        match $filter {
            Filter::None => $run($($arg,)* |x: u8, _: u8, _: u8, _: u8| x),
            Filter::Sub => $run($($arg,)* |x: u8, a: u8, _: u8, _: u8| x.wrapping_sub(a)),
            Filter::Up => $run($($arg,)* |x: u8, _: u8, b: u8, _: u8| x.wrapping_sub(b)),
            Filter::Average => $run($($arg,)* |x: u8, a: u8, b: u8, _: u8| {
                x.wrapping_sub(((u16::from(a) + u16::from(b)) >> 1) as u8)
            }),
            Filter::Paeth => {
                $run($($arg,)* |x: u8, a: u8, b: u8, c: u8| x.wrapping_sub(paeth(a, b, c)))
            }
        }
    };
}

/// The first `bpp` bytes of a row have no left neighbour (0 stands in); after them the loops zip
/// the slices, with no index to check (the left and upper-left bytes are the raw rows', all known
/// before the loop).
#[inline(always)]
fn write_filtered(
    bpp: usize,
    prev: &[u8],
    row: &[u8],
    out: &mut [u8],
    f: impl Fn(u8, u8, u8, u8) -> u8,
) {
    let head = bpp.min(row.len());
    for ((o, &x), &b) in out.iter_mut().zip(&row[..head]).zip(prev) {
        *o = f(x, 0, b, 0);
    }
    let body = row[head..]
        .iter()
        .zip(&row[..row.len() - head])
        .zip(prev[head..].iter().zip(prev));
    for (o, ((&x, &a), (&b, &c))) in out[head..].iter_mut().zip(body) {
        *o = f(x, a, b, c);
    }
}

/// Bytes of a row summed in `u32` at a time: 255 × 2²⁴ fits.
const SUM_BLOCK: usize = 1 << 24;

/// A byte's size as a signed magnitude: 0 and 255 (−1) are both small.
#[inline(always)]
fn magnitude(b: u8) -> u32 {
    u32::from((b as i8).unsigned_abs())
}

/// The sum of the [`magnitude`]s of the bytes `f` writes for `row`, without writing them.
#[inline(always)]
fn sum_filtered(bpp: usize, prev: &[u8], row: &[u8], f: impl Fn(u8, u8, u8, u8) -> u8) -> u64 {
    let head = bpp.min(row.len());
    let mut total: u64 = row[..head]
        .iter()
        .zip(prev)
        .map(|(&x, &b)| u64::from(magnitude(f(x, 0, b, 0))))
        .sum();
    let mut start = head;
    while start < row.len() {
        let end = row.len().min(start + SUM_BLOCK);
        let (left, above) = (
            &row[start - head..end - head],
            &prev[start - head..end - head],
        );
        let block: u32 = row[start..end]
            .iter()
            .zip(left)
            .zip(prev[start..end].iter().zip(above))
            .map(|((&x, &a), (&b, &c))| magnitude(f(x, a, b, c)))
            .sum();
        total += u64::from(block);
        start = end;
    }
    total
}

/// Writes `row` filtered with `filter` into `out` (the same length); `prev` is the row above
/// (all zero for the first row) and `bpp` the bytes per pixel (at least 1).
pub fn filter_row(filter: Filter, bpp: usize, prev: &[u8], row: &[u8], out: &mut [u8]) {
    match filter {
        Filter::None => out.copy_from_slice(row),
        _ => with_filter!(filter, write_filtered(bpp, prev, row, out)),
    }
}

/// The sum of the [`magnitude`]s of `row` filtered with `filter`, computed without writing it.
fn cost(filter: Filter, bpp: usize, prev: &[u8], row: &[u8]) -> u64 {
    with_filter!(filter, sum_filtered(bpp, prev, row))
}

/// Filters `row` with the filter of the smallest [`cost`] into `out` (the same length as `row`);
/// no filter unless another beats it by an eighth. Each trial only sums its bytes; the chosen
/// filter alone is written. Returns the filter chosen.
pub fn choose_filter(bpp: usize, prev: &[u8], row: &[u8], out: &mut [u8]) -> Filter {
    let unfiltered = cost(Filter::None, bpp, prev, row);
    let mut best = (Filter::None, unfiltered - unfiltered / 8);
    for &filter in &ALL[1..] {
        let c = cost(filter, bpp, prev, row);
        if c < best.1 {
            best = (filter, c);
        }
    }
    filter_row(best.0, bpp, prev, row, out);
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paeth's predictor as the PNG spec writes it (section 9.4), branches and all.
    fn spec_paeth(a: u8, b: u8, c: u8) -> u8 {
        let (ia, ib, ic) = (i16::from(a), i16::from(b), i16::from(c));
        let p = ia + ib - ic;
        let (pa, pb, pc) = ((p - ia).abs(), (p - ib).abs(), (p - ic).abs());
        if pa <= pb && pa <= pc {
            a
        } else if pb <= pc {
            b
        } else {
            c
        }
    }

    #[test]
    fn the_select_paeth_is_the_spec_paeth_on_every_triple() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for c in (0..=255u8).step_by(3) {
                    assert_eq!(paeth(a, b, c), spec_paeth(a, b, c), "{a} {b} {c}");
                }
            }
        }
    }

    #[test]
    fn a_filters_cost_is_the_sum_of_the_row_it_writes() {
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as u8
        };
        for len in [1, 3, 4, 5, 64, 97, 384] {
            let prev: Vec<u8> = (0..len).map(|_| next()).collect();
            let row: Vec<u8> = (0..len).map(|_| next()).collect();
            for bpp in [1, 2, 3, 4] {
                for filter in ALL {
                    let mut out = vec![0u8; len];
                    filter_row(filter, bpp, &prev, &row, &mut out);
                    let sum: u64 = out.iter().map(|&b| u64::from(magnitude(b))).sum();
                    assert_eq!(
                        cost(filter, bpp, &prev, &row),
                        sum,
                        "{filter:?} {bpp} {len}"
                    );
                }
            }
        }
    }

    /// The PNG spec's reconstruction, to check that each filter is undone exactly.
    fn unfilter(filter: Filter, bpp: usize, prev: &[u8], filtered: &[u8]) -> Vec<u8> {
        let mut row = vec![0u8; filtered.len()];
        for i in 0..filtered.len() {
            let a = if i >= bpp { row[i - bpp] } else { 0 };
            let b = prev[i];
            let c = if i >= bpp { prev[i - bpp] } else { 0 };
            let predicted = match filter {
                Filter::None => 0,
                Filter::Sub => a,
                Filter::Up => b,
                Filter::Average => ((u16::from(a) + u16::from(b)) >> 1) as u8,
                Filter::Paeth => spec_paeth(a, b, c),
            };
            row[i] = filtered[i].wrapping_add(predicted);
        }
        row
    }

    #[test]
    fn every_filter_is_undone_by_the_spec_reconstruction() {
        let prev: Vec<u8> = (0..37u32).map(|i| (i * 97 % 256) as u8).collect();
        let row: Vec<u8> = (0..37u32).map(|i| (i * 53 % 251) as u8).collect();
        for bpp in [1, 2, 3, 4] {
            for filter in ALL {
                let mut out = vec![0u8; row.len()];
                filter_row(filter, bpp, &prev, &row, &mut out);
                assert_eq!(unfilter(filter, bpp, &prev, &out), row, "{filter:?} {bpp}");
            }
        }
    }

    #[test]
    fn a_gradient_row_takes_a_filter_and_a_flat_row_none() {
        let mut out = vec![0u8; 64];
        let ramp: Vec<u8> = (0..64).map(|i| 100 + i as u8).collect();
        assert_eq!(choose_filter(1, &[0; 64], &ramp, &mut out), Filter::Sub);
        assert!(out[1..].iter().all(|&b| b == 1));
        let flat = [0u8; 64];
        assert_eq!(choose_filter(1, &ramp, &flat, &mut out), Filter::None);
    }
}
