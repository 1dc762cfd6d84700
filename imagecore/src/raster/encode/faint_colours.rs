//! Faint colours made canonical: fewer distinct colours at translucent edges, invisibly.
//!
//! A pixel's colour at alpha `a` counts for `a / 255` of its composite over any background, so
//! moving a channel from `c` to `c′` moves the composite by `a · |c − c′| / 255` levels. Keeping
//! that at most 127/255 (under half a level) keeps every composite, over black, white or anything,
//! within one 8-bit level after rounding: the change cannot be seen. Within that reach
//! ([`reach`]), each channel of a translucent pixel becomes the value with the most trailing zero
//! bits (0 and 255 first, [`canonical`]), so the premultiplied resize's rounding noise at faint
//! edges (a grey stroke's edge at alpha 13–16 comes out as 59, 64, 68 or 73) collapses to one
//! value (64) wherever it reaches, and the encoder's deflate finds more repeats.
//!
//! Each pixel is changed on its own (no neighbour is read), so the symmetry of a logo's shapes,
//! which deflate finds as long repeats, survives; neighbour-based snapping was measured larger on
//! every benchmark logo (bench/results/2026-12-02-edge-bytes.md). Alpha is never changed, nor are
//! opaque and fully transparent pixels (the PNG encoder makes the latter transparent black), and a
//! grey pixel stays grey. Snapping twice gives the result of snapping once.

/// How far a channel of a pixel at `alpha` may move: the largest `d` with `alpha · d ≤ 127`, so
/// the composite over any background moves by less than half an 8-bit level. 0 at alpha 0.
pub fn reach(alpha: u8) -> u8 {
    match alpha {
        0 => 0,
        a => (127 / u32::from(a)) as u8,
    }
}

/// The value within `reach` of `value` with the most trailing zero bits, 0 and 255 before any
/// other (the one value with most trailing zeros in a range is unique, so the choice needs no
/// tie-break, and it is its own canonical value).
pub fn canonical(value: u8, reach: u8) -> u8 {
    let low = value.saturating_sub(reach);
    let high = value.saturating_add(reach);
    if low == 0 {
        return 0;
    }
    if high == 255 {
        return 255;
    }
    if low == high {
        return low;
    }
    // Above the highest bit where `low` and `high` differ (bit `k - 1`) they agree. Of the range,
    // only that common prefix followed by zeros can have `k` or more trailing zeros (it is in the
    // range when it is `low`); else the prefix, a one and zeros has `k - 1`, the most.
    let (low, high) = (u32::from(low), u32::from(high));
    let k = 32 - (low ^ high).leading_zeros();
    let prefix = high >> k << k;
    let best = if prefix == low {
        prefix
    } else {
        prefix | 1 << (k - 1)
    };
    best as u8
}

/// Makes the colour of every translucent pixel of straight-alpha RGBA8 `pixels` canonical within
/// its alpha's [`reach`]; opaque and fully transparent pixels and every alpha are kept.
pub fn snap_faint_colours(pixels: &mut [u8]) {
    for pixel in pixels.chunks_exact_mut(4) {
        let alpha = pixel[3];
        let reach = reach(alpha);
        if reach == 0 || alpha == 255 {
            continue;
        }
        for channel in &mut pixel[..3] {
            *channel = canonical(*channel, reach);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value with most trailing zeros in the range, by looking at each one.
    fn by_search(value: u8, reach: u8) -> u8 {
        let (low, high) = (value.saturating_sub(reach), value.saturating_add(reach));
        if low == 0 {
            return 0;
        }
        if high == 255 {
            return 255;
        }
        (low..=high)
            .max_by_key(|v| v.trailing_zeros())
            .unwrap_or(value)
    }

    #[test]
    fn canonical_is_the_range_value_with_most_trailing_zeros_and_its_own_canonical() {
        for alpha in 1..=255u8 {
            let r = reach(alpha);
            assert!(u32::from(alpha) * u32::from(r) <= 127, "alpha {alpha}");
            assert!(
                u32::from(alpha) * (u32::from(r) + 1) > 127,
                "alpha {alpha} could reach more"
            );
            for value in 0..=255u8 {
                let c = canonical(value, r);
                assert_eq!(c, by_search(value, r), "{value} at alpha {alpha}");
                assert!(c.abs_diff(value) <= r);
                assert_eq!(canonical(c, r), c, "{value} at alpha {alpha} twice");
            }
        }
    }

    #[test]
    fn opaque_transparent_and_alpha_are_kept() {
        let mut pixels = vec![
            59, 68, 73, 255, 59, 68, 73, 0, 59, 68, 73, 14, 200, 201, 202, 128,
        ];
        snap_faint_colours(&mut pixels);
        assert_eq!(
            pixels,
            vec![59, 68, 73, 255, 59, 68, 73, 0, 64, 64, 64, 14, 200, 201, 202, 128]
        );
    }
}
