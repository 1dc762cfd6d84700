//! The `image` crate's errors as imagecore's: what each kind of failure means for a logo.

use crate::error::{Error, ErrorCode};

impl From<image::ImageError> for Error {
    fn from(error: image::ImageError) -> Self {
        use image::ImageError as E;
        match error {
            E::Unsupported(detail) => Error::new(
                ErrorCode::UnsupportedFormat,
                format!("Cannot decode image: unsupported format ({detail})"),
            ),
            E::Limits(detail) => Error::new(
                ErrorCode::TooLarge,
                format!("Cannot decode image: too large ({detail})"),
            ),
            E::Decoding(detail) => Error::new(
                ErrorCode::Corrupt,
                format!("Cannot decode image: corrupt data ({detail})"),
            ),
            E::IoError(detail) if detail.kind() == std::io::ErrorKind::UnexpectedEof => Error::new(
                ErrorCode::Corrupt,
                "Cannot decode image: corrupt data (truncated)",
            ),
            E::IoError(detail) => Error::new(
                ErrorCode::Corrupt,
                format!("Cannot decode image: corrupt data ({detail})"),
            ),
            E::Parameter(detail) => Error::new(
                ErrorCode::Corrupt,
                format!("Cannot decode image: corrupt data ({detail})"),
            ),
            E::Encoding(detail) => Error::new(
                ErrorCode::Internal,
                format!("Cannot encode image: {detail}"),
            ),
        }
    }
}
