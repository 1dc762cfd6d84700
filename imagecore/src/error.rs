//! The one error type of imagecore: a machine-readable code and a readable message.

use std::fmt;

/// Why an input was refused. The string forms are part of the TypeScript API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// The bytes are not a format imagecore decodes.
    UnsupportedFormat,
    /// The bytes claim a supported format but cannot be decoded.
    Corrupt,
    /// A limit (input bytes, source pixels, output side, allocation) would be exceeded.
    TooLarge,
    /// An option is out of range.
    InvalidArgument,
    /// A failure that is imagecore's fault, not the input's.
    Internal,
}

impl ErrorCode {
    /// The stable string form, as the TypeScript `ImageCoreError.code`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnsupportedFormat => "unsupported_format",
            ErrorCode::Corrupt => "corrupt",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::InvalidArgument => "invalid_argument",
            ErrorCode::Internal => "internal",
        }
    }
}

/// An error with a code and a message such as "Cannot decode image: unsupported format".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Machine-readable reason.
    pub code: ErrorCode,
    /// Readable message.
    pub message: String,
}

impl Error {
    /// Creates an error.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

/// Result with imagecore's error.
pub type Result<T> = std::result::Result<T, Error>;
