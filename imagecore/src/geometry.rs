//! Output geometry, shared by the raster and SVG modules.

use crate::error::{Error, ErrorCode, Result};
use crate::limits::MAX_OUTPUT_SIDE;

/// Output size for a requested width: height = round(width × H / W), at least 1, both sides
/// within [`MAX_OUTPUT_SIDE`].
pub fn output_size(src_width: u32, src_height: u32, width: u32) -> Result<(u32, u32)> {
    if width == 0 || width > MAX_OUTPUT_SIDE {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!("Cannot resize image: width must be from 1 to {MAX_OUTPUT_SIDE}"),
        ));
    }
    let numerator = 2 * u64::from(width) * u64::from(src_height) + u64::from(src_width);
    let height = (numerator / (2 * u64::from(src_width))).max(1);
    if height > u64::from(MAX_OUTPUT_SIDE) {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!(
                "Cannot resize image: {width}×{height} exceeds the {MAX_OUTPUT_SIDE}-px output limit"
            ),
        ));
    }
    Ok((width, height as u32))
}
