//! Output geometry, shared by the raster and SVG modules.

use crate::error::{Error, ErrorCode, Result};
use crate::limits::MAX_OUTPUT_SIDE;

/// `round(width × src_height / src_width)` (halves up), at least 1.
fn height_for(src_width: u32, src_height: u32, width: u32) -> u64 {
    let numerator = 2 * u64::from(width) * u64::from(src_height) + u64::from(src_width);
    (numerator / (2 * u64::from(src_width))).max(1)
}

/// Output size for a requested width: height = round(width × H / W), at least 1.
///
/// Both sides stay within [`MAX_OUTPUT_SIDE`]. A source tall enough that the requested width
/// would make the output taller than that is not refused: the width is reduced to the largest
/// whose height fits (a 1:10 logo asked for 700 px wide comes out 409×4090), so every legal
/// width of every legal source has an answer. A source taller than 4096:1 comes out 1×4096.
///
/// ```
/// use imagecore::geometry::output_size;
/// assert_eq!(output_size(300, 200, 100).unwrap(), (100, 67));
/// assert_eq!(output_size(100, 1000, 700).unwrap(), (409, 4090));
/// ```
///
/// # Errors
/// `invalid_argument` when `width` is 0 or over [`MAX_OUTPUT_SIDE`], or a source side is 0.
pub fn output_size(src_width: u32, src_height: u32, width: u32) -> Result<(u32, u32)> {
    if width == 0 || width > MAX_OUTPUT_SIDE {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!("Cannot resize image: width must be from 1 to {MAX_OUTPUT_SIDE}"),
        ));
    }
    if src_width == 0 || src_height == 0 {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "Cannot resize image: the source has no pixels",
        ));
    }
    let max_side = u64::from(MAX_OUTPUT_SIDE);
    let mut width = u64::from(width);
    if height_for(src_width, src_height, width as u32) > max_side {
        // height_for(w) <= max_side  <=>  2·w·H + W < 2·W·(max_side + 1)  <=>  w < (2·max_side + 1)·W / (2·H)
        let widest = ((2 * max_side + 1) * u64::from(src_width) - 1) / (2 * u64::from(src_height));
        width = widest.clamp(1, width);
    }
    let height = height_for(src_width, src_height, width as u32).min(max_side);
    Ok((width as u32, height as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tall_source_is_narrowed_to_fit_the_height_limit() {
        assert_eq!(output_size(100, 1000, 700).unwrap(), (409, 4090));
        assert_eq!(output_size(120, 1200, 1200).unwrap(), (409, 4090));
        // 410 would round to 4100.
        assert_eq!(output_size(100, 1000, 409).unwrap(), (409, 4090));
    }

    #[test]
    fn the_narrowed_width_is_the_widest_that_fits() {
        for (w, h) in [
            (100, 1000),
            (3, 7000),
            (999, 4097),
            (1, 4096),
            (4000, 4097),
            (77, 9001),
        ] {
            for asked in [1, 64, 700, 1200, 4096] {
                let (width, height) = output_size(w, h, asked).unwrap();
                assert!(
                    height <= MAX_OUTPUT_SIDE && width <= asked,
                    "{w}×{h} at {asked}"
                );
                if width < asked {
                    assert!(height_for(w, h, width + 1) > u64::from(MAX_OUTPUT_SIDE));
                }
                assert_eq!(u64::from(height), height_for(w, h, width).min(4096));
            }
        }
    }

    #[test]
    fn a_source_taller_than_4096_to_1_comes_out_one_pixel_wide() {
        assert_eq!(output_size(1, 5000, 700).unwrap(), (1, 4096));
    }

    #[test]
    fn widths_outside_the_range_are_invalid() {
        for width in [0, MAX_OUTPUT_SIDE + 1] {
            let error = output_size(10, 10, width).expect_err("refused");
            assert_eq!(error.code, ErrorCode::InvalidArgument);
        }
    }
}
