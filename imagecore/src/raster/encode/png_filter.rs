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

#[inline(always)]
fn paeth(a: u8, b: u8, c: u8) -> u8 {
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

/// Writes `row` filtered with `filter` into `out` (the same length); `prev` is the row above
/// (all zero for the first row) and `bpp` the bytes per pixel (at least 1).
pub fn filter_row(filter: Filter, bpp: usize, prev: &[u8], row: &[u8], out: &mut [u8]) {
    let n = row.len();
    let head = bpp.min(n);
    match filter {
        Filter::None => out.copy_from_slice(row),
        Filter::Sub => {
            out[..head].copy_from_slice(&row[..head]);
            for i in head..n {
                out[i] = row[i].wrapping_sub(row[i - bpp]);
            }
        }
        Filter::Up => {
            for i in 0..n {
                out[i] = row[i].wrapping_sub(prev[i]);
            }
        }
        Filter::Average => {
            for i in 0..head {
                out[i] = row[i].wrapping_sub(prev[i] >> 1);
            }
            for i in head..n {
                let average = (u16::from(row[i - bpp]) + u16::from(prev[i])) >> 1;
                out[i] = row[i].wrapping_sub(average as u8);
            }
        }
        Filter::Paeth => {
            for i in 0..head {
                out[i] = row[i].wrapping_sub(prev[i]);
            }
            for i in head..n {
                out[i] = row[i].wrapping_sub(paeth(row[i - bpp], prev[i], prev[i - bpp]));
            }
        }
    }
}

/// Sum of the bytes as signed magnitudes: 0 and 255 (−1) are both small.
fn cost(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .map(|&b| u64::from((b as i8).unsigned_abs()))
        .sum()
}

/// Filters `row` with the filter of the smallest [`cost`] into `out`, `scratch` the same length
/// as `row` (its contents are overwritten); no filter unless another beats it by an eighth.
/// Returns the filter chosen.
pub fn choose_filter(
    bpp: usize,
    prev: &[u8],
    row: &[u8],
    out: &mut [u8],
    scratch: &mut [u8],
) -> Filter {
    let mut best = (Filter::None, cost(row) - cost(row) / 8);
    out.copy_from_slice(row);
    for &filter in &ALL[1..] {
        filter_row(filter, bpp, prev, row, scratch);
        let c = cost(scratch);
        if c < best.1 {
            best = (filter, c);
            out.copy_from_slice(scratch);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

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
                Filter::Paeth => paeth(a, b, c),
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
        let (mut out, mut scratch) = (vec![0u8; 64], vec![0u8; 64]);
        let ramp: Vec<u8> = (0..64).map(|i| 100 + i as u8).collect();
        assert_eq!(
            choose_filter(1, &[0; 64], &ramp, &mut out, &mut scratch),
            Filter::Sub
        );
        assert!(out[1..].iter().all(|&b| b == 1));
        let flat = [0u8; 64];
        assert_eq!(
            choose_filter(1, &ramp, &flat, &mut out, &mut scratch),
            Filter::None
        );
    }
}
